package org.cpca.render;

import ij.ImagePlus;
import ij.gui.Plot;
import ij.process.ColorProcessor;
import ij.process.ImageProcessor;

import java.awt.Color;
import java.awt.Rectangle;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * Scatter markers stamped straight into a plot's pixels, with the look of ImageJ's own
 * {@link Plot} markers, pixel for pixel. ImageJ draws a marker as a filled shape and an
 * outline, one small drawing call after another (thousands of points take a second in a
 * fresh JVM); here every marker is the same set of pixels around its point, so it is
 * measured once from ImageJ itself (a plot with one point minus the plot without it) and
 * then copied to every point.
 * <p>
 * The plot without its points is drawn by ImageJ (frame, grid, axes, labels, title), the
 * markers are stamped class after class inside the frame (later classes on top, as
 * ImageJ draws them), the frame line goes back on top, and the legend goes where ImageJ
 * puts an automatically placed legend: in the corner, tried top left, top right, bottom
 * right, bottom left, whose box (and the row below it) covers the fewest pixels that are
 * neither white nor grid. The legend's box at each corner is also measured from ImageJ
 * (the plot with the legend there minus the plot without it) and pasted whole, since it
 * is opaque. {@code RenderTest} compares the result with ImageJ's own drawing pixel for
 * pixel (docs/speed.md, one-shot runs).
 */
final class ScatterRaster {

	/** ImageJ's plot background and grid colours. */
	private static final int WHITE = 0xffffff, GRID = 0xc0c0c0;

	/** ImageJ's legend positions, in the order its automatic placement tries them. */
	private static final int[] CORNERS = { Plot.TOP_LEFT, Plot.TOP_RIGHT,
		Plot.BOTTOM_RIGHT, Plot.BOTTOM_LEFT };

	/** The markers measured ({@link #stamp}), by shape and line width. */
	static final Map<String, int[]> STAMPS = new ConcurrentHashMap<>();
	private static final Map<String, Tile[]> LEGENDS = new ConcurrentHashMap<>();

	private ScatterRaster() {}

	/** A legend box at one corner: its pixels, and where they go. */
	private static final class Tile {

		final Rectangle box;
		final int[] pixels;

		Tile(final Rectangle box, final int[] pixels) {
			this.box = box;
			this.pixels = pixels;
		}
	}

	/**
	 * Draws {@code frame} (a plot whose traces hold no drawable point and that has no
	 * legend) and stamps the points into it, in two parts: what ImageJ draws (the frame,
	 * the markers' stamps and the legend's tiles, measured from ImageJ's plots) now, on
	 * this thread; the stamping of the points and the legend's placement, which touch
	 * nothing but this picture's pixels, by {@code get()}, on any thread (once).
	 *
	 * @param groups the indices of the points of each class, in drawing order
	 * @param shapes ImageJ's marker shape of each class
	 * @param lineWidth the markers' line width
	 * @param opacity the markers' opacity: 1 stamps ImageJ's opaque markers, less blends
	 *          each marker's colour over what is below it
	 * @param legend the legend text (one class a line), or null for no legend
	 * @param legendPlot the same traces on an empty plot of the same size: with the
	 *          legend at the given ImageJ position, or without a legend for position 0
	 * @return the picture, as an RGB image without a plot behind it, once {@code get()}
	 */
	static Supplier<ImagePlus> prepare(final Plot frame, final double[] x,
		final double[] y, final List<List<Integer>> groups, final List<String> shapes,
		final float lineWidth, final float opacity, final String legend,
		final IntFunction<Plot> legendPlot)
	{
		final ImagePlus drawn = frame.getImagePlus();
		final ImageProcessor ip = drawn.getProcessor();
		if (groups.isEmpty()) { // nothing to stamp
			final ImagePlus out = new ImagePlus(drawn.getTitle(), ip);
			return () -> out;
		}
		if (!(ip instanceof ColorProcessor)) throw new IllegalStateException(
			"a scatter plot is drawn in colour");
		// ImageJ clips markers to the frame, its lines included (the frame is drawn last)
		final Rectangle f = frame.getDrawingFrame();
		final int[][] stamps = new int[groups.size()][];
		final int[][] at = new int[groups.size()][];
		for (int g = 0; g < groups.size(); g++) {
			stamps[g] = stamp(shapes.get(g), lineWidth);
			final List<Integer> points = groups.get(g);
			at[g] = new int[2 * points.size()];
			for (int k = 0; k < points.size(); k++) {
				final int i = points.get(k);
				// ImageJ keeps a plot's values as float, skips NaN and rounds to whole
				// pixels; far-away points miss the frame
				final double sx = frame.scaleXtoPxl((float) x[i]), sy = frame.scaleYtoPxl(
					(float) y[i]);
				final boolean shown = Math.abs(sx) < 1e6 && Math.abs(sy) < 1e6;
				at[g][2 * k] = shown ? (int) Math.round(sx) : Integer.MIN_VALUE;
				at[g][2 * k + 1] = shown ? (int) Math.round(sy) : Integer.MIN_VALUE;
			}
		}
		final Tile[] tiles = legend == null ? null : LEGENDS.computeIfAbsent(legend + "\n" +
			shapes + "\n" + lineWidth + "\n" + ip.getWidth() + "x" + ip.getHeight(),
			key -> legendTiles(legendPlot));
		return new Supplier<ImagePlus>() {

			private ImagePlus done;

			@Override
			public synchronized ImagePlus get() {
				if (done == null) done = stampAll(drawn.getTitle(), ip, f, stamps, at, opacity,
					tiles);
				return done;
			}
		};
	}

