package org.cpca.render;

import ij.ImagePlus;
import ij.process.ColorProcessor;
import ij.process.ImageProcessor;
import ij.process.LUT;

import java.awt.Color;
import java.awt.Font;
import java.awt.image.BufferedImage;
import java.util.Locale;

/**
 * A stack of images (eigen-images, extreme samples) as one figure: the slices side by
 * side, each enlarged with sharp pixels and labelled underneath, and a colour bar on the
 * right showing the stack's lookup table over its display range (for eigen-images the
 * blue–white–red table centred on 0). Drawn as pixels ({@link #render}) at any scale, or
 * as SVG ({@link #svg}) with the slices embedded as images and text, bar and numbers as
 * vectors.
 */
public final class Montage {

	/** Target width of one enlarged slice at scale 1, in pixels. */
	static final int TILE = 192;
	static final int TEXT = 36, GAP = 6, BAR = 16, BAR_TEXT = 64;

	private final ImagePlus stack;
	private final int cols, rows, zoom, w, h;

	private Montage(final ImagePlus stack, final int columns) {
		this.stack = stack;
		final int n = stack.getStackSize();
		cols = Math.max(1, Math.min(columns, n));
		rows = (n + cols - 1) / cols;
		zoom = Math.max(1, TILE / Math.max(1, stack.getWidth()));
		w = stack.getWidth() * zoom;
		h = stack.getHeight() * zoom;
	}

	/**
	 * @param columns at most this many slices per row
	 * @param scale 1 for screen size, e.g. 3 for print (every length and font × scale)
	 */
	public static ImagePlus render(final ImagePlus stack, final int columns,
		final int scale)
	{
		return new Montage(stack, columns).pixels(scale);
	}

	/** The same figure as {@link #render} at scale 1, as an SVG document. */
	public static String svg(final ImagePlus stack, final int columns) {
		return new Montage(stack, columns).vector();
	}

	private int width() {
		return cols * (w + GAP) + BAR + BAR_TEXT;
	}

	private int height() {
		return Math.max(rows * (h + TEXT), h + TEXT);
	}

	private BufferedImage tile(final int i) {
		final ImageProcessor ip = stack.getStack().getProcessor(i + 1).duplicate();
		ip.setLut(stack.getProcessor().getLut());
		ip.setMinAndMax(stack.getDisplayRangeMin(), stack.getDisplayRangeMax());
		return ip.convertToRGB().getBufferedImage();
	}

	/** The slice label in one or two lines (split before " λ="). */
	private String[] label(final int i) {
		final String label = stack.getStack().getSliceLabel(i + 1);
		if (label == null) return new String[0];
		final int split = label.indexOf(" λ=");
		return split < 0 ? new String[] { label } : new String[] { label.substring(0, split),
			label.substring(split + 1) };
	}

	/** Bar values top (max), middle, bottom (min), as text. */
	private String[] barLabels() {
		final double min = stack.getDisplayRangeMin(), max = stack.getDisplayRangeMax();
		final double mid = Math.abs(min + max) <= 1e-12 * Math.max(Math.abs(min), Math.abs(
			max)) ? 0 : (min + max) / 2;
		return new String[] { number(max), number(mid), number(min) };
	}

	static String number(final double v) {
		if (v == 0) return "0";
		final double a = Math.abs(v);
		if (a >= 1e5 || a < 1e-3) return String.format(Locale.ROOT, "%.2e", v).replace("e+0",
			"e").replace("e-0", "e-").replace("e+", "e");
		return new java.math.BigDecimal(v).round(new java.math.MathContext(3))
			.stripTrailingZeros().toPlainString();
	}

	private Color[] lutColors() {
		final LUT lut = stack.getProcessor().getLut();
		final Color[] c = new Color[256];
		for (int i = 0; i < 256; i++)
			c[i] = new Color(lut.getRed(i), lut.getGreen(i), lut.getBlue(i));
		return c;
	}

	private ImagePlus pixels(final int s) {
		final ColorProcessor out = new ColorProcessor(width() * s, height() * s);
		out.setColor(Color.WHITE);
		out.fill();
		out.setColor(Color.BLACK);
		out.setFont(new Font("SansSerif", Font.PLAIN, 12 * s));
		out.setAntialiasedText(true);
		for (int i = 0; i < stack.getStackSize(); i++) {
			final ImageProcessor ip = new ColorProcessor(tile(i));
			ip.setInterpolationMethod(ImageProcessor.NONE);
			final int x = (i % cols) * (w + GAP) * s, y = (i / cols) * (h + TEXT) * s;
			out.insert(ip.resize(w * s, h * s), x, y);
			final String[] lines = label(i);
			for (int l = 0; l < lines.length; l++)
				out.drawString(lines[l], x + 2 * s, y + (h + 15 + 15 * l) * s);
		}
		// colour bar: top = max, bottom = min, as tall as one slice
		final Color[] lut = lutColors();
		final int bx = cols * (w + GAP) * s, bh = h * s;
		for (int yy = 0; yy < bh; yy++) {
			out.setColor(lut[(int) Math.round(255.0 * (bh - 1 - yy) / Math.max(1, bh - 1))]);
			out.drawLine(bx, yy, bx + BAR * s - 1, yy);
		}
		out.setColor(Color.BLACK);
		out.drawRect(bx, 0, BAR * s, bh);
		final String[] text = barLabels();
		final int[] at = { 12 * s, bh / 2 + 5 * s, bh };
		for (int k = 0; k < 3; k++) {
			final int ty = k == 0 ? 0 : k == 1 ? bh / 2 : bh - 1;
			out.drawLine(bx + BAR * s, ty, bx + BAR * s + 3 * s, ty);
			out.drawString(text[k], bx + BAR * s + 5 * s, Math.max(at[k], 12 * s));
		}
		return new ImagePlus(stack.getTitle(), out);
	}

	private String vector() {
		final Svg svg = new Svg(width(), height());
		for (int i = 0; i < stack.getStackSize(); i++) {
			final int x = (i % cols) * (w + GAP), y = (i / cols) * (h + TEXT);
			// enlarged with sharp pixels already, so that no viewer smooths them
			final ImageProcessor big = new ColorProcessor(tile(i));
			big.setInterpolationMethod(ImageProcessor.NONE);
			svg.image(big.resize(w, h).getBufferedImage(), x, y, w, h);
			final String[] lines = label(i);
			for (int l = 0; l < lines.length; l++)
				svg.text(lines[l], x + 2, y + h + 15 + 15 * l, 12, Svg.Anchor.START, false,
					false);
		}
		final int bx = cols * (w + GAP);
		final Color[] lut = lutColors();
		final Color[] stops = new Color[17];
		for (int i = 0; i < stops.length; i++)
			stops[i] = lut[Math.min(255, i * 16)];
		svg.verticalGradient(bx, 0, BAR, h, stops);
		final String[] text = barLabels();
		final double[] ty = { 0, h / 2.0, h };
		for (int k = 0; k < 3; k++) {
			svg.line(bx + BAR, ty[k], bx + BAR + 3, ty[k], Color.BLACK, 1, false);
			svg.text(text[k], bx + BAR + 5, k == 0 ? 10 : k == 1 ? ty[k] + 4 : ty[k],
				11, Svg.Anchor.START, false, false);
		}
		return svg.toString();
	}
}
