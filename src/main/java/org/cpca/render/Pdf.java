package org.cpca.render;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.Deflater;

/**
 * A minimal PDF 1.4 writer for the primitives of the project's figures ({@link Canvas}):
 * one page, vector lines, markers and text, raster images embedded losslessly. A figure
 * of w × h pixels becomes a page of 0.75·w × 0.75·h points (a pixel is 1/96 inch, as
 * in SVG and CSS). Text uses standard PDF fonts, which are not embedded ({@link PdfFonts}:
 * Helvetica, and Symbol for Greek letters), so a figure with text stays a few kilobytes.
 * Why the project writes PDF itself rather than through a PDF library: docs/cli-reference.md
 * (the PDF figures).
 * The output is the same bytes for the same drawing (no dates or ids).
 */
final class Pdf implements Canvas {

	/** Points per pixel. */
	static final double POINTS = 0.75;

	private final StringBuilder content = new StringBuilder();
	private final List<BufferedImage> images = new ArrayList<>();
	private final Map<String, String> opacities = new LinkedHashMap<>();
	private final double width, height;

	Pdf(final double width, final double height) {
		this.width = width;
		this.height = height;
		// pixels, y down
		content.append(num(POINTS)).append(" 0 0 ").append(num(-POINTS)).append(" 0 ").append(
			num(height * POINTS)).append(" cm\n");
	}

	static String num(final double v) {
		if (v == Math.rint(v) && Math.abs(v) < 1e9) return Long.toString((long) v);
		final String s = String.format(Locale.ROOT, "%.3f", v);
		return s.replaceAll("0+$", "").replaceAll("\\.$", "");
	}

	private void stroke(final Color c, final double lw) {
		content.append(rgb(c)).append(" RG ").append(num(lw)).append(" w\n");
	}

	private static String rgb(final Color c) {
		return num(c.getRed() / 255.0) + " " + num(c.getGreen() / 255.0) + " " + num(c
			.getBlue() / 255.0);
	}

	/** Paints the current path: filled, stroked, both or neither. */
	private void paint(final Color stroke, final Color fill, final double lw) {
		final boolean s = stroke != null && lw > 0;
		if (fill != null) content.append(rgb(fill)).append(" rg\n");
		if (s) stroke(stroke, lw);
		content.append(fill != null && s ? "B" : fill != null ? "f" : s ? "S" : "n").append(
			"\n");
	}

	private void opacity(final double opacity) {
		if (opacity >= 1) return;
		final String key = num(opacity);
		final String name = opacities.computeIfAbsent(key, k -> "GS" + opacities.size());
		content.append('/').append(name).append(" gs\n");
	}

	@Override
	public void line(final double x1, final double y1, final double x2, final double y2,
		final Color stroke, final double strokeWidth, final boolean dotted)
	{
		content.append("q ").append(dotted ? "[2 3] 0 d " : "");
		stroke(stroke, strokeWidth);
		content.append(num(x1)).append(' ').append(num(y1)).append(" m ").append(num(x2))
			.append(' ').append(num(y2)).append(" l S Q\n");
	}

	@Override
	public void polyline(final double[] x, final double[] y, final Color stroke,
		final double strokeWidth)
	{
		content.append("q ");
		stroke(stroke, strokeWidth);
		boolean open = false;
		for (int i = 0; i < x.length; i++) {
			if (!Double.isFinite(x[i]) || !Double.isFinite(y[i])) {
				if (open) content.append("S\n");
				open = false;
				continue;
			}
			content.append(num(x[i])).append(' ').append(num(y[i])).append(open ? " l\n"
				: " m\n");
			open = true;
		}
		content.append(open ? "S Q\n" : "Q\n");
	}

	@Override
	public void rect(final double x, final double y, final double w, final double h,
		final Color fill, final Color stroke, final double strokeWidth)
	{
		content.append("q ").append(num(x)).append(' ').append(num(y)).append(' ').append(num(
			w)).append(' ').append(num(h)).append(" re\n");
		paint(stroke, fill, strokeWidth);
		content.append("Q\n");
	}

	@Override
	public void circle(final double cx, final double cy, final double r, final Color stroke,
		final Color fill, final double strokeWidth, final double opacity)
	{
		// four cubic Bézier arcs
		final double k = 0.5523 * r;
		content.append("q ");
		opacity(opacity);
		content.append(num(cx + r)).append(' ').append(num(cy)).append(" m\n");
		curve(cx + r, cy + k, cx + k, cy + r, cx, cy + r);
		curve(cx - k, cy + r, cx - r, cy + k, cx - r, cy);
		curve(cx - r, cy - k, cx - k, cy - r, cx, cy - r);
		curve(cx + k, cy - r, cx + r, cy - k, cx + r, cy);
		content.append("h\n");
		paint(stroke, fill, strokeWidth);
		content.append("Q\n");
	}