	/**
	 * Stamps every point ({@code at}: pixel x, y per point, per class) into the drawn
	 * plot, puts the frame back on top, and pastes the legend in ImageJ's corner.
	 */
	private static ImagePlus stampAll(final String title, final ImageProcessor ip,
		final Rectangle f, final int[][] stamps, final int[][] at, final float opacity,
		final Tile[] tiles)
	{
		final int w = ip.getWidth(), h = ip.getHeight();
		final int[] px = (int[]) ip.getPixels();
		final int x0 = Math.max(0, f.x), y0 = Math.max(0, f.y);
		final int x1 = Math.min(w - 1, f.x + f.width), y1 = Math.min(h - 1, f.y + f.height);
		final int[] top = row(px, w, y0, x0, x1), bottom = row(px, w, y1, x0, x1);
		final int[] left = column(px, w, x0, y0, y1), right = column(px, w, x1, y0, y1);
		for (int g = 0; g < stamps.length; g++) {
			final int colour = Palette.color(g).getRGB() & 0xffffff;
			final int[] stamp = stamps[g];
			final int[] over = opacity >= 1 ? null : blendTable(colour, opacity);
			for (int k = 0; k < at[g].length; k += 2) {
				final int cx = at[g][k], cy = at[g][k + 1];
				if (cx == Integer.MIN_VALUE) continue;
				for (int s = 0; s < stamp.length; s += 2) {
					final int xx = cx + stamp[s], yy = cy + stamp[s + 1];
					if (xx >= x0 && xx <= x1 && yy >= y0 && yy <= y1) px[yy * w + xx] =
						over == null ? colour : blend(over, px[yy * w + xx]);
				}
			}
		}
		putRow(px, w, y0, x0, top);
		putRow(px, w, y1, x0, bottom);
		putColumn(px, w, x0, y0, left);
		putColumn(px, w, x1, y0, right);
		if (tiles != null) {
			Tile best = null;
			long fewest = Long.MAX_VALUE;
			for (final Tile t : tiles) {
				if (t == null) continue;
				final long covered = covered(px, w, h, t.box);
				if (covered < fewest) {
					fewest = covered;
					best = t;
				}
			}
			if (best != null) for (int r = 0; r < best.box.height; r++)
				System.arraycopy(best.pixels, r * best.box.width, px, (best.box.y + r) * w +
					best.box.x, best.box.width);
		}
		return new ImagePlus(title, ip);
	}

	/**
	 * {@link #blend(int, int, float)} of {@code over} at {@code opacity} as a table: for
	 * each channel (blue, green, red: 256 entries each) and each value under it, the
	 * blended channel, in place. The same arithmetic, done once per value instead of once
	 * per stamped pixel (a million times for four panels of 5,000 markers).
	 */
	static int[] blendTable(final int over, final float opacity) {
		final int[] table = new int[3 * 256];
		for (int c = 0; c < 3; c++)
			for (int under = 0; under < 256; under++)
				table[256 * c + under] = blend(over & 0xff << 8 * c, under << 8 * c, opacity);
		return table;
	}

	/** The colour of {@link #blendTable}'s colour over {@code under} (RGB). */
	static int blend(final int[] table, final int under) {
		return table[under & 0xff] | table[256 + (under >> 8 & 0xff)] | table[512 + (under >>
			16 & 0xff)];
	}

	/** {@code over} at {@code opacity} over {@code under} (RGB), channel by channel. */
	static int blend(final int over, final int under, final float opacity) {
		int out = 0;
		for (int shift = 0; shift <= 16; shift += 8) {
			final int a = over >> shift & 0xff, b = under >> shift & 0xff;
			out |= Math.round(opacity * a + (1 - opacity) * b) << shift;
		}
		return out;
	}

	/** Pixels that are neither background nor grid in the box and the row below it. */
	private static long covered(final int[] px, final int w, final int h,
		final Rectangle box)
	{
		long n = 0;
		for (int y = box.y; y <= box.y + box.height && y < h; y++)
			for (int x = box.x; x < box.x + box.width; x++) {
				final int p = px[y * w + x] & 0xffffff;
				if (p != WHITE && p != GRID) n++;
			}
		return n;
	}

