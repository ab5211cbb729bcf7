package org.cpca.render;

import ij.gui.Plot;

import java.awt.Dimension;
import java.awt.Rectangle;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The band a plot keeps free above or right of its data for its legend, refitted when
 * the plot is drawn at another size. ImageJ draws a resized plot window's text at the
 * same size in pixels, so a band measured for the default 600 × 450 is too narrow at
 * half that size (the result windows tiled on a small screen), and the legend covered
 * data; {@link #fit} gives the legend the band it needs at the size the plot is drawn
 * at, above the data or right of it, whichever takes less of the frame.
 */
public final class LegendRoom {

	/** The largest share of the frame a band may take; a larger legend covers data. */
	static final double MOST = 0.75;

	/**
	 * What a plot's band is made from: the data's range on both axes (before the band),
	 * whether each axis is logarithmic, and the legend's size in pixels.
	 */
	static final class Band {

		final double[] x, y;
		final boolean logX, logY;
		final double width, height;
		/** Whether the plot was drawn with the band right of the data. */
		boolean right;

		Band(final double[] x, final double[] y, final boolean logX, final boolean logY,
			final double width, final double height)
		{
			this.x = x.clone();
			this.y = y.clone();
			this.logX = logX;
			this.logY = logY;
			this.width = width;
			this.height = height;
		}

		/**
		 * The limits {xmin, xmax, ymin, ymax} with the legend above the data
		 * ({@code right} false) or right of it, for a plot of this size.
		 */
		double[] limits(final boolean right, final int plotWidth, final int plotHeight) {
			final double share = Math.min(MOST, share(right, plotWidth, plotHeight));
			return right ? new double[] { x[0], PlotStyle.roomAbove(x[0], x[1], share, logX),
				y[0], y[1] } : new double[] { x[0], x[1], y[0], PlotStyle.roomAbove(y[0], y[1],
					share, logY) };
		}

		/** The share of the frame of a plot of this size that the legend takes. */
		double share(final boolean right, final int plotWidth, final int plotHeight) {
			final Rectangle frame = PlotStyle.frame(plotWidth, plotHeight);
			return right ? width / frame.width : height / frame.height;
		}
	}

	private static final Map<Plot, Band> BANDS = Collections.synchronizedMap(
		new WeakHashMap<>());

	private LegendRoom() {}

	/**
	 * Keeps room for the legend of {@code band} above the data ({@code right} false) or
	 * right of it, at the plot's current size; returns the limits to set.
	 */
	static double[] keep(final Plot plot, final Band band, final boolean right) {
		band.right = right;
		BANDS.put(plot, band);
		final Dimension size = plot.getSize();
		return band.limits(right, size.width, size.height);
	}

	/** The band {@code plot} keeps, or null. */
	static Band band(final Plot plot) {
		return BANDS.get(plot);
	}

	/**
	 * Sets the limits of {@code plot} (one that keeps a band for its legend) for drawing
	 * at {@code width × height} pixels, so that its legend lies in a band and covers no
	 * data: on the side it was drawn with while that takes at most
	 * {@link ScatterPlot#MAX_LEGEND_SHARE} of the frame, else above or right of the data,
	 * whichever is the smaller share (at most {@link #MOST}); other plots are left as they
	 * are. Returns that share, or 0.
	 */
	public static double fit(final Plot plot, final int width, final int height) {
		final Band b = BANDS.get(plot);
		if (b == null) return 0;
		boolean right = b.right;
		if (b.share(right, width, height) > ScatterPlot.MAX_LEGEND_SHARE) right = b.share(
			true, width, height) < b.share(false, width, height);
		final double[] l = b.limits(right, width, height);
		plot.setLimits(l[0], l[1], l[2], l[3]);
		return Math.min(MOST, b.share(right, width, height));
	}
}
