package org.cpca.core.significance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.cpca.core.Progress;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import org.cpca.core.gcpca.Gcpca;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/** The permutation test: Gram re-partition, determinism, the summary map, refusals. */
class PermutationTestTest {

	/** n × d Gaussian samples, feature j scaled by scales[j]. */
	static Dataset gaussian(final String name, final long seed, final int n,
		final double[] scales)
	{
		final SplittableRandom r = new SplittableRandom(seed);
		final float[][] rows = new float[n][scales.length];
		for (int i = 0; i < n; i++)
			for (int j = 0; j < scales.length; j++)
				rows[i][j] = (float) (scales[j] * gauss(r));
		return Dataset.wrap(name, rows);
	}

	static double gauss(final SplittableRandom r) {
		return Math.sqrt(-2 * Math.log(1 - r.nextDouble())) * Math.cos(2 * Math.PI * r
			.nextDouble());
	}

	static double[] scales(final int d) {
		final double[] s = new double[d];
		for (int j = 0; j < d; j++)
			s[j] = 1 + 2.0 / (1 + j);
		return s;
	}

	private static void assertGramEqualsRefit(final int nt, final int nb, final int d,
		final double alpha, final int k)
	{
		final Dataset t = gaussian("target", 1, nt, scales(d));
		final Dataset b = gaussian("background", 2, nb, scales(d));
		final CpcaOptions o = CpcaOptions.defaults().withComponents(k);
		final GramCpca.Prepared gram = new GramCpca(o, alpha).prepare(t, List.of(b));
		final Exchange refit = new Exchange(FixedFits.cpca(o, alpha), t, List.of(b));
		final SplittableRandom random = new SplittableRandom(7);
		for (int trial = 0; trial < 6; trial++) {
			final Partition p = trial == 0 ? Partition.identity(nt, nb) : Partition.random(
				new int[] { nt, nb }, random);
			final double[] fast = gram.statistics(p), slow = refit.on(p);
			assertEquals(k, fast.length);
			assertEquals(k, slow.length);
			for (int c = 0; c < k; c++)
				assertEquals(slow[c], fast[c], 1e-10 * Math.abs(slow[0]), "trial " + trial +
					", component " + c);
		}
	}

	@Test
	void gramRepartitionEqualsRefitWithMoreFeaturesThanSamples() {
		assertGramEqualsRefit(14, 11, 60, 1.5, 3);
	}

	@Test
	void gramRepartitionEqualsRefitWithMoreSamplesThanFeatures() {
		assertGramEqualsRefit(40, 35, 6, 0.7, 3);
	}

	@Test
	void gramRepartitionAddsTheZerosOutsideTheDataSpan() {
		// at a large α every direction in the span is negative: the top is the 0 outside it
		assertGramEqualsRefit(6, 5, 30, 1e4, 2);
	}

	@Test
	void gramRepartitionEqualsRefitWhenTheBackgroundIsTheSmallerPart() {
		assertGramEqualsRefit(15, 9, 40, 0.8, 3); // the background's rows are read
		assertGramEqualsRefit(50, 30, 5, 2.5, 2);
	}

	/** The Lanczos maximum against the dense top-k solve of the same split. */
	private static void assertMaximumEqualsTopEigenvalue(final int nt, final int nb,
		final int d, final double alpha)
	{
		final Dataset t = gaussian("target", 8, nt, scales(d));
		final Dataset b = gaussian("background", 9, nb, scales(d));
		final GramCpca.Prepared gram = new GramCpca(CpcaOptions.defaults().withComponents(2),
			alpha).prepare(t, List.of(b));
		final SplittableRandom random = new SplittableRandom(3);
		for (int trial = 0; trial < 5; trial++) {
			final Partition p = trial == 0 ? Partition.identity(nt, nb) : Partition.random(
				new int[] { nt, nb }, random);
			final double dense = gram.statistics(p)[0];
			assertEquals(dense, gram.maximum(p), 1e-10 * Math.abs(dense), "trial " + trial);
		}
	}

	@Test
	void lanczosMaximumEqualsDenseTopWithMoreFeaturesThanSamples() {
		// r = 89 > 64: matrix-free products with the target's 40 rows of the Gram factor
		assertMaximumEqualsTopEigenvalue(40, 50, 200, 1.5);
		// α so large that the span is negative: the maximum is the 0 outside it
		assertMaximumEqualsTopEigenvalue(40, 50, 200, 1e4);
	}

	@Test
	void lanczosMaximumEqualsDenseTopWithMoreSamplesThanFeatures() {
		// d = 70 ≤ n: the factor is the centred samples, M formed from the smaller part
		assertMaximumEqualsTopEigenvalue(120, 100, 70, 0.6);
	}