	/**
	 * The marker of {@code shape} as pixel offsets (dx, dy, dx, dy, ...) from its point:
	 * the pixels where ImageJ's plot with one point differs from the plot without it.
	 * Measured once per shape and line width (two ImageJ plots drawn: the caller holds
	 * {@link PlotStyle#DRAWING}), then kept.
	 */
	static int[] stamp(final String shape, final float lineWidth) {
		return STAMPS.computeIfAbsent(shape + "\n" + lineWidth, key -> {
			final double at = 0.123; // away from grid lines and the frame
			final int[] with = pixels(onePoint(shape, lineWidth, at));
			final Plot none = onePoint(shape, lineWidth, Double.NaN);
			final int[] without = pixels(none);
			final int cx = (int) Math.round(none.scaleXtoPxl(at)), cy = (int) Math.round(none
				.scaleYtoPxl(at));
			final int w = none.getProcessor().getWidth();
			final List<Integer> offsets = new ArrayList<>();
			for (int i = 0; i < with.length; i++)
				if (with[i] != without[i]) {
					offsets.add(i % w - cx);
					offsets.add(i / w - cy);
				}
			final int[] out = new int[offsets.size()];
			for (int i = 0; i < out.length; i++)
				out[i] = offsets.get(i);
			return out;
		});
	}

	/** Whether the marker of {@code shape} at this line width was measured already. */
	static boolean stamped(final String shape, final float lineWidth) {
		return STAMPS.containsKey(shape + "\n" + lineWidth);
	}

	private static Plot onePoint(final String shape, final float lineWidth,
		final double at)
	{
		final Plot p = new Plot("", "", "");
		p.setSize(ScatterPlot.WIDTH, ScatterPlot.HEIGHT);
		p.setLineWidth(lineWidth);
		p.setColor(Color.RED, Color.RED);
		p.add(shape, new double[] { at }, new double[] { at });
		p.setLineWidth(1);
		p.setColor(Color.BLACK);
		p.setLimits(-1, 1, -1, 1);
		p.getImagePlus();
		return p;
	}

	private static int[] pixels(final Plot p) {
		return ((int[]) p.getImagePlus().getProcessor().getPixels()).clone();
	}

	/** The legend's box at one of ImageJ's corners ({@link Plot#TOP_LEFT}, …). */
	static Rectangle legendBox(final IntFunction<Plot> legendPlot, final int corner) {
		for (int c = 0; c < CORNERS.length; c++)
			if (CORNERS[c] == corner) {
				final Tile t = legendTiles(legendPlot)[c];
				return t == null ? null : t.box;
			}
		throw new IllegalArgumentException("not a corner: " + corner);
	}

	/** The legend box at each corner (null where ImageJ draws none). */
	private static Tile[] legendTiles(final IntFunction<Plot> legendPlot) {
		final Plot bare = legendPlot.apply(0);
		final int[] without = pixels(bare);
		final int w = bare.getProcessor().getWidth();
		final Tile[] tiles = new Tile[CORNERS.length];
		for (int c = 0; c < CORNERS.length; c++) {
			final int[] with = pixels(legendPlot.apply(CORNERS[c]));
			int minX = Integer.MAX_VALUE, minY = Integer.MAX_VALUE, maxX = -1, maxY = -1;
			for (int i = 0; i < with.length; i++)
				if (with[i] != without[i]) {
					minX = Math.min(minX, i % w);
					maxX = Math.max(maxX, i % w);
					minY = Math.min(minY, i / w);
					maxY = Math.max(maxY, i / w);
				}
			if (maxX < 0) continue;
			final Rectangle box = new Rectangle(minX, minY, maxX - minX + 1, maxY - minY + 1);
			final int[] tile = new int[box.width * box.height];
			for (int r = 0; r < box.height; r++)
				System.arraycopy(with, (box.y + r) * w + box.x, tile, r * box.width, box.width);
			tiles[c] = new Tile(box, tile);
		}
		return tiles;
	}

	private static int[] row(final int[] px, final int w, final int y, final int x0,
		final int x1)
	{
		final int[] r = new int[x1 - x0 + 1];
		System.arraycopy(px, y * w + x0, r, 0, r.length);
		return r;
	}

	private static void putRow(final int[] px, final int w, final int y, final int x0,
		final int[] r)
	{
		System.arraycopy(r, 0, px, y * w + x0, r.length);
	}

	private static int[] column(final int[] px, final int w, final int x, final int y0,
		final int y1)
	{
		final int[] c = new int[y1 - y0 + 1];
		for (int i = 0; i < c.length; i++)
			c[i] = px[(y0 + i) * w + x];
		return c;
	}

	private static void putColumn(final int[] px, final int w, final int x, final int y0,
		final int[] c)
	{
		for (int i = 0; i < c.length; i++)
			px[(y0 + i) * w + x] = c[i];
	}
}
