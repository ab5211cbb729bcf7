package org.cpca.analysis;

import ij.IJ;
import ij.ImageJ;
import ij.ImagePlus;
import ij.WindowManager;
import ij.gui.ImageWindow;
import ij.gui.PlotWindow;

import java.awt.Dimension;
import java.awt.EventQueue;
import java.awt.Frame;
import java.awt.GraphicsEnvironment;
import java.awt.Point;
import java.awt.Rectangle;
import java.awt.Window;
import java.util.ArrayList;
import java.util.List;

import javax.swing.Timer;

/**
 * The windows one run of this plugin shows: each result image is marked as a result of
 * that run (so that the next dialog never offers it as the default target, and so that
 * the run's windows can be found again), and once shown they are tiled over the screen
 * below ImageJ's bar instead of stacked on each other, zoomed out if needed as ImageJ's
 * Window › Tile does (docs/fiji.md). Tables are found
 * by their titles, which end with " of " and the target's title.
 */
public final class ResultWindows {

	/** The image property that marks a result of this plugin; its value is the run. */
	static final String PROPERTY = "cpca.result";

	/** Gap between tiled windows, in pixels. */
	static final int GAP = 4;

	private static int runs;
	private static volatile String latest = "0";
	private static volatile String latestTarget = "";
	/** Whether the latest run's windows were tiled (a later command leaves them be). */
	private static volatile boolean tiled;

	private ResultWindows() {}

	/** Starts a run on {@code target}: the images it marks belong to it. */
	static synchronized String newRun(final String target) {
		latest = Integer.toString(++runs);
		latestTarget = target;
		tiled = false;
		return latest;
	}

	/** Marks {@code imp} as a result of {@code run} and returns it. */
	static ImagePlus mark(final ImagePlus imp, final String run) {
		imp.setProp(PROPERTY, run);
		return imp;
	}

	/** Marks {@code imp} as a result (of no run in particular) and returns it. */
	public static ImagePlus mark(final ImagePlus imp) {
		if (imp.getProp(PROPERTY) == null) imp.setProp(PROPERTY, "shown");
		return imp;
	}

	/** Whether {@code imp} is a result this plugin showed. */
	public static boolean isResult(final ImagePlus imp) {
		return imp != null && imp.getProp(PROPERTY) != null;
	}

	/**
	 * Tiles the windows of the latest run: its marked images and the tables whose
	 * titles end with " of " and its target's title; queued on the event thread, behind
	 * the events of the windows just opened (a plot window resized before it has been
	 * drawn keeps its old drawing). Once per run: a later command that made no new run
	 * (Apply Model…) leaves them where the user put them. Nothing without a screen.
	 */
	public static void tileLatest() {
		if (!GraphicsEnvironment.isHeadless() && !tiled) EventQueue.invokeLater(
			ResultWindows::tileNow);
	}

	private static void tileNow() {
		if (tiled) return;
		tiled = true;
		final List<Window> windows = new ArrayList<>();
		final int[] ids = WindowManager.getIDList();
		if (ids != null) for (final int id : ids) {
			final ImagePlus imp = WindowManager.getImage(id);
			if (imp != null && latest.equals(imp.getProp(PROPERTY)) && imp.getWindow() != null)
				windows.add(imp.getWindow());
		}
		final String suffix = " of " + latestTarget;
		final Frame[] frames = WindowManager.getNonImageWindows();
		if (!latestTarget.isEmpty() && frames != null) for (final Frame f : frames)
			if (f.getTitle().endsWith(suffix)) windows.add(f);
		tile(windows);
	}

	/**
	 * ImageJ's zoom levels tried, largest first, for windows that do not fit the screen
	 * side by side at full size (ImageJ's Window › Tile zooms out the same way).
	 */
	static final double[] SCALES = { 1, 0.75, 2 / 3.0, 0.5 };

	/**
	 * Images are shown at least this many pixels across: smaller ones (eigen-images of
	 * 28 × 28 pixels) are zoomed in, and none is zoomed out below it.
	 */
	static final int SMALLEST = 200;

