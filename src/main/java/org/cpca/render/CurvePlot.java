package org.cpca.render;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import ij.ImagePlus;
import ij.gui.Plot;

import org.cpca.core.Curve;

/**
 * A {@link Curve} as a line plot: one coloured series per column, with a legend, axes
 * fitted to every series, and human labels for the column names the tables use
 * ({@code samples_seen} is shown as "samples seen", {@code alignment} as "alignment with
 * offline cPCA*", …). A curve that asks for a log x axis gets one; its points at x = 0
 * (e.g. β = 0, plain cPCA) cannot lie on a log axis and are drawn as dashed horizontal
 * lines named in the legend ("… at β = 0").
 */
public final class CurvePlot {

	private CurvePlot() {}

	/** Column names of curves and their labels in plots. */
	private static final Map<String, String> HUMAN = Map.of("samples_seen", "samples seen",
		"beta", "β", "alignment", "alignment with offline cPCA*", "subspace_change",
		"subspace change between checkpoints", "lda_accuracy", "LDA accuracy",
		"symmetrized_kl", "symmetrised KL divergence");

	/** The label shown for a column name: a known name's words, else '_' → ' '. */
	public static String human(final String name) {
		final String h = HUMAN.get(name);
		return h != null ? h : name.replace('_', ' ');
	}

	/** @return an RGB image of {@value ScatterPlot#WIDTH}×{@value ScatterPlot#HEIGHT} pixels */
	public static ImagePlus render(final Curve curve) {
		final double[] x = curve.x();
		int positive = 0;
		for (final double v : x)
			if (v > 0) positive++;
		final boolean logX = curve.logX && positive >= 2;
		final String xLabel = human(curve.xLabel);
		final Plot plot = PlotStyle.plot(curve.title, xLabel, human(curve.yLabel));
		plot.setSize(ScatterPlot.WIDTH, ScatterPlot.HEIGHT);
		// limits from every value of every series (and of the x = 0 lines)
		final List<Double> ys = new ArrayList<>();
		for (final double[] v : curve.series().values())
			for (int i = 0; i < v.length; i++)
				if (!logX || x[i] > 0 || x[i] == 0) ys.add(v[i]);
		final double[] yr = PlotStyle.paddedRange(ys.stream().mapToDouble(Double::doubleValue)
			.toArray());
		final double[] xr;
		if (logX) {
			double min = Double.POSITIVE_INFINITY, max = 0;
			for (final double v : x)
				if (v > 0) {
					min = Math.min(min, v);
					max = Math.max(max, v);
				}
			xr = new double[] { min / 1.5, max * 1.5 };
		}
		else xr = PlotStyle.paddedRange(x);
		// a legend (several series) goes in a band above the curves, covering none
		int lines = 0;
		for (final double[] v : curve.series().values())
			lines += 1 + (logX && hasZero(x, v) ? 1 : 0);
		if (lines > 1) yr[1] = LegendRoom.keep(plot, new LegendRoom.Band(xr, yr, logX, false,
			legendWidth(curve, logX, xLabel), PlotStyle.legendHeight(lines)), false)[3];
		plot.setLimits(xr[0], xr[1], yr[0], yr[1]);
		if (logX) plot.setAxisXLog(true);
		final StringBuilder legend = new StringBuilder();
		int c = 0;
		for (final Map.Entry<String, double[]> e : curve.series().entrySet()) {
			final double[] y = e.getValue();
			final double[][] shown = logX ? positiveOnly(x, y) : new double[][] { x, y };
			plot.setLineWidth(PlotStyle.MARKER_LINE_WIDTH);
			plot.setColor(Palette.color(c), Palette.color(c));
			plot.add(shown[0].length > 60 ? "line" : "connected circle", shown[0], shown[1]);
			append(legend, human(e.getKey()));
			if (logX) for (int i = 0; i < x.length; i++) {
				if (x[i] != 0 || !Double.isFinite(y[i])) continue;
				plot.setLineWidth(1);
				plot.setColor(Palette.color(c));
				plot.add("line", new double[] { xr[0], xr[1] }, new double[] { y[i], y[i] });
				append(legend, human(e.getKey()) + " at " + xLabel + " = 0");
				break;
			}
			c++;
		}
		PlotStyle.title(plot, curve.title);
		if (legend.indexOf("\n") >= 0) plot.setLegend(legend.toString(), Plot.AUTO_POSITION);
		return plot.getImagePlus();
	}

	/** Whether a series has a finite value at x = 0 (drawn as a line on a log x axis). */
	private static boolean hasZero(final double[] x, final double[] y) {
		for (int i = 0; i < x.length; i++)
			if (x[i] == 0 && Double.isFinite(y[i])) return true;
		return false;
	}

	/** The legend's width in pixels: its longest line, with the sample and margin. */
	private static double legendWidth(final Curve curve, final boolean logX,
		final String xLabel)
	{
		final List<String> lines = new ArrayList<>();
		for (final String name : curve.series().keySet())
			lines.add(human(name) + (logX ? " at " + xLabel + " = 0" : ""));
		return PlotStyle.legendWidth(lines);
	}

	private static void append(final StringBuilder legend, final String entry) {
		legend.append(legend.length() == 0 ? "" : "\n").append(entry);
	}

	/** The points with x &gt; 0. */
	private static double[][] positiveOnly(final double[] x, final double[] y) {
		int n = 0;
		for (final double v : x)
			if (v > 0) n++;
		final double[] px = new double[n], py = new double[n];
		for (int i = 0, q = 0; i < x.length; i++)
			if (x[i] > 0) {
				px[q] = x[i];
				py[q++] = y[i];
			}
		return new double[][] { px, py };
	}
}
