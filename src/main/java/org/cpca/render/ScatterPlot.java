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

	/**
	 * The same picture as {@link #render} for a file: ImageJ's {@link Plot} draws the
	 * frame, axes, labels and legend, and the markers are stamped straight into its pixels
	 * ({@link ScatterRaster}), many times faster for thousands of points. The image has no
	 * plot behind it (no zoom, list or SVG): windows and vector figures use {@link #render}.
	 */
	public static ImagePlus image(final String title, final String xLabel,
		final String yLabel, final double[] x, final double[] y,
		final List<String> classes)
	{
		final Map<String, List<Integer>> groups = groups(x, y, classes);
		final Markers markers = Markers.NORMAL;
		final Plot frame = build(title, xLabel, yLabel, x, y, groups, false, markers, false);
		final List<String> shapes = new ArrayList<>();
		for (int g = 0; g < groups.size(); g++)
			shapes.add(Palette.shape(g));
		return ScatterRaster.draw(frame, x, y, new ArrayList<>(groups.values()), shapes,
			markers.lineWidth, classes == null ? null : legend(groups), position -> {
				// the same traces and legend on an empty plot, to measure the legend
				final Plot p = build("", "", "", new double[0], new double[0], groups, false,
					markers, false);
				if (position != 0) p.setLegend(legend(groups), position);
				return p;
			});
	}

	private static Plot plot(final String title, final String xLabel, final String yLabel,
		final double[] x, final double[] y, final List<String> classes,
		final Markers markers)
	{
		return build(title, xLabel, yLabel, x, y, groups(x, y, classes), classes != null,
			markers, true);
	}

	/** The points' indices by class, classes in order of first appearance. */
	private static Map<String, List<Integer>> groups(final double[] x, final double[] y,
		final List<String> classes)
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
		return groups;
	}

	/** The legend text: one class name a line. */
	private static String legend(final Map<String, List<Integer>> groups) {
		final StringBuilder legend = new StringBuilder();
		for (final String name : groups.keySet())
			legend.append(legend.length() == 0 ? "" : "\n").append(name.replace('\n', ' ')
				.replace('\t', ' '));
		return legend.toString();
	}

	/**
	 * The plot: one marker trace per class, the title, the legend (when {@code legend}),
	 * limits padded around all points. Without {@code points} every trace holds one
	 * undrawn (NaN) point, so that ImageJ draws everything but the markers.
	 */
	private static Plot build(final String title, final String xLabel, final String yLabel,
		final double[] x, final double[] y, final Map<String, List<Integer>> groups,
		final boolean legend, final Markers markers, final boolean points)
	{
		final Plot plot = new Plot(title, xLabel, yLabel);
		plot.setSize(WIDTH, HEIGHT);
		int g = 0;
		for (final Map.Entry<String, List<Integer>> e : groups.entrySet()) {
			final List<Integer> idx = e.getValue();
			final int n = points ? idx.size() : 1;
			final double[] gx = new double[n];
			final double[] gy = new double[n];
			for (int k = 0; k < n; k++) {
				gx[k] = points ? x[idx.get(k)] : Double.NaN;
				gy[k] = points ? y[idx.get(k)] : Double.NaN;
			}
			plot.setLineWidth(markers.lineWidth);
			plot.setColor(Palette.color(g), Palette.color(g));
			plot.add(Palette.shape(g), gx, gy);
			g++;
		}
		PlotStyle.title(plot, title); // also resets colour and line width for the legend
		if (legend) plot.setLegend(legend(groups), Plot.AUTO_POSITION);
		final double[] xr = PlotStyle.paddedRange(x);
		final double[] yr = PlotStyle.paddedRange(y);
		plot.setLimits(xr[0], xr[1], yr[0], yr[1]);
		return plot;
	}
}
