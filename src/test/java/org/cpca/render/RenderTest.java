package org.cpca.render;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;
import ij.gui.Plot;
import ij.process.ByteProcessor;
import ij.process.ColorProcessor;
import ij.process.FloatProcessor;
import ij.process.ImageProcessor;

import java.awt.Color;
import java.awt.Rectangle;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import javax.imageio.ImageIO;

import org.cpca.image.ComponentImages;
import org.cpca.image.FeatureLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plots and pictures. Their text is drawn with whatever fonts the machine has, so the
 * tests check properties no font changes (sizes, colours of markers and lines, layout),
 * never the pixels of rendered text.
 */
class RenderTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	@TempDir
	Path dir;

	static int count(final ImageProcessor ip, final Color c) {
		final ImageProcessor rgb = ip instanceof ColorProcessor ? ip : ip.convertToRGB();
		final int target = c.getRGB() & 0xffffff;
		int n = 0;
		for (int i = 0; i < rgb.getPixelCount(); i++)
			if ((rgb.get(i) & 0xffffff) == target) n++;
		return n;
	}

	private static ImagePlus twoClassPlot() {
		final double[] x = { 0, 1, 2, 3, 10, 11, 12, 13 };
		final double[] y = { 0, 1, 0, 1, 5, 6, 5, 6 };
		final List<String> classes = Arrays.asList("control", "control", "control",
			"control", "treated", "treated", "treated", "treated");
		return ScatterPlot.render("cPC1 vs cPC2", "cPC1", "cPC2", x, y, classes);
	}

	@Test
	void scatterPlotDrawsOneColourPerClass() {
		final ImagePlus imp = twoClassPlot();
		assertEquals(ScatterPlot.WIDTH, imp.getWidth());
		assertEquals(ScatterPlot.HEIGHT, imp.getHeight());
		final ImageProcessor ip = imp.getProcessor();
		assertTrue(count(ip, Palette.color(0)) > 10, "first class colour drawn");
		assertTrue(count(ip, Palette.color(1)) > 10, "second class colour drawn");
		assertEquals(0, count(ip, Palette.color(2)), "no third class");
	}

	@Test
	void scatterPlotWithoutClassesUsesOneColour() {
		final ImagePlus imp = ScatterPlot.render("t", "x", "y", new double[] { 1, 2, 3 },
			new double[] { 3, 1, 2 }, null);
		assertTrue(count(imp.getProcessor(), Palette.color(0)) > 10);
		assertEquals(0, count(imp.getProcessor(), Palette.color(1)));
	}

	@Test
	void theLegendSitsAboveThePointsAndCoversNone() {
		// points up to both top corners of their range, 2 to 8 classes: ImageJ puts the
		// legend at the top left, in a band the limits leave free above the highest point
		final java.util.Random r = new java.util.Random(5);
		for (final int classes : new int[] { 2, 5, 9 }) {
			final int n = 400;
			final double[] x = new double[n], y = new double[n];
			final java.util.List<String> names = new java.util.ArrayList<>();
			for (int i = 0; i < n; i++) {
				x[i] = r.nextDouble();
				y[i] = r.nextDouble();
				names.add("group " + (i % classes));
			}
			x[0] = 0;
			y[0] = 1;
			x[1] = 1;
			y[1] = 1; // the top corners
			final ij.gui.Plot p = ScatterPlot.plot("t", "x", "y", x, y, names);
			p.getImagePlus();
			// the legend where ImageJ puts it: the first free corner, top left or top right
			final java.awt.Rectangle box = ScatterPlot.legendBox(names, ScatterPlot.CLASS,
				ij.gui.Plot.TOP_LEFT), right = ScatterPlot.legendBox(names, ScatterPlot.CLASS,
					ij.gui.Plot.TOP_RIGHT);
			int underLeft = 0, underRight = 0;
			for (int i = 0; i < n; i++) {
				// a marker reaches 4 pixels around its point
				final java.awt.Rectangle marker = new java.awt.Rectangle((int) p.scaleXtoPxl(x[i]) -
					4, (int) p.scaleYtoPxl(y[i]) - 4, 9, 9);
				if (marker.intersects(box)) underLeft++;
				if (marker.intersects(right)) underRight++;
			}
			assertTrue(underLeft == 0 || underRight == 0, classes + " classes: " + underLeft +
				" points under the legend at the top left, " + underRight + " at the top right");
		}
	}

	@Test
	void classesAreSortedInTheLegendAndColouredInThatOrder() {
		final ImagePlus imp = ScatterPlot.render("t", "x", "y", new double[] { 1, 2, 3 },
			new double[] { 3, 1, 2 }, Arrays.asList("b", null, "a"));
		for (int c = 0; c < 3; c++)
			assertTrue(count(imp.getProcessor(), Palette.color(c)) > 5, "class " + c);
		// the demo's legend listed "1" above "0" (order of first appearance)
		assertEquals(Arrays.asList("0", "1", "2", "10", "a", "B", "b", ScatterPlot.UNLABELLED),
			ScatterPlot.classOrder(Arrays.asList("10", "b", null, "1", "a", "2", "0", "B")));
		// the legend: its title, then the classes in that order, each in its colour
		final ij.gui.Plot p = ScatterPlot.plot("t", "x", "y", new double[] { 1, 2, 3, 4 },
			new double[] { 1, 2, 3, 4 }, Arrays.asList("1", "0", "1", "0"));
		p.getImagePlus();
		assertEquals(ScatterPlot.CLASS, p.getPlotObjectLabel(0));
		assertEquals("0", p.getPlotObjectLabel(1));
		assertEquals("1", p.getPlotObjectLabel(2));
		assertTrue(p.getPlotObjectStyle(1).startsWith(ij.plugin.Colors.colorToString(Palette
			.color(0))), p.getPlotObjectStyle(1));
		final float[][] zero = p.getDataObjectArrays(1);
		assertArrayEquals(new float[] { 2, 4 }, zero[0]);
		assertThrows(IllegalArgumentException.class, () -> ScatterPlot.render("t", "x",
			"y", new double[2], new double[3], null));
		assertThrows(IllegalArgumentException.class, () -> ScatterPlot.render("t", "x",
			"y", new double[2], new double[2], Arrays.asList("a")));
	}

	/**
	 * The legend's title line has no marker: it was a trace drawn as a 1-pixel black dot,
	 * a stray mark left of "class".
	 */
	@Test
	void theLegendTitleHasNoMarker() {
		final List<String> classes = Arrays.asList("1", "0", "1", "0");
		final Plot p = ScatterPlot.plot("t", "x", "y", new double[] { 1, 2, 3, 4 },
			new double[] { 1, 2, 3, 4 }, classes);
		p.setLegend(ScatterPlot.CLASS + "\n0\n1", Plot.TOP_LEFT);
		final ImageProcessor ip = p.getImagePlus().getProcessor();
		final Rectangle box = ScatterPlot.legendBox(classes, ScatterPlot.CLASS,
			Plot.TOP_LEFT);
		// the sample column of the first line: where a marker would be, left of the text
		int dark = 0;
		for (int y = box.y + 2; y < box.y + box.height / 3; y++)
			for (int x = box.x + 2; x < box.x + (int) ScatterPlot.LEGEND_SAMPLE - 6; x++) {
				final int c = ip.getPixel(x, y);
				if (((c >> 16) & 255) < 120 && ((c >> 8) & 255) < 120 && (c & 255) < 120) dark++;
			}
		assertEquals(0, dark, "dark pixels left of the legend's title in " + box);
		// the class lines keep their markers
		int marked = 0;
		for (int y = box.y + box.height / 3; y < box.y + box.height; y++)
			for (int x = box.x + 2; x < box.x + (int) ScatterPlot.LEGEND_SAMPLE - 6; x++)
				if (ip.getPixel(x, y) == Palette.color(0).getRGB() || ip.getPixel(x, y) == Palette
					.color(1).getRGB()) marked++;
		assertTrue(marked > 10, "" + marked);
	}

	@Test
	void paletteIsFixedAndDistinct() {
		assertEquals(8, Palette.size());
		assertEquals(8, Stream.iterate(0, i -> i + 1).limit(8).map(Palette::color)
			.collect(Collectors.toSet()).size());
		assertEquals(Palette.color(0), Palette.color(8));
		assertEquals("circle", Palette.shape(7));
		assertNotEquals("circle", Palette.shape(8));
	}

	@Test
	void pngIsWrittenAtomicallyAndReadsBack() throws IOException {
		final ImagePlus imp = twoClassPlot();
		final Path png = dir.resolve("plots").resolve("scatter.png");
		PlotFiles.savePng(imp, png);
		assertTrue(Files.size(png) > 0);
		final BufferedImage back = ImageIO.read(png.toFile());
		assertNotNull(back);
		assertEquals(imp.getWidth(), back.getWidth());
		assertEquals(imp.getHeight(), back.getHeight());
		final ColorProcessor cp = new ColorProcessor(back);
		assertTrue(count(cp, Palette.color(1)) > 10);
		// overwriting works and leaves no temporary file behind
		PlotFiles.savePng(ScatterPlot.render("t", "x", "y", new double[] { 1 },
			new double[] { 1 }, null), png);
		assertEquals(1, ImageIO.read(png.toFile()).getWidth() / ScatterPlot.WIDTH);
		try (Stream<Path> s = Files.list(png.getParent())) {
			assertEquals(Arrays.asList("scatter.png"), s.map(p -> p.getFileName()
				.toString()).collect(Collectors.toList()));
		}
	}

	@Test
	void pngOfAnEigenImageUsesTheDivergingTable() throws IOException {
		final ImagePlus eig = ComponentImages.eigenImages("c", new double[][] { { -1, 0,
			1, 0 } }, FeatureLayout.full(2, 2, 1), null);
		final Path png = dir.resolve("eig.png");
		PlotFiles.savePng(eig, png);
		final BufferedImage back = ImageIO.read(png.toFile());
		final Color neg = new Color(back.getRGB(0, 0));
		final Color zero = new Color(back.getRGB(1, 0));
		final Color pos = new Color(back.getRGB(0, 1));
		assertTrue(neg.getBlue() > neg.getRed(), "negative is blue: " + neg);
		assertTrue(pos.getRed() > pos.getBlue(), "positive is red: " + pos);
		assertTrue(zero.getRed() > 240 && zero.getGreen() > 240 && zero.getBlue() > 240,
			"zero is white: " + zero);
	}

	@Test
	void montageIsAGridOfPanels() {
		final ImagePlus a = twoClassPlot();
		final ImagePlus small = new ImagePlus("small", new ByteProcessor(100, 80));
		final ImagePlus f = new ImagePlus("float", new FloatProcessor(50, 50));
		final List<ImagePlus> panels = Arrays.asList(a, small, f, a, a);
		final ImagePlus m = Panels.montage(panels, 3);
		assertEquals(24, m.getBitDepth());
		assertEquals(3 * ScatterPlot.WIDTH, m.getWidth());
		assertEquals(2 * ScatterPlot.HEIGHT, m.getHeight());
		final ImagePlus one = Panels.montage(Arrays.asList(small, small), 4);
		assertEquals(200, one.getWidth());
		assertEquals(80, one.getHeight());
		// white padding around a smaller panel, black content of the panel itself
		final ImagePlus mixed = Panels.montage(Arrays.asList(a, small), 2);
		assertEquals(0xffffff, mixed.getProcessor().get(ScatterPlot.WIDTH + 150, 300) &
			0xffffff);
		assertEquals(0, mixed.getProcessor().get(ScatterPlot.WIDTH + 10, 10) & 0xffffff);
		assertThrows(IllegalArgumentException.class, () -> Panels.montage(Arrays.asList(),
			2));
		assertThrows(IllegalArgumentException.class, () -> Panels.montage(panels, 0));
	}

	@Test
	void screePlotRenders() {
		final ImagePlus imp = ScreePlot.render("eigenvalues", new double[] { 5, 2, 0.5,
			-1 });
		assertEquals(ScatterPlot.WIDTH, imp.getWidth());
		assertTrue(count(imp.getProcessor(), Palette.color(0)) > 10);
		assertFalse(imp.getProcessor().getStats().stdDev == 0);
		assertThrows(IllegalArgumentException.class, () -> ScreePlot.render("e",
			new double[0]));
	}
}