	@Test
	void jointMomentsSharedBySeveralAlphasGiveTheSameTest() {
		final Dataset t = gaussian("target", 10, 20, scales(30));
		final Dataset b = gaussian("background", 11, 25, scales(30));
		final CpcaOptions o = CpcaOptions.defaults().withComponents(2);
		final JointMoments joint = JointMoments.of(t, b);
		for (final double alpha : new double[] { 0.5, 3 }) {
			final Significance shared = PermutationTest.run(t, List.of(b), new GramCpca(o,
				alpha, joint), 30, 4, Progress.NONE);
			final Significance own = PermutationTest.run(t, List.of(b), new GramCpca(o, alpha),
				30, 4, Progress.NONE);
			assertArrayEquals(own.nullMaxima(), shared.nullMaxima());
			assertArrayEquals(own.pValues(), shared.pValues());
		}
		// the Lanczos path (r = 89 ≥ 64) on one thread and on two: the same null maxima
		final Dataset tl = gaussian("target", 13, 40, scales(200));
		final Dataset bl = gaussian("background", 14, 50, scales(200));
		final GramCpca lanczos = new GramCpca(o, 1.5, JointMoments.of(tl, bl));
		assertArrayEquals(PermutationTest.run(tl, List.of(bl), lanczos, 24, 5, 1, Progress.NONE)
			.nullMaxima(), PermutationTest.run(tl, List.of(bl), lanczos, 24, 5, 2, Progress.NONE)
				.nullMaxima());
		final Dataset other = gaussian("other", 12, 21, scales(30));
		assertThrows(IllegalArgumentException.class, () -> new GramCpca(o, 1, joint).prepare(
			other, List.of(b)));
	}

	@Test
	void sameSeedSamePValuesAndOneOrTwoThreadsIdentical() {
		final Dataset t = gaussian("target", 3, 30, scales(5));
		final Dataset b = gaussian("background", 4, 30, scales(5));
		final Refit refit = FixedFits.cpca(CpcaOptions.defaults().withComponents(2), 1);
		final Significance one = PermutationTest.run(t, List.of(b), refit, 40, 11, 1,
			Progress.NONE);
		final Significance two = PermutationTest.run(t, List.of(b), refit, 40, 11, 2,
			Progress.NONE);
		final Significance common = PermutationTest.run(t, List.of(b), refit, 40, 11,
			Progress.NONE);
		assertArrayEquals(one.nullMaxima(), two.nullMaxima());
		assertArrayEquals(one.pValues(), two.pValues());
		assertArrayEquals(one.pValues(), common.pValues());
		final Significance other = PermutationTest.run(t, List.of(b), refit, 40, 12, 1,
			Progress.NONE);
		assertTrue(!java.util.Arrays.equals(one.nullMaxima(), other.nullMaxima()),
			"another seed gives other permutations");
	}

	@Test
	void pValuesAndThresholdsFollowTheMaximumNull() {
		// five null maxima 1..5: 4.5 is reached by one (p = 2/6), 5 by one too (≥ counts ties)
		final Significance s = new Significance(5, 0, "x", new double[] { 4.5, 0.5, 5 },
			new double[] { 3, 1, 5, 2, 4 });
		assertArrayEquals(new double[] { 2 / 6.0, 6 / 6.0, 2 / 6.0 }, s.pValues(), 1e-15);
		assertEquals(Double.POSITIVE_INFINITY, s.thresholds()[0]);
		final double[] maxima = new double[39];
		for (int i = 0; i < maxima.length; i++)
			maxima[i] = i;
		// N = 39: p ≤ 0.05 needs at most one null maximum ≥ the statistic: above 37
		final Significance t = new Significance(39, 0, "x", new double[] { 38, 37.5, 36.5 },
			maxima);
		assertEquals(37, t.thresholds()[1]);
		assertEquals(2 / 40.0, t.pValues()[0], 1e-15); // 38 reached by one
		assertEquals(2 / 40.0, t.pValues()[1], 1e-15); // 37.5 > 37: significant
		assertEquals(3 / 40.0, t.pValues()[2], 1e-15); // 36.5 < 37: not
	}

	@Test
	void summaryHasExactlyTheDocumentedKeys() {
		final Dataset t = gaussian("target", 5, 20, scales(4));
		final Dataset b = gaussian("background", 6, 20, scales(4));
		final Significance s = PermutationTest.run(t, List.of(b), FixedFits.plusPlus(
			CpcaOptions.defaults().withComponents(2)), 9, 42, Progress.NONE);
		final Map<String, Object> m = s.toSummary();
		assertEquals(List.of("permutations", "seed", "statistic", "p_values", "thresholds"),
			List.copyOf(m.keySet()));
		assertEquals(9, m.get("permutations"));
		assertEquals(42L, m.get("seed"));
		assertEquals(2, ((double[]) m.get("p_values")).length);
		assertEquals(2, ((Double[]) m.get("thresholds")).length);
	}

	@Test
	void refusesWhatItCannotTest() {
		final Dataset t = gaussian("target", 5, 20, scales(4));
		final CpcaOptions o = CpcaOptions.defaults();
		assertThrows(IllegalArgumentException.class, () -> PermutationTest.run(t, List.of(t),
			FixedFits.cpca(o, 1), 0, 1, Progress.NONE));
		assertThrows(IllegalArgumentException.class, () -> PermutationTest.run(t, List.of(),
			FixedFits.cpca(o, 1), 9, 1, Progress.NONE));
		assertThrows(IllegalArgumentException.class, () -> new GramCpca(o.withStandardize(
			true), 1));
		assertThrows(IllegalArgumentException.class, () -> FixedFits.rpca(o, null));
		assertThrows(IllegalArgumentException.class, () -> FixedFits.gcpca(o,
			Gcpca.Variant.V4, false, Double.NaN).prepare(t, List.of()).observed());
	}
}
