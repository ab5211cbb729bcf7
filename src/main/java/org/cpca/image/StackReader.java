package org.cpca.image;

import ij.ImagePlus;
import ij.gui.Roi;
import ij.process.ByteProcessor;

import java.nio.file.Path;
import java.util.List;

import org.cpca.core.data.Dataset;
import org.cpca.core.data.SampleSource;

/**
 * The one reader of images as samples × features, slices as samples, for every front end
 * (the command line, the Fiji commands and macros, online cPCA*): an open image, a
 * virtual stack or a folder read file by file, with a hyperstack's axes read as chosen
 * ({@link Axes}), a mask, the target's area selection and binning as the features'
 * {@link FeatureLayout}, and the slices read either into a {@link Dataset} (NaN pixels
 * refused, or kept for a missing-value rule) or as a {@link SampleSource} read one
 * sample at a time. Sample names, class labels and the non-finite checks are those of
 * {@link StackSamples} and {@link StackSource}. Opening files stays with the caller
 * ({@link ImageInput}); images are only read, never modified.
 */
public final class StackReader {

	private final String role;
	private final ImagePlus opened;
	private final Axes axes;
	/** A folder read one file per sample ({@link FolderSource}), or {@code null}. */
	private final Path folder;
	private final FeatureLayout layout;

	private StackReader(final String role, final ImagePlus opened, final Axes axes,
		final Path folder, final FeatureLayout layout)
	{
		this.role = role;
		this.opened = opened;
		this.axes = axes;
		this.folder = folder;
		this.layout = layout;
	}

	/**
	 * An open image (virtual or not) with its axes read as {@code choice} says.
	 *
	 * @param role what the user calls it ("target", "background"): the dataset's name
	 * @param choice {@link Axes#VALUES}; null means auto
	 */
	public static StackReader of(final String role, final ImagePlus opened,
		final String choice)
	{
		return new StackReader(role, opened, Axes.apply(role, opened, choice), null, null);
	}

	/**
	 * A folder read one file per sample, its first image giving the size and type; the
	 * axes choice is applied to that image, as to a folder read into memory as one stack
	 * (each file one plane): {@code channels} is refused there too.
	 */
	public static StackReader folder(final String role, final Path folder,
		final String choice)
	{
		final ImagePlus first = FolderSource.firstImage(folder);
		return new StackReader(role, first, Axes.apply(role, first, choice), folder, null);
	}

	/** Another image read with this one's axes mode (a background as its target). */
	public StackReader alike(final String role, final ImagePlus other) {
		return of(role, other, axes.mode);
	}

	/** How the axes were read. */
	public Axes axes() {
		return axes;
	}

	/** The plain stack read, one sample per slice (a folder: its first image). */
	public ImagePlus image() {
		return axes.image;
	}

	/** Whether this reads a folder file by file. */
	public boolean isFolder() {
		return folder != null;
	}

	/**
	 * The layout of this image: the pixels of the mask and the selection (either may be
	 * {@code null}), binned. With channels as features the mask is applied once per
	 * channel ({@link Axes#mask}), and so is an area selection given without a mask (the
	 * front ends give a mask (command line) or a selection (Fiji), not both).
	 */
	private FeatureLayout layoutFor(final ImagePlus mask, final Roi roi, final int bin) {
		if (mask == null && roi != null && roi.isArea() && axes.channelsAsFeatures > 1) {
			final ByteProcessor m = new ByteProcessor(opened.getWidth(), opened.getHeight());
			m.setValue(255);
			m.fill(roi);
			return StackSamples.layoutFor(axes.image, axes.mask(new ImagePlus("selection", m)),
				null, bin);
		}
		return StackSamples.layoutFor(axes.image, axes.mask(mask), roi, bin);
	}

	/** This reader with the features of {@link #layoutFor}. */
	public StackReader select(final ImagePlus mask, final Roi roi, final int bin) {
		return new StackReader(role, opened, axes, folder, layoutFor(mask, roi, bin));
	}

	/**
	 * This reader with a given layout (the target's, for a background; a model's): it is
	 * checked to fit the image when the slices are read.
	 */
	public StackReader with(final FeatureLayout given) {
		return new StackReader(role, opened, axes, folder, given);
	}

	/** The features' layout ({@code null} until {@link #select} or {@link #with}). */
	public FeatureLayout layout() {
		return layout;
	}

	/** The slices as a dataset, a NaN pixel refused ({@link StackSamples#toDataset}). */
	public Dataset dataset(final boolean share) {
		return StackSamples.toDataset(role, axes.image, layout, share);
	}

	/** The slices' values with their NaN pixels, for a missing-value rule. */
	public float[][] values() {
		return StackSamples.values(role, axes.image, layout);
	}

	/** The slices from their {@link #values}, NaN pixels filled by the mean or 0. */
	public Dataset filled(final float[][] values, final boolean byMean) {
		return StackSamples.filled(role, axes.image, values, byMean);
	}

	/**
	 * The samples read one at a time: a folder file by file, a stack slice by slice (a
	 * virtual stack from disk). The caller closes it.
	 */
	public SampleSource source() {
		return folder != null ? new FolderSource(role, folder, layout) : new StackSource(role,
			axes.image, layout);
	}

	/** The slices' class labels, or {@code null}. */
	public List<String> labels() {
		return StackSamples.classLabels(axes.image);
	}

	/** The slices' names. */
	public List<String> sampleNames() {
		return StackSamples.sampleNames(axes.image);
	}

	/**
	 * One line for the diagnostics on how a hyperstack's axes were read (several channels,
	 * or slices and frames), or {@code null} for a plain stack.
	 */
	public String note() {
		return opened.getNChannels() > 1 || opened.getNSlices() > 1 && opened
			.getNFrames() > 1 ? axes.note(role) : null;
	}
}
