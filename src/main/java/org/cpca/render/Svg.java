package org.cpca.render;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.Locale;

/**
 * A minimal SVG 1.1 writer for the primitives the project's figures use ({@link Canvas}):
 * lines, polylines, markers, rectangles, text, linear gradients and embedded raster images.
 * Coordinates are in pixels of a {@code width × height} canvas, y pointing down (as in
 * Java2D), so that a figure drawn at one size scales to any size without loss.
 */
final class Svg implements Canvas {

	private final StringBuilder body = new StringBuilder();
	private final int width;
	private final int height;
	private int ids;

	Svg(final int width, final int height) {
		this.width = width;
		this.height = height;
	}

	static String num(final double v) {
		if (v == Math.rint(v) && Math.abs(v) < 1e9) return Long.toString((long) v);
		return String.format(Locale.ROOT, "%.2f", v);
	}

	static String color(final Color c) {
		return c == null ? "none" : String.format(Locale.ROOT, "#%02x%02x%02x", c.getRed(), c
			.getGreen(), c.getBlue());
	}

	/** XML-escaped text. */
	static String escape(final String s) {
		final StringBuilder sb = new StringBuilder(s.length());
		for (final char ch : s.toCharArray()) {
			switch (ch) {
				case '<':
					sb.append("&lt;");
					break;
				case '>':
					sb.append("&gt;");
					break;
				case '&':
					sb.append("&amp;");
					break;
				case '"':
					sb.append("&quot;");
					break;
				default:
					if (ch < 0x20 && ch != '\t') sb.append(' ');
					else sb.append(ch);
			}
		}
		return sb.toString();
	}

	@Override
	public void line(final double x1, final double y1, final double x2, final double y2,
		final Color stroke, final double strokeWidth, final boolean dotted)
	{
		body.append("<line x1=\"").append(num(x1)).append("\" y1=\"").append(num(y1)).append(
			"\" x2=\"").append(num(x2)).append("\" y2=\"").append(num(y2)).append(
				"\" stroke=\"").append(color(stroke)).append("\" stroke-width=\"").append(num(
					strokeWidth)).append('"').append(dotted ? " stroke-dasharray=\"2,3\"" : "")
			.append("/>\n");
	}

	/** A polyline through the points; breaks at non-finite points. */
	@Override
	public void polyline(final double[] x, final double[] y, final Color stroke,
		final double strokeWidth)
	{
		StringBuilder pts = new StringBuilder();
		for (int i = 0; i <= x.length; i++) {
			if (i < x.length && Double.isFinite(x[i]) && Double.isFinite(y[i])) {
				pts.append(num(x[i])).append(',').append(num(y[i])).append(' ');
				continue;
			}
			if (pts.length() > 0) body.append("<polyline fill=\"none\" stroke=\"").append(
				color(stroke)).append("\" stroke-width=\"").append(num(strokeWidth)).append(
					"\" points=\"").append(pts.toString().trim()).append("\"/>\n");
			pts = new StringBuilder();
		}
	}

	@Override
	public void rect(final double x, final double y, final double w, final double h,
		final Color fill, final Color stroke, final double strokeWidth)
	{
		body.append("<rect x=\"").append(num(x)).append("\" y=\"").append(num(y)).append(
			"\" width=\"").append(num(w)).append("\" height=\"").append(num(h)).append(
				"\" fill=\"").append(fill == null ? "none" : color(fill)).append("\" stroke=\"")
			.append(color(stroke)).append("\" stroke-width=\"").append(num(strokeWidth)).append(
				"\"/>\n");
	}

	@Override
	public void circle(final double cx, final double cy, final double r, final Color stroke,
		final Color fill, final double strokeWidth, final double opacity)
	{
		body.append("<circle cx=\"").append(num(cx)).append("\" cy=\"").append(num(cy))
			.append("\" r=\"").append(num(r)).append(style(stroke, fill, strokeWidth, opacity));
	}

	@Override
	public void polygon(final double[] x, final double[] y, final Color stroke,
		final Color fill, final double strokeWidth, final double opacity)
	{
		body.append("<polygon points=\"");
		for (int i = 0; i < x.length; i++)
			body.append(i == 0 ? "" : " ").append(num(x[i])).append(',').append(num(y[i]));
		body.append(style(stroke, fill, strokeWidth, opacity));
	}

