/**
 * Online cPCA*: the Hebbian/anti-Hebbian network that learns the cPCA* subspace one
 * sample at a time, with memory O(k·d). See docs/math/online.md.
 * <p>
 * References:
 * <ul>
 * <li>S. Golkar, D. Lipshutz, T. Tesileanu, D. B. Chklovskii, "An online algorithm for
 * contrastive principal component analysis", IEEE ICASSP (2023).
 * </li>
 * </ul>
 */
package org.cpca.core.online;
