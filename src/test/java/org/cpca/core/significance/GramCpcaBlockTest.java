package org.cpca.core.significance;

import static org.cpca.core.significance.PermutationTestTest.gaussian;
import static org.cpca.core.significance.PermutationTestTest.scales;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.cpca.core.Progress;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SplittableRandom;

/**
 * The null maxima of {@link GramCpca} computed a block of permutations at a time (Lanczos
 * in lockstep, products with the shared factor): equal to the dense solve of each split,
 * the same bits as one split at a time, and the same test on one thread as on two.
 */
class GramCpcaBlockTest {

	private static Partition[] splits(final int nt, final int nb, final long seed,
		final int count)
	{
		final SplittableRandom random = new SplittableRandom(seed);
		final Partition[] p = new Partition[count];
		for (int c = 0; c < count; c++)
			p[c] = Partition.random(new int[] { nt, nb }, random);
		return p;
	}

	private static void assertBlockEqualsAloneAndDense(final int nt, final int nb,
		final int d, final double alpha)
	{
		final Dataset t = gaussian("target", 31, nt, scales(d));
		final Dataset b = gaussian("background", 32, nb, scales(d));
		final GramCpca.Prepared gram = new GramCpca(CpcaOptions.defaults().withComponents(2),
			alpha).prepare(t, List.of(b));
		// more splits than a block, so that runs leave the lockstep at different steps
		final Partition[] p = splits(nt, nb, 4, GramCpca.BLOCK + 3);
		final double[] block = gram.maxima(p);
		for (int c = 0; c < p.length; c++) {
			assertEquals(gram.maximum(p[c]), block[c], 0.0, "split " + c +
				": alone and in its block");
			final double dense = gram.statistics(p[c])[0];
			assertEquals(dense, block[c], 1e-10 * Math.abs(dense), "split " + c +
				": against the dense solve");
		}
	}

	@Test
	void blockOfTheGramsTriangularFactorEqualsAloneAndDense() {
		// d > n: L is the Gram's pivoted Cholesky factor (r = 89), its zeros skipped
		assertBlockEqualsAloneAndDense(40, 50, 200, 1.5);
		assertBlockEqualsAloneAndDense(60, 35, 300, 0.4); // the background is smaller
	}

	/** n × d Gaussian samples around a common offset far larger than their spread. */
	private static Dataset offset(final String name, final long seed, final int n,
		final int d, final double offset)
	{
		final SplittableRandom r = new SplittableRandom(seed);
		final float[][] rows = new float[n][d];
		for (int i = 0; i < n; i++)
			for (int j = 0; j < d; j++)
				rows[i][j] = (float) (offset * (1 + j % 7) + (1 + 2.0 / (1 + j)) *
					PermutationTestTest.gauss(r));
		return Dataset.wrap(name, rows);
	}

	@Test
	void factorsRowsNeedNotSumToZero() {
		// a large common offset: the rows of the Gram's factor sum to 0 only up to
		// ~1e-7 of their size; taking them as 0 (μ_b = −(n_t/n_b)μ_t) was 2.2e-10 off here
		final Dataset t = offset("target", 1, 40, 200, 1e7);
		final Dataset b = offset("background", 2, 50, 200, 1e7);
		final CpcaOptions o = CpcaOptions.defaults().withComponents(3);
		final GramCpca.Prepared gram = new GramCpca(o, 1.5).prepare(t, List.of(b));
		final Exchange refit = new Exchange(FixedFits.cpca(o, 1.5), t, List.of(b));
		final Partition[] p = splits(40, 50, 7, 6);
		p[0] = Partition.identity(40, 50);
		final double[] block = gram.maxima(p);
		for (int trial = 0; trial < p.length; trial++) {
			final double[] slow = refit.on(p[trial]), fast = gram.statistics(p[trial]);
			for (int c = 0; c < 3; c++)
				assertEquals(slow[c], fast[c], 1e-10 * Math.abs(slow[0]), "split " + trial +
					", component " + c);
			assertEquals(slow[0], block[trial], 1e-10 * Math.abs(slow[0]), "split " + trial +
				", maximum");
		}
	}

	@Test
	void blocksDoNotDependOnTheThreads() {
		final Dataset t = gaussian("target", 33, 45, scales(150));
		final Dataset b = gaussian("background", 34, 40, scales(150));
		final GramCpca refit = new GramCpca(CpcaOptions.defaults().withComponents(2), 2);
		// 2.5 blocks: the last one short
		final int n = 2 * GramCpca.BLOCK + GramCpca.BLOCK / 2;
		final Significance one = PermutationTest.run(t, List.of(b), refit, n, 8, 1,
			Progress.NONE);
		final Significance two = PermutationTest.run(t, List.of(b), refit, n, 8, 2,
			Progress.NONE);
		assertArrayEquals(one.nullMaxima(), two.nullMaxima());
		// and each draw's maximum is the one its split gives alone
		final GramCpca.Prepared gram = refit.prepare(t, List.of(b));
		for (final int i : new int[] { 0, GramCpca.BLOCK + 1, n - 1 })
			assertEquals(gram.maximum(PermutationTest.random(8, i)), one.nullMaxima()[i], 0.0,
				"permutation " + i);
	}
}
