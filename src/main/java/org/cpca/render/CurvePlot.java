package org.cpca.render;

import java.util.Map;

import ij.ImagePlus;
import ij.gui.Plot;

import org.cpca.core.Curve;

/** A {@link Curve} as a line plot: one coloured series per column, with a legend. */
public final class CurvePlot {

	private CurvePlot() {}

	/** @return an RGB image of {@value ScatterPlot#WIDTH}×{@value ScatterPlot#HEIGHT} pixels */
	public static ImagePlus render(final Curve curve) {
		final Plot plot = new Plot(curve.title, curve.xLabel, curve.yLabel);
		plot.setSize(ScatterPlot.WIDTH, ScatterPlot.HEIGHT);
		final double[] x = curve.x();
		boolean logX = curve.logX;
		for (final double v : x)
			logX &= v > 0;
		if (logX) plot.setAxisXLog(true);
		final StringBuilder legend = new StringBuilder();
		final double[] all = allValues(curve.series());
		final double[] xr = PlotStyle.paddedRange(x);
		final double[] yr = PlotStyle.paddedRange(all);
		if (logX) {
			double min = Double.POSITIVE_INFINITY, max = 0;
			for (final double v : x) {
				min = Math.min(min, v);
				max = Math.max(max, v);
			}
			xr[0] = min / 1.2;
			xr[1] = max * 1.2;
		}
		plot.setLimits(xr[0], xr[1], yr[0], yr[1]);
		int c = 0;
		for (final Map.Entry<String, double[]> e : curve.series().entrySet()) {
			plot.setLineWidth(PlotStyle.MARKER_LINE_WIDTH);
			plot.setColor(Palette.color(c), Palette.color(c));
			plot.add(x.length > 60 ? "line" : "connected circle", x, e.getValue());
			legend.append(c++ == 0 ? "" : "\n").append(e.getKey());
		}
		PlotStyle.title(plot, curve.title);
		if (curve.series().size() > 1) plot.setLegend(legend.toString(),
			Plot.AUTO_POSITION);
		return plot.getImagePlus();
	}

	private static double[] allValues(final Map<String, double[]> series) {
		int n = 0;
		for (final double[] v : series.values())
			n += v.length;
		final double[] all = new double[n];
		int o = 0;
		for (final double[] v : series.values()) {
			System.arraycopy(v, 0, all, o, v.length);
			o += v.length;
		}
		return all;
	}
}
