package org.cpca.core.significance;

import org.cpca.core.data.Dataset;

import java.util.List;
import java.util.SplittableRandom;

/**
 * The null of PCA: the target's features are independent, so shuffling every feature's
 * values over the samples, each feature on its own, leaves the data's distribution
 * unchanged (and keeps every feature's mean and variance). Backgrounds, if any, are kept.
 */
final class FeatureShuffle implements Refit.Null {

	private final Refit refit;
	private final Dataset target;
	private final List<Dataset> backgrounds;

	FeatureShuffle(final Refit refit, final Dataset target, final List<Dataset> backgrounds) {
		this.refit = refit;
		this.target = target;
		this.backgrounds = backgrounds;
	}

	@Override
	public double[] observed() {
		return refit.statistics(target, backgrounds);
	}

	@Override
	public double[] permuted(final SplittableRandom random) {
		final int n = target.samples(), d = target.features();
		final float[][] rows = new float[n][d];
		for (int j = 0; j < d; j++) {
			final int[] p = Partition.shuffled(n, random);
			for (int i = 0; i < n; i++)
				rows[i][j] = target.row(p[i])[j];
		}
		return refit.statistics(Dataset.wrap(target.name(), rows), backgrounds);
	}
}
