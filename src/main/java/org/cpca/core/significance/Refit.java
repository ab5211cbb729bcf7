package org.cpca.core.significance;

import org.cpca.core.data.Dataset;

import java.util.List;
import java.util.SplittableRandom;

/**
 * A family refitted at fixed parameters (docs/math/significance.md): the per-component
 * statistics of a fit to given data, larger meaning more contrast. Every parameter the
 * family would otherwise choose from the data (α, β, k, the background components of rPCA)
 * is fixed when the refit is made, so a permutation changes only the data.
 */
public interface Refit extends Unconverged {

	/** The statistic's name, for the summary (e.g. "eigenvalue of C_t − αC_b"). */
	String statistic();

	/**
	 * The statistics of a fit to these data, one per component, in the fit's order.
	 *
	 * @throws IllegalArgumentException when the family cannot be fitted to them
	 */
	double[] statistics(Dataset target, List<Dataset> backgrounds);

	/**
	 * The observed statistics and a sampler of null ones for these data. By default the
	 * samples of the target and all backgrounds are exchanged ({@link Exchange}); PCA
	 * shuffles features instead, and a refit that can reuse work across permutations
	 * (the joint Gram of {@link GramCpca}) returns its own.
	 */
	default Null prepare(final Dataset target, final List<Dataset> backgrounds) {
		return new Exchange(this, target, backgrounds);
	}

	/** The statistics of the data and of draws from the null. */
	interface Null {

		/** The statistics of the data themselves. */
		double[] observed();

		/**
		 * The statistics of one draw from the null, made with {@code random} only (so a
		 * draw depends only on its random stream, whichever thread computes it).
		 */
		double[] permuted(SplittableRandom random);

		/**
		 * The largest of {@link #permuted}'s statistics for the same stream: all the test
		 * keeps of a draw (a refit that can find it without the other statistics, such as
		 * {@link GramCpca}'s top eigenvalue, overrides this).
		 */
		default double maximum(final SplittableRandom random) {
			double max = Double.NEGATIVE_INFINITY;
			for (final double s : permuted(random))
				max = Math.max(max, s);
			return max;
		}

		/**
		 * How many draws {@link #maxima} best takes at once; the test hands them over in
		 * blocks of this size made from the draws' indices only (so the result does not
		 * depend on the number of threads).
		 */
		default int block() {
			return 1;
		}

		/**
		 * {@link #maximum} for each stream, in order: each entry the value {@link #maximum}
		 * gives for its stream alone. A refit that solves several draws faster together
		 * ({@link GramCpca}: one matrix–matrix product per step instead of one
		 * matrix–vector product per draw) overrides this.
		 */
		default double[] maxima(final SplittableRandom[] randoms) {
			final double[] max = new double[randoms.length];
			for (int i = 0; i < randoms.length; i++)
				max[i] = maximum(randoms[i]);
			return max;
		}
	}
}
