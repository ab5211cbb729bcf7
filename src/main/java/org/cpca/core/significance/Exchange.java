package org.cpca.core.significance;

import org.cpca.core.data.Dataset;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The exchange null: target and backgrounds are one distribution, so every split of their
 * pooled samples into parts of the original sizes is as likely as the observed one. Each
 * draw refits the family from scratch on a random split.
 */
final class Exchange implements Refit.Null {

	private final Refit refit;
	private final Dataset target, pooled;
	private final List<Dataset> backgrounds;
	private final int[] sizes;

	Exchange(final Refit refit, final Dataset target, final List<Dataset> backgrounds) {
		if (backgrounds.isEmpty()) throw new IllegalArgumentException("a permutation test " +
			"that exchanges samples needs a background: give one, or test PCA");
		this.refit = refit;
		this.target = target;
		this.backgrounds = backgrounds;
		final List<Dataset> all = new ArrayList<>();
		all.add(target);
		all.addAll(backgrounds);
		pooled = Dataset.stack(target.name(), all);
		sizes = new int[all.size()];
		for (int j = 0; j < sizes.length; j++)
			sizes[j] = all.get(j).samples();
	}

	@Override
	public double[] observed() {
		return refit.statistics(target, backgrounds);
	}

	@Override
	public double[] permuted(final SplittableRandom random) {
		return on(Partition.random(sizes, random));
	}

	/** The statistics of the family refitted on one split. */
	double[] on(final Partition p) {
		return refit.statistics(p.target(pooled, target), p.backgrounds(pooled, backgrounds));
	}
}