	private void curve(final double... p) {
		for (final double v : p)
			content.append(num(v)).append(' ');
		content.append("c\n");
	}

	@Override
	public void polygon(final double[] x, final double[] y, final Color stroke,
		final Color fill, final double strokeWidth, final double opacity)
	{
		content.append("q ");
		opacity(opacity);
		for (int i = 0; i < x.length; i++)
			content.append(num(x[i])).append(' ').append(num(y[i])).append(i == 0 ? " m\n"
				: " l\n");
		content.append("h\n");
		paint(stroke, fill, strokeWidth);
		content.append("Q\n");
	}

	/** The width of {@code s} in pixels at {@code size}. */
	static double width(final String s, final double size, final boolean bold) {
		double w = 0;
		for (final char ch : s.toCharArray())
			w += PdfFonts.glyph(ch, bold).width;
		return w * size / 1000;
	}

	@Override
	public void text(final String s, final double x, final double y, final double size,
		final Anchor anchor, final boolean vertical, final boolean bold)
	{
		if (s.isEmpty()) return;
		final double w = width(s, size, bold);
		final double shift = anchor == Anchor.START ? 0 : anchor == Anchor.MIDDLE ? -w / 2
			: -w;
		// text space: x along the text, y up from the baseline (flipped back from y down)
		content.append("q 0 g BT ").append(vertical ? "0 -1 -1 0 " + num(x) + " " + num(y +
			-shift) : "1 0 0 -1 " + num(x + shift) + " " + num(y)).append(" Tm\n");
		String font = null;
		double fontSize = -1, rise = 0;
		final StringBuilder run = new StringBuilder();
		for (final char ch : s.toCharArray()) {
			final PdfFonts.Glyph g = PdfFonts.glyph(ch, bold);
			final double gs = g.raised ? size * PdfFonts.RAISED_SIZE : size;
			final double gr = g.raised ? size * 0.38 : 0;
			if (!g.font.equals(font) || gs != fontSize || gr != rise) {
				flush(run);
				content.append('/').append(g.font).append(' ').append(num(gs)).append(" Tf ")
					.append(num(gr)).append(" Ts\n");
				font = g.font;
				fontSize = gs;
				rise = gr;
			}
			if (g.code == '(' || g.code == ')' || g.code == '\\') run.append('\\').append(
				(char) g.code);
			else if (g.code < 32 || g.code > 126) run.append(String.format(Locale.ROOT, "\\%03o",
				g.code));
			else run.append((char) g.code);
		}
		flush(run);
		content.append("ET Q\n");
	}

	private void flush(final StringBuilder run) {
		if (run.length() == 0) return;
		content.append('(').append(run).append(") Tj\n");
		run.setLength(0);
	}

	@Override
	public void verticalGradient(final double x, final double y, final double w,
		final double h, final Color[] bottomToTop)
	{
		// drawn as a column of 256 pixels interpolated between the colours
		final int n = 256;
		final BufferedImage column = new BufferedImage(1, n, BufferedImage.TYPE_INT_RGB);
		for (int i = 0; i < n; i++) {
			final double t = (n - 1 - i) / (double) (n - 1) * (bottomToTop.length - 1);
			final int a = Math.min((int) t, bottomToTop.length - 1), b = Math.min(a + 1,
				bottomToTop.length - 1);
			final double f = t - a;
			final Color ca = bottomToTop[a], cb = bottomToTop[b];
			column.setRGB(0, i, new Color((int) Math.round(ca.getRed() * (1 - f) + cb.getRed() *
				f), (int) Math.round(ca.getGreen() * (1 - f) + cb.getGreen() * f), (int) Math
					.round(ca.getBlue() * (1 - f) + cb.getBlue() * f)).getRGB());
		}
		image(column, x, y, w, h);
		rect(x, y, w, h, null, Color.BLACK, 1);
	}

	@Override
	public void image(final BufferedImage image, final double x, final double y,
		final double w, final double h)
	{
		content.append("q ").append(num(w)).append(" 0 0 ").append(num(-h)).append(' ')
			.append(num(x)).append(' ').append(num(y + h)).append(" cm /Im").append(images
				.size()).append(" Do Q\n");
		images.add(image);
	}

	@Override
	public void beginClip(final double x, final double y, final double w, final double h) {
		content.append("q ").append(num(x)).append(' ').append(num(y)).append(' ').append(num(
			w)).append(' ').append(num(h)).append(" re W n\n");
	}

	@Override
	public void endClip() {
		content.append("Q\n");
	}

	/** Draws what follows shifted by (x, y) pixels, until {@link #endPanel}. */
	void beginPanel(final double x, final double y) {
		content.append("q 1 0 0 1 ").append(num(x)).append(' ').append(num(y)).append(
			" cm\n");
	}

