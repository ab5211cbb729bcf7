package org.cpca.core.sparse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.cpca.core.Progress;
import org.cpca.core.TestData;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import org.cpca.core.gcpca.Gcpca;
import org.cpca.core.gcpca.GcpcaRun;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.result.Method;
import org.cpca.core.result.Solution;
import org.junit.jupiter.api.Test;

/**
 * The accelerated variable projection converges to the plain iteration's fixed point,
 * and every run reports its iterations under "convergence" → "sparse"
 * (docs/math/sparse.md#convergence); a run stopped at the cap says so.
 */
class SparseConvergenceTest {

	/**
	 * Planted, d = 30, sparsity 0.01: the plain variable projection needs about 10⁵
	 * iterations to reach its tolerance; the 500 of an earlier version stopped at 87 %
	 * zeros on the whole planted support. The accelerated iteration reaches the converged
	 * loadings (95 % zeros) in far fewer iterations and says it converged.
	 */
	@Test
	void plantedD30ReachesTheConvergedLoadings() {
		final Cpca f = SparseTest.plantedSupport(30);
		final CpcaModel dense = f.model(5.0);
		final double[][] q = Sparse.basis(f);
		final CpcaModel fast = Sparse.cpca(f, q, dense, 0.01);
		final CpcaModel plain = Sparse.cpca(f, q, dense, 0.01, 300_000, false);
		final CpcaModel capped = Sparse.cpca(f, q, dense, 0.01, 500, false);
		for (final double c : change(plain))
			assertTrue(c <= SparseLoadings.TOLERANCE, "the reference converged: " + c);
		for (final double c : change(fast))
			assertTrue(c <= SparseLoadings.TOLERANCE, "converged: " + c);
		for (final double it : (double[]) fast.parameters().get("iterations"))
			assertTrue(it < 3000, "iterations " + it);
		final double zeros = zeros(fast);
		assertEquals(zeros(plain), zeros, 0.0, "the same zeros as the converged reference");
		assertTrue(zeros >= 0.95, "zeros " + zeros);
		for (int c = 0; c < 2; c++) {
			final double[] u = fast.components()[c], v = plain.components()[c];
			double dot = 0;
			for (int j = 0; j < u.length; j++) {
				dot += u[j] * v[j];
				assertEquals(v[j] == 0, u[j] == 0, "support of component " + (c + 1));
			}
			final double degrees = Math.toDegrees(Math.acos(Math.min(1, Math.abs(dot))));
			assertTrue(degrees < 0.5, "component " + (c + 1) + " is " + degrees + "° from " +
				"the converged reference");
		}
		// the old cap: not converged, fewer zeros
		assertTrue(zeros(capped) < zeros - 0.05, "500 iterations: zeros " + zeros(capped));
		assertTrue(change(capped)[0] > SparseLoadings.TOLERANCE);
	}

	@Test
	void cpcaRunStoppedAtTheCapSaysSo() {
		final Cpca f = SparseTest.plantedSupport(30);
		final Solution dense = Solution.of(Method.CPCA, "fixed", List.of(f.model(5.0)), null,
			f);
		final Solution capped = SparseRun.cpca(dense, 0.01, 40);
		final Map<?, ?> sparse = sparse(capped);
		assertEquals(Boolean.FALSE, sparse.get("converged"));
		assertEquals(40, ((Number) sparse.get("cap")).intValue());
		assertArrayEquals(new int[] { 40, 40 }, (int[]) sparse.get("iterations"));
		assertTrue(((double[]) sparse.get("final_change"))[0] > SparseLoadings.TOLERANCE);
		assertTrue(capped.diagnostics().stream().anyMatch(s -> s.startsWith(
			"sparse loadings did not converge: stopped at the cap of 40 iterations")), capped
				.diagnostics().toString());
		final Solution full = SparseRun.cpca(dense, 0.01);
		final Map<?, ?> done = sparse(full);
		assertEquals(Boolean.TRUE, done.get("converged"));
		assertEquals(SparseLoadings.MAX_ITERATIONS, ((Number) done.get("cap")).intValue());
		assertEquals(SparseLoadings.TOLERANCE, done.get("tolerance"));
		assertTrue(full.diagnostics().stream().noneMatch(s -> s.contains("did not converge")));
	}

	/**
	 * gcPCA reports both ends (2k components), and both converge: the background-enriched
	 * end, whose two values agree to four digits, crept with the earlier mapped iteration
	 * (relative change about 2/iterations: 10⁻⁴ at 20,000, reported as not converged);
	 * the proximal-gradient one needs a few dozen iterations.
	 */
	@Test
	void gcpcaReportsBothEnds() {
		final float[][][] p = TestData.planted(71, 200, 200, 25, 2, 2, 0.5);
		final Cpca f = Cpca.fit(Dataset.wrap("target", p[0]), Dataset.wrap("background",
			p[1]), CpcaOptions.defaults().withComponents(2), Progress.NONE);
		final Gcpca g = Gcpca.of(f, Gcpca.Variant.V4, false, Double.NaN);
		final Solution dense = GcpcaRun.run(g, f, 0, Progress.NONE);
		final Map<?, ?> capped = sparse(SparseRun.gcpca(dense, g, 0.05, 3));
		assertEquals(Boolean.FALSE, capped.get("converged"));
		assertArrayEquals(new int[] { 3, 3, 3, 3 }, (int[]) capped.get("iterations"));
		final Solution run = SparseRun.gcpca(dense, g, 0.005, 2000);
		final Map<?, ?> report = sparse(run);
		final int[] iterations = (int[]) report.get("iterations");
		final double[] change = (double[]) report.get("final_change");
		for (int c = 0; c < 4; c++) {
			assertTrue(iterations[c] < 1000, "component " + (c + 1) + ": " + iterations[c]);
			assertTrue(change[c] <= SparseLoadings.TOLERANCE, "component " + (c + 1) + ": " +
				change[c]);
		}
		assertEquals(Boolean.TRUE, report.get("converged"));
		assertTrue(run.diagnostics().stream().noneMatch(s -> s.contains("did not converge")));
	}

	/** The summary's shape: exactly these keys, in this order. */
	private static Map<?, ?> sparse(final Solution s) {
		final Map<?, ?> convergence = (Map<?, ?>) s.facts().get("convergence");
		final Map<?, ?> sparse = (Map<?, ?>) convergence.get("sparse");
		assertEquals(List.of("iterations", "converged", "tolerance", "final_change", "cap"),
			List.copyOf(sparse.keySet()));
		return sparse;
	}

	private static double[] change(final CpcaModel m) {
		return (double[]) m.parameters().get("final_change");
	}

	private static double zeros(final CpcaModel m) {
		return (Double) m.parameters().get("zero_fraction");
	}
}
