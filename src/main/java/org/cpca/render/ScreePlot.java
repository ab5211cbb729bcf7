package org.cpca.render;

import ij.ImagePlus;
import ij.gui.Plot;

import java.awt.Color;
import java.util.Arrays;
import java.util.List;

/**
 * Eigenvalues against component index (1, 2, …), as connected circles; optionally the
 * leading part of the full spectrum behind them, grey.
 */
public final class ScreePlot {

	/** The least number of the spectrum's eigenvalues drawn (3 k when that is more). */
	static final int SHOWN = 20;

	private ScreePlot() {}

	/**
	 * Draws the eigenvalues in the given order (every one given), with the title above the
	 * frame and whole-number ticks on the component axis; a grey line marks 0 when some
	 * are negative (as contrastive eigenvalues can be).
	 *
	 * @return an RGB image of {@value ScatterPlot#WIDTH}×{@value ScatterPlot#HEIGHT}
	 *         pixels
	 */
	public static ImagePlus render(final String title, final double[] eigenvalues) {
		return render(title, eigenvalues, null);
	}

	/**
	 * {@link #render(String, double[])} with the spectrum behind the kept eigenvalues: its
	 * leading positive eigenvalues (at least {@value #SHOWN}, 3 k when that is more) as
	 * grey circles on a thin line (1, 2, …), the model's k as blue circles; the legend
	 * says which is which and how many eigenvalues there are in all. The negative end of a
	 * contrastive spectrum (directions with more background than target variance) is left
	 * out: it would squeeze the rest onto one line.
	 *
	 * @param spectrum every eigenvalue, largest first, or {@code null} (the k only)
	 */
	public static ImagePlus render(final String title, final double[] eigenvalues,
		final double[] spectrum)
	{
		if (eigenvalues.length == 0) throw new IllegalArgumentException(
			"there are no eigenvalues to plot");
		final double[] positive = spectrum == null ? new double[0] : positive(spectrum);
		// enough of the spectrum to see where the kept ones fall off, not hundreds of values
		// that squeeze the kept ones against the axis
		final double[] all = Arrays.copyOf(positive, Math.min(positive.length, Math
			.max(SHOWN, 3 * eigenvalues.length)));
		final int n = Math.max(eigenvalues.length, all.length);
		final double[] index = new double[eigenvalues.length];
		final double[] withZero = new double[eigenvalues.length + all.length + 1];
		boolean negative = false;
		for (int i = 0; i < index.length; i++) {
			index[i] = i + 1;
			withZero[i] = eigenvalues[i];
			negative |= eigenvalues[i] < 0;
		}
		for (int i = 0; i < all.length; i++) {
			withZero[eigenvalues.length + i] = all[i];
			negative |= all[i] < 0;
		}
		final Plot plot = PlotStyle.plot(title, "component", "eigenvalue");
		plot.setSize(ScatterPlot.WIDTH, ScatterPlot.HEIGHT);
		final double[] yr = PlotStyle.paddedRange(withZero);
		final String legend = all.length == 0 ? null : (negative ? "\n" : "") + "spectrum (" +
			(all.length == spectrum.length ? "all " + all.length : all.length < positive.length
				? "the first " + all.length + " of " + spectrum.length : "the " + all.length +
					" > 0 of " + spectrum.length) + ")\nkept (k = " + eigenvalues.length + ")";
		// the legend in a band above the values or right of them, refitted when the
		// window is drawn smaller (LegendRoom), so that it covers none of them
		final double[] xr = { 0.5, n + 0.5 };
		if (legend != null) {
			final List<String> lines = Arrays.asList(legend.split("\n", -1));
			final double[] limits = LegendRoom.keep(plot, new LegendRoom.Band(xr, yr, false,
				false, PlotStyle.legendWidth(lines), PlotStyle.legendHeight(lines.size())), false);
			xr[1] = limits[1];
			yr[1] = limits[3];
		}
		plot.setLimits(xr[0], xr[1], yr[0], yr[1]);
		if (negative) { // zero, as a data line so that every renderer draws it
			plot.setColor(Color.GRAY);
			plot.setLineWidth(1);
			plot.add("line", new double[] { 0.5, xr[1] }, new double[] { 0, 0 });
		}
		if (all.length > 0) { // the spectrum, behind the kept components
			final double[] x = new double[all.length];
			for (int i = 0; i < x.length; i++)
				x[i] = i + 1;
			plot.setColor(Color.GRAY, Color.GRAY);
			plot.setLineWidth(1);
			plot.add("connected circle", x, all);
		}
		// components are whole numbers: ticks at 1, 2, … (at most about 10 numbers)
		plot.setOptions("xinterval=" + Math.max(1, (n + 9) / 10) + " xdecimals=0");
		plot.setLineWidth(PlotStyle.MARKER_LINE_WIDTH);
		plot.setColor(Palette.color(0), Palette.color(0));
		plot.add("connected circle", index, eigenvalues);
		PlotStyle.title(plot, title);
		// the legend says which is which and how many eigenvalues there are in all (a line
		// at 0 has none)
		if (legend != null) plot.setLegend(legend, Plot.AUTO_POSITION);
		return plot.getImagePlus();
	}

	/**
	 * The leading eigenvalues above zero (rounding-level values, below 10⁻⁹ of the
	 * largest magnitude, count as zero); all of them if none is negative.
	 */
	static double[] positive(final double[] spectrum) {
		double scale = 0;
		for (final double v : spectrum)
			scale = Math.max(scale, Math.abs(v));
		int n = 0;
		while (n < spectrum.length && spectrum[n] > 1e-9 * scale)
			n++;
		boolean negative = false;
		for (final double v : spectrum)
			negative |= v < -1e-9 * scale;
		return negative ? Arrays.copyOf(spectrum, n) : spectrum;
	}
}
