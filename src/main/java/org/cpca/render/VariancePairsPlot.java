package org.cpca.render;

import java.util.List;
import java.util.ArrayList;
import java.awt.Color;

import ij.ImagePlus;
import ij.gui.Plot;

import org.cpca.core.contrast.AlphaSelection;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.model.CpcaModel;

/**
 * The geometry of cPCA (Abid et al. 2018, Fig. 5; docs/math/cpca.md): for the top
 * contrastive component at each α of the sweep, the pair (target variance vᵀC_tv,
 * background variance vᵀC_bv). The most contrastive directions lie on the lower-right
 * boundary of all such pairs; the top cPC at α touches it where the tangent has slope
 * 1/α. The automatically chosen α values are marked.
 */
public final class VariancePairsPlot {

	private VariancePairsPlot() {}

	/**
	 * Draws the pairs the sweep kept ({@link AlphaSelection#topTargetVariance()}); the
	 * top component at each α is solved only where the selection did not keep it.
	 */
	public static ImagePlus render(final String title, final Cpca cpca,
		final AlphaSelection<?> selection)
	{
		final double[] grid = selection.grid();
		double[] tv = selection.topTargetVariance(), bv = selection.topBackgroundVariance();
		if (tv == null || bv == null) {
			tv = new double[grid.length];
			bv = new double[grid.length];
			for (int i = 0; i < grid.length; i++) {
				final CpcaModel m = cpca.model(grid[i]);
				tv[i] = m.targetVariance()[0];
				bv[i] = m.backgroundVariance()[0];
			}
		}
		return render(title, grid, tv, bv, selection.alphas());
	}

	/**
	 * The legend's line for the sweep (the chosen α values ringed on it in the order of
	 * the legend say which way α grows: to the lower left).
	 */
	static final String SWEEP = "α sweep";

	/**
	 * Draws the pairs (connected in α order) and rings the chosen α values.
	 *
	 * @param grid the α of each pair
	 * @param chosen α values to mark (each must be one of the grid's)
	 */
	public static ImagePlus render(final String title, final double[] grid,
		final double[] targetVariance, final double[] backgroundVariance,
		final double[] chosen)
	{
		final Plot plot = PlotStyle.plot(title, "target variance of the top cPC",
			"background variance of the top cPC");
		plot.setSize(ScatterPlot.WIDTH, ScatterPlot.HEIGHT);
		// the frontier spans decades: log axes when every pair is positive
		boolean positive = true;
		for (int i = 0; i < grid.length; i++)
			positive &= targetVariance[i] > 0 && backgroundVariance[i] > 0;
		// the legend (the sweep and each chosen α) in a band above the pairs, covering none
		int lines = 1;
		for (final double a : chosen)
			for (final double g : grid)
				if (g == a) {
					lines++;
					break;
				}
		final StringBuilder legend = new StringBuilder(SWEEP);
		final List<String> legendLines = new ArrayList<>(List.of(SWEEP));
		for (final double a : chosen)
			legendLines.add("α = " + ModelViews.alphaLabel(a));
		final double[] xr = positive ? new double[] { min(targetVariance) / 1.5, max(
			targetVariance) * 1.5 } : PlotStyle.paddedRange(targetVariance);
		final double[] yr = positive ? new double[] { min(backgroundVariance) / 1.5, max(
			backgroundVariance) * 1.5 } : PlotStyle.paddedRange(backgroundVariance);
		final double[] limits = LegendRoom.keep(plot, new LegendRoom.Band(xr, yr, positive,
			positive, PlotStyle.legendWidth(legendLines), PlotStyle.legendHeight(lines)), false);
		plot.setLimits(limits[0], limits[1], limits[2], limits[3]);
		if (positive) {
			plot.setAxisXLog(true);
			plot.setAxisYLog(true);
		}
		plot.setLineWidth(1);
		plot.setColor(Color.GRAY, Color.GRAY);
		plot.add("connected circle", targetVariance, backgroundVariance);
		int marked = 0;
		for (final double a : chosen) {
			for (int i = 0; i < grid.length; i++) {
				if (grid[i] != a) continue;
				plot.setColor(Palette.color(marked % Palette.size()));
				plot.setLineWidth(3);
				plot.add("circle", new double[] { targetVariance[i] }, new double[] {
					backgroundVariance[i] });
				legend.append('\n').append("α = ").append(ModelViews.alphaLabel(a));
				marked++;
				break;
			}
		}
		plot.setColor(Color.BLACK);
		plot.setLineWidth(1);
		plot.setLegend(legend.toString(), Plot.AUTO_POSITION);
		PlotStyle.title(plot, title);
		return plot.getImagePlus();
	}

	private static double min(final double[] v) {
		double m = Double.POSITIVE_INFINITY;
		for (final double x : v)
			m = Math.min(m, x);
		return m;
	}

	private static double max(final double[] v) {
		double m = Double.NEGATIVE_INFINITY;
		for (final double x : v)
			m = Math.max(m, x);
		return m;
	}
}
