package org.cpca.render;

import ij.gui.Plot;
import ij.plugin.Colors;

import java.awt.Color;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.math.BigDecimal;
import java.math.MathContext;

/**
 * An ImageJ {@link Plot} as an SVG or PDF document, drawn from the plot's own data and styles
 * (its data series, colours, marker shapes, axis limits and labels, log axes, legend
 * labels and title) rather than from its pixels: text stays text and lines stay lines at
 * any size. Covers what the project's plots use: markers, connected markers and lines;
 * other plot objects (free lines, arrows, shapes) are not drawn.
 */
public final class PlotSvg {

	static final double LEFT = 80, RIGHT = 20, TOP = 36, BOTTOM = 52;
	/** Text sizes: those of the PNG files ({@link PlotStyle}). */
	static final double TEXT = PlotStyle.TEXT, LABEL = PlotStyle.LABEL,
		TITLE = PlotStyle.TITLE;

	private PlotSvg() {}

	/**
	 * @param plot a plot whose image has been created ({@code getImagePlus()}), so that
	 *          its limits are final
	 * @param width canvas width in pixels (e.g. the plot image's)
	 * @param height canvas height in pixels
	 */
	public static String svg(final Plot plot, final int width, final int height) {
		final Svg svg = new Svg(width, height);
		draw(plot, width, height, svg);
		return svg.toString();
	}

	/** The plot as a one-page PDF document ({@link Pdf}); as {@link #svg}. */
	public static byte[] pdf(final Plot plot, final int width, final int height) {
		final Pdf pdf = new Pdf(width, height);
		draw(plot, width, height, pdf);
		return pdf.bytes();
	}

