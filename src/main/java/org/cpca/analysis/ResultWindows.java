package org.cpca.analysis;

import ij.IJ;
import ij.ImageJ;
import ij.ImagePlus;
import ij.WindowManager;
import ij.gui.ImageWindow;
import ij.gui.Plot;
import ij.gui.PlotWindow;

import java.awt.AWTException;
import java.awt.Dimension;
import java.awt.EventQueue;
import java.awt.Frame;
import java.awt.GraphicsEnvironment;
import java.awt.Point;
import java.awt.Rectangle;
import java.awt.Robot;
import java.awt.Window;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import javax.swing.Timer;

import org.cpca.render.LegendRoom;

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
	 * titles end with " of " and its target's title, once they have settled
	 * ({@link #waitUntilStill}), on the event thread. Once per run: a later command that
	 * made no new run (Apply Model…) leaves them where the user put them. Nothing without
	 * a screen.
	 */
	public static void tileLatest() {
		if (GraphicsEnvironment.isHeadless() || tiled) return;
		final Thread t = new Thread(ResultWindows::tileWhenStill, "cpca: tile results");
		t.setDaemon(true);
		t.start();
	}

	/**
	 * Milliseconds between two looks at the windows' bounds, and the longest wait before
	 * tiling anyway.
	 */
	static final long LOOK = 150, MAX_WAIT = 4000;

	/**
	 * Waits until the run's windows are still, then tiles them. A window just shown is
	 * still being laid out after {@code show()} returns: under Xvfb (the e2e, bounds
	 * logged every 20 ms) a plot window appears 610 × 471, grows to 610 × 499 with its
	 * buttons, and some jump to (0, 0) and back as the window system's events arrive.
	 * The tiling used to run 20 ms after the last window (the variance-pairs plot)
	 * appeared, while it was still 471 high: tiled in the midst of its layout, that
	 * window could end up at its old size and place over the tiled ones (the e2e's
	 * "… covers cPCA variance pairs …: not tiled", about one run in four). Now it waits
	 * until the window system has handled its events and the bounds hold still.
	 */
	private static void tileWhenStill() {
		Robot robot = null;
		try {
			robot = new Robot();
		}
		catch (final AWTException | SecurityException e) {
			// no way to wait for the window system: the looks alone
		}
		final Robot idle = robot;
		waitUntilStill(() -> onEventThread(() -> bounds(latestWindows())), () -> {
			if (idle != null) idle.waitForIdle(); // the native events so far are handled
			IJ.wait((int) LOOK);
		}, MAX_WAIT, System::currentTimeMillis);
		EventQueue.invokeLater(ResultWindows::tileNow);
	}

	/**
	 * Looks at {@code bounds} until two looks in a row, {@code pause} apart, agree (or
	 * {@code maxMillis} have passed); returns the number of looks.
	 */
	static int waitUntilStill(final Supplier<List<Rectangle>> bounds, final Runnable pause,
		final long maxMillis, final LongSupplier millis)
	{
		final long end = millis.getAsLong() + maxMillis;
		List<Rectangle> before = bounds.get();
		int looks = 1;
		while (millis.getAsLong() < end) {
			pause.run();
			final List<Rectangle> now = bounds.get();
			looks++;
			if (now.equals(before)) break;
			before = now;
		}
		return looks;
	}

	private static <T> T onEventThread(final Supplier<T> s) {
		if (EventQueue.isDispatchThread()) return s.get();
		final List<T> out = new ArrayList<>();
		try {
			EventQueue.invokeAndWait(() -> out.add(s.get()));
		}
		catch (final InterruptedException e) {
			Thread.currentThread().interrupt();
			return s.get();
		}
		catch (final InvocationTargetException e) {
			return s.get();
		}
		return out.get(0);
	}

	private static List<Rectangle> bounds(final List<Window> windows) {
		final List<Rectangle> out = new ArrayList<>();
		for (final Window w : windows)
			out.add(w.isShowing() ? w.getBounds() : new Rectangle());
		return out;
	}

	private static void tileNow() {
		if (tiled) return;
		tiled = true;
		tile(latestWindows());
	}

	/** The latest run's windows: its marked images, then its tables. */
	private static List<Window> latestWindows() {
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
		return windows;
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
			// a plot is drawn again at the new size (its legend's band widened for it); another
			// image window zooms its image out to fit; a table scrolls
			if (w instanceof ImageWindow && !(w instanceof PlotWindow)) ((ImageWindow) w)
				.setLocationAndSize(w.getX(), w.getY(), width, height);
			else {
				if (w instanceof PlotWindow) fitLegend(((PlotWindow) w).getPlot(), w, width,
					height);
				w.setSize(width, height);
			}
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

	/**
	 * Refits the legend's band of the plot in window {@code w} for the plot's size in a
	 * window of {@code width × height} (the window's border and buttons stay as they are).
	 */
	static void fitLegend(final Plot plot, final Window w, final int width,
		final int height)
	{
		if (plot == null) return;
		final Dimension size = plot.getSize();
		LegendRoom.fit(plot, width - (w.getWidth() - size.width), height - (w.getHeight() -
			size.height));
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
