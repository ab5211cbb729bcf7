/**
 * cPCA* (the generalized problem C_t v = λ((1−β)I + βC_b)v, fixed or automatic β) and
 * cPCA++ (C_t v = λ C_b v). See docs/math/star.md.
 * <p>
 * References:
 * <ul>
 * <li>S. Golkar, D. Lipshutz, T. Tesileanu, D. B. Chklovskii, "An online algorithm for
 * contrastive principal component analysis", IEEE ICASSP (2023).
 * </li>
 * <li>R. Salloum, C.-C. J. Kuo, "cPCA++: An efficient method for contrastive feature
 * learning", <i>Pattern Recognition</i> 124, 108378 (2022).
 * </li>
 * </ul>
 */
package org.cpca.core.star;
