package org.cpca.render;

import ij.ImagePlus;
import ij.process.ColorProcessor;
import ij.process.ImageProcessor;
import ij.process.LUT;

import java.awt.Color;
import java.awt.Font;
import java.awt.image.BufferedImage;
import java.util.Locale;
import java.util.ArrayList;
import java.util.List;

/**
 * A stack of images (eigen-images, extreme samples) as one figure: the slices side by
 * side, each enlarged with sharp pixels and labelled underneath, and a colour bar on the
 * right showing the stack's lookup table over its display range (for eigen-images the
 * blue–white–red table centred on 0). Drawn as pixels ({@link #render}) at any scale, or
 * as SVG ({@link #svg}) or PDF ({@link #pdf}) with the slices embedded as images and text, bar and numbers as
 * vectors.
 */
public final class Montage {

	/** Target width of one enlarged slice at scale 1, in pixels. */
	static final int TILE = 192;
	/** Text size of the captions and the colour bar's numbers and title, in pixels. */
	static final int FONT = (int) PlotStyle.TEXT;
	static final int TEXT = 2 * FONT + 14, GAP = 8, BAR = 18, BAR_TEXT = 72, BAR_TOP = FONT + 10;

	/**
	 * The image property ({@link ImagePlus#setProp}) naming what the colour bar shows,
	 * e.g. "weight per pixel"; without it the bar has no title.
	 */
	public static final String BAR_TITLE = "colour bar";

