/**
 * Plots and figures: scatter plots of the scores, scree, variance-pairs and curve plots
 * (ImageJ Plot), PNG output for the command line, palettes and layouts.
 * <p>
 * References:
 * <ul>
 * <li>A. Abid, M. J. Zhang, V. K. Bagaria, J. Zou, "Exploring patterns enriched in a
 * dataset with contrastive principal component analysis", <i>Nature
 * Communications</i> 9, 2134 (2018).
 * </li>
 * </ul>
 */
package org.cpca.render;
