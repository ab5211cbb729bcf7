package org.cpca.render;

import ij.ImagePlus;
import ij.gui.Plot;

import java.awt.Color;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.awt.Rectangle;

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

	/** The legend's title when the caller names none. */
	public static final String CLASS = "class";

	/**
	 * Draws the points as circles, one colour per distinct class in sorted order
	 * ({@link #classOrder}, {@link Palette}), with a legend of class names titled
	 * {@value #CLASS} when there are classes and the title above the frame. Non-finite
	 * coordinates are not drawn.
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
		return render(title, xLabel, yLabel, x, y, classes, CLASS, markers);
	}

	/** {@link #render} with the legend titled {@code classTitle} (e.g. the label column). */
	public static ImagePlus render(final String title, final String xLabel,
		final String yLabel, final double[] x, final double[] y,
		final List<String> classes, final String classTitle, final Markers markers)
	{
		return build(title, xLabel, yLabel, x, y, groups(x, y, classes), classes == null
			? null : classTitle, true, markers, true).getImagePlus();
	}

	/** The same plot as {@link #render}, before rendering, for further drawing. */
	public static Plot plot(final String title, final String xLabel, final String yLabel,
		final double[] x, final double[] y, final List<String> classes)
	{
		return build(title, xLabel, yLabel, x, y, groups(x, y, classes), classes == null
			? null : CLASS, true, Markers.NORMAL, true);
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
		return image(title, xLabel, yLabel, x, y, classes, CLASS);
	}

	/**
	 * Opacity of the markers in the pictures for files ({@link #image}): where points
	 * crowd, the overlap shows as a deeper colour and no class hides another.
	 */
	public static final float OPACITY = 0.6f;

	/** {@link #image} with the legend titled {@code classTitle}. */
	public static ImagePlus image(final String title, final String xLabel,
		final String yLabel, final double[] x, final double[] y,
		final List<String> classes, final String classTitle)
	{
		return image(title, xLabel, yLabel, x, y, classes, classTitle, OPACITY);
	}

	/** {@link #image} with markers of the given opacity (1: ImageJ's opaque ones). */
	static ImagePlus image(final String title, final String xLabel, final String yLabel,
		final double[] x, final double[] y, final List<String> classes,
		final String classTitle, final float opacity)
	{
		return picture(title, xLabel, yLabel, x, y, classes, classTitle, opacity).get();
	}

	/**
	 * {@link #image} in two parts ({@link ScatterRaster#prepare}): ImageJ's parts are
	 * drawn now, on this thread; the markers are stamped by {@code get()}, on any thread.
	 */
	public static Supplier<ImagePlus> picture(final String title, final String xLabel,
		final String yLabel, final double[] x, final double[] y, final List<String> classes,
		final String classTitle)
	{
		return picture(title, xLabel, yLabel, x, y, classes, classTitle, OPACITY);
	}

	private static Supplier<ImagePlus> picture(final String title, final String xLabel,
		final String yLabel, final double[] x, final double[] y, final List<String> classes,
		final String classTitle, final float opacity)
	{
		final Map<String, List<Integer>> groups = groups(x, y, classes);
		final Markers markers = Markers.NORMAL;
		final String legendTitle = classes == null ? null : classTitle;
		final Plot frame = build(title, xLabel, yLabel, x, y, groups, legendTitle, false,
			markers, false);
		final List<String> shapes = new ArrayList<>();
		for (int g = 0; g < groups.size(); g++)
			shapes.add(Palette.shape(g));
		return ScatterRaster.prepare(frame, x, y, new ArrayList<>(groups.values()), shapes,
			markers.lineWidth, opacity, legendTitle == null ? null : legend(legendTitle, groups),
			position -> {
				// the same traces and legend on an empty plot, to measure the legend
				final Plot p = build("", "", "", new double[0], new double[0], groups,
					legendTitle, false, markers, false);
				if (position != 0) p.setLegend(legend(legendTitle, groups), position);
				return p;
			});
	}

	/** The box of the legend of these classes at an ImageJ corner, in pixels. */
	static Rectangle legendBox(final List<String> classes, final String classTitle,
		final int corner)
	{
		return legendBox(classes, classTitle, corner, WIDTH, HEIGHT);
	}

	/** {@link #legendBox} for a plot drawn at {@code width × height} pixels. */
	static Rectangle legendBox(final List<String> classes, final String classTitle,
		final int corner, final int width, final int height)
	{
		final Map<String, List<Integer>> groups = groups(new double[classes.size()],
			new double[classes.size()], classes);
		return ScatterRaster.legendBox(position -> {
			final Plot p = build("", "", "", new double[0], new double[0], groups, classTitle,
				false, Markers.NORMAL, false);
			p.setSize(width, height);
			if (position != 0) p.setLegend(legend(classTitle, groups), position);
			return p;
		}, corner);
	}

	/**
	 * The order of the classes in legends and colours: numbers by value ("2" before
	 * "10"), then other names alphabetically (case first ignored), {@value #UNLABELLED}
	 * last.
	 */
	public static final Comparator<String> CLASS_ORDER = (a, b) -> {
		if (a.equals(b)) return 0;
		if (a.equals(UNLABELLED)) return 1;
		if (b.equals(UNLABELLED)) return -1;
		final Double x = number(a), y = number(b);
		if (x != null && y != null) return x.equals(y) ? a.compareTo(b) : Double.compare(x, y);
		if (x != null || y != null) return x != null ? -1 : 1;
		final int c = a.compareToIgnoreCase(b);
		return c != 0 ? c : a.compareTo(b);
	};

	private static Double number(final String s) {
		try {
			final double v = Double.parseDouble(s.trim());
			return Double.isNaN(v) ? null : v;
		}
		catch (final NumberFormatException e) {
			return null;
		}
	}

	/** The distinct classes in legend order ({@link #CLASS_ORDER}). */
	public static List<String> classOrder(final List<String> classes) {
		final TreeMap<String, Boolean> sorted = new TreeMap<>(CLASS_ORDER);
		for (final String c : classes)
			sorted.put(c == null ? UNLABELLED : c, true);
		return new ArrayList<>(sorted.keySet());
	}

	/** The points' indices by class, classes in legend order ({@link #CLASS_ORDER}). */
	private static Map<String, List<Integer>> groups(final double[] x, final double[] y,
		final List<String> classes)
	{
		if (x.length != y.length) throw new IllegalArgumentException(x.length +
			" x values but " + y.length + " y values: give one x and one y per point");
		if (classes != null && classes.size() != x.length)
			throw new IllegalArgumentException(x.length + " points but " + classes.size() +
				" classes: give one class per point (or none)");
		final Map<String, List<Integer>> groups = new TreeMap<>(CLASS_ORDER);
		for (int i = 0; i < x.length; i++) {
			final String c = classes == null ? "" : classes.get(i) == null ? UNLABELLED
				: classes.get(i);
			groups.computeIfAbsent(c, k -> new ArrayList<>()).add(i);
		}
		return groups;
	}

	/** The legend text: its title, then one class name a line. */
	private static String legend(final String title, final Map<String, List<Integer>> groups) {
		final StringBuilder legend = new StringBuilder(oneLine(title));
		for (final String name : groups.keySet())
			legend.append('\n').append(oneLine(name));
		return legend.toString();
	}

	private static String oneLine(final String s) {
		return s.replace('\n', ' ').replace('\t', ' ');
	}

	/**
	 * The shape of the legend's title trace: an ImageJ custom marker whose macro code draws
	 * nothing (ImageJ colours a legend line's text as its trace and draws its marker; a
	 * "dot" left a 1-pixel mark before the title). Its style reads "Custom" ({@link
	 * PlotSvg}).
	 */
	static final String HEADING_SHAPE = "code: n=0;";

	/** Pixels of a legend line before its text (the marker and the gaps around it). */
	static final double LEGEND_SAMPLE = 36;

	/**
	 * The largest share of the frame's height (width) given to the legend above (right
	 * of) the points; a larger legend goes where ImageJ finds the fewest points instead.
	 */
	static final double MAX_LEGEND_SHARE = 0.4;

	/**
	 * The plot: the legend's title as an undrawn first trace, one marker trace per class,
	 * the title, the legend (when {@code legendTitle} is given and {@code legend}; else
	 * the caller places it), limits padded around all points and, for the legend, raised
	 * by the legend's height, so that the legend sits in an empty band above the points
	 * and covers none. Without {@code points} every trace holds one undrawn (NaN) point,
	 * so that ImageJ draws everything but the markers.
	 */
	private static Plot build(final String title, final String xLabel, final String yLabel,
		final double[] x, final double[] y, final Map<String, List<Integer>> groups,
		final String legendTitle, final boolean legend, final Markers markers,
		final boolean points)
	{
		final Plot plot = PlotStyle.plot(title, xLabel, yLabel);
		plot.setSize(WIDTH, HEIGHT);
		if (legendTitle != null) { // the title line of the legend, in black, no marker
			plot.setColor(Color.BLACK);
			plot.setLineWidth(1);
			plot.add(HEADING_SHAPE, new double[] { Double.NaN }, new double[] { Double.NaN });
		}
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
		if (legendTitle != null && legend) plot.setLegend(legend(legendTitle, groups),
			Plot.AUTO_POSITION);
		final double[] xr = PlotStyle.paddedRange(x);
		final double[] yr = PlotStyle.paddedRange(y);
		if (legendTitle != null) { // room for the legend: above the points or right of them
			int longest = PlotStyle.textWidth(legendTitle);
			for (final String name : groups.keySet())
				longest = Math.max(longest, PlotStyle.textWidth(oneLine(name)));
			final double high = PlotStyle.legendShare(groups.size() + 1), wide = (longest +
				LEGEND_SAMPLE + PlotStyle.LEGEND_MARGIN) / PlotStyle.frame(WIDTH, HEIGHT).width;
			final LegendRoom.Band band = new LegendRoom.Band(xr, yr, false, false, longest +
				LEGEND_SAMPLE + PlotStyle.LEGEND_MARGIN, PlotStyle.legendHeight(groups.size() + 1));
			if (high <= MAX_LEGEND_SHARE) yr[1] = LegendRoom.keep(plot, band, false)[3];
			else if (wide <= MAX_LEGEND_SHARE) xr[1] = LegendRoom.keep(plot, band, true)[1];
		}
		plot.setLimits(xr[0], xr[1], yr[0], yr[1]);
		return plot;
	}
}
