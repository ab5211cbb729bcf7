package org.cpca.command;

import ij.ImagePlus;
import ij.WindowManager;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.cpca.analysis.ResultWindows;

/**
 * The open images as the defaults of a dialog's image fields, in plain ImageJ
 * ({@code ij1.CommandBridge}) and in Fiji ({@link DialogSteps}) alike: the user's images
 * come before the results this plugin showed ({@link ResultWindows}), the current image
 * first among its kind; required fields and the background take them in turn. So after
 * Sample Data (target.tif and background.tif open) OK, OK runs, and a result window is
 * never the default target.
 */
public final class OpenImages {

	/**
	 * Optional image fields whose default is the next open image rather than none: the
	 * background.
	 */
	public static final Set<String> ANOTHER_IMAGE = Set.of("background");

	private OpenImages() {}

	/** The open images of ImageJ's window list, in default order ({@link #ordered}). */
	public static List<ImagePlus> ordered() {
		final int[] ids = WindowManager.getIDList();
		final List<ImagePlus> open = new ArrayList<>();
		if (ids != null) for (final int id : ids) {
			final ImagePlus imp = WindowManager.getImage(id);
			if (imp != null) open.add(imp);
		}
		return ordered(open, WindowManager.getCurrentImage());
	}

	/**
	 * {@code open} in the order the image fields take them as defaults: the user's
	 * images before this plugin's results, {@code current} first among its kind; each
	 * title once.
	 */
	public static List<ImagePlus> ordered(final List<ImagePlus> open,
		final ImagePlus current)
	{
		final List<ImagePlus> mine = new ArrayList<>(), results = new ArrayList<>();
		final List<String> titles = new ArrayList<>();
		final List<ImagePlus> all = new ArrayList<>();
		if (current != null) all.add(current);
		all.addAll(open);
		for (final ImagePlus imp : all) {
			if (titles.contains(imp.getTitle())) continue;
			titles.add(imp.getTitle());
			(ResultWindows.isResult(imp) ? results : mine).add(imp);
		}
		mine.addAll(results);
		return mine;
	}

	/**
	 * The index (in {@link #ordered} images, {@code count} of them) of an image field's
	 * default, or -1 for none: required fields and optional ones that take another image
	 * ({@link #ANOTHER_IMAGE}) take the images in turn ({@code next} are taken already),
	 * other optional fields none; a required field takes the last image when all are
	 * taken, an optional one none.
	 */
	public static int initial(final boolean required, final boolean another,
		final int count, final int next)
	{
		if (count == 0) return -1;
		if (required) return Math.min(next, count - 1);
		return another && next < count ? next : -1;
	}
}
