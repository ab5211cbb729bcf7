package org.cpca.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

import javax.xml.parsers.DocumentBuilderFactory;

import org.apache.pdfbox.Loader;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.font.PDFont;
import org.apache.pdfbox.text.PDFTextStripper;
import org.apache.pdfbox.text.TextPosition;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Checks a PDF figure against the SVG of the same figure, both read back from their
 * bytes: the PDF parses (PDFBox) as one page of the SVG's size in points (0.75 per
 * pixel), holds as many images, and draws every text of the SVG, character for
 * character (superscripts as raised digits), none replaced by "?".
 */
public final class PdfFigures {

	private PdfFigures() {}

	/** PDFBox's logger, kept so that its level holds. */
	private static final Logger PDFBOX = Logger.getLogger("org.apache.pdfbox");

	/**
	 * No PDFBox notes in the build log: that the standard fonts, which the figures do not
	 * embed, are drawn with a substitute when rendered here, and its font cache.
	 */
	static void quiet() {
		PDFBOX.setLevel(Level.SEVERE);
	}

	static {
		quiet();
	}

	/** The characters the page draws, in the order drawn. */
	static String drawnText(final PDDocument doc) throws IOException {
		final StringBuilder sb = new StringBuilder();
		final PDFTextStripper stripper = new PDFTextStripper() {

			@Override
			protected void processTextPosition(final TextPosition text) {
				sb.append(text.getUnicode());
			}
		};
		stripper.writeText(doc, new StringWriter());
		return sb.toString();
	}

	/** The SVG's texts as the PDF draws them: superscripts as plain characters. */
	static String asDrawn(final String svgText) {
		final StringBuilder sb = new StringBuilder();
		for (final char ch : svgText.toCharArray()) {
			final int r = PdfFonts.SUPERSCRIPTS.indexOf(ch);
			sb.append(r >= 0 ? PdfFonts.RAISED.charAt(r) : ch);
		}
		return sb.toString();
	}

	/** Asserts that {@code pdf} is {@code svg} as PDF; returns the page's drawn text. */
	public static String check(final Path svg, final Path pdf) throws Exception {
		final Element root = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(
			new ByteArrayInputStream(Files.readAllBytes(svg))).getDocumentElement();
		try (PDDocument doc = Loader.loadPDF(Files.readAllBytes(pdf))) {
			assertEquals(1, doc.getNumberOfPages(), pdf.toString());
			final PDPage page = doc.getPage(0);
			final PDRectangle box = page.getMediaBox();
			assertEquals(0.75 * Double.parseDouble(root.getAttribute("width")), box.getWidth(),
				1e-3, pdf + " width");
			assertEquals(0.75 * Double.parseDouble(root.getAttribute("height")), box
				.getHeight(), 1e-3, pdf + " height");
			int images = 0;
			for (final COSName name : page.getResources().getXObjectNames())
				if (page.getResources().isImageXObject(name)) images++;
			final int gradients = root.getElementsByTagName("linearGradient").getLength();
			assertEquals(root.getElementsByTagName("image").getLength() + gradients, images,
				pdf + ": raster images (a colour bar is one)");
			final List<String> fonts = new ArrayList<>();
			for (final COSName name : page.getResources().getFontNames()) {
				final PDFont f = page.getResources().getFont(name);
				fonts.add(f.getName());
			}
			assertTrue(fonts.contains("Helvetica") && fonts.contains("Symbol"), fonts
				.toString());
			final String drawn = drawnText(doc);
			final NodeList texts = root.getElementsByTagName("text");
			for (int i = 0; i < texts.getLength(); i++) {
				final String t = asDrawn(texts.item(i).getTextContent());
				assertTrue(drawn.contains(t), pdf + " lacks the text '" + t + "'");
			}
			assertEquals(count(asDrawn(textOf(texts)), '?'), count(drawn, '?'), pdf +
				": a character drawn as '?' in " + drawn);
			return drawn;
		}
	}

	private static String textOf(final NodeList texts) {
		final StringBuilder sb = new StringBuilder();
		for (int i = 0; i < texts.getLength(); i++)
			sb.append(texts.item(i).getTextContent());
		return sb.toString();
	}

	private static long count(final String s, final char c) {
		return s.chars().filter(x -> x == c).count();
	}
}
