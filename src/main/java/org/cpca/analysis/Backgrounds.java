package org.cpca.analysis;

import ij.ImagePlus;
import ij.WindowManager;
import ij.gui.Overlay;
import ij.gui.Roi;
import ij.plugin.frame.RoiManager;

import java.awt.HeadlessException;
import java.util.ArrayList;
import java.util.List;

/**
 * Where several backgrounds come from in Fiji and macros (UCA and rPCA take any number):
 * open images named by their titles, the ROIs of the ROI Manager, or the ROIs of the
 * target's overlay (each ROI one background region, pixels as samples).
 */
public final class Backgrounds {

	private Backgrounds() {}

	/**
	 * The open images with the given comma-separated titles, in that order (empty text:
	 * none).
	 *
	 * @throws IllegalArgumentException naming a title that is not open
	 */
	public static List<ImagePlus> byTitles(final String titles) {
		final List<ImagePlus> out = new ArrayList<>();
		if (titles == null || titles.trim().isEmpty()) return out;
		for (final String part : titles.split(",")) {
			final String title = part.trim();
			if (title.isEmpty()) continue;
			out.add(byTitle(title, "a background"));
		}
		return out;
	}

	/**
	 * The one open image titled {@code title}; refused when none is, or when several are
	 * (ImageJ would pick the first, so that two images of one title were read as one).
	 *
	 * @param role what the image is for in messages ("the target", "a background")
	 */
	public static ImagePlus byTitle(final String title, final String role) {
		final ImagePlus imp = WindowManager.getImage(title);
		if (imp == null) throw new IllegalArgumentException("there is no open image titled '" +
			title + "' for " + role + ": open it first (open(path)) or check the title " +
			"(getTitle(); several titles are separated by commas)");
		int same = 0;
		final int[] ids = WindowManager.getIDList();
		if (ids != null) for (final int id : ids) {
			final ImagePlus other = WindowManager.getImage(id);
			if (other != null && title.equals(other.getTitle())) same++;
		}
		if (same > 1) throw new IllegalArgumentException(same + " open images are titled '" +
			title + "', so '" + title + "' does not say which one is meant for " + role +
			": give each a title of its own (rename(\"new title\") or Image > Rename...)");
		return imp;
	}

	/** The ROIs of the ROI Manager, in its order. */
	public static List<Roi> roiManager() {
		final RoiManager rm;
		try {
			rm = RoiManager.getInstance();
		}
		catch (final HeadlessException e) { // a macro's hidden ROI Manager is still a window
			throw new IllegalArgumentException("the ROI Manager cannot be used without a " +
				"display (headless): add the background regions to the target's overlay and " +
				"give \"overlay\" as background, or give a background image");
		}
		if (rm == null || rm.getCount() == 0) throw new IllegalArgumentException("the ROI " +
			"Manager holds no ROIs: add one area ROI per background region (t, or " +
			"Analyze > Tools > ROI Manager > Add)");
		return List.of(rm.getRoisAsArray());
	}

	/** The ROIs of the target's overlay, in its order. */
	public static List<Roi> overlay(final ImagePlus target) {
		final Overlay o = target == null ? null : target.getOverlay();
		if (o == null || o.size() == 0) throw new IllegalArgumentException("the target has " +
			"no overlay ROIs: add one area ROI per background region (Image > Overlay > Add " +
			"Selection...), or use the ROI Manager");
		return List.of(o.toArray());
	}
}
