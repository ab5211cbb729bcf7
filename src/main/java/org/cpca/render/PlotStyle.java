package org.cpca.render;

import ij.gui.Plot;

import java.awt.Color;
import java.awt.Font;

/**
 * Shared look of the plots: text sizes for print, title above the frame, padded limits,
 * marker size.
 */
public final class PlotStyle {

	/**
	 * Text sizes in pixels at the default plot size (600 × 450): tick numbers and legend,
	 * axis labels, title (bold; the most that fits above ImageJ's frame). A figure placed
	 * in a paper's column keeps them readable.
	 */
	public static final float TEXT = 15, LABEL = 16, TITLE = 17;

	/** A plot with the project's text sizes ({@link #TEXT}, {@link #LABEL}). */
	public static Plot plot(final String title, final String xLabel, final String yLabel) {
		final Plot plot = new Plot(title, xLabel, yLabel);
		plot.setFont(Font.PLAIN, TEXT);
		plot.setAxisLabelFont(Font.PLAIN, LABEL);
		return plot;
	}

	/** Line width that gives 7-pixel markers in ij.gui.Plot. */
	static final float MARKER_LINE_WIDTH = 1.5f;

	private PlotStyle() {}

	private static final java.util.Map<String, java.awt.Rectangle> FRAMES =
		new java.util.concurrent.ConcurrentHashMap<>();

	/** The frame, in pixels, of a plot of this size with the project's text. */
	static java.awt.Rectangle frame(final int width, final int height) {
		return FRAMES.computeIfAbsent(width + "x" + height, key -> {
			final Plot p = plot("t", "x", "y");
			p.setSize(width, height);
			title(p, "t");
			p.getImagePlus();
			return p.getDrawingFrame();
		});
	}

	/** The width in pixels of a line of legend text ({@link #TEXT}). */
	static int textWidth(final String text) {
		final java.awt.image.BufferedImage image = new java.awt.image.BufferedImage(1, 1,
			java.awt.image.BufferedImage.TYPE_INT_RGB);
		final java.awt.Graphics g = image.getGraphics();
		try {
			return g.getFontMetrics(new Font("SansSerif", Font.PLAIN, Math.round(TEXT)))
				.stringWidth(text);
		}
		finally {
			g.dispose();
		}
	}

	/**
	 * Writes the title centred above the plot frame (a Plot shows its title only in a
	 * window's title bar), leaving black, line width 1 as the current style.
	 */
	static void title(final Plot plot, final String title) {
		plot.setLineWidth(1);
		plot.setColor(Color.BLACK);
		if (title == null || title.trim().isEmpty()) return;
		plot.setJustification(Plot.CENTER);
		plot.setFont(Font.BOLD, TITLE);
		plot.addLabel(0.5, 0, title);
		plot.setFont(Font.PLAIN, TEXT);
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
