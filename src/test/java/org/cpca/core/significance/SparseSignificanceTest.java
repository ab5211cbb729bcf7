package org.cpca.core.significance;

import static org.cpca.core.significance.CalibrationTest.assertCalibrated;
import static org.cpca.core.significance.CalibrationTest.assertPlantedFound;
import static org.cpca.core.significance.PermutationTestTest.gaussian;
import static org.cpca.core.significance.PermutationTestTest.scales;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.cpca.core.Progress;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import org.cpca.core.gcpca.Gcpca;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.sparse.Sparse;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The permutation test and the bootstrap of sparse loadings
 * (docs/math/significance.md#sparse-loadings): the statistic is each sparse loading's
 * contrast, calibrated under the null, planted components found, the same p-values for
 * the same seed on one or two threads, and refits that stop at their cap counted.
 */
class SparseSignificanceTest {

	private static final CpcaOptions K2 = CpcaOptions.defaults().withComponents(2);

	@Test
	void theStatisticIsTheContrastOfEachSparseLoading() {
		final Dataset t = gaussian("target", 41, 30, scales(6));
		final Dataset b = gaussian("background", 42, 30, scales(6));
		final double alpha = 0.5;
		final FixedFit f = FixedFits.sparseCpca(K2, alpha, 0.1);
		final double[] s = f.statistics(t, List.of(b));
		final double[][] v = f.directions(t, List.of(b));
		assertEquals(2, s.length);
		int zeros = 0;
		for (int c = 0; c < 2; c++) {
			for (final double x : v[c])
				if (x == 0) zeros++;
			// on paper: vᵀC_t v − α vᵀC_b v, covariances of the centred samples over n − 1
			final double expected = variance(t, v[c]) - alpha * variance(b, v[c]);
			assertEquals(expected, s[c], 1e-9 * Math.abs(expected) + 1e-12, "component " + c);
		}
		assertTrue(zeros > 0, "the loadings are sparse: " + Arrays.deepToString(v));
		// the same as the sparse model the fit makes
		final Cpca fit = Cpca.fit(t, List.of(b), K2, Progress.NONE);
		final CpcaModel m = Sparse.cpca(fit, Sparse.basis(fit), fit.model(alpha), 0.1);
		assertArrayEquals(m.eigenvalues(), s, 0);
	}

	/**
	 * A split without positive contrast at α (a permutation at a large α can be one) is no
	 * error: its loadings stay dense and its statistics are the eigenvalues of C_t − αC_b,
	 * all ≤ 0; with one direction of contrast, the first is sparse and the second dense.
	 */
	@Test
	void aSplitWithoutPositiveContrastKeepsItsDenseValues() {
		final Dataset t = gaussian("target", 71, 30, scales(6));
		final Dataset b = gaussian("background", 72, 30, scales(6));
		final double[] dense = FixedFits.cpca(K2, 5).statistics(t, List.of(b));
		assertTrue(dense[0] < 0, Arrays.toString(dense));
		assertArrayEquals(dense, FixedFits.sparseCpca(K2, 5, 0.1).statistics(t, List.of(b)),
			1e-9 * Math.abs(dense[1]));
		// the planted data at α = 3: some but not all of 3 directions have contrast
		final Dataset pt = CalibrationTest.plantedTarget(), pb = CalibrationTest
			.plantedBackground();
		final CpcaOptions k3 = CpcaOptions.defaults().withComponents(3);
		final double[] some = FixedFits.cpca(k3, 3).statistics(pt, List.of(pb));
		int j = 0;
		while (j < 3 && some[j] > 0)
			j++;
		assertTrue(j > 0 && j < 3, Arrays.toString(some));
		final double[] s = FixedFits.sparseCpca(k3, 3, 0.1).statistics(pt, List.of(pb));
		for (int c = 0; c < j; c++)
			assertTrue(s[c] > 0 && s[c] <= some[c] * (1 + 1e-12), Arrays.toString(s));
		for (int c = j; c < 3; c++)
			assertEquals(some[c], s[c], 1e-9 * Math.abs(some[c]), Arrays.toString(s));
		// the fit itself does the same, and says so
		final Cpca fit = Cpca.fit(pt, List.of(pb), k3, Progress.NONE);
		final CpcaModel m = Sparse.cpca(fit, Sparse.basis(fit), fit.model(3), 0.1);
		assertArrayEquals(s, m.eigenvalues(), 0);
		final String note = "only " + j + " of 3 directions have positive contrast";
		assertTrue(m.diagnostics().stream().anyMatch(d -> d.contains(note)), m.diagnostics()
			.toString());
	}

	/** vᵀCv for the sample covariance C of x (divided by n − 1). */
	private static double variance(final Dataset x, final double[] v) {
		final int n = x.samples();
		final double[] p = new double[n];
		double mean = 0;
		for (int i = 0; i < n; i++) {
			for (int j = 0; j < v.length; j++)
				p[i] += x.row(i)[j] * v[j];
			mean += p[i] / n;
		}
		double s = 0;
		for (final double q : p)
			s += (q - mean) * (q - mean);
		return s / (n - 1);
	}

	@Test
	void sparseCpcaIsCalibrated() {
		assertCalibrated(FixedFits.sparseCpca(K2, 0.5, 0.1), 15, 15, 5);
	}

	@Test
	void sparseGcpcaIsCalibrated() {
		assertCalibrated(FixedFits.sparseGcpca(K2, Gcpca.Variant.V4, false, Double.NaN, 0.003),
			15, 15, 5);
	}

	@Test
	void plantedSparseComponentsAreSignificantAndTheOthersNot() {
		assertPlantedFound(FixedFits.sparseCpca(CpcaOptions.defaults().withComponents(4), 0.5,
			0.05), new int[] { 0, 1 });
	}

	@Test
	void plantedSparseGcpcaComponentsAreSignificantAndTheOthersNot() {
		// 2 target-enriched (planted), then 2 background-enriched (none planted)
		assertPlantedFound(FixedFits.sparseGcpca(K2, Gcpca.Variant.V4, false, Double.NaN,
			0.003), new int[] { 0, 1 });
	}

	@Test
	void theSameSeedGivesTheSamePValuesOnOneOrTwoThreads() {
		final Dataset t = gaussian("target", 51, 20, scales(6));
		final Dataset b = gaussian("background", 52, 20, scales(6));
		final Significance[] runs = new Significance[3];
		for (int i = 0; i < runs.length; i++)
			runs[i] = PermutationTest.run(t, List.of(b), FixedFits.sparseCpca(K2, 0.5, 0.1),
				39, 11, i == 0 ? 1 : 2, Progress.NONE);
		for (int i = 1; i < runs.length; i++) {
			assertArrayEquals(runs[0].pValues(), runs[i].pValues(), 0);
			assertArrayEquals(runs[0].nullMaxima(), runs[i].nullMaxima(), 0);
			assertEquals(runs[0].unconverged(), runs[i].unconverged());
		}
		assertEquals(0, runs[0].unconverged(), "every refit converges here");
		assertEquals(0, runs[0].toSummary().get("refits_not_converged"));
		final Significance other = PermutationTest.run(t, List.of(b), FixedFits.sparseCpca(K2,
			0.5, 0.1), 39, 12, Progress.NONE);
		assertTrue(!Arrays.equals(runs[0].nullMaxima(), other.nullMaxima()), "another seed");
	}

	@Test
	void refitsThatStopAtTheirCapAreCounted() {
		final Dataset t = gaussian("target", 61, 20, scales(6));
		final Dataset b = gaussian("background", 62, 20, scales(6));
		// two iterations cannot reach the tolerance: every one of the 9 + 1 refits is counted
		final Significance capped = PermutationTest.run(t, List.of(b), FixedFits.sparseCpca(
			K2, 0.5, 0.1, 2), 9, 1, Progress.NONE);
		assertEquals(10, capped.unconverged());
		final Map<String, Object> m = capped.toSummary();
		assertEquals(List.of("permutations", "seed", "statistic", "p_values", "thresholds",
			"refits_not_converged"), List.copyOf(m.keySet()));
		assertEquals(10, m.get("refits_not_converged"));
		// and the bootstrap, B + 1 refits
		final Bootstrap.Stability s = Bootstrap.run(t, List.of(b), FixedFits.sparseCpca(K2,
			0.5, 0.1, 2), 4, 1, Progress.NONE);
		assertEquals(5, s.unconverged());
		assertEquals(5, s.toSummary().get("refits_not_converged"));
		// a family that does not iterate has no such entry
		assertEquals(-1, FixedFits.cpca(K2, 0.5).unconverged());
		assertTrue(!PermutationTest.run(t, List.of(b), FixedFits.cpca(K2, 0.5), 9, 1,
			Progress.NONE).toSummary().containsKey("refits_not_converged"));
	}

	@Test
	void aPlantedSparseComponentIsStable() {
		// the data of the power test, bootstrapped
		final Bootstrap.Stability s = Bootstrap.run(CalibrationTest.plantedTarget(), List.of(
			CalibrationTest.plantedBackground()), FixedFits.sparseCpca(CpcaOptions.defaults()
				.withComponents(4), 0.5, 0.05), 40, 3, Progress.NONE);
		final double[] median = s.medianAngles();
		assertTrue(median[0] < 20 && median[1] < 20, Arrays.toString(median));
		assertTrue(median[2] > 30 && median[3] > 30, Arrays.toString(median));
		assertEquals(0, s.unconverged());
	}
}
