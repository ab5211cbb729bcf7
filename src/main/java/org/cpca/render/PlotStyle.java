package org.cpca.render;

import ij.gui.Plot;

import java.awt.Color;

/** Shared look of the plots: title above the frame, padded limits, marker size. */
public final class PlotStyle {

	/** Line width that gives 7-pixel markers in ij.gui.Plot. */
	static final float MARKER_LINE_WIDTH = 1.5f;

	private PlotStyle() {}

	/**
	 * Writes the title centred above the plot frame (a Plot shows its title only in a
	 * window's title bar), leaving black, line width 1 as the current style.
	 */
	static void title(final Plot plot, final String title) {
		plot.setLineWidth(1);
		plot.setColor(Color.BLACK);
		if (title == null || title.trim().isEmpty()) return;
		plot.setJustification(Plot.CENTER);
		plot.addLabel(0.5, 0, title);
		plot.setJustification(Plot.LEFT);
	}

	/**
	 * {min, max} of the finite values, widened by 5% of the range on each side (by 1
	 * when all values are equal, {-1, 1} when there is none), so that markers at the
	 * extremes are drawn whole.
	 */
	public static double[] paddedRange(final double[] values) {
		double min = Double.POSITIVE_INFINITY;
		double max = Double.NEGATIVE_INFINITY;
		for (final double v : values) {
			if (!Double.isFinite(v)) continue;
			min = Math.min(min, v);
			max = Math.max(max, v);
		}
		if (min > max) return new double[] { -1, 1 };
		final double pad = max > min ? 0.05 * (max - min) : Math.max(1, Math.abs(min) *
			0.05);
		return new double[] { min - pad, max + pad };
	}
}
