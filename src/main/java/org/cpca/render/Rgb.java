package org.cpca.render;

import ij.ImagePlus;
import ij.process.ColorProcessor;
import ij.process.ImageProcessor;

import java.awt.Graphics2D;
import java.awt.image.BufferedImage;

/** The image as displayed, as RGB pixels (works headless). */
final class Rgb {

	private Rgb() {}

	/**
	 * The image as displayed, as an RGB processor: an RGB image without an overlay shown
	 * is its own processor, read and never changed (its pixels, not Java2D's image
	 * conversion, which is slow in a fresh JVM and caches a picture in the processor:
	 * several threads may read one image this way); other images are converted
	 * ({@link #of}).
	 */
	static ColorProcessor processor(final ImagePlus imp) {
		final boolean overlay = imp.getOverlay() != null && !imp.getHideOverlay();
		final ImageProcessor ip = imp.getProcessor();
		if (ip instanceof ColorProcessor && !overlay && imp.getStackSize() == 1)
			return (ColorProcessor) ip;
		return new ColorProcessor(of(imp));
	}

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
