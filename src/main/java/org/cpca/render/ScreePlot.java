package org.cpca.render;

import ij.ImagePlus;
import ij.gui.Plot;

import java.awt.Color;

/** Eigenvalues against component index (1, 2, …), as connected circles. */
public final class ScreePlot {

	private ScreePlot() {}

	/**
	 * Draws the eigenvalues in the given order (every one given), with the title above the
	 * frame and whole-number ticks on the component axis; a grey line marks 0 when some
	 * are negative (as contrastive eigenvalues can be).
	 *
	 * @return an RGB image of {@value ScatterPlot#WIDTH}×{@value ScatterPlot#HEIGHT}
	 *         pixels
	 */
	public static ImagePlus render(final String title, final double[] eigenvalues) {
		if (eigenvalues.length == 0) throw new IllegalArgumentException(
			"there are no eigenvalues to plot");
		final double[] index = new double[eigenvalues.length];
		final double[] withZero = new double[eigenvalues.length + 1];
		boolean negative = false;
		for (int i = 0; i < index.length; i++) {
			index[i] = i + 1;
			withZero[i] = eigenvalues[i];
			negative |= eigenvalues[i] < 0;
		}
		final Plot plot = new Plot(title, "component", "eigenvalue");
		plot.setSize(ScatterPlot.WIDTH, ScatterPlot.HEIGHT);
		final double[] yr = PlotStyle.paddedRange(withZero);
		plot.setLimits(0.5, eigenvalues.length + 0.5, yr[0], yr[1]);
		if (negative) { // zero, as a data line so that every renderer draws it
			plot.setColor(Color.GRAY);
			plot.setLineWidth(1);
			plot.add("line", new double[] { 0.5, eigenvalues.length + 0.5 }, new double[] { 0,
				0 });
		}
		// components are whole numbers: ticks at 1, 2, … (at most about 10 numbers)
		plot.setOptions("xinterval=" + Math.max(1, (eigenvalues.length + 9) / 10) +
			" xdecimals=0");
		plot.setLineWidth(PlotStyle.MARKER_LINE_WIDTH);
		plot.setColor(Palette.color(0), Palette.color(0));
		plot.add("connected circle", index, eigenvalues);
		PlotStyle.title(plot, title);
		return plot.getImagePlus();
	}
}
