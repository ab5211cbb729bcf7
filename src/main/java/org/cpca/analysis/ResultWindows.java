package org.cpca.analysis;

import ij.IJ;
import ij.ImageJ;
import ij.ImagePlus;
import ij.WindowManager;

import java.awt.Dimension;
import java.awt.Frame;
import java.awt.GraphicsEnvironment;
import java.awt.Point;
import java.awt.Rectangle;
import java.awt.Window;
import java.util.ArrayList;
import java.util.List;

/**
 * The windows one run of this plugin shows: each result image is marked as a result of
 * that run (so that the next dialog never offers it as the default target, and so that
 * the run's windows can be found again), and once shown they are tiled over the screen
 * below ImageJ's bar instead of stacked on each other (docs/fiji.md). Tables are found
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

	private ResultWindows() {}

	/** Starts a run on {@code target}: the images it marks belong to it. */
	static synchronized String newRun(final String target) {
		latest = Integer.toString(++runs);
		latestTarget = target;
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
	 * titles end with " of " and its target's title. Nothing without a screen.
	 */
	public static void tileLatest() {
		if (GraphicsEnvironment.isHeadless()) return;
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

	/** Places {@code windows} side by side in rows below ImageJ's bar. */
	static void tile(final List<Window> windows) {
		if (windows.isEmpty()) return;
		final Rectangle screen = GraphicsEnvironment.getLocalGraphicsEnvironment()
			.getMaximumWindowBounds();
		final ImageJ bar = IJ.getInstance();
		final int top = bar == null ? screen.y : Math.max(screen.y, bar.getY() + bar
			.getHeight());
		final List<Dimension> sizes = new ArrayList<>();
		for (final Window w : windows)
			sizes.add(w.getSize());
		final List<Point> at = layout(sizes, new Rectangle(screen.x, top, screen.width,
			screen.y + screen.height - top));
		for (int i = 0; i < windows.size(); i++)
			windows.get(i).setLocation(at.get(i));
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