	/**
	 * Places {@code windows} side by side in rows below ImageJ's bar: small images zoomed
	 * in ({@link #SMALLEST}), the others zoomed out as far as needed (at most to half
	 * size) for all to fit.
	 */
	static void tile(final List<Window> windows) {
		if (windows.isEmpty()) return;
		final Rectangle screen = GraphicsEnvironment.getLocalGraphicsEnvironment()
			.getMaximumWindowBounds();
		final ImageJ bar = IJ.getInstance();
		final int top = bar == null ? screen.y : Math.max(screen.y, bar.getY() + bar
			.getHeight());
		final Rectangle area = new Rectangle(screen.x, top, screen.width, screen.y +
			screen.height - top);
		final boolean[] fixed = new boolean[windows.size()];
		for (int i = 0; i < fixed.length; i++) {
			final Window w = windows.get(i);
			if (!(w instanceof ImageWindow) || w instanceof PlotWindow) continue;
			final ImageWindow iw = (ImageWindow) w;
			final ImagePlus imp = iw.getImagePlus();
			final int f = zoomIn(imp.getWidth(), imp.getHeight());
			if (f > 1) iw.setLocationAndSize(w.getX(), w.getY(), imp.getWidth() * f + w
				.getWidth() - iw.getCanvas().getWidth(), imp.getHeight() * f + w.getHeight() - iw
					.getCanvas().getHeight());
			fixed[i] = Math.max(iw.getCanvas().getWidth(), iw.getCanvas().getHeight()) *
				SCALES[SCALES.length - 1] < SMALLEST;
		}
		final double s = scale(sizes(windows), fixed, area);
		if (s < 1) for (int i = 0; i < fixed.length; i++) {
			if (fixed[i]) continue;
			final Window w = windows.get(i);
			final int width = (int) Math.round(w.getWidth() * s), height = (int) Math.round(w
				.getHeight() * s);
			// a plot is drawn again at the new size; another image window zooms its image
			// out to fit; a table scrolls
			if (w instanceof ImageWindow && !(w instanceof PlotWindow)) ((ImageWindow) w)
				.setLocationAndSize(w.getX(), w.getY(), width, height);
			else w.setSize(width, height);
		}
		final List<Point> at = layout(sizes(windows), area);
		for (int i = 0; i < windows.size(); i++)
			windows.get(i).setLocation(at.get(i));
		redraw(windows);
		// and once more when the plots have been drawn again at their new size
		final Timer later = new Timer(REDRAW_DELAY, e -> redraw(windows));
		later.setRepeats(false);
		later.start();
	}

	/** Milliseconds after tiling when the windows are drawn once more. */
	static final int REDRAW_DELAY = 700;

	/** Draws the windows again whole: one moved and resized may keep stale parts. */
	private static void redraw(final List<Window> windows) {
		for (final Window w : windows) {
			w.validate();
			w.repaint();
			if (w instanceof ImageWindow) ((ImageWindow) w).getCanvas().repaint();
		}
	}

	/**
	 * The whole zoom factor (at most 8) that shows an image of {@code width} ×
	 * {@code height} pixels at least {@link #SMALLEST} across; 1 for larger images.
	 */
	static int zoomIn(final int width, final int height) {
		int f = 1;
		while (f < 8 && Math.max(width, height) * (f + 1) <= SMALLEST)
			f++;
		return f;
	}

	private static List<Dimension> sizes(final List<Window> windows) {
		final List<Dimension> out = new ArrayList<>();
		for (final Window w : windows)
			out.add(w.getSize());
		return out;
	}

	/**
	 * The largest of {@link #SCALES} at which windows of {@code sizes}, scaled (but the
	 * {@code fixed} ones), lie side by side in {@code area} with none covering another;
	 * the smallest if none does.
	 */
	static double scale(final List<Dimension> sizes, final boolean[] fixed,
		final Rectangle area)
	{
		for (final double s : SCALES) {
			final List<Dimension> scaled = scaled(sizes, fixed, s);
			if (!overlap(layout(scaled, area), scaled)) return s;
		}
		return SCALES[SCALES.length - 1];
	}

	/** {@code sizes} times {@code s}, rounded, but the {@code fixed} ones. */
	static List<Dimension> scaled(final List<Dimension> sizes, final boolean[] fixed,
		final double s)
	{
		final List<Dimension> out = new ArrayList<>();
		for (int i = 0; i < sizes.size(); i++) {
			final Dimension d = sizes.get(i);
			out.add(fixed[i] ? d : new Dimension((int) Math.round(d.width * s), (int) Math
				.round(d.height * s)));
		}
		return out;
	}

	/** Whether any two of the boxes at {@code at} of {@code sizes} overlap. */
	static boolean overlap(final List<Point> at, final List<Dimension> sizes) {
		for (int i = 0; i < at.size(); i++)
			for (int j = 0; j < i; j++)
				if (new Rectangle(at.get(i), sizes.get(i)).intersects(new Rectangle(at.get(j),
					sizes.get(j)))) return true;
		return false;
	}

	/**
	 * Where windows of {@code sizes} go in {@code area}: left to right in rows, a row as
	 * high as its highest window; a window that does not fit below the last row starts
	 * again at the top, shifted by a title bar's height, so that none is hidden wholly.
	 */
	static List<Point> layout(final List<Dimension> sizes, final Rectangle area) {
		final List<Point> out = new ArrayList<>();
		int x = area.x, y = area.y, rowHeight = 0, restart = 0;
		for (final Dimension d : sizes) {
			if (x > area.x && x + d.width > area.x + area.width) { // next row
				x = area.x + restart;
				y += rowHeight + GAP;
				rowHeight = 0;
			}
			if (y > area.y + restart && y + d.height > area.y + area.height) { // start over
				restart += 30;
				x = area.x + restart;
				y = area.y + restart;
				rowHeight = 0;
			}
			out.add(new Point(x, y));
			x += d.width + GAP;
			rowHeight = Math.max(rowHeight, d.height);
		}
		return out;
	}
}
