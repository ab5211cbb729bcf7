package org.cpca.render;

import java.awt.Color;
import java.awt.image.BufferedImage;

/**
 * A vector drawing surface for the project's figures, written as SVG ({@link Svg}) or
 * PDF ({@link Pdf}) from the same drawing code. Coordinates are pixels of the figure,
 * y pointing down (as in Java2D); text is given by its baseline.
 */
interface Canvas {

	/** Text anchor: where the given x lies in the text. */
	enum Anchor {
		START, MIDDLE, END
	}

	void line(double x1, double y1, double x2, double y2, Color stroke, double strokeWidth,
		boolean dotted);

	/** A polyline through the points; breaks at non-finite points. */
	void polyline(double[] x, double[] y, Color stroke, double strokeWidth);

	/** A rectangle; {@code fill} null: not filled. */
	void rect(double x, double y, double w, double h, Color fill, Color stroke,
		double strokeWidth);

	/** A circle; {@code stroke} or {@code fill} null: none. Opacity 1: opaque. */
	void circle(double cx, double cy, double r, Color stroke, Color fill,
		double strokeWidth, double opacity);

	/** A closed polygon; {@code stroke} or {@code fill} null: none. */
	void polygon(double[] x, double[] y, Color stroke, Color fill, double strokeWidth,
		double opacity);

	/** Text at (x, y) (the baseline), optionally rotated by −90° about that point. */
	void text(String s, double x, double y, double size, Anchor anchor, boolean vertical,
		boolean bold);

	/**
	 * A rectangle filled with a vertical gradient through the given colours, the first
	 * at the bottom, framed in black.
	 */
	void verticalGradient(double x, double y, double w, double h, Color[] bottomToTop);

	/** A raster image drawn with sharp pixels at the given size. */
	void image(BufferedImage image, double x, double y, double w, double h);

	/** Clips what follows to the rectangle, until {@link #endClip}. */
	void beginClip(double x, double y, double w, double h);

	void endClip();

	/**
	 * A marker centred on (x, y): "circle", "box", "triangle", "diamond", "x", "cross" or
	 * "dot", {@code size} pixels across, at the given opacity (1: opaque).
	 */
	default void marker(final String shape, final double x, final double y,
		final double size, final Color stroke, final Color fill, final double strokeWidth,
		final double opacity)
	{
		final double r = size / 2;
		switch (shape) {
			case "box":
				polygon(new double[] { x - r, x + r, x + r, x - r }, new double[] { y - r, y - r,
					y + r, y + r }, stroke, fill, strokeWidth, opacity);
				break;
			case "triangle":
				polygon(new double[] { x, x + r, x - r }, new double[] { y - r, y + r, y + r },
					stroke, fill, strokeWidth, opacity);
				break;
			case "diamond":
				polygon(new double[] { x, x + r, x, x - r }, new double[] { y - r, y, y + r, y },
					stroke, fill, strokeWidth, opacity);
				break;
			case "x":
				line(x - r, y - r, x + r, y + r, stroke, strokeWidth, false);
				line(x - r, y + r, x + r, y - r, stroke, strokeWidth, false);
				break;
			case "cross":
				line(x - r, y, x + r, y, stroke, strokeWidth, false);
				line(x, y - r, x, y + r, stroke, strokeWidth, false);
				break;
			case "dot":
				circle(x, y, 1, null, stroke, 0, 1);
				break;
			default:
				circle(x, y, r, stroke, fill, strokeWidth, opacity);
		}
	}

	/** {@link #marker(String, double, double, double, Color, Color, double, double)}, opaque. */
	default void marker(final String shape, final double x, final double y,
		final double size, final Color stroke, final Color fill, final double strokeWidth)
	{
		marker(shape, x, y, size, stroke, fill, strokeWidth, 1);
	}
}