	/** Draws the plot on {@code svg}, a canvas of {@code width × height} pixels. */
	static void draw(final Plot plot, final int width, final int height,
		final Canvas svg)
	{
		final double[] lim = plot.getLimits();
		final boolean logX = (plot.getFlags() & Plot.X_LOG_NUMBERS) != 0 && lim[0] > 0;
		final boolean logY = (plot.getFlags() & Plot.Y_LOG_NUMBERS) != 0 && lim[2] > 0;
		final Axis ax = new Axis(lim[0], lim[1], logX, LEFT, width - RIGHT);
		final Axis ay = new Axis(lim[2], lim[3], logY, height - BOTTOM, TOP);
		final double fw = width - LEFT - RIGHT, fh = height - TOP - BOTTOM;
		// ticks and numbers
		final boolean integerX = integerData(plot);
		for (final double t : ax.ticks(integerX)) {
			final double px = ax.map(t);
			svg.line(px, height - BOTTOM, px, height - BOTTOM + 5, Color.BLACK, 1, false);
			svg.text(ax.label(t), px, height - BOTTOM + 19, TEXT, Canvas.Anchor.MIDDLE,
				false, false);
		}
		for (final double t : ay.ticks(false)) {
			final double py = ay.map(t);
			svg.line(LEFT - 5, py, LEFT, py, Color.BLACK, 1, false);
			svg.text(ay.label(t), LEFT - 8, py + 5, TEXT, Canvas.Anchor.END, false, false);
		}
		// data
		final String[] designations = plot.getPlotObjectDesignations();
		final List<String> legendLabels = new ArrayList<>();
		final List<String[]> legendStyles = new ArrayList<>();
		final List<double[][]> drawn = new ArrayList<>();
		String title = null;
		svg.beginClip(LEFT, TOP, fw, fh);
		for (int i = 0; i < plot.getNumPlotObjects(); i++) {
			final String designation = i < designations.length ? designations[i] : "";
			final float[][] d = plot.getDataObjectArrays(i);
			if (d == null || d[0] == null || d[1] == null) {
				if (designation.startsWith("Text") && title == null) title = plot
					.getPlotObjectLabel(i);
				continue;
			}
			final String[] style = plot.getPlotObjectStyle(i).split(",");
			final double[] px = new double[d[0].length], py = new double[d[0].length];
			for (int j = 0; j < px.length; j++) {
				px[j] = ax.map(d[0][j]);
				py[j] = ay.map(d[1][j]);
			}
			draw(svg, style, px, py, true);
			drawn.add(new double[][] { px, py });
			final String label = plot.getPlotObjectLabel(i);
			if (label != null && !label.trim().isEmpty()) {
				legendLabels.add(label);
				legendStyles.add(style);
			}
		}
		svg.endClip();
		svg.rect(LEFT, TOP, fw, fh, null, Color.BLACK, 1);
		// labels
		svg.text(plot.getLabel('x') == null ? "" : plot.getLabel('x'), LEFT + fw / 2,
			height - 10, LABEL, Canvas.Anchor.MIDDLE, false, false);
		svg.text(plot.getLabel('y') == null ? "" : plot.getLabel('y'), 18, TOP + fh / 2,
			LABEL, Canvas.Anchor.MIDDLE, true, false);
		if (title != null) svg.text(title, LEFT + fw / 2, TOP - 12, TITLE,
			Canvas.Anchor.MIDDLE, false, true);
		// legend, top right inside the frame
		if (!legendLabels.isEmpty()) {
			int longest = 0;
			for (final String s : legendLabels)
				longest = Math.max(longest, s.length());
			final double lw = 30 + 0.6 * TEXT * longest, lh = 6 + 18 * legendLabels.size();
			// the corner of the frame that hides the fewest points, tried in ImageJ's order
			final double[][] corners = { { LEFT + 6, TOP + 6 }, { width - RIGHT - lw - 6, TOP +
				6 }, { width - RIGHT - lw - 6, height - BOTTOM - lh - 6 }, { LEFT + 6, height -
					BOTTOM - lh - 6 } };
			int best = 0;
			long fewest = Long.MAX_VALUE;
			for (int k = 0; k < corners.length; k++) {
				long n = 0;
				for (final double[][] xy : drawn)
					for (int j = 0; j < xy[0].length; j++)
						if (xy[0][j] >= corners[k][0] - 4 && xy[0][j] <= corners[k][0] + lw + 4 &&
							xy[1][j] >= corners[k][1] - 4 && xy[1][j] <= corners[k][1] + lh + 4) n++;
				if (n < fewest) {
					fewest = n;
					best = k;
				}
			}
			final double lx = corners[best][0], ly = corners[best][1];
			svg.rect(lx, ly, lw, lh, Color.WHITE, Color.BLACK, 1);
			for (int k = 0; k < legendLabels.size(); k++) {
				final double y = ly + 16 + 18 * k;
				final String[] st = legendStyles.get(k);
				if (st.length > 3 && (st[3].toLowerCase(Locale.ROOT).contains("connected") || st[3]
					.toLowerCase(Locale.ROOT).contains("line"))) svg.polyline(new double[] { lx + 4,
						lx + 22 }, new double[] { y - 4, y - 4 }, Colors.decode(st[0].trim(),
							Color.BLACK), parse(st[2]));
				// a custom-marker trace without points is the legend's title ({@link
				// ScatterPlot#HEADING_SHAPE})
				final boolean heading = st.length > 3 && "custom".equalsIgnoreCase(st[3].trim());
				if (!heading) draw(svg, st, new double[] { lx + 13 }, new double[] { y - 4 },
					false);
				svg.text(legendLabels.get(k), heading ? lx + 6 : lx + 26, y, TEXT,
					Canvas.Anchor.START, false, heading);
			}
		}
	}

	/**
	 * Draws one data series in its style ("color,fill,lineWidth,Shape"); markers that no
	 * line joins are see-through ({@link ScatterPlot#OPACITY}) when {@code data}, as in
	 * the PNG files.
	 */
	private static void draw(final Canvas svg, final String[] style, final double[] x,
		final double[] y, final boolean data)
	{
		final Color stroke = style.length > 0 ? Colors.decode(style[0].trim(), Color.BLACK)
			: Color.BLACK;
		final Color fill = style.length > 1 && !"none".equals(style[1].trim()) ? Colors
			.decode(style[1].trim(), null) : null;
		final double lw = style.length > 2 ? parse(style[2]) : 1;
		final String shape = style.length > 3 ? style[3].trim().toLowerCase(Locale.ROOT)
			: "line";
		final boolean connected = shape.contains("connected") || shape.equals("line") ||
			shape.contains("bar");
		if (connected) svg.polyline(x, y, stroke, lw);
		if (shape.equals("line") || shape.contains("bar")) return;
		final String marker = shape.contains("circle") ? "circle" : shape.contains("box")
			? "box" : shape.contains("triangle") ? "triangle" : shape.contains("diamond")
				? "diamond" : shape.equals("x") ? "x" : shape.contains("cross") ? "cross" : shape
					.contains("dot") ? "dot" : "circle";
		final double size = 4 + 2 * lw;
		final double opacity = data && !connected ? ScatterPlot.OPACITY : 1;
		for (int j = 0; j < x.length; j++)
			if (Double.isFinite(x[j]) && Double.isFinite(y[j])) svg.marker(marker, x[j], y[j],
				size, stroke, fill, lw, opacity);
	}

