package org.cpca.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.gui.Plot;

import java.awt.Rectangle;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * A plot window drawn at half size (the result windows tiled on a small screen) keeps
 * its legend above the data: checked from the plot's own geometry (its frame, limits and
 * the legend's height in lines), not from pixels of text.
 */
class LegendRoomTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	/** Pixels a marker reaches above its point. */
	private static final int MARKER = 4;

	/** The pixel row of the highest point's marker top, for the plot drawn at w × h. */
	private static double dataTop(final Plot p, final double maxY, final int w,
		final int h)
	{
		p.setSize(w, h);
		p.getImagePlus();
		p.updateImage();
		return p.scaleYtoPxl(maxY) - MARKER;
	}

	@Test
	void aScatterPlotAtHalfSizeKeepsItsLegendAboveThePoints() {
		final Random r = new Random(3);
		final int n = 300;
		final double[] x = new double[n], y = new double[n];
		final List<String> classes = new ArrayList<>();
		double maxY = Double.NEGATIVE_INFINITY;
		for (int i = 0; i < n; i++) {
			x[i] = r.nextGaussian();
			y[i] = r.nextGaussian();
			maxY = Math.max(maxY, y[i]);
			classes.add(i % 2 == 0 ? "0" : "1");
		}
		// the legend: its title and two classes
		final double legend = PlotStyle.legendHeight(3);
		// the window tiled at half size: its plot 295 × 201 pixels
		final int w = 295, h = 201;
		final Plot before = ScatterPlot.plot("t", "x", "y", x, y, classes);
		final Rectangle frame = PlotStyle.frame(w, h);
		// without refitting, the band measured at 600 × 450 is too low: the legend covers
		// points (the screenshot of docs/images/imagej-results.png)
		assertTrue(dataTop(before, maxY, w, h) < frame.y + legend, "covered before");
		final Plot after = ScatterPlot.plot("t", "x", "y", x, y, classes);
		final double share = LegendRoom.fit(after, w, h);
		assertTrue(share > 0 && share < LegendRoom.MOST, "" + share);
		dataTop(after, maxY, w, h);
		// the legend where ImageJ draws it at that size (the first free corner, top left
		// or top right), measured from its drawing: over no point
		final Rectangle left = ScatterPlot.legendBox(classes, ScatterPlot.CLASS,
			Plot.TOP_LEFT, w, h), right = ScatterPlot.legendBox(classes, ScatterPlot.CLASS,
				Plot.TOP_RIGHT, w, h);
		assertTrue(left.height > 40 && left.y < frame.y + 10, "three lines at the top: " +
			left);
		int underLeft = 0, underRight = 0;
		for (int i = 0; i < n; i++) {
			final Rectangle marker = new Rectangle((int) after.scaleXtoPxl(x[i]) - MARKER,
				(int) after.scaleYtoPxl(y[i]) - MARKER, 2 * MARKER + 1, 2 * MARKER + 1);
			if (marker.intersects(left)) underLeft++;
			if (marker.intersects(right)) underRight++;
		}
		assertEquals(0, Math.min(underLeft, underRight), underLeft + " points under the " +
			"legend at the top left, " + underRight + " at the top right, at " + w + " × " + h);
		// at the default size, the limits are the ones drawn before (figures unchanged)
		final Plot full = ScatterPlot.plot("t", "x", "y", x, y, classes);
		final double[] limits = full.getLimits();
		LegendRoom.fit(full, ScatterPlot.WIDTH, ScatterPlot.HEIGHT);
		assertEquals(limits[3], full.getLimits()[3], 1e-9 * Math.abs(limits[3]));
	}

	private static Rectangle difference(final Object a, final Object b, final int w) {
		final int[] p = (int[]) a, q = (int[]) b;
		int x0 = Integer.MAX_VALUE, y0 = Integer.MAX_VALUE, x1 = -1, y1 = -1;
		for (int i = 0; i < p.length; i++)
			if (p[i] != q[i]) {
				x0 = Math.min(x0, i % w);
				x1 = Math.max(x1, i % w);
				y0 = Math.min(y0, i / w);
				y1 = Math.max(y1, i / w);
			}
		return x1 < 0 ? new Rectangle() : new Rectangle(x0, y0, x1 - x0 + 1, y1 - y0 + 1);
	}

	/**
	 * The variance pairs (a sweep and four chosen α) at half size: its legend, too tall
	 * for a band above the pairs there, goes right of them, and no pair lies in it.
	 */
	@Test
	void theVariancePairsAtHalfSizeKeepTheirLegendOffThePairs() {
		final int m = 40;
		final double[] grid = new double[m], tv = new double[m], bv = new double[m];
		for (int i = 0; i < m; i++) {
			grid[i] = i == 0 ? 0 : Math.pow(10, -2 + 4.0 * i / m);
			tv[i] = 1e5 / (1 + grid[i]);
			bv[i] = 1e5 / Math.pow(1 + grid[i], 3);
		}
		final double[] chosen = { grid[0], grid[10], grid[20], grid[30] };
		assertNoPointInTheBandAtHalfSize(PlotFiles.plotOf(VariancePairsPlot.render("pairs",
			grid, tv, bv, chosen)), tv, bv);
	}

	/**
	 * Draws the plot at 295 × 201 after {@link LegendRoom#fit} and checks that no marker
	 * of the points (x, y) reaches into the legend's band, above or right of the data.
	 */
	private static void assertNoPointInTheBandAtHalfSize(final Plot p, final double[] x,
		final double[] y)
	{
		final int w = 295, h = 201;
		final double share = LegendRoom.fit(p, w, h);
		assertTrue(share > 0 && share < LegendRoom.MOST, "" + share);
		p.setSize(w, h);
		p.updateImage();
		final Rectangle frame = p.getDrawingFrame();
		final LegendRoom.Band band = LegendRoom.band(p);
		final boolean right = p.getLimits()[1] > band.x[1] * 1.0001;
		for (int i = 0; i < x.length; i++) {
			final double px = p.scaleXtoPxl(x[i]) + MARKER, py = p.scaleYtoPxl(y[i]) - MARKER;
			if (right) assertTrue(px <= frame.x + frame.width - band.width + 1, i + ": " + px);
			else assertTrue(py >= frame.y + band.height - 1, i + ": " + py);
		}
	}

	/**
	 * The eigenvalue plot (k = 2 kept of a spectrum of 598, the first 20 shown) at half
	 * size: no value, kept or of the spectrum, lies in its legend's band (before, ImageJ's
	 * automatic corner put the legend over the first kept value at this size).
	 */
	@Test
	void theEigenvaluesAtHalfSizeKeepTheirLegendOffTheValues() {
		final double[] spectrum = new double[598];
		for (int i = 0; i < spectrum.length; i++)
			spectrum[i] = 4.3e5 * Math.pow(0.7, i);
		final double[] kept = { spectrum[0], spectrum[1] };
		final double[] index = new double[20];
		for (int i = 0; i < index.length; i++)
			index[i] = i + 1;
		assertNoPointInTheBandAtHalfSize(PlotFiles.plotOf(ScreePlot.render("eigenvalues",
			kept, spectrum)), index, Arrays.copyOf(spectrum, index.length));
	}

	@Test
	void aPlotWithoutALegendBandIsLeftAsItIs() {
		final Plot p = PlotStyle.plot("t", "x", "y");
		p.setLimits(0, 1, 0, 1);
		assertEquals(0, LegendRoom.fit(p, 295, 201));
		assertEquals(1, p.getLimits()[3]);
	}
}