	void endPanel() {
		content.append("Q\n");
	}

	/** The document. */
	byte[] bytes() {
		final Writer out = new Writer();
		out.text("%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n");
		final int fonts = 5, firstImage = 8;
		out.object(1, "<< /Type /Catalog /Pages 2 0 R >>");
		out.object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
		final StringBuilder resources = new StringBuilder("<< /Font << /" +
			PdfFonts.HELVETICA + " " + fonts + " 0 R /" + PdfFonts.HELVETICA_BOLD + " " +
			(fonts + 1) + " 0 R /" + PdfFonts.SYMBOL + " " + (fonts + 2) + " 0 R >>");
		if (!images.isEmpty()) {
			resources.append(" /XObject <<");
			for (int i = 0; i < images.size(); i++)
				resources.append(" /Im").append(i).append(' ').append(firstImage + i).append(
					" 0 R");
			resources.append(" >>");
		}
		if (!opacities.isEmpty()) {
			resources.append(" /ExtGState <<");
			for (final Map.Entry<String, String> e : opacities.entrySet())
				resources.append(" /").append(e.getValue()).append(" << /ca ").append(e.getKey())
					.append(" /CA ").append(e.getKey()).append(" >>");
			resources.append(" >>");
		}
		resources.append(" >>");
		out.object(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 " + num(width * POINTS) +
			" " + num(height * POINTS) + "] /Resources " + resources + " /Contents 4 0 R >>");
		out.stream(4, "", content.toString().getBytes(StandardCharsets.ISO_8859_1));
		out.object(fonts, font("Helvetica", true));
		out.object(fonts + 1, font("Helvetica-Bold", true));
		out.object(fonts + 2, font("Symbol", false));
		for (int i = 0; i < images.size(); i++) {
			final BufferedImage im = images.get(i);
			final byte[] rgb = new byte[3 * im.getWidth() * im.getHeight()];
			int k = 0;
			for (int yy = 0; yy < im.getHeight(); yy++)
				for (int xx = 0; xx < im.getWidth(); xx++) {
					final int p = im.getRGB(xx, yy);
					rgb[k++] = (byte) (p >> 16);
					rgb[k++] = (byte) (p >> 8);
					rgb[k++] = (byte) p;
				}
			out.stream(firstImage + i, "/Type /XObject /Subtype /Image /Width " + im
				.getWidth() + " /Height " + im.getHeight() +
				" /ColorSpace /DeviceRGB /BitsPerComponent 8 ", rgb);
		}
		return out.finish(firstImage + images.size());
	}

	private static String font(final String name, final boolean winAnsi) {
		return "<< /Type /Font /Subtype /Type1 /BaseFont /" + name + (winAnsi
			? " /Encoding /WinAnsiEncoding" : "") + " >>";
	}

	/** The file's objects in order and their byte offsets (the cross-reference table). */
	private static final class Writer {

		private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		private final List<Integer> offsets = new ArrayList<>();

		void text(final String s) {
			final byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
			bytes.write(b, 0, b.length);
		}

		void object(final int number, final String body) {
			begin(number);
			text(body + "\nendobj\n");
		}

		private void begin(final int number) {
			while (offsets.size() < number)
				offsets.add(0);
			offsets.set(number - 1, bytes.size());
			text(number + " 0 obj\n");
		}

		/** A stream object, compressed (FlateDecode); {@code dict}: its other entries. */
		void stream(final int number, final String dict, final byte[] data) {
			final byte[] z = deflate(data);
			begin(number);
			text("<< " + dict + "/Filter /FlateDecode /Length " + z.length + " >>\nstream\n");
			bytes.write(z, 0, z.length);
			text("\nendstream\nendobj\n");
		}

		byte[] finish(final int objects) {
			final int xref = bytes.size();
			final StringBuilder sb = new StringBuilder("xref\n0 " + (objects) + "\n" +
				"0000000000 65535 f \n");
			for (int i = 0; i < objects - 1; i++)
				sb.append(String.format(Locale.ROOT, "%010d 00000 n \n", offsets.get(i)));
			sb.append("trailer\n<< /Size ").append(objects).append(" /Root 1 0 R >>\n")
				.append("startxref\n").append(xref).append("\n%%EOF\n");
			text(sb.toString());
			return bytes.toByteArray();
		}

		private static byte[] deflate(final byte[] data) {
			final Deflater d = new Deflater(Deflater.BEST_COMPRESSION);
			d.setInput(data);
			d.finish();
			final ByteArrayOutputStream out = new ByteArrayOutputStream();
			final byte[] buf = new byte[1 << 16];
			while (!d.finished())
				out.write(buf, 0, d.deflate(buf));
			d.end();
			return out.toByteArray();
		}
	}
}