	private static double parse(final String s) {
		try {
			return Double.parseDouble(s.trim());
		}
		catch (final NumberFormatException e) {
			return 1;
		}
	}

	/**
	 * Whether every x value of every series with markers is a whole number (e.g. component
	 * index); plain lines (reference lines) do not count.
	 */
	private static boolean integerData(final Plot plot) {
		boolean any = false;
		for (int i = 0; i < plot.getNumPlotObjects(); i++) {
			final float[][] d = plot.getDataObjectArrays(i);
			if (d == null || d[0] == null || plot.getPlotObjectStyle(i).toLowerCase(Locale.ROOT)
				.endsWith(",line")) continue;
			for (final float v : d[0]) {
				if (v != Math.rint(v)) return false;
				any = true;
			}
		}
		return any;
	}

	/** One axis: data limits → pixel positions, and its tick values. */
	static final class Axis {

		final double min, max, p0, p1;
		final boolean log;

		Axis(final double min, final double max, final boolean log, final double p0,
			final double p1)
		{
			this.min = log ? Math.log10(min) : min;
			this.max = log ? Math.log10(max) : max;
			this.log = log;
			this.p0 = p0;
			this.p1 = p1;
		}

		double map(final double v) {
			final double t = log ? (v > 0 ? Math.log10(v) : Double.NaN) : v;
			return p0 + (t - min) / (max - min) * (p1 - p0);
		}

		/** Ticks inside the limits: decades on log axes, 1–2–5 steps otherwise. */
		List<Double> ticks(final boolean integers) {
			final List<Double> out = new ArrayList<>();
			if (log) {
				for (int e = (int) Math.ceil(min - 1e-9); e <= Math.floor(max + 1e-9); e++)
					out.add(Math.pow(10, e));
				return out;
			}
			double step = niceStep((max - min) / 6);
			if (integers) step = Math.max(1, Math.rint(step));
			for (double t = Math.ceil(min / step - 1e-9) * step; t <= max + 1e-9 * step; t +=
				step)
				out.add(Math.abs(t) < 1e-12 * step ? 0 : t);
			return out;
		}

		String label(final double t) {
			if (!log) return tickLabel(t);
			final int e = (int) Math.round(Math.log10(t));
			return e >= -2 && e <= 3 ? tickLabel(t) : "10" + superscript(e);
		}
	}

	/** The exponent in Unicode superscript digits, e.g. ⁻⁴. */
	static String superscript(final int e) {
		final String digits = "⁰¹²³⁴⁵⁶⁷⁸⁹";
		final StringBuilder sb = new StringBuilder(e < 0 ? "⁻" : "");
		for (final char c : Integer.toString(Math.abs(e)).toCharArray())
			sb.append(digits.charAt(c - '0'));
		return sb.toString();
	}

	/** 1, 2 or 5 × 10^e, the smallest not below {@code raw}. */
	static double niceStep(final double raw) {
		if (!(raw > 0) || !Double.isFinite(raw)) return 1;
		final double e = Math.pow(10, Math.floor(Math.log10(raw)));
		final double f = raw / e;
		return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * e;
	}

	static String tickLabel(final double t) {
		if (t == 0) return "0";
		final double a = Math.abs(t);
		if (a >= 1e5 || a < 1e-3) return String.format(Locale.ROOT, "%.0e", t).replace("e+0",
			"e").replace("e-0", "e-").replace("e+", "e");
		return new BigDecimal(t).round(new MathContext(6))
			.stripTrailingZeros().toPlainString();
	}
}