	private static String style(final Color stroke, final Color fill,
		final double strokeWidth, final double opacity)
	{
		return "\" fill=\"" + color(fill) + "\" stroke=\"" + color(stroke) +
			"\" stroke-width=\"" + num(strokeWidth) + (opacity < 1 ? "\" opacity=\"" + num(
				opacity) : "") + "\"/>\n";
	}

	/** Text at (x, y) (the baseline), optionally rotated by −90° about that point. */
	@Override
	public void text(final String s, final double x, final double y, final double size,
		final Anchor anchor, final boolean vertical, final boolean bold)
	{
		body.append("<text x=\"").append(num(x)).append("\" y=\"").append(num(y)).append(
			"\" font-family=\"sans-serif\" font-size=\"").append(num(size)).append(
				"\" text-anchor=\"").append(anchor.name().toLowerCase(Locale.ROOT)).append('"').append(bold
					? " font-weight=\"bold\"" : "").append(vertical ? " transform=\"rotate(-90 " +
						num(x) + " " + num(y) + ")\"" : "").append('>').append(escape(s)).append(
							"</text>\n");
	}

	/**
	 * A rectangle filled with a vertical gradient through the given colours, the first
	 * at the bottom.
	 */
	@Override
	public void verticalGradient(final double x, final double y, final double w, final double h,
		final Color[] bottomToTop)
	{
		final String id = "g" + ids++;
		body.append("<defs><linearGradient id=\"").append(id).append(
			"\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">");
		for (int i = 0; i < bottomToTop.length; i++)
			body.append("<stop offset=\"").append(String.format(Locale.ROOT, "%.4f", i /
				(double) Math.max(1, bottomToTop.length - 1))).append("\" stop-color=\"").append(
					color(bottomToTop[i])).append("\"/>");
		body.append("</linearGradient></defs>\n");
		body.append("<rect x=\"").append(num(x)).append("\" y=\"").append(num(y)).append(
			"\" width=\"").append(num(w)).append("\" height=\"").append(num(h)).append(
				"\" fill=\"url(#").append(id).append(")\" stroke=\"black\" stroke-width=\"1\"/>\n");
	}

	/** A raster image (embedded as PNG), drawn with sharp pixels at the given size. */
	@Override
	public void image(final BufferedImage image, final double x, final double y, final double w,
		final double h)
	{
		final ByteArrayOutputStream png = new ByteArrayOutputStream();
		try {
			Png.write(image, png);
		}
		catch (final IOException e) {
			throw new UncheckedIOException(e);
		}
		body.append("<image x=\"").append(num(x)).append("\" y=\"").append(num(y)).append(
			"\" width=\"").append(num(w)).append("\" height=\"").append(num(h)).append(
				"\" preserveAspectRatio=\"none\" style=\"image-rendering:pixelated\" " +
					"xlink:href=\"data:image/png;base64,").append(Base64.getEncoder()
						.encodeToString(png.toByteArray())).append("\"/>\n");
	}

	/** Starts a group whose drawing is clipped to the rectangle; end it with {@link #endClip}. */
	@Override
	public void beginClip(final double x, final double y, final double w, final double h) {
		final String id = "c" + ids++;
		body.append("<defs><clipPath id=\"").append(id).append("\"><rect x=\"").append(num(x))
			.append("\" y=\"").append(num(y)).append("\" width=\"").append(num(w)).append(
				"\" height=\"").append(num(h)).append("\"/></clipPath></defs>\n<g clip-path=\"url(#")
			.append(id).append(")\">\n");
	}

	@Override
	public void endClip() {
		body.append("</g>\n");
	}

	/** The document. */
	@Override
	public String toString() {
		return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" +
			"<svg xmlns=\"http://www.w3.org/2000/svg\" " +
			"xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.1\" width=\"" + width +
			"\" height=\"" + height + "\" viewBox=\"0 0 " + width + " " + height + "\">\n" +
			"<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n" + body + "</svg>\n";
	}
}
