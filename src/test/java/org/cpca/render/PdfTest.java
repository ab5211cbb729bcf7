package org.cpca.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.StringWriter;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.pdfbox.Loader;
import org.cpca.image.ComponentImages;
import org.cpca.image.FeatureLayout;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts.FontName;
import org.apache.pdfbox.text.PDFTextStripper;
import org.apache.pdfbox.text.TextPosition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PDF figures ({@link Pdf}): read back with PDFBox, never by their text pixels.
 */
class PdfTest {

	static {
		System.setProperty("java.awt.headless", "true");
		PdfFigures.quiet();
	}

	@TempDir
	Path dir;

	/** Text widths place centred and right-aligned text: they must be the fonts' own. */
	@Test
	void textWidthsAreTheStandardFontsMetrics() throws Exception {
		final PDType1Font regular = new PDType1Font(FontName.HELVETICA), bold =
			new PDType1Font(FontName.HELVETICA_BOLD), symbol = new PDType1Font(
				FontName.SYMBOL);
		final Charset winAnsi = Charset.forName("windows-1252");
		int checked = 0;
		for (int code = 32; code < 256; code++) {
			final String s = new String(new byte[] { (byte) code }, winAnsi);
			if (!winAnsi.newEncoder().canEncode(s.charAt(0)) || code == 127 || s.charAt(
				0) == '\ufffd') continue;
			assertEquals(regular.getStringWidth(s), PdfFonts.glyph(s.charAt(0), false).width,
				0.5, s);
			assertEquals(bold.getStringWidth(s), PdfFonts.glyph(s.charAt(0), true).width, 0.5,
				s);
			checked++;
		}
		assertTrue(checked > 200, checked + " characters");
		for (final char ch : "αβγλκσ∞−≤≥≈".toCharArray()) {
			final PdfFonts.Glyph g = PdfFonts.glyph(ch, false);
			assertEquals(PdfFonts.SYMBOL, g.font, "" + ch);
			assertEquals(symbol.getWidth(g.code), g.width, 0.5, "" + ch);
			// the code is the Symbol font's own glyph for the character
			assertEquals(String.valueOf(ch).replace('−', '\u2212'), symbol.toUnicode(g.code),
				"" + ch);
		}
	}

	@Test
	void pageSizeGreekLettersAndAnchoredText() throws Exception {
		final Pdf pdf = new Pdf(400, 300);
		pdf.text("α = 5.54 (target)", 200, 40, 20, Canvas.Anchor.MIDDLE, false, true);
		pdf.text("β, γ, λ₁ and 10⁻⁴", 390, 80, 14, Canvas.Anchor.END, false, false);
		pdf.text("cPC2", 18, 150, 14, Canvas.Anchor.MIDDLE, true, false);
		pdf.marker("circle", 100, 200, 8, Color.RED, Color.RED, 1, 0.6);
		pdf.marker("triangle", 120, 200, 8, Color.BLUE, null, 1);
		pdf.polyline(new double[] { 10, 50, Double.NaN, 60, 90 }, new double[] { 210, 250, 0,
			260, 290 }, Color.BLACK, 1);
		try (PDDocument doc = Loader.loadPDF(pdf.bytes())) {
			assertEquals(1, doc.getNumberOfPages());
			assertEquals(300, doc.getPage(0).getMediaBox().getWidth(), 1e-9);
			assertEquals(225, doc.getPage(0).getMediaBox().getHeight(), 1e-9);
			final String drawn = PdfFigures.drawnText(doc);
			assertTrue(drawn.contains("α = 5.54 (target)"), drawn);
			// ₁ is in no standard font: "?"; ⁻⁴ as raised "-4"
			assertTrue(drawn.contains("β, γ, λ? and 10-4"), drawn);
			assertTrue(drawn.contains("cPC2"), drawn);
			// drawn where anchored (PDFBox places the characters by the fonts' metrics): the
			// title centred on x = 200, the second line ending at x = 390 (pixels; 0.75 pt)
			final List<TextPosition> at = positions(doc);
			final TextPosition first = at.get(0), last = at.get("α = 5.54 (target)".length() - 1);
			assertEquals(200 * 0.75, (first.getXDirAdj() + last.getXDirAdj() + last
				.getWidthDirAdj()) / 2, 0.5);
			final TextPosition end = at.get("α = 5.54 (target)β, γ, λ? and 10-4".length() - 1);
			assertEquals(390 * 0.75, end.getXDirAdj() + end.getWidthDirAdj(), 0.5);
			assertEquals(80 * 0.75, at.get("α = 5.54 (target)".length()).getYDirAdj(),
				0.5, "baseline");
		}
	}

	private static List<TextPosition> positions(final PDDocument doc) throws Exception {
		final List<TextPosition> out = new ArrayList<>();
		new PDFTextStripper() {

			@Override
			protected void processTextPosition(final TextPosition text) {
				out.add(text);
			}
		}.writeText(doc, new StringWriter());
		return out;
	}

	@Test
	void sameDrawingSameBytes() {
		final Pdf a = new Pdf(100, 100), b = new Pdf(100, 100);
		for (final Pdf p : new Pdf[] { a, b }) {
			p.text("λ = 4.3e5", 10, 20, 14, Canvas.Anchor.START, false, false);
			p.image(new BufferedImage(3, 2, BufferedImage.TYPE_INT_RGB), 0, 30, 30, 20);
		}
		assertTrue(Arrays.equals(a.bytes(), b.bytes()));
	}

	/** Every figure file written as SVG is written as PDF too, with the same text. */
	@Test
	void everyFigureWithAnSvgHasAPdf() throws Exception {
		final ImagePlus scree = ScreePlot.render("Eigenvalues (α = 2)", new double[] { 5e5,
			3e3, 1, 0.2 });
		PlotFiles.saveFigure(scree, dir.resolve("eigenvalues.png"));
		final ImagePlus a = ScatterPlot.render("α = 0 (PCA)", "PC1", "PC2", new double[] {
			0, 1, 2 }, new double[] { 1, 0, 2 }, Arrays.asList("0", "1", "1"));
		final ImagePlus b = ScatterPlot.render("α = 5.54", "cPC1", "cPC2", new double[] {
			0, 1, 2 }, new double[] { 1, 0, 2 }, Arrays.asList("0", "1", "1"));
		PlotFiles.saveFigures(Arrays.asList(a, b), 2, dir.resolve("scatter.png"));
		final ImagePlus stack = ComponentImages.eigenImages("e", new double[][] { { -1, 0, 2,
			0 }, { 0, 1, 0, -0.5 } }, FeatureLayout.full(2, 2, 1), Arrays.asList("cPC1 α=2 λ=1",
				"cPC2 α=2 λ=0.5"));
		PlotFiles.saveMontage(stack, 2, dir.resolve("eigen_images.png"));
		final List<Path> svgs;
		try (Stream<Path> s = Files.list(dir)) {
			svgs = s.filter(p -> p.toString().endsWith(".svg")).sorted().collect(Collectors
				.toList());
		}
		assertEquals(3, svgs.size());
		for (final Path svg : svgs) {
			final String drawn = PdfFigures.check(svg, PlotFiles.pdf(dir.resolve(svg
				.getFileName().toString().replace(".svg", ".png"))));
			assertFalse(drawn.isEmpty());
		}
		assertTrue(PdfFigures.check(dir.resolve("scatter.svg"), dir.resolve("scatter.pdf"))
			.contains("α = 5.54"));
		assertTrue(new String(Files.readAllBytes(dir.resolve("eigenvalues.svg")),
			StandardCharsets.UTF_8).contains("α = 2"));
	}
}
