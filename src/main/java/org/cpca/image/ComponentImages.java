package org.cpca.image;

import ij.ImagePlus;
import ij.ImageStack;

import java.util.List;

/**
 * Turns feature vectors back into images: components as signed "eigen-images", and
 * reconstructed samples as ordinary images, using the {@link FeatureLayout} the
 * features came from. Pixels that are not features (outside the mask) are 0.
 */
public final class ComponentImages {

	private ComponentImages() {}

	/**
	 * One 32-bit slice per component, of the binned image size, shown with the
	 * blue–white–red {@link DivergingLut} and a display range of ±max|v| over all
	 * slices, so 0 is the middle colour (white).
	 *
	 * @param components {@code k × d} loadings, one row per component
	 * @param sliceLabels one label per component (e.g. "cPC1 α=2 λ=0.53"), or
	 *          {@code null} for "component 1", "component 2", …
	 */
	public static ImagePlus eigenImages(final String title, final double[][] components,
		final FeatureLayout layout, final List<String> sliceLabels)
	{
		final ImagePlus imp = new ImagePlus(title, stack(components, layout, sliceLabels,
			"component"));
		DivergingLut.apply(imp);
		return imp;
	}

	/**
	 * One 32-bit slice per reconstructed sample, of the binned image size, with a grey
	 * table and the display range set to the data range.
	 *
	 * @param reconstructed {@code n × d} values, one row per sample
	 * @param labels one label per sample, or {@code null} for "sample 1", …
	 */
	public static ImagePlus reconstructions(final String title,
		final double[][] reconstructed, final FeatureLayout layout,
		final List<String> labels)
	{
		final ImagePlus imp = new ImagePlus(title, stack(reconstructed, layout, labels,
			"sample"));
		imp.resetDisplayRange();
		return imp;
	}

	private static ImageStack stack(final double[][] rows, final FeatureLayout layout,
		final List<String> labels, final String defaultName)
	{
		if (rows == null || rows.length == 0) throw new IllegalArgumentException(
			"there is nothing to show: no " + defaultName + "s were given");
		if (labels != null && labels.size() != rows.length)
			throw new IllegalArgumentException(rows.length + " " + defaultName + "s but " +
				labels.size() + " labels were given: give one label per " + defaultName);
		final ImageStack stack = new ImageStack(layout.binnedWidth(), layout
			.binnedHeight());
		for (int i = 0; i < rows.length; i++) {
			if (rows[i].length != layout.features()) throw new IllegalArgumentException(
				defaultName + " " + (i + 1) + " has " + rows[i].length +
					" values but the image layout has " + layout.features() +
					" features: use the layout the data came from");
			final String label = labels == null ? defaultName + " " + (i + 1) : labels.get(
				i);
			stack.addSlice(label, layout.toImage(rows[i]));
		}
		return stack;
	}
}
