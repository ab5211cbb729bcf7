package org.cpca.render;

import ij.ImagePlus;

import org.cpca.core.AtomicFiles;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;

import javax.imageio.ImageIO;

/** Writes rendered images to files, atomically and headless. */
public final class PlotFiles {

	private PlotFiles() {}

	/**
	 * Saves the image as displayed (current slice, lookup table, display range and
	 * overlay) as a PNG file. The file is written to a temporary file in the same
	 * folder and then moved over {@code file}, so readers never see a partial file.
	 * Missing parent folders are created.
	 *
	 * @throws IOException if the file cannot be written
	 */
	public static void savePng(final ImagePlus imp, final Path file) throws IOException {
		final BufferedImage image = Rgb.of(imp);
		AtomicFiles.write(file, tmp -> {
			if (!ImageIO.write(image, "png", tmp.toFile())) throw new IOException(
				"no PNG writer is available in this Java runtime");
		});
	}
}
