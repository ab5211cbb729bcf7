package org.cpca.image;

import java.io.IOException;
import java.nio.file.Path;

import ij.ImagePlus;
import ij.io.FileSaver;

import org.cpca.core.AtomicFiles;

/** Saves images as ImageJ TIFF files, atomically, without touching the image. */
public final class TiffFiles {

	private TiffFiles() {}

	/**
	 * Saves a single image or a stack (with its slice labels) as an ImageJ TIFF. A wrapper
	 * is saved, because {@link FileSaver} renames the image it saves after the file.
	 *
	 * @throws IOException if the file cannot be written
	 */
	public static void save(final ImagePlus imp, final Path file) throws IOException {
		AtomicFiles.write(file, tmp -> {
			final ImagePlus copy = new ImagePlus(imp.getTitle(), imp.getStack());
			copy.setCalibration(imp.getCalibration());
			copy.getProcessor().setLut(imp.getProcessor().getLut()); // saved with the file
			copy.setDisplayRange(imp.getDisplayRangeMin(), imp.getDisplayRangeMax());
			final FileSaver saver = new FileSaver(copy);
			final boolean ok = copy.getStackSize() > 1 ? saver.saveAsTiffStack(tmp
				.toString()) : saver.saveAsTiff(tmp.toString());
			if (!ok) throw new IOException("could not write " + file);
		});
	}
}
