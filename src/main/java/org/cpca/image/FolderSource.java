package org.cpca.image;

import ij.ImagePlus;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.cpca.core.data.SampleSource;

/**
 * A folder of images as a {@link SampleSource}: one file per sample, opened when its
 * sample is read and dropped right after, so the folder is never held in memory. Files
 * are taken in the order and with the rules of {@link ImageInput#open} for folders
 * (sorted by name, numbers by value; hidden files and non-images skipped). Each file must
 * be a single image of the first file's width × height and type. Random access.
 */
public final class FolderSource implements SampleSource {

	private final String name;
	private final List<Path> files;
	private final ImagePlus first;
	private final FeatureLayout layout;

	/**
	 * @param layout features of each image (see {@link StackSamples#layoutFor} on
	 *          {@link #firstImage})
	 * @throws IllegalArgumentException if the folder has no image or the first image does
	 *           not fit the layout
	 */
	public FolderSource(final String name, final Path folder, final FeatureLayout layout) {
		this.name = name;
		this.files = ImageInput.imageFiles(folder);
		this.first = open(files.get(0));
		ImageChecks.requireNotRgb(name, first);
		layout.checkFits(name, first);
		this.layout = layout;
	}

	/** The first image of the folder (sorted order): its size and type hold for all. */
	public static ImagePlus firstImage(final Path folder) {
		return open(ImageInput.imageFiles(folder).get(0));
	}

	/** The first image (for its width × height and type). */
	public ImagePlus first() {
		return first;
	}

	@Override
	public String name() {
		return name;
	}

	@Override
	public int samples() {
		return files.size();
	}

	@Override
	public int features() {
		return layout.features();
	}

	@Override
	public boolean randomAccess() {
		return true;
	}

	/** The files, in sample order. */
	public List<Path> files() {
		return new ArrayList<>(files);
	}

	@Override
	public void read(final int index, final float[] into) {
		final Path file = files.get(index);
		final ImagePlus imp = index == 0 ? first : open(file);
		if (imp.getStackSize() != 1) throw new IllegalArgumentException(file + " has " + imp
			.getStackSize() + " slices: a folder read one file per sample needs single " +
			"images (or give the stack file itself)");
		if (imp.getWidth() != first.getWidth() || imp.getHeight() != first.getHeight() || imp
			.getBitDepth() != first.getBitDepth()) throw new IllegalArgumentException(file +
				" is " + ImageChecks.size(imp) + " " + ImageChecks.type(imp) + " but the " +
				"folder's first image is " + ImageChecks.size(first) + " " + ImageChecks.type(
					first) + ": all images in a folder must have the same width × height and type");
		layout.extract(imp.getProcessor(), into);
		StackSource.requireFinite(name, file.getFileName().toString(), into);
	}

	private static ImagePlus open(final Path file) {
		return ImageInput.open(file, "folder image");
	}
}
