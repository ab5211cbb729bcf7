package org.cpca.render;

import ij.ImagePlus;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.cpca.core.data.Dataset;
import org.cpca.core.model.FittedModel;
import org.cpca.image.ComponentImages;
import org.cpca.image.FeatureLayout;

/**
 * The pre-image-free view of a component that has no eigen-image (kernel cPCA, whose
 * directions live in the kernel's feature space): the target samples with the most
 * extreme scores along it. Per component, the {@code count} samples with the highest
 * scores (highest first), then the {@code count} with the lowest (lowest first), as
 * images in the target's own units, each labelled with component, rank, sample and
 * score, e.g. "kPC1 top 1: slice 17 (0.0308)". What changes from the bottom to the top row is what the component sees.
 */
public final class ExtremeSamples {

	/** Samples shown at each end of each component, unless fewer exist. */
	public static final int COUNT = 3;

	private ExtremeSamples() {}

	/**
	 * Indices of the {@code count} highest scores of component c (highest first) followed
	 * by the {@code count} lowest (lowest first); {@code count} is capped at half the
	 * samples (at least 1), ties are broken by sample order.
	 */
	public static int[] extremes(final double[][] scores, final int c, final int count) {
		final int n = scores.length;
		final int q = Math.max(1, Math.min(count, n / 2));
		final Integer[] order = new Integer[n];
		for (int i = 0; i < n; i++)
			order[i] = i;
		Arrays.sort(order, (a, b) -> Double.compare(scores[b][c], scores[a][c]));
		final int[] out = new int[2 * q];
		for (int r = 0; r < q; r++) {
			out[r] = order[r];
			out[q + r] = order[n - 1 - r];
		}
		return out;
	}

	/**
	 * The extreme samples of every component of {@code m} as one 32-bit stack (grey, the
	 * display range of the data), slices as samples.
	 *
	 * @param target the training target (its scores are {@code m.targetScores()})
	 */
	public static ImagePlus stack(final String title, final FittedModel m,
		final Dataset target, final FeatureLayout layout, final int count)
	{
		final double[][] scores = m.targetScores();
		if (scores == null) throw new IllegalArgumentException("the model has no training " +
			"scores (read from a file): extreme samples need the fit itself");
		final List<String> names = target.sampleNames();
		final List<double[]> rows = new ArrayList<>();
		final List<String> labels = new ArrayList<>();
		for (int c = 0; c < m.numComponents(); c++) {
			final int[] idx = extremes(scores, c, count);
			final int q = idx.length / 2;
			for (int r = 0; r < idx.length; r++) {
				final int i = idx[r];
				rows.add(target.sample(i));
				labels.add(String.format(Locale.ROOT, "%s%d %s %d: %s (%.3g)", ModelViews
					.prefix(m), c + 1, r < q ? "top" : "bottom", (r < q ? r : r - q) + 1,
					names == null ? "sample " + (i + 1) : names.get(i), scores[i][c]));
			}
		}
		final ImagePlus imp = ComponentImages.reconstructions(title, rows.toArray(
			new double[0][]), layout, labels);
		// one display range for all slices, so that they compare
		double min = Double.POSITIVE_INFINITY, max = Double.NEGATIVE_INFINITY;
		for (final double[] row : rows)
			for (final double v : row) {
				min = Math.min(min, v);
				max = Math.max(max, v);
			}
		if (max > min) imp.setDisplayRange(min, max);
		imp.setProp(Montage.BAR_TITLE, "pixel value");
		return imp;
	}
}
