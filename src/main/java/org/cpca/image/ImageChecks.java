package org.cpca.image;

import ij.ImagePlus;

/** Shared checks and wording for messages about images. */
final class ImageChecks {

	private ImageChecks() {}

	/** The image's title in quotes, or "the image" when it has none. */
	static String describe(final ImagePlus imp) {
		final String title = imp.getTitle();
		return title == null || title.trim().isEmpty() ? "the image" : "'" + title + "'";
	}

	/** "64×48". */
	static String size(final ImagePlus imp) {
		return imp.getWidth() + "×" + imp.getHeight();
	}

	/** "8-bit", "16-bit", "32-bit" or "RGB". */
	static String type(final ImagePlus imp) {
		return imp.getBitDepth() == 24 ? "RGB" : imp.getBitDepth() + "-bit";
	}

	static void requireImage(final String name, final ImagePlus imp) {
		if (imp == null) throw new IllegalArgumentException(name +
			" is missing: open or select an image");
	}

	static void requireNotRgb(final String name, final ImagePlus imp) {
		if (imp.getBitDepth() == 24) throw new IllegalArgumentException(name +
			" is RGB: convert it to 8-bit, 16-bit or 32-bit (Image > Type) or split the channels");
	}
}
