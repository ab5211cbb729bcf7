package org.cpca.analysis;

import ij.ImagePlus;
import ij.WindowManager;
import ij.gui.Overlay;
import ij.gui.Roi;
import ij.plugin.frame.RoiManager;

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
			final ImagePlus imp = WindowManager.getImage(title);
			if (imp == null) throw new IllegalArgumentException("there is no open image " +
				"titled '" + title + "' for a background: open it first, or check the title " +
				"(titles are separated by commas)");
			out.add(imp);
		}
		return out;
	}

	/** The ROIs of the ROI Manager, in its order. */
	public static List<Roi> roiManager() {
		final RoiManager rm = RoiManager.getInstance();
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
