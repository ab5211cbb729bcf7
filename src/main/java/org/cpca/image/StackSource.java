package org.cpca.image;

import ij.ImagePlus;
import ij.ImageStack;

import java.util.List;

import org.cpca.core.data.SampleSource;

/**
 * The slices of a stack as a {@link SampleSource}, one slice read per sample: for a
 * virtual stack (File &gt; Import &gt; TIFF Virtual Stack, {@link ImageInput#openVirtual}, an
 * image sequence opened as virtual) each read loads that one slice from disk, so the
 * stack is never held in memory. Features follow the {@link FeatureLayout} (mask, bin), as
 * in {@link StackSamples#toDataset}. Random access; the image is never modified.
 */
public final class StackSource implements SampleSource {

	private final String name;
	private final ImageStack stack;
	private final FeatureLayout layout;
	private final List<String> labels;

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
	public List<String> labels() {
		return labels;
	}

	/** Rejects a non-finite value, naming the dataset, the sample and the feature. */
	static void requireFinite(final String name, final String sample, final float[] x) {
		for (int j = 0; j < x.length; j++)
			if (!Float.isFinite(x[j])) throw new IllegalArgumentException(name +
				" has a non-finite value (" + x[j] + ") at " + sample + ", feature " + (j + 1) +
				": remove or replace non-finite pixels first (e.g. Process > Math > Remove NaNs)");
	}
}
