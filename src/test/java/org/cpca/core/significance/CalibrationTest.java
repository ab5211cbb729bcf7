package org.cpca.core.significance;

import static org.cpca.core.significance.PermutationTestTest.gaussian;
import static org.cpca.core.significance.PermutationTestTest.scales;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.cpca.core.Progress;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import org.cpca.core.gcpca.Gcpca;
import org.cpca.core.kernel.KernelFunction;
import org.cpca.core.kernel.KernelOptions;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Calibration and power of the permutation test per family (docs/math/significance.md):
 * with target and background from one distribution the family-wise rejection rate at 0.05
 * is 0.05 (200 seeded nulls × 19 permutations: inside 0.02–0.08); with directions planted
 * in the target only, those components have p &lt; 0.01 and the others p &gt; 0.05.
 */
class CalibrationTest {

	private static final int NULLS = 200, PERMUTATIONS = 19;
	private static final CpcaOptions K2 = CpcaOptions.defaults().withComponents(2);

	/** The rate of p ≤ 0.05 of the smallest p-value over NULLS null data sets. */
	static double rejectionRate(final Refit refit, final int nt, final int nb,
		final int d)
	{
		int rejected = 0;
		for (int s = 0; s < NULLS; s++) {
			final Dataset t = gaussian("target", 1000 + 2 * s, nt, scales(d));
			final Dataset b = gaussian("background", 1001 + 2 * s, nb, scales(d));
			final double[] p = PermutationTest.run(t, List.of(b), refit, PERMUTATIONS, s,
				Progress.NONE).pValues();
			double min = 1;
			for (final double x : p)
				min = Math.min(min, x);
			if (min <= 0.05) rejected++;
		}
		return rejected / (double) NULLS;
	}

	static void assertCalibrated(final Refit refit, final int nt, final int nb,
		final int d)
	{
		final double rate = rejectionRate(refit, nt, nb, d);
		assertTrue(rate >= 0.02 && rate <= 0.08, String.format(Locale.ROOT,
			"rejection rate %.3f under the null for %s", rate, refit.statistic()));
	}

	@Test
	void pcaIsCalibrated() {
		assertCalibrated(FixedFits.pca(K2), 20, 2, 5);
	}

	@Test
	void cpcaIsCalibrated() {
		assertCalibrated(FixedFits.cpca(K2, 1), 15, 15, 5);
	}

	@Test
	void cpcaGramIsCalibrated() {
		assertCalibrated(new GramCpca(K2, 1), 10, 10, 40);
	}

	@Test
	void cpcaAtInfinityIsCalibrated() {
		assertCalibrated(FixedFits.cpca(K2, Double.POSITIVE_INFINITY), 10, 6, 12);
	}

	@Test
	void cpcaStarIsCalibrated() {
		assertCalibrated(FixedFits.star(K2, 0.5), 15, 15, 5);
	}

	@Test
	void cpcaPlusPlusIsCalibrated() {
		assertCalibrated(FixedFits.plusPlus(K2), 15, 15, 5);
	}

	@Test
	void gcpcaIsCalibrated() {
		assertCalibrated(FixedFits.gcpca(CpcaOptions.defaults().withComponents(1),
			Gcpca.Variant.V4, false, Double.NaN), 15, 15, 5);
	}

	@Test
	void ucaIsCalibrated() {
		assertCalibrated(FixedFits.uca(K2), 15, 15, 5);
	}

	@Test
	void rpcaIsCalibrated() {
		assertCalibrated(FixedFits.rpca(K2, List.of(1)), 15, 15, 5);
	}

	@Test
	void pcpcaIsCalibrated() {
		assertCalibrated(FixedFits.pcpca(CpcaOptions.defaults().withComponents(1), 0.1),
			15, 15, 5);
	}

	@Test
	void kernelCpcaIsCalibrated() {
		assertCalibrated(FixedFits.kernelCpca(K2, KernelOptions.defaults().withKernel(
			KernelFunction.rbf(0.1)), 1), 15, 15, 5);
	}

	// ---- power: two directions planted in the target only

	/** Background noise plus, in the target, two planted directions (variance 75 each). */
	static Significance planted(final Refit refit) {
		return PermutationTest.run(plantedTarget(), List.of(plantedBackground()), refit, 199, 5,
			Progress.NONE);
	}

	/** The planted test's background: noise only. */
	static Dataset plantedBackground() {
		return gaussian("background", 7, 60, scales(8));
	}

	/** The planted test's target: noise plus the two planted directions. */
	static Dataset plantedTarget() {
		final int d = 8, n = 60;
		final Dataset noise = gaussian("target", 8, n, scales(d));
		final SplittableRandom r = new SplittableRandom(9);
		final float[][] rows = new float[n][];
		for (int i = 0; i < n; i++)
			rows[i] = noise.row(i).clone();
		for (final float[] x : rows) {
			final double z1 = PermutationTestTest.gauss(r), z2 = PermutationTestTest.gauss(r);
			// loadings spread over four features each: correlation that PCA's null lacks
			// (not on feature 0, the background's top direction, which rPCA removes)
			for (int j = 2; j < d; j += 2) {
				x[j] += (float) (5 * z1);
				x[j + 1] += (float) (5 * z2);
			}
		}
		return Dataset.wrap("target", rows);
	}

	static void assertPlantedFound(final Refit refit, final int[] plantedComponents) {
		final double[] p = planted(refit).pValues();
		final boolean[] planted = new boolean[p.length];
		for (final int c : plantedComponents)
			planted[c] = true;
		for (int c = 0; c < p.length; c++)
			assertTrue(planted[c] ? p[c] < 0.01 : p[c] > 0.05, String.format(Locale.ROOT,
				"component %d: p = %.4f (%s)", c + 1, p[c], refit.statistic()));
	}

	private static final CpcaOptions K4 = CpcaOptions.defaults().withComponents(4);

	@Test
	void plantedComponentsAreSignificantAndTheOthersNot() {
		final int[] two = { 0, 1 };
		assertPlantedFound(FixedFits.pca(K4), two);
		assertPlantedFound(FixedFits.cpca(K4, 1), two);
		assertPlantedFound(new GramCpca(K4, 1), two);
		assertPlantedFound(FixedFits.star(K4, 0.5), two);
		assertPlantedFound(FixedFits.plusPlus(K4), two);
		assertPlantedFound(FixedFits.uca(K4), two);
		assertPlantedFound(FixedFits.rpca(K4, List.of(1)), two);
		assertPlantedFound(FixedFits.pcpca(CpcaOptions.defaults().withComponents(3), 0.1), two);
		assertPlantedFound(FixedFits.kernelCpca(K4, KernelOptions.defaults().withKernel(
			KernelFunction.linear()), 1), two); // the linear kernel: the planted directions are linear
		// gcPCA: 2 target-enriched (planted), then 2 background-enriched (none planted)
		assertPlantedFound(FixedFits.gcpca(CpcaOptions.defaults().withComponents(2),
			Gcpca.Variant.V4, false, Double.NaN), two);
	}
}