	/**
	 * The image property of a footnote written under the figure, e.g. what a star in the
	 * captions means; without it there is none.
	 */
	public static final String NOTE = "note";

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
		final Montage m = new Montage(stack, columns);
		final Svg svg = new Svg(m.width(), m.height());
		m.draw(svg);
		return svg.toString();
	}

	/** The montage as a one-page PDF document ({@link Pdf}), as {@link #svg}. */
	public static byte[] pdf(final ImagePlus stack, final int columns) {
		final Montage m = new Montage(stack, columns);
		final Pdf pdf = new Pdf(m.width(), m.height());
		m.draw(pdf);
		return pdf.bytes();
	}

	private int width() {
		return Math.max(cols * (w + GAP) + Math.max(BAR + BAR_TEXT, PlotStyle.textWidth(
			barTitle()) + 4), PlotStyle.textWidth(note()) + 4);
	}

	private int height() {
		return figureHeight() + (note().isEmpty() ? 0 : FONT + 8);
	}

	/** The height above the footnote. */
	private int figureHeight() {
		return Math.max(rows * (h + TEXT), BAR_TOP + h + FONT);
	}

	private String note() {
		final String t = stack.getProp(NOTE);
		return t == null ? "" : t;
	}

	private String barTitle() {
		final String t = stack.getProp(BAR_TITLE);
		return t == null ? "" : t;
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

	/**
	 * The colour bar's ticks: round values (1, 2 or 5 × 10ⁿ apart, about five) inside the
	 * display range, 0 among them when the range holds it.
	 */
	double[] ticks() {
		final double min = stack.getDisplayRangeMin(), max = stack.getDisplayRangeMax();
		if (!(max > min)) return new double[] { min };
		final double step = PlotSvg.niceStep((max - min) / 5);
		final List<Double> out = new ArrayList<>();
		for (double t = Math.ceil(min / step - 1e-9) * step; t <= max + 1e-9 * step; t += step)
			out.add(Math.abs(t) < 1e-9 * step ? 0 : t);
		return out.stream().mapToDouble(Double::doubleValue).toArray();
	}

	/** Where a value sits on the bar: 0 at the top (max) to 1 at the bottom (min). */
	private double barPosition(final double v) {
		final double min = stack.getDisplayRangeMin(), max = stack.getDisplayRangeMax();
		return max > min ? (max - v) / (max - min) : 0.5;
	}

	/** The ticks as text, in one number form ({@link ModelViews#numbers}). */
	String[] tickLabels() {
		return ModelViews.numbers(ticks());
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
		out.setFont(new Font("SansSerif", Font.PLAIN, FONT * s));
		out.setAntialiasedText(true);
		for (int i = 0; i < stack.getStackSize(); i++) {
			final ImageProcessor ip = new ColorProcessor(tile(i));
			ip.setInterpolationMethod(ImageProcessor.NONE);
			final int x = (i % cols) * (w + GAP) * s, y = (i / cols) * (h + TEXT) * s;
			out.insert(ip.resize(w * s, h * s), x, y);
			final String[] lines = label(i);
			for (int l = 0; l < lines.length; l++)
				out.drawString(lines[l], x + 2 * s, y + (h + FONT + 3 + (FONT + 3) * l) * s);
		}
		// colour bar: top = max, bottom = min, as tall as one slice, its title above it
		final Color[] lut = lutColors();
		final int bx = cols * (w + GAP) * s, by = BAR_TOP * s, bh = h * s;
		out.drawString(barTitle(), bx, by - 6 * s);
		for (int yy = 0; yy < bh; yy++) {
			out.setColor(lut[(int) Math.round(255.0 * (bh - 1 - yy) / Math.max(1, bh - 1))]);
			out.drawLine(bx, by + yy, bx + BAR * s - 1, by + yy);
		}
		out.setColor(Color.BLACK);
		out.drawRect(bx, by, BAR * s, bh);
		final double[] ticks = ticks();
		final String[] text = tickLabels();
		for (int k = 0; k < ticks.length; k++) {
			final int ty = by + (int) Math.round(barPosition(ticks[k]) * (bh - 1));
			out.drawLine(bx + BAR * s, ty, bx + BAR * s + 4 * s, ty);
			out.drawString(text[k], bx + BAR * s + 6 * s, ty + FONT * s / 2 - s);
		}
		if (!note().isEmpty()) out.drawString(note(), 2 * s, (figureHeight() + FONT + 2) * s);
		return new ImagePlus(stack.getTitle(), out);
	}

	private void draw(final Canvas svg) {
		for (int i = 0; i < stack.getStackSize(); i++) {
			final int x = (i % cols) * (w + GAP), y = (i / cols) * (h + TEXT);
			// enlarged with sharp pixels already, so that no viewer smooths them
			final ImageProcessor big = new ColorProcessor(tile(i));
			big.setInterpolationMethod(ImageProcessor.NONE);
			svg.image(big.resize(w, h).getBufferedImage(), x, y, w, h);
			final String[] lines = label(i);
			for (int l = 0; l < lines.length; l++)
				svg.text(lines[l], x + 2, y + h + FONT + 3 + (FONT + 3) * l, FONT,
					Canvas.Anchor.START, false, false);
		}
		final int bx = cols * (w + GAP);
		final Color[] lut = lutColors();
		final Color[] stops = new Color[17];
		for (int i = 0; i < stops.length; i++)
			stops[i] = lut[Math.min(255, i * 16)];
		if (!barTitle().isEmpty()) svg.text(barTitle(), bx, BAR_TOP - 6, FONT,
			Canvas.Anchor.START, false, false);
		svg.verticalGradient(bx, BAR_TOP, BAR, h, stops);
		final double[] ticks = ticks();
		final String[] text = tickLabels();
		for (int k = 0; k < ticks.length; k++) {
			final double ty = BAR_TOP + barPosition(ticks[k]) * h;
			svg.line(bx + BAR, ty, bx + BAR + 4, ty, Color.BLACK, 1, false);
			svg.text(text[k], bx + BAR + 6, ty + FONT / 2.0 - 1, FONT, Canvas.Anchor.START, false,
				false);
		}
		if (!note().isEmpty()) svg.text(note(), 2, figureHeight() + FONT + 2, FONT,
			Canvas.Anchor.START, false, false);
	}
}
