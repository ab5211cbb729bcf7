/**
 * The shared contrastive problem ({@code Cpca}, prepared by {@code Preparation}: the d × d
 * covariances, or the exact reduced space of the stacked, centred data when features
 * outnumber samples), cPCA's models on it ({@code CpcaModels}: a fixed α, α = ∞, PCA) and
 * automatic α selection, and the measures of separation and subspace agreement. Every
 * other linear family (cPCA*, cPCA++, UCA, rPCA) builds on this problem; the cPCA and PCA
 * families themselves are in {@code core.cpca}. See docs/math/cpca.md.
 * <p>
 * References:
 * <ul>
 * <li>A. Abid, M. J. Zhang, V. K. Bagaria, J. Zou, "Exploring patterns enriched in a
 * dataset with contrastive principal component analysis", <i>Nature
 * Communications</i> 9, 2134 (2018).
 * </li>
 * </ul>
 */
package org.cpca.core.contrast;
