/**
 * The shared contrastive space (the d × d covariances, or the exact reduced space of the
 * stacked, centred data when features outnumber samples), cPCA at a fixed α, at α = ∞
 * and with automatic α selection, and the measures of separation and subspace agreement.
 * Every other linear family (cPCA*, cPCA++, UCA, rPCA) builds on this space. See
 * docs/math/cpca.md.
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
