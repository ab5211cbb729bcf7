package org.cpca.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;
import ij.gui.Plot;
import ij.process.ColorProcessor;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilderFactory;

import org.cpca.core.Curve;
import org.cpca.image.ComponentImages;
import org.cpca.image.FeatureLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Figures for papers: vector and high-resolution files, fitted axes, log β, whole-number
 * scree ticks, colour bars and human labels. Only font-independent properties are
 * checked (the SVG's text content and structure, plot data and limits, pixel colours
 * away from text), never rendered text pixels.
 */
class FiguresTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	@TempDir
	Path dir;

	private static Document parse(final String svg) throws Exception {
		return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(
			new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
	}

	private static List<String> texts(final Document d) {
		final NodeList n = d.getElementsByTagName("text");
		final List<String> out = new ArrayList<>();
		for (int i = 0; i < n.getLength(); i++)
			out.add(n.item(i).getTextContent());
		return out;
	}

	private static Plot plot(final ImagePlus imp) {
		final Plot p = PlotFiles.plotOf(imp);
		assertNotNull(p, "a real ImageJ plot behind " + imp.getTitle());
		return p;
	}

	@Test
	void scatterPlotAsSvgHasEveryPointLabelsAndLegend() throws Exception {
		final double[] x = { 0, 1, 2, 3, 10, 11, 12, 13 };
		final double[] y = { 0, 1, 0, 1, 5, 6, 5, 6 };
		final ImagePlus imp = ScatterPlot.render("two groups", "cPC1", "cPC2", x, y, Arrays
			.asList("control", "control", "control", "control", "treated", "treated",
				"treated", "treated"));
		final Document d = parse(PlotSvg.svg(plot(imp), imp.getWidth(), imp.getHeight()));
		assertEquals("600", d.getDocumentElement().getAttribute("width"));
		// 8 points as circles (the second class differs by colour), plus one legend marker
		// per class
		assertEquals(8 + 2, d.getElementsByTagName("circle").getLength());
		final List<String> t = texts(d);
		for (final String s : new String[] { "two groups", "cPC1", "cPC2", "control",
			"treated" })
			assertTrue(t.contains(s), s + " in " + t);
		// the colours are the palette's
		final String svg = PlotSvg.svg(plot(imp), 600, 450);
		assertTrue(svg.contains(Svg.color(Palette.color(0))));
		assertTrue(svg.contains(Svg.color(Palette.color(1))));
	}

	@Test
	void saveFigureWritesPngHighResolutionPngSvgAndPdf() throws Exception {
		final ImagePlus imp = ScreePlot.render("eigenvalues", new double[] { 5, 3, 1 });
		final Path png = dir.resolve("plots/eigenvalues.png");
		PlotFiles.saveFigure(imp, png);
		final BufferedImage small = ImageIO.read(png.toFile());
		final BufferedImage big = ImageIO.read(dir.resolve("plots/eigenvalues_hires.png")
			.toFile());
		assertEquals(PlotFiles.HIRES * small.getWidth(), big.getWidth());
		assertEquals(PlotFiles.HIRES * small.getHeight(), big.getHeight());
		// drawn at that size, not enlarged: the marker colour covers about HIRES² as many
		// pixels, and the high-resolution image is not a pixel replication of the small one
		final int a = RenderTest.count(new ColorProcessor(small), Palette.color(0));
		final int b = RenderTest.count(new ColorProcessor(big), Palette.color(0));
		assertTrue(b > 3 * a && a > 0, a + " vs " + b);
		final Document d = parse(Files.readString(dir.resolve("plots/eigenvalues.svg")));
		assertEquals("svg", d.getDocumentElement().getNodeName());
		try (java.util.stream.Stream<Path> s = Files.list(dir.resolve("plots"))) {
			assertEquals(4, s.count(), "png, hi-res png, svg and pdf, and no temporary file");
		}
	}

	@Test
	void screePlotShowsEveryComponentWithWholeNumberTicks() throws Exception {
		final ImagePlus imp = ScreePlot.render("eigenvalues", new double[] { 4, -1 });
		final Plot p = plot(imp);
		// every component is drawn
		float[][] data = null;
		for (int i = 0; i < p.getNumPlotObjects(); i++) {
			final float[][] o = p.getDataObjectArrays(i);
			if (o != null && o[0].length == 2 && o[0][0] == 1) data = o;
		}
		assertNotNull(data);
		assertEquals(2, data[0][1]);
		assertEquals(-1, data[1][1]);
		// tick numbers: whole numbers only
		final List<String> t = texts(parse(PlotSvg.svg(p, 600, 450)));
		assertTrue(t.contains("1") && t.contains("2"), t.toString());
		assertFalse(t.contains("1.5") || t.contains("0.5"), t.toString());
		// 0 is inside the y range (a negative eigenvalue)
		assertTrue(p.getLimits()[2] < -1 && p.getLimits()[3] > 4);
	}

	@Test
	void curveAxesFitEverySeriesAndUseHumanLabels() {
		final Map<String, double[]> s = new LinkedHashMap<>();
		s.put("alignment", new double[] { 0.1, 0.5, 0.9 });
		s.put("subspace_change", new double[] { 3, 1, 0.01 });
		final ImagePlus imp = CurvePlot.render(new Curve("convergence", "convergence",
			"samples_seen", "alignment, change", false, new double[] { 100, 200, 300 }, s));
		final Plot p = plot(imp);
		assertEquals("samples seen", p.getLabel('x'));
		final double[] lim = p.getLimits();
		assertTrue(lim[2] <= 0.01 && lim[3] >= 3, Arrays.toString(lim));
		assertEquals("alignment with offline cPCA*", p.getPlotObjectLabel(0));
	}

	@Test
	void betaCurveHasALogAxisAndShowsBetaZeroAsALine() throws Exception {
		final double[] beta = { 0, 1e-4, 1e-3, 1e-2, 1e-1, 1 };
		final Map<String, double[]> s = Map.of("lda_accuracy", new double[] { 0.5, 0.9,
			0.95, 0.97, 0.98, 0.98 });
		final ImagePlus imp = CurvePlot.render(new Curve("sep", "LDA accuracy against β",
			"beta", "LDA accuracy", true, beta, s));
		final Plot p = plot(imp);
		assertTrue((p.getFlags() & Plot.X_LOG_NUMBERS) != 0, "log β axis");
		assertEquals("β", p.getLabel('x'));
		// the five positive β as one series, β = 0 as a horizontal line at its value
		assertEquals(5, p.getDataObjectArrays(0)[0].length);
		final float[][] zero = p.getDataObjectArrays(1);
		assertEquals(0.5f, zero[1][0]);
		assertEquals(0.5f, zero[1][1]);
		assertEquals("LDA accuracy at β = 0", p.getPlotObjectLabel(1));
		assertTrue(p.getLimits()[2] < 0.5);
		// the SVG shows decades 1e-4 … 1
		final List<String> t = texts(parse(PlotSvg.svg(p, 600, 450)));
		assertTrue(t.contains("10⁻⁴") && t.contains("0.01") && t.contains("1"), t.toString());
	}

	@Test
	void eigenImageMontageHasADivergingColourBarCentredOnZero() throws Exception {
		final ImagePlus stack = ComponentImages.eigenImages("e", new double[][] { { -1, 0, 2,
			0 }, { 0, 1, 0, -0.5 } }, FeatureLayout.full(2, 2, 1), Arrays.asList("cPC1 α=2 λ=1",
				"cPC2 α=2 λ=0.5"));
		assertEquals(-2, stack.getDisplayRangeMin(), 1e-12);
		assertEquals(2, stack.getDisplayRangeMax(), 1e-12);
		final ImagePlus m = Montage.render(stack, 2, 1);
		final ColorProcessor cp = (ColorProcessor) m.getProcessor();
		final int bx = 2 * (Montage.TILE + Montage.GAP) + Montage.BAR / 2, by = Montage.BAR_TOP;
		final Color top = new Color(cp.get(bx, by + 2)), mid = new Color(cp.get(bx, by +
			Montage.TILE / 2)), bottom = new Color(cp.get(bx, by + Montage.TILE - 3));
		assertTrue(top.getRed() > 150 && top.getBlue() < 80, "red at +max: " + top);
		assertTrue(bottom.getBlue() > 150 && bottom.getRed() < 80, "blue at −max: " + bottom);
		assertTrue(mid.getRed() > 230 && mid.getGreen() > 230 && mid.getBlue() > 230,
			"white at 0: " + mid);
		final Document d = parse(Montage.svg(stack, 2));
		final List<String> t = texts(d);
		assertTrue(t.containsAll(List.of("2", "0", "-2", "cPC1 α=2", "λ=1")), t.toString());
		assertEquals(2, d.getElementsByTagName("image").getLength());
		assertEquals(1, d.getElementsByTagName("linearGradient").getLength());
		final Element first = (Element) d.getElementsByTagName("stop").item(0);
		assertEquals(Svg.color(new Color(stack.getProcessor().getLut().getRGB(0))), first
			.getAttribute("stop-color"));
		final ImagePlus big = Montage.render(stack, 2, 3);
		assertEquals(3 * m.getWidth(), big.getWidth());
		// the bar is titled, its ticks round and in one number form (once ±0.152 and
		// "λ=4.303e+05" beside "λ=8055")
		final java.nio.file.Path f = java.nio.file.Files.createTempFile("model", ".json");
		java.nio.file.Files.write(f, ("{\"format\": \"contrastive-pca-model\", " +
			"\"version\": 1, \"method\": \"cpca\", \"alpha\": 2, \"parameters\": {}, " +
			"\"components\": [[0.152, -0.03, 0.01, -0.1], [0.05, 0.1, -0.12, 0]], " +
			"\"eigenvalues\": [430312, 8055.4], \"target_variance\": [1, 1], " +
			"\"background_variance\": [1, 1], \"target_total_variance\": 2, " +
			"\"mean\": [0, 0, 0, 0], \"scale\": null}").getBytes(
				java.nio.charset.StandardCharsets.UTF_8));
		final ImagePlus eigen = ModelViews.eigenImages("e", List.of(
			org.cpca.core.modelfile.ModelFile.read(f)), FeatureLayout.full(2, 2, 1));
		java.nio.file.Files.delete(f);
		final Document e = parse(Montage.svg(eigen, 2));
		final List<String> et = texts(e);
		assertTrue(et.contains("weight per pixel"), et.toString());
		assertTrue(et.containsAll(List.of("-0.1", "0", "0.1")), et.toString());
		assertTrue(et.containsAll(List.of("λ=4.30e5", "λ=8.06e3")), et.toString());
		assertTrue(Montage.FONT >= 14, "captions of " + Montage.FONT + " px");
		assertTrue(Montage.TILE >= 192);
	}

	@Test
	void starredEigenImagesSayWhatTheStarMeansUnderTheFigure() throws Exception {
		final ImagePlus stack = ComponentImages.eigenImages("e", new double[][] { { -1, 0, 2,
			0 }, { 0, 1, 0, -0.5 } }, FeatureLayout.full(2, 2, 1), Arrays.asList("cPC1 α=2 λ=1*",
				"cPC2 α=2 λ=0.5"));
		final ImagePlus plain = Montage.render(stack, 2, 1);
		assertTrue(texts(parse(Montage.svg(stack, 2))).stream().noneMatch(t -> t.contains(
			"permutation")));
		stack.setProp(Montage.NOTE, ModelViews.MARK_NOTE);
		final ImagePlus noted = Montage.render(stack, 2, 1);
		assertTrue(noted.getHeight() > plain.getHeight(), "room for the footnote");
		// the footnote's pixels: dark text in the added strip
		final ColorProcessor cp = (ColorProcessor) noted.getProcessor();
		int dark = 0;
		for (int y = plain.getHeight(); y < noted.getHeight(); y++)
			for (int x = 0; x < noted.getWidth(); x++)
				if ((cp.get(x, y) & 0xff) < 100) dark++;
		assertTrue(dark > 20, dark + " dark pixels in the footnote strip");
		assertTrue(texts(parse(Montage.svg(stack, 2))).contains(ModelViews.MARK_NOTE));
	}

	@Test
	void everyPlotsTextIsAtLeast14PixelsAndLongTitlesFit() throws Exception {
		// the demo's panel titles were ~11 px on 1200 px: now numbers, axis labels and
		// legends are drawn at 15-16 px, titles at 17 px bold (14 px at least when long)
		final java.util.Map<String, double[]> series = new java.util.LinkedHashMap<>();
		series.put("alignment", new double[] { 0.1, 0.5, 0.9 });
		series.put("change", new double[] { 1, 0.3, 0.1 });
		final List<ImagePlus> plots = List.of(ScatterPlot.render("t", "x", "y", new double[] {
			1, 2 }, new double[] { 1, 2 }, Arrays.asList("a", "b")), ScreePlot.render("e",
				new double[] { 3, 1 }, new double[] { 3, 1, 0.5, 0.2 }), CurvePlot.render(
					new Curve("c", "convergence", "samples", "alignment", false, new double[] { 1,
						2, 3 }, series)), VariancePairsPlot.render("v", new double[] { 0, 1, 2 },
							new double[] { 9, 5, 2 }, new double[] { 9, 1, 0.1 }, new double[] { 1 }));
		for (final ImagePlus imp : plots) {
			final Plot p = plot(imp);
			assertTrue(p.getFont('f').getSize2D() >= 14, imp.getTitle() + ": numbers at " + p
				.getFont('f').getSize2D());
			assertTrue(p.getFont('x') == null || p.getFont('x').getSize2D() >= 14);
		}
		assertTrue(PlotStyle.TEXT >= 14 && PlotStyle.LABEL >= 14 && PlotStyle.TITLE >= 14);
		// a title too wide at 17 px is drawn smaller, never below 14 px, or cut at its
		// last parenthesis
		final String long1 = "online cPCA*: alignment with offline cPCA* (1 = same subspace)";
		final ImagePlus c = CurvePlot.render(new Curve("c", long1, "samples", "alignment",
			false, new double[] { 1, 2, 3 }, series));
		final List<String> t = texts(parse(PlotSvg.svg(plot(c), 600, 450)));
		assertTrue(t.contains(long1) || t.contains(long1.substring(0, long1.lastIndexOf(
			" ("))), t.toString());
		assertTrue(PlotStyle.textWidth(long1, java.awt.Font.BOLD, 14) < 600);
	}

	@Test
	void severalPanelsAsOneSvg() throws Exception {
		final ImagePlus a = ScatterPlot.render("α = 1", "cPC1", "cPC2", new double[] { 1, 2 },
			new double[] { 1, 2 }, null);
		final ImagePlus b = ScatterPlot.render("α = 2", "cPC1", "cPC2", new double[] { 1, 2 },
			new double[] { 2, 1 }, null);
		final Path png = dir.resolve("scatter.png");
		PlotFiles.saveFigures(List.of(a, b), 2, png);
		assertEquals(1200, ImageIO.read(png.toFile()).getWidth());
		assertEquals(3600, ImageIO.read(PlotFiles.hires(png).toFile()).getWidth());
		final Document d = parse(Files.readString(PlotFiles.svg(png)));
		assertEquals(3, d.getElementsByTagName("svg").getLength());
		assertTrue(texts(d).containsAll(List.of("α = 1", "α = 2")));
		assertEquals(4, d.getElementsByTagName("circle").getLength());
	}
}
