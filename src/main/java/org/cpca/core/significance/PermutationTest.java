package org.cpca.core.significance;

import org.cpca.core.Progress;
import org.cpca.core.data.Dataset;

import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

/**
 * The permutation test of docs/math/significance.md: N draws from the refit's null, each
 * with its own random stream derived from the seed and its index, run in parallel in
 * blocks of consecutive indices of the refit's size ({@link Refit.Null#block}; so the
 * result does not depend on the number of threads); each component's statistic is
 * compared with the maximum over components of every draw. The progress is told from the
 * worker threads (it must be thread-safe; {@link Progress#NONE} is).
 */
public final class PermutationTest {

	/** The largest number of permutations accepted. */
	public static final int MAX_PERMUTATIONS = 1_000_000;

	private PermutationTest() {}

	/** The test on the common fork-join pool (all cores). */
	public static Significance run(final Dataset target, final List<Dataset> backgrounds,
		final Refit refit, final int permutations, final long seed, final Progress progress)
	{
		check(permutations);
		final int before = refit.unconverged();
		final Refit.Null model = refit.prepare(target, backgrounds);
		final double[] observed = model.observed();
		final double[] maxima = maxima(model, permutations, seed, progress);
		return new Significance(permutations, seed, refit.statistic(), observed, maxima,
			before < 0 ? -1 : refit.unconverged() - before);
	}

	/** The test on {@code threads} threads of its own. */
	public static Significance run(final Dataset target, final List<Dataset> backgrounds,
		final Refit refit, final int permutations, final long seed, final int threads,
		final Progress progress)
	{
		if (threads < 1) throw new IllegalArgumentException("the number of threads must be " +
			"≥ 1 (got " + threads + ")");
		final ForkJoinPool pool = new ForkJoinPool(threads);
		try {
			return pool.submit(() -> run(target, backgrounds, refit, permutations, seed,
				progress)).get();
		}
		catch (final InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("the permutation test was interrupted", e);
		}
		catch (final ExecutionException e) {
			if (e.getCause() instanceof RuntimeException) throw (RuntimeException) e.getCause();
			throw new IllegalStateException(e.getCause());
		}
		finally {
			pool.shutdown();
		}
	}

	static void check(final int permutations) {
		if (permutations < 1 || permutations > MAX_PERMUTATIONS)
			throw new IllegalArgumentException("the number of permutations must be between " +
				"1 and " + MAX_PERMUTATIONS + " (got " + permutations + "): e.g. 999 for " +
				"p-values down to 0.001");
	}

	private static double[] maxima(final Refit.Null model, final int permutations,
		final long seed, final Progress progress)
	{
		final AtomicInteger done = new AtomicInteger();
		progress.stage("permutation test", 0);
		final int block = Math.max(1, model.block());
		final double[] maxima = new double[permutations];
		IntStream.range(0, (permutations + block - 1) / block).parallel().forEach(b -> {
			progress.checkCancelled();
			final int from = b * block, to = Math.min(permutations, from + block);
			final SplittableRandom[] randoms = new SplittableRandom[to - from];
			for (int i = from; i < to; i++)
				randoms[i - from] = random(seed, i);
			final double[] max;
			try {
				max = model.maxima(randoms);
			}
			catch (final IllegalArgumentException e) {
				throw new IllegalArgumentException("the refit of permutation" + (to - from == 1
					? " " + to : "s " + (from + 1) + "–" + to) + " failed: " + e.getMessage() +
					" (a permutation test needs parameters at which every split of the " +
					"samples can be fitted)");
			}
			System.arraycopy(max, 0, maxima, from, to - from);
			progress.stage("permutation test", done.addAndGet(to - from) / (double) permutations);
		});
		return maxima;
	}

	/** Permutation i's own stream: the seed and i mixed (golden-ratio increments). */
	static SplittableRandom random(final long seed, final int i) {
		return new SplittableRandom(seed + 0x9E3779B97F4A7C15L * (i + 1L));
	}
}
