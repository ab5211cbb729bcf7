package org.cpca.core.significance;

import org.cpca.core.Progress;
import org.cpca.core.data.Dataset;
import org.cpca.core.linalg.TopEigen;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * Stability of the components (docs/math/significance.md#stability-bootstrap): B
 * bootstrap resamples, each drawing n samples with replacement within each dataset
 * (target and every background on its own), refitted at the same parameters; per
 * component, the angle between the resample's component and the full-data one
 * ({@code acos |u·v|}, in degrees: signs are arbitrary). Resample b uses its own random
 * stream from the seed and b, so the result does not depend on the number of threads.
 */
public final class Bootstrap {

	private Bootstrap() {}

	/** Per component: the median angle and the angle exceeded by 5 % of the resamples. */
	public static final class Stability {

		private final int resamples, unconverged;
		private final long seed;
		private final String measure;
		private final double[] median, upper;

		private final double[][] spread;

		Stability(final int resamples, final long seed, final double[][] angles,
			final double[][] spread, final String measure, final int unconverged)
		{
			this.resamples = resamples;
			this.seed = seed;
			this.spread = spread;
			this.measure = measure;
			this.unconverged = unconverged;
			final int k = angles[0].length;
			median = new double[k];
			upper = new double[k];
			final double[] column = new double[resamples];
			for (int c = 0; c < k; c++) {
				for (int b = 0; b < resamples; b++)
					column[b] = angles[b][c];
				Arrays.sort(column);
				median[c] = quantile(column, 0.5);
				upper[c] = quantile(column, 0.95);
			}
		}

		/**
		 * Per component, per feature: the standard deviation over the resamples of the
		 * resample's component, its sign aligned with the full-data one (k × d): where the
		 * component is unstable. A component the resamples lack counts as 0.
		 */
		public double[][] spread() {
			final double[][] out = new double[spread.length][];
			for (int c = 0; c < out.length; c++)
				out[c] = spread[c].clone();
			return out;
		}

		/**
		 * For summary.json: {"resamples": B, "seed": S, "median_angle_degrees": […],
		 * "angle_95_degrees": […]}, with "measure" when the angle is not between the
		 * components themselves ({@link Directions#measure()}) and "refits_not_converged"
		 * (of the B + 1 refits) for an iterative family.
		 */
		public Map<String, Object> toSummary() {
			final Map<String, Object> m = new LinkedHashMap<>();
			m.put("resamples", resamples);
			m.put("seed", seed);
			m.put("median_angle_degrees", median.clone());
			m.put("angle_95_degrees", upper.clone());
			if (measure != null) m.put("measure", measure);
			if (unconverged >= 0) m.put("refits_not_converged", unconverged);
			return m;
		}

		public int resamples() {
			return resamples;
		}

		public long seed() {
			return seed;
		}

		/**
		 * Of the B + 1 refits (the full data's and the resamples'), those that stopped
		 * before converging; −1 for a family that is not iterative.
		 */
		public int unconverged() {
			return unconverged;
		}

		/** Per component, the median angle (degrees) to the full-data component. */
		public double[] medianAngles() {
			return median.clone();
		}

		/**
		 * Per component, the 95th percentile of the angle (degrees): the angle at the 5th
		 * percentile of the alignment |cos θ|.
		 */
		public double[] upperAngles() {
			return upper.clone();
		}
	}

	/** Linear interpolation between order statistics of sorted values. */
	static double quantile(final double[] sorted, final double q) {
		final double h = q * (sorted.length - 1);
		final int lo = (int) Math.floor(h), hi = Math.min(lo + 1, sorted.length - 1);
		return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
	}

	/**
	 * @param resamples B ≥ 2
	 * @throws IllegalArgumentException for B &lt; 2 or a family that cannot be fitted to a
	 *           resample (the message names the resample)
	 */
	public static Stability run(final Dataset target, final List<Dataset> backgrounds,
		final Directions family, final int resamples, final long seed, final Progress progress)
	{
		if (resamples < 2 || resamples > PermutationTest.MAX_PERMUTATIONS)
			throw new IllegalArgumentException("the number of bootstrap resamples must be " +
				"between 2 and " + PermutationTest.MAX_PERMUTATIONS + " (got " + resamples +
				"): e.g. 200");
		final int before = family.unconverged();
		final double[][] full = family.directions(target, backgrounds);
		final int k = full.length, d = k == 0 ? 0 : full[0].length;
		final double[][] angles = new double[resamples][];
		final double[][] sum = new double[k][d], squares = new double[k][d];
		final int chunks = (resamples + CHUNK - 1) / CHUNK;
		// waves of a fixed number of chunks, each summed in resample order, the chunks added
		// in their order: the same sums for any number of threads, and bounded memory
		for (int wave = 0; wave < chunks; wave += WAVE) {
			final Chunk[] done = IntStream.range(wave, Math.min(chunks, wave + WAVE)).parallel()
				.mapToObj(c -> new Chunk(target, backgrounds, family, full, c * CHUNK, Math.min(
					resamples, (c + 1) * CHUNK), seed, angles, progress)).toArray(Chunk[]::new);
			for (final Chunk c : done)
				for (int q = 0; q < k; q++) {
					TopEigen.axpy(1, c.sum[q], sum[q]);
					TopEigen.axpy(1, c.squares[q], squares[q]);
				}
		}
		final double[][] spread = new double[k][d];
		for (int q = 0; q < k; q++)
			for (int j = 0; j < d; j++) {
				final double mean = sum[q][j] / resamples;
				spread[q][j] = Math.sqrt(Math.max(0, (squares[q][j] - resamples * mean * mean) /
					(resamples - 1)));
			}
		return new Stability(resamples, seed, angles, spread, family.measure(), before < 0 ? -1
			: family.unconverged() - before);
	}

	/** Resamples per chunk, and chunks per wave ({@link #run}). */
	private static final int CHUNK = 8, WAVE = 8;

	/** The refits of resamples from … to − 1: their angles, and their aligned sums. */
	private static final class Chunk {

		final double[][] sum, squares;

		Chunk(final Dataset target, final List<Dataset> backgrounds, final Directions family,
			final double[][] full, final int from, final int to, final long seed,
			final double[][] angles, final Progress progress)
		{
			final int k = full.length, d = k == 0 ? 0 : full[0].length;
			sum = new double[k][d];
			squares = new double[k][d];
			for (int b = from; b < to; b++) {
				progress.checkCancelled();
				final SplittableRandom random = PermutationTest.random(seed, b);
				final Dataset t = resample(target, random);
				final List<Dataset> bs = new ArrayList<>();
				for (final Dataset x : backgrounds)
					bs.add(resample(x, random));
				final double[][] v;
				try {
					v = family.directions(t, bs);
				}
				catch (final IllegalArgumentException e) {
					throw new IllegalArgumentException("the refit of bootstrap resample " +
						(b + 1) + " failed: " + e.getMessage());
				}
				angles[b] = angles(full, v);
				for (int c = 0; c < Math.min(k, v.length); c++) {
					final double sign = TopEigen.dot(full[c], v[c]) < 0 ? -1 : 1;
					for (int j = 0; j < d; j++) {
						final double x = sign * v[c][j];
						sum[c][j] += x;
						squares[c][j] += x * x;
					}
				}
			}
		}
	}

	/** n samples drawn with replacement. */
	static Dataset resample(final Dataset x, final SplittableRandom random) {
		final int[] idx = new int[x.samples()];
		for (int i = 0; i < idx.length; i++)
			idx[i] = random.nextInt(idx.length);
		return x.select(idx);
	}

	/**
	 * Per component, acos |u·v| in degrees (90 for a component the resample lacks, or
	 * whose vector is zero: a sparse loading all of whose entries were thresholded away).
	 */
	static double[] angles(final double[][] full, final double[][] v) {
		final double[] out = new double[full.length];
		for (int c = 0; c < full.length; c++) {
			if (c >= v.length) {
				out[c] = 90;
				continue;
			}
			double dot = 0, nu = 0, nv = 0;
			for (int j = 0; j < full[c].length; j++) {
				dot += full[c][j] * v[c][j];
				nu += full[c][j] * full[c][j];
				nv += v[c][j] * v[c][j];
			}
			out[c] = nu * nv > 0 ? Math.toDegrees(Math.acos(Math.min(1, Math.abs(dot) / Math
				.sqrt(nu * nv)))) : 90;
		}
		return out;
	}
}
