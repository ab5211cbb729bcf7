package org.cpca.render;

import ij.ImagePlus;

import java.awt.Graphics2D;
import java.awt.image.BufferedImage;

/** The image as displayed, as RGB pixels (works headless). */
final class Rgb {

	private Rgb() {}

	/**
	 * The current slice through its lookup table and display range, with the overlay
	 * burned in when one is shown, as a {@link BufferedImage#TYPE_INT_RGB} image.
	 */
	static BufferedImage of(final ImagePlus imp) {
		final ImagePlus shown = imp.getOverlay() != null && !imp.getHideOverlay() ? imp
			.flatten() : imp;
		final BufferedImage src = shown.getBufferedImage();
		if (src.getType() == BufferedImage.TYPE_INT_RGB) return src;
		final BufferedImage out = new BufferedImage(src.getWidth(), src.getHeight(),
			BufferedImage.TYPE_INT_RGB);
		final Graphics2D g = out.createGraphics();
		g.drawImage(src, 0, 0, null);
		g.dispose();
		return out;
	}
}
