package org.cpca.render;

import ij.gui.Plot;

import java.awt.Color;
import java.awt.Font;
import java.awt.Dimension;
import java.awt.Graphics;
import java.awt.Rectangle;
import java.awt.image.BufferedImage;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

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

	/**
	 * Held by the thread that draws a results folder's ImageJ plots, so that two folders
	 * written at once (Fiji running two batches) draw them one at a time: ImageJ's
	 * plots format their numbers with formatters shared between threads
	 * ({@code IJ.d2s}), and a custom marker runs an ImageJ macro, whose interpreter keeps
	 * static state.
	 */
	public static final Object DRAWING = new Object();

	/** Line width that gives 7-pixel markers in ij.gui.Plot. */
	static final float MARKER_LINE_WIDTH = 1.5f;

	private PlotStyle() {}

	private static final Map<String, Rectangle> FRAMES =
		new ConcurrentHashMap<>();

	/** The frame, in pixels, of a plot of this size with the project's text. */
	static Rectangle frame(final int width, final int height) {
		return FRAMES.computeIfAbsent(width + "x" + height, key -> {
			final Plot p = plot("t", "x", "y"); // (a title label does not move the frame)
			p.setSize(width, height);
			p.getImagePlus();
			return p.getDrawingFrame();
		});
	}

	/**
	 * Pixels a legend line takes at {@link #TEXT} (ImageJ's legend: the font's size and a
	 * few pixels between lines), and the legend's margin inside the frame.
	 */
	static final double LEGEND_LINE = TEXT + 6, LEGEND_MARGIN = 16;

	/**
	 * The share of a default-size plot's frame height (0 to 1) that a legend of
	 * {@code lines} lines takes, with its margin.
	 */
	static double legendShare(final int lines) {
		return legendHeight(lines) / frame(ScatterPlot.WIDTH, ScatterPlot.HEIGHT).height;
	}

	/** The pixels a legend of {@code lines} lines takes, with its margin. */
	static double legendHeight(final int lines) {
		return lines * LEGEND_LINE + LEGEND_MARGIN;
	}

	/**
	 * The upper limit that leaves the top {@code share} of the frame free for a legend
	 * (ImageJ puts a legend in the first free corner, top left first), so that it covers
	 * no data: {@code hi} raised by that share of the range, in log space on a log axis.
	 */
	static double roomAbove(final double lo, final double hi, final double share,
		final boolean log)
	{
		if (!(share > 0 && share < 1)) return hi;
		if (log) return Math.pow(10, Math.log10(hi) + (Math.log10(hi) - Math.log10(lo)) *
			share / (1 - share));
		return hi + (hi - lo) * share / (1 - share);
	}

	/**
	 * The width in pixels of a legend of these lines: the longest line, its sample marker
	 * and the margins (for a {@link LegendRoom} band).
	 */
	static double legendWidth(final Iterable<String> lines) {
		int longest = 0;
		for (final String line : lines)
			longest = Math.max(longest, textWidth(line));
		return longest + ScatterPlot.LEGEND_SAMPLE + LEGEND_MARGIN;
	}

	/** The width in pixels of a line of legend text ({@link #TEXT}). */
	static int textWidth(final String text) {
		return textWidth(text, Font.PLAIN, TEXT);
	}

	/** The width in pixels of a line of text in ImageJ's plot font of this style and size. */
	static int textWidth(final String text, final int style, final float size) {
		final BufferedImage image = new BufferedImage(1, 1,
			BufferedImage.TYPE_INT_RGB);
		final Graphics g = image.getGraphics();
		try {
			return g.getFontMetrics(new Font("SansSerif", style, 1).deriveFont(size))
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
		// a title wider than the plot: smaller (not below 14 px), then without its last
		// parenthesis (the axes and legend say it too)
		// (centred on the frame, which sits right of the middle)
		final Dimension size0 = plot.getSize();
		final Rectangle f = frame(size0.width, size0.height);
		final double centre = f.x + f.width / 2.0;
		final int room = (int) (2 * Math.min(centre, size0.width - centre)) - 12;
		String shown = title;
		float size = TITLE;
		while (size > 14 && textWidth(shown, Font.BOLD, size) > room)
			size--;
		if (textWidth(shown, Font.BOLD, size) > room && shown.lastIndexOf(" (") > 0) shown =
			shown.substring(0, shown.lastIndexOf(" ("));
		plot.setFont(Font.BOLD, size);
		plot.addLabel(0.5, 0, shown);
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
