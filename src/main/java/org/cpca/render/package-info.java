/**
 * Plots and figures: scatter plots of the scores, scree, variance-pairs and curve plots
 * (ImageJ Plot), PNG output for the command line, palettes and layouts.
 * <p>
 * Threads: ImageJ's plots are drawn on one thread at a time (a results folder's holding
 * {@link PlotStyle#DRAWING}; so does the figures' warm-up while it measures the scatter
 * marker from ImageJ's plots). {@code IJ.d2s}, which
 * formats their numbers, shares {@code DecimalFormat}s between threads, and a custom
 * marker (a legend's heading) runs an ImageJ macro, whose interpreter keeps static state.
 * What touches only one figure's own pixels may run on any thread: stamping a scatter
 * panel's markers ({@link ScatterPlot#picture}), montages, encoding a PNG
 * ({@link PlotFiles}); the caches here (frames, marker stamps, legend tiles) are
 * concurrent maps filled from ImageJ's plots (docs/speed.md, one-shot runs).
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
