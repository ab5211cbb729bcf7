package org.cpca.render;

import ij.ImagePlus;
import ij.gui.Plot;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A scatter plot of two scores (e.g. cPC1 against cPC2), one colour per class, drawn
 * with ImageJ's {@link Plot} (works headless).
 */
public final class ScatterPlot {

	/** Default image width, in pixels. */
	public static final int WIDTH = 600;
	/** Default image height, in pixels. */
	public static final int HEIGHT = 450;
	/** Class name used for points without a class. */
	public static final String UNLABELLED = "unlabelled";

	private ScatterPlot() {}

	/** Marker size. */
	public enum Markers {
		/** 7-pixel circles: pictures and result windows. */
		NORMAL(PlotStyle.MARKER_LINE_WIDTH),
		/**
		 * 5-pixel circles, drawn by ImageJ's own line drawing rather than Java2D strokes
		 * (about 4× faster for thousands of points): live views such as the α explorer.
		 */
		SMALL(1f);

		final float lineWidth;

		Markers(final float lineWidth) {
			this.lineWidth = lineWidth;
		}
	}

	/**
	 * Draws the points as circles, one colour per distinct class in order of first
	 * appearance ({@link Palette}), with a legend of class names when there are classes
	 * and the title above the frame. Non-finite coordinates are not drawn.
	 *
	 * @param classes one class per point, or {@code null} for a single class (no legend);
	 *          {@code null} entries are shown as {@value #UNLABELLED}
	 * @return an RGB image of {@value #WIDTH}×{@value #HEIGHT} pixels
	 */
	public static ImagePlus render(final String title, final String xLabel,
		final String yLabel, final double[] x, final double[] y,
		final List<String> classes)
	{
		return render(title, xLabel, yLabel, x, y, classes, Markers.NORMAL);
	}

	/** {@link #render} with the given marker size. */
	public static ImagePlus render(final String title, final String xLabel,
		final String yLabel, final double[] x, final double[] y,
		final List<String> classes, final Markers markers)
	{
		return plot(title, xLabel, yLabel, x, y, classes, markers).getImagePlus();
	}

	/** The same plot as {@link #render}, before rendering, for further drawing. */
	public static Plot plot(final String title, final String xLabel, final String yLabel,
		final double[] x, final double[] y, final List<String> classes)
	{
		return plot(title, xLabel, yLabel, x, y, classes, Markers.NORMAL);
	}

	private static Plot plot(final String title, final String xLabel, final String yLabel,
		final double[] x, final double[] y, final List<String> classes,
		final Markers markers)
	{
		if (x.length != y.length) throw new IllegalArgumentException(x.length +
			" x values but " + y.length + " y values: give one x and one y per point");
		if (classes != null && classes.size() != x.length)
			throw new IllegalArgumentException(x.length + " points but " + classes.size() +
				" classes: give one class per point (or none)");
		final Map<String, List<Integer>> groups = new LinkedHashMap<>();
		for (int i = 0; i < x.length; i++) {
			final String c = classes == null ? "" : classes.get(i) == null ? UNLABELLED
				: classes.get(i);
			groups.computeIfAbsent(c, k -> new ArrayList<>()).add(i);
		}
		final Plot plot = new Plot(title, xLabel, yLabel);
		plot.setSize(WIDTH, HEIGHT);
		final StringBuilder legend = new StringBuilder();
		int g = 0;
		for (final Map.Entry<String, List<Integer>> e : groups.entrySet()) {
			final List<Integer> idx = e.getValue();
			final double[] gx = new double[idx.size()];
			final double[] gy = new double[idx.size()];
			for (int k = 0; k < gx.length; k++) {
				gx[k] = x[idx.get(k)];
				gy[k] = y[idx.get(k)];
			}
			plot.setLineWidth(markers.lineWidth);
			plot.setColor(Palette.color(g), Palette.color(g));
			plot.add(Palette.shape(g), gx, gy);
			if (g > 0) legend.append('\n');
			legend.append(e.getKey().replace('\n', ' ').replace('\t', ' '));
			g++;
		}
		PlotStyle.title(plot, title); // also resets colour and line width for the legend
		if (classes != null) plot.setLegend(legend.toString(), Plot.AUTO_POSITION);
		final double[] xr = PlotStyle.paddedRange(x);
		final double[] yr = PlotStyle.paddedRange(y);
		plot.setLimits(xr[0], xr[1], yr[0], yr[1]);
		return plot;
	}
}
