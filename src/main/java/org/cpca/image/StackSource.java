package org.cpca.image;

import ij.ImagePlus;
import ij.ImageStack;
import ij.io.FileInfo;
import ij.plugin.FileInfoVirtualStack;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

import org.cpca.core.data.SampleSource;

/**
 * The slices of a stack as a {@link SampleSource}, one slice read per sample: for a
 * virtual stack (File &gt; Import &gt; TIFF Virtual Stack, {@link ImageInput#openVirtual}, an
 * image sequence opened as virtual) each read loads that one slice from disk, so the
 * stack is never held in memory. Features follow the {@link FeatureLayout} (mask, bin), as
 * in {@link StackSamples#toDataset}. Random access; the image is never modified.
 * <p>
 * A TIFF virtual stack of an uncompressed grey TIFF also reads ranges of features
 * ({@link #readRange}: a run of pixels of a slice by a positioned read of just its bytes,
 * {@link TiffRows}; through a mask, the pixels from the range's first to its last;
 * binned, the image rows of the range's blocks); anything else reads the whole slice for
 * a range.
 */
public final class StackSource implements SampleSource {

	private final String name;
	private final ImageStack stack;
	private final FeatureLayout layout;
	private final List<String> labels;
	/** Runs of pixels read from the TIFF file itself, or {@code null}. */
	private final TiffRows rows;

	/**
	 * @param name what the user calls the data ("target", "background"), for messages
	 * @throws IllegalArgumentException if the image is RGB or does not fit the layout
	 */
	public StackSource(final String name, final ImagePlus imp, final FeatureLayout layout) {
		ImageChecks.requireImage(name, imp);
		ImageChecks.requireNotRgb(name, imp);
		layout.checkFits(name, imp);
		this.name = name;
		this.stack = imp.getStack();
		this.layout = layout;
		this.labels = StackSamples.classLabels(imp);
		this.rows = tiffRows(imp, stack);
	}

	/** The TIFF file behind a virtual stack, read by runs of pixels, or {@code null}. */
	private static TiffRows tiffRows(final ImagePlus imp, final ImageStack stack) {
		if (!(stack instanceof FileInfoVirtualStack)) return null;
		final FileInfo fi = imp.getOriginalFileInfo();
		if (fi == null || fi.fileName == null || fi.directory == null) return null;
		final Path file = Paths.get(fi.directory, fi.fileName);
		return TiffRows.of(file, stack.getSize(), stack.getWidth(), stack.getHeight());
	}

	@Override
	public String name() {
		return name;
	}

	@Override
	public int samples() {
		return stack.getSize();
	}

	@Override
	public int features() {
		return layout.features();
	}

	@Override
	public boolean randomAccess() {
		return true;
	}

	/** Whether slices are read from disk on demand. */
	public boolean virtual() {
		return stack.isVirtual();
	}

	@Override
	public void read(final int index, final float[] into) {
		layout.extract(stack.getProcessor(index + 1), into);
		requireFinite(name, "slice " + (index + 1), into);
	}

	@Override
	public boolean readsRanges() {
		return rows != null;
	}

	@Override
	public void readRange(final int index, final int from, final int to,
		final float[] into) throws IOException
	{
		if (rows == null) {
			SampleSource.super.readRange(index, from, to, into);
			return;
		}
		if (layout.isIdentity()) rows.read(index, from, to, into);
		else rows.read(index, layout, from, to, into);
		requireFinite(name, "slice " + (index + 1), into, to - from, from);
	}

	/** Bytes read from the TIFF file by {@link #readRange} (0 when it reads whole slices). */
	public long rangeBytesRead() {
		return rows == null ? 0 : rows.bytesRead();
	}

	@Override
	public void close() throws IOException {
		if (rows != null) rows.close();
	}

	@Override
	public List<String> labels() {
		return labels;
	}

	/** Rejects a non-finite value, naming the dataset, the sample and the feature. */
	static void requireFinite(final String name, final String sample, final float[] x) {
		requireFinite(name, sample, x, x.length, 0);
	}

	/** {@link #requireFinite} on {@code x[0 … count − 1]}, features {@code first + 1 …}. */
	static void requireFinite(final String name, final String sample, final float[] x,
		final int count, final int first)
	{
		for (int j = 0; j < count; j++)
			if (!Float.isFinite(x[j])) throw new IllegalArgumentException(name +
				" has a non-finite value (" + x[j] + ") at " + sample + ", feature " + (first +
					j + 1) +
				": remove or replace non-finite pixels first (e.g. Process > Math > Remove NaNs)");
	}
}
