package org.cpca.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;
import ij.ImageStack;
import ij.process.FloatProcessor;

import java.awt.Dimension;
import java.awt.Point;
import java.awt.Rectangle;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.cpca.core.Progress;
import org.cpca.core.run.Settings;
import org.junit.jupiter.api.Test;

/**
 * The windows of one run: every image the views make is marked as a result of that run
 * (so no dialog offers it as the default target) and titled with the target's name, and
 * the tiling puts them side by side on the screen instead of on each other.
 */
class ResultWindowsTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	private static ImagePlus stack(final String title, final long seed) {
		final Random r = new Random(seed);
		final ImageStack s = new ImageStack(16, 12);
		for (int i = 0; i < 20; i++) {
			final float[] p = new float[16 * 12];
			for (int j = 0; j < p.length; j++)
				p[j] = (float) (r.nextGaussian() + (j % 16) * r.nextGaussian());
			s.addSlice(i < 10 ? "0" : "1", new FloatProcessor(16, 12, p));
		}
		return new ImagePlus(title, s);
	}

	@Test
	void everyViewIsAResultOfItsRunTitledWithTheTarget() {
		final Analysis a = Analysis.run(new AnalysisRequest().target(stack("cells.tif", 1))
			.background(stack("b.tif", 2)).samples(Samples.SLICES).settings(Settings.builder()
				.set("alpha_mode", "auto").set("components", 2).build()), Progress.NONE);
		final AnalysisViews v = a.views();
		final List<ImagePlus> views = new ArrayList<>(v.scatterPlots());
		final ImagePlus eigen = v.eigenImages();
		views.add(eigen);
		views.add(v.eigenImageFigure(eigen));
		views.add(v.screePlot());
		views.add(v.variancePairsPlot());
		views.addAll(v.curvePlots());
		assertTrue(views.size() >= 6, "" + views.size());
		for (final ImagePlus imp : views) {
			assertTrue(ResultWindows.isResult(imp), imp.getTitle());
			assertEquals(a.run, imp.getProp(ResultWindows.PROPERTY), imp.getTitle());
			assertTrue(imp.getTitle().contains("cells.tif"), imp.getTitle());
		}
		assertEquals("cPCA scores of cells.tif", v.scoresTitle());
		assertEquals("cPCA components of cells.tif", v.componentsTitle());
		assertFalse(ResultWindows.isResult(stack("cells.tif", 1)));
		// a later run has its own mark
		final Analysis b = Analysis.run(new AnalysisRequest().target(stack("cells.tif", 1))
			.background(stack("b.tif", 2)).samples(Samples.SLICES).settings(Settings.builder()
				.set("alpha_mode", "fixed").set("alpha", 1.0).build()), Progress.NONE);
		assertNotEquals(a.run, b.run);
	}

	/**
	 * The tiling waits until the windows hold still: a window still growing (a plot
	 * window packed with its buttons after it appeared) is not tiled mid-way.
	 */
	@Test
	void theTilingWaitsUntilTheWindowsHoldStill() {
		final long[] now = { 0 };
		final int[] height = { 471 };
		final List<Integer> seen = new ArrayList<>();
		// a window that grows on the first looks, then stays
		final int looks = ResultWindows.waitUntilStill(() -> {
			seen.add(height[0]);
			final List<Rectangle> b = new ArrayList<>();
			b.add(new Rectangle(36, 129, 610, height[0]));
			if (seen.size() < 3) height[0] += 14;
			return b;
		}, () -> now[0] += ResultWindows.LOOK, ResultWindows.MAX_WAIT, () -> now[0]);
		assertEquals(4, looks, seen.toString());
		assertEquals(List.of(471, 485, 499, 499), seen);
		// windows that never hold still: tiled anyway after the longest wait
		now[0] = 0;
		final int[] k = { 0 };
		final int many = ResultWindows.waitUntilStill(() -> List.of(new Rectangle(k[0]++, 0,
			1, 1)), () -> now[0] += ResultWindows.LOOK, ResultWindows.MAX_WAIT, () -> now[0]);
		assertEquals(1 + ResultWindows.MAX_WAIT / ResultWindows.LOOK + (ResultWindows.MAX_WAIT %
			ResultWindows.LOOK == 0 ? 0 : 1), many);
	}

	@Test
	void theLayoutPutsWindowsSideBySideWithoutOverlap() {
		final Rectangle area = new Rectangle(0, 100, 1560, 900);
		final List<Dimension> sizes = new ArrayList<>();
		for (int i = 0; i < 10; i++) // ten windows, as one automatic-α run opens
			sizes.add(new Dimension(i % 3 == 0 ? 400 : 300, i % 2 == 0 ? 280 : 200));
		final List<Point> at = ResultWindows.layout(sizes, area);
		assertEquals(sizes.size(), at.size());
		final List<Rectangle> boxes = new ArrayList<>();
		for (int i = 0; i < sizes.size(); i++)
			boxes.add(new Rectangle(at.get(i), sizes.get(i)));
		for (int i = 0; i < boxes.size(); i++) {
			assertTrue(area.contains(boxes.get(i)), i + ": " + boxes.get(i));
			for (int j = 0; j < i; j++)
				assertFalse(boxes.get(i).intersects(boxes.get(j)), i + " covers " + j);
		}
		// the first row starts at the area's corner, the second below the first's tallest
		assertEquals(new Point(0, 100), at.get(0));
		assertEquals(new Point(400 + ResultWindows.GAP, 100), at.get(1));
	}

	@Test
	void windowsBeyondTheScreenStartOverShiftedSoThatEachTitleShows() {
		final Rectangle area = new Rectangle(0, 0, 1000, 800);
		final List<Dimension> sizes = new ArrayList<>();
		for (int i = 0; i < 8; i++)
			sizes.add(new Dimension(600, 500));
		final List<Point> at = ResultWindows.layout(sizes, area);
		// one per row, one row fits; then each starts over 30 px further in
		assertEquals(new Point(0, 0), at.get(0));
		assertEquals(new Point(30, 30), at.get(1));
		assertEquals(new Point(60, 60), at.get(2));
		for (int i = 1; i < at.size(); i++)
			assertNotEquals(at.get(i - 1), at.get(i));
	}

	/**
	 * The windows of an automatic-α run on a 1560 × 1000 screen (six 610 × 499 plots,
	 * the eigen-images, the figure, two tables) do not fit side by side at full size:
	 * they are zoomed out to the largest ImageJ zoom level at which they do.
	 */
	@Test
	void windowsThatDoNotFitAreZoomedOutJustEnough() {
		final Rectangle area = new Rectangle(0, 76, 1560, 924);
		final List<Dimension> sizes = new ArrayList<>();
		for (int i = 0; i < 6; i++)
			sizes.add(new Dimension(610, 499));
		sizes.add(new Dimension(186, 75));
		sizes.add(new Dimension(400, 729));
		sizes.add(new Dimension(380, 500));
		sizes.add(new Dimension(700, 300));
		final boolean[] none = new boolean[sizes.size()];
		final double s = ResultWindows.scale(sizes, none, area);
		assertTrue(s < 1, "" + s);
		final List<Dimension> scaled = ResultWindows.scaled(sizes, none, s);
		assertFalse(ResultWindows.overlap(ResultWindows.layout(scaled, area), scaled));
		// and not further than needed: the next larger level does not fit
		int k = 0;
		while (ResultWindows.SCALES[k] != s)
			k++;
		final double larger = ResultWindows.SCALES[k - 1];
		final List<Dimension> big = ResultWindows.scaled(sizes, none, larger);
		assertTrue(ResultWindows.overlap(ResultWindows.layout(big, area), big));
		// a few small windows keep their size
		assertEquals(1.0, ResultWindows.scale(sizes.subList(6, 8), new boolean[2], area));
		// a window that keeps its size (a small image) counts at full size
		final boolean[] figureFixed = new boolean[sizes.size()];
		figureFixed[7] = true;
		final List<Dimension> withFigure = ResultWindows.scaled(sizes, figureFixed, 0.5);
		assertEquals(new Dimension(400, 729), withFigure.get(7));
		assertEquals(new Dimension(305, 250), withFigure.get(0));
	}

	/** Eigen-images of 28 × 28 pixels are shown 7 times larger, 200 pixels across. */
	@Test
	void smallImagesAreZoomedInToBeSeen() {
		assertEquals(7, ResultWindows.zoomIn(28, 28));
		assertEquals(8, ResultWindows.zoomIn(16, 12));
		assertEquals(1, ResultWindows.zoomIn(256, 100));
		assertEquals(2, ResultWindows.zoomIn(64, 100));
	}
}
