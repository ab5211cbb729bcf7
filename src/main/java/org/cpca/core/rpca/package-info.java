/**
 * Residual PCA (rPCA): the target projected off each background's leading principal
 * components, then PCA. See docs/math/rpca.md.
 * <p>
 * References:
 * <ul>
 * <li>R. Tu, A. H. Foss, S. D. Zhao, "Capturing patterns of variation unique to a
 * specific dataset" (Unique Component Analysis), arXiv preprint (2020).
 * </li>
 * </ul>
 */
package org.cpca.core.rpca;
