/**
 * The mathematics of contrastive PCA and its family, with no ImageJ, SciJava, ImgLib2 or
 * AWT. The root holds what every method family shares: progress and cancellation ({@link
 * org.cpca.core.Progress}), named curves a method reports ({@link org.cpca.core.Curve})
 * and atomic file writing. Subpackages: {@code linalg} (products and eigen-solvers),
 * {@code data} (datasets, preprocessing, sample streams), {@code contrast} (the shared
 * contrastive space, cPCA, automatic α, measures), one package per method family ({@code
 * star}, {@code kernel}, {@code online}, {@code uca}, {@code rpca}), {@code model}
 * (fitted models and model files) and {@code run} (choosing and running a method by
 * name). The mathematics is written out in docs/math/.
 * <p>
 * References:
 * <ul>
 * <li>A. Abid, M. J. Zhang, V. K. Bagaria, J. Zou, "Exploring patterns enriched in a
 * dataset with contrastive principal component analysis", <i>Nature
 * Communications</i> 9, 2134 (2018).
 * </li>
 * </ul>
 */
package org.cpca.core;
