package org.cpca.render;

import ij.gui.Plot;

import java.awt.Dimension;
import java.awt.Rectangle;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The band a plot keeps free above (or right of) its data for its legend, refitted when
 * the plot is drawn at another size. ImageJ draws a resized plot window's text at the
 * same size in pixels, so a band measured for the default 600 × 450 is too narrow at
 * half that size (the result windows tiled on a small screen), and the legend covered
 * data; {@link #fit} widens the band for the size the plot is drawn at.
 */
public final class LegendRoom {

	/** The largest share of the frame a band may take; a larger legend covers data. */
	static final double MOST = 0.75;

	private static final Map<Plot, double[]> BANDS = Collections.synchronizedMap(
		new WeakHashMap<>());

	private LegendRoom() {}

	/**
	 * Keeps room for a legend {@code pixels} high (or wide, {@code right}) above (right
	 * of) data from {@code lo} to {@code hi} on that axis (log: a log axis), at the
	 * plot's current size; returns the axis's upper limit.
	 */
	static double keep(final Plot plot, final double lo, final double hi,
		final boolean log, final double pixels, final boolean right)
	{
		BANDS.put(plot, new double[] { lo, hi, log ? 1 : 0, pixels, right ? 1 : 0 });
		final Dimension size = plot.getSize();
		return top(lo, hi, log, share(pixels, right, size.width, size.height));
	}

	/** The share of the frame of a plot of this size that {@code pixels} take. */
	static double share(final double pixels, final boolean right, final int width,
		final int height)
	{
		final Rectangle frame = PlotStyle.frame(width, height);
		return pixels / (right ? frame.width : frame.height);
	}

	private static double top(final double lo, final double hi, final boolean log,
		final double share)
	{
		return PlotStyle.roomAbove(lo, hi, share, log);
	}

	/**
	 * Sets the limits of {@code plot} (one that keeps a band for its legend) for drawing
	 * at {@code width × height} pixels, so that its legend still lies in the band and
	 * covers no data (up to {@link #MOST} of the frame); other plots are left as they
	 * are. Returns the share of the frame the band takes, or 0.
	 */
	public static double fit(final Plot plot, final int width, final int height) {
		final double[] b = BANDS.get(plot);
		if (b == null) return 0;
		final boolean right = b[4] != 0;
		final double share = Math.min(MOST, share(b[3], right, width, height));
		final double t = top(b[0], b[1], b[2] != 0, share);
		final double[] lim = plot.getLimits();
		if (right) plot.setLimits(lim[0], t, lim[2], lim[3]);
		else plot.setLimits(lim[0], lim[1], lim[2], t);
		return share;
	}
}
