package org.cpca.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.fail;

import ij.ImagePlus;

import java.awt.Color;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * The scatter plots drawn for files ({@link ScatterPlot#image}, markers stamped straight
 * into the pixels) against ImageJ's own drawing of the same plot ({@link
 * ScatterPlot#render}, one marker at a time), pixel for pixel: thousands of points, classes
 * with a legend that ImageJ places in each of the four corners, more classes than colours
 * (other marker shapes), points on the frame, NaN and infinite values. Both are drawn with
 * the same fonts, so the comparison holds whatever fonts the machine has.
 */
class ScatterRasterTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	private static void assertSamePicture(final String what, final double[] x,
		final double[] y, final List<String> classes)
	{
		final ImagePlus theirs = ScatterPlot.render(what, "cPC1", "cPC2", x, y, classes);
		// opaque, as ImageJ draws them: the files' markers are see-through (below)
		final ImagePlus ours = ScatterPlot.image(what, "cPC1", "cPC2", x, y, classes,
			ScatterPlot.CLASS, 1f);
		assertNull(PlotFiles.plotOf(ours), "no plot behind the picture: " + what);
		final int w = theirs.getWidth(), h = theirs.getHeight();
		assertEquals(w, ours.getWidth(), what);
		assertEquals(h, ours.getHeight(), what);
		final int[] a = Rgb.of(theirs).getRGB(0, 0, w, h, null, 0, w);
		final int[] b = Rgb.of(ours).getRGB(0, 0, w, h, null, 0, w);
		int differ = 0, first = -1;
		for (int i = 0; i < a.length; i++)
			if (a[i] != b[i]) {
				if (first < 0) first = i;
				differ++;
			}
		if (differ > 0) fail(what + ": " + differ + " pixels differ, the first at (" + first %
			w + ", " + first / w + "): ImageJ " + Integer.toHexString(a[first]) + ", ours " +
			Integer.toHexString(b[first]));
	}

	@Test
	void thousandsOfPointsWithoutClasses() {
		final Random r = new Random(1);
		final double[] x = new double[5000], y = new double[5000];
		for (int i = 0; i < x.length; i++) {
			x[i] = 3 * r.nextGaussian();
			y[i] = 2 * r.nextGaussian() + 0.3 * x[i];
		}
		assertSamePicture("cPCA α = 5.54102 (target)", x, y, null);
	}

	@Test
	void theLegendGoesWhereImageJPutsIt() {
		// a dense cloud in three corners leaves the fourth for the legend
		final Random r = new Random(2);
		final double[][] corners = { { -1, 1 }, { 1, 1 }, { 1, -1 }, { -1, -1 } };
		for (int empty = 0; empty < 4; empty++) {
			final int n = 3000;
			final double[] x = new double[n], y = new double[n];
			final List<String> classes = new ArrayList<>();
			for (int i = 0; i < n; i++) {
				int c = i % 3;
				if (c >= empty) c++;
				x[i] = corners[c][0] + 0.35 * r.nextGaussian();
				y[i] = corners[c][1] + 0.35 * r.nextGaussian();
				classes.add(i % 2 == 0 ? "treated" : "control, day " + (i % 5));
			}
			// the frame's corners themselves, so that every corner is reached
			x[0] = -1.6;
			y[0] = -1.6;
			x[1] = 1.6;
			y[1] = 1.6;
			assertSamePicture("legend away from corner " + empty, x, y, classes);
		}
	}

	@Test
	void crowdedCornersAndTies() {
		// points everywhere: the legend covers markers wherever it goes
		final Random r = new Random(3);
		final double[] x = new double[4000], y = new double[4000];
		final List<String> classes = new ArrayList<>();
		for (int i = 0; i < x.length; i++) {
			x[i] = r.nextDouble();
			y[i] = r.nextDouble();
			classes.add(i < 100 ? null : i % 3 == 0 ? "a" : "b");
		}
		assertSamePicture("uniform", x, y, classes);
		// ties: ImageJ takes the first free corner of top left, top right, bottom right,
		// bottom left
		final List<String> ab = Arrays.asList("a", "b");
		assertSamePicture("tie at the top", new double[] { 0, 1 }, new double[] { 0, 0 }, ab);
		assertSamePicture("tie at the bottom", new double[] { 0, 1 }, new double[] { 1, 1 },
			ab);
		assertSamePicture("tie on the right", new double[] { 0, 0 }, new double[] { 0, 1 },
			ab);
	}

	@Test
	void moreClassesThanColoursUseOtherShapes() {
		final Random r = new Random(4);
		final int classes = Palette.size() + 3;
		final double[] x = new double[600], y = new double[600];
		final List<String> names = new ArrayList<>();
		for (int i = 0; i < x.length; i++) {
			final int c = i % classes;
			x[i] = c + 0.3 * r.nextGaussian();
			y[i] = (c % 4) + 0.3 * r.nextGaussian();
			names.add("class " + c);
		}
		assertSamePicture("shapes", x, y, names);
	}

	@Test
	void edgesNanInfiniteAndSinglePoints() {
		assertSamePicture("edges", new double[] { 0, 10, 0, 10, 5, Double.NaN, 3,
			Double.POSITIVE_INFINITY, 4 }, new double[] { 0, 0, 10, 10, 5, 2, Double.NaN, 1,
				Double.NEGATIVE_INFINITY }, null);
		assertSamePicture("one point", new double[] { 2 }, new double[] { 3 }, Arrays.asList(
			"only"));
		assertSamePicture("equal values", new double[] { 1, 1, 1 }, new double[] { 2, 2, 2 },
			null);
		assertSamePicture("no points", new double[0], new double[0], null);
	}

	/** The blending table gives the blend's own value for every colour under a marker. */
	@Test
	void theBlendingTableIsTheBlend() {
		for (final float opacity : new float[] { ScatterPlot.OPACITY, 1 / 3f })
			for (int g = 0; g < 3; g++) {
				final int over = Palette.color(g).getRGB() & 0xffffff;
				final int[] table = ScatterRaster.blendTable(over, opacity);
				for (int under = 0; under < 1 << 24; under += g == 0 ? 1 : 251)
					if (ScatterRaster.blend(table, under) != ScatterRaster.blend(over, under,
						opacity)) assertEquals(ScatterRaster.blend(over, under, opacity), ScatterRaster
							.blend(table, under), "colour " + g + " over " + Integer.toHexString(under));
				// the alpha byte of a pixel (ImageJ keeps 0xff there) changes nothing
				assertEquals(ScatterRaster.blend(over, 0x123456, opacity), ScatterRaster.blend(
					table, 0xff123456));
			}
	}

	@Test
	void theFilesMarkersAreSeeThroughSoNoClassHidesAnother() {
		// two points of two classes on one spot: opaque, the later class hides the first;
		// at the files' opacity the overlap is a mix of both colours
		final double[] x = { 0, 0, 1 }, y = { 0, 0, 1 };
		final List<String> classes = Arrays.asList("a", "b", "a");
		final ImagePlus opaque = ScatterPlot.image("t", "x", "y", x, y, classes,
			ScatterPlot.CLASS, 1f);
		final ImagePlus seen = ScatterPlot.image("t", "x", "y", x, y, classes);
		final int a = Palette.color(0).getRGB() & 0xffffff, b = Palette.color(1).getRGB() &
			0xffffff;
		assertTrue(RenderTest.count(opaque.getProcessor(), Palette.color(1)) > 10);
		final int mixed = ScatterRaster.blend(b, ScatterRaster.blend(a, 0xffffff,
			ScatterPlot.OPACITY), ScatterPlot.OPACITY);
		int found = 0;
		for (final int p : (int[]) seen.getProcessor().getPixels())
			if ((p & 0xffffff) == mixed) found++;
		assertTrue(found > 10, "the overlap mixes both classes' colours: " + found);
		// without a legend (one class) no pixel has the opaque colour
		final ImagePlus one = ScatterPlot.image("t", "x", "y", x, y, null);
		int pure = 0;
		for (final int p : (int[]) one.getProcessor().getPixels())
			if ((p & 0xffffff) == a) pure++;
		assertEquals(0, pure, "no marker is drawn opaque");
		assertTrue(ScatterPlot.OPACITY > 0.3 && ScatterPlot.OPACITY < 0.9);
	}

	@Test
	void aDifferenceIsFound() {
		// the comparison itself can fail: one marker of another colour is seen
		final double[] x = { 0, 1, 2 }, y = { 0, 1, 2 };
		final ImagePlus ours = ScatterPlot.image("t", "x", "y", x, y, null);
		final ImagePlus changed = ScatterPlot.image("t", "x", "y", x, y, Arrays.asList("a",
			"a", "b"));
		int differ = 0;
		final int w = ours.getWidth(), h = ours.getHeight();
		final int[] a = Rgb.of(ours).getRGB(0, 0, w, h, null, 0, w);
		final int[] b = Rgb.of(changed).getRGB(0, 0, w, h, null, 0, w);
		for (int i = 0; i < a.length; i++)
			if (a[i] != b[i] && (b[i] & 0xffffff) == (Palette.color(1).getRGB() & 0xffffff))
				differ++;
		assertEquals(true, differ > 20, "the second class's marker is drawn in its colour");
		assertEquals(Color.WHITE.getRGB(), Rgb.of(ours).getRGB(2, 2));
	}
}
