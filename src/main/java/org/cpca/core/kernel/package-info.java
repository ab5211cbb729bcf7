/**
 * Kernel cPCA: cPCA in the feature space of a linear, polynomial or RBF kernel, each
 * dataset centred on its own feature-space mean; exact features for a few thousand
 * samples, Nyström landmarks beyond; out-of-sample scores. See docs/math/kernel.md.
 * <p>
 * References:
 * <ul>
 * <li>A. Abid, M. J. Zhang, V. K. Bagaria, J. Zou, "Exploring patterns enriched in a
 * dataset with contrastive principal component analysis", <i>Nature
 * Communications</i> 9, 2134 (2018).
 * </li>
 * </ul>
 */
package org.cpca.core.kernel;
