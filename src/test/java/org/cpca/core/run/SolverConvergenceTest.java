package org.cpca.core.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.cpca.core.Progress;
import org.cpca.core.TestData;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.contrast.Measures;
import org.cpca.core.data.Dataset;
import org.cpca.core.linalg.SolverLog;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.model.FittedModel;
import org.cpca.core.result.Convergence;
import org.cpca.core.result.Solution;
import org.junit.jupiter.api.Test;

/**
 * The eigensolvers' entries in the summary's convergence object ("lobpcg" for cPCA's
 * solves, "lanczos" for the block Lanczos method of PCA): iterations, the cap, and — when
 * a solve stops at its cap — "converged": false with the full decomposition that answered
 * instead, whose result is still exact.
 */
class SolverConvergenceTest {

	/** 100 features: above the size the solvers decompose whole without iterating. */
	private static final Dataset T = Dataset.of("target", TestData.gaussian(1, 300, 100, 5,
		4, 3, 2));
	private static final Dataset B = Dataset.of("background", TestData.gaussian(2, 300, 100,
		5, 1, 3));

	private static Solution run(final String method, final String alpha) {
		final Settings.Builder b = Settings.builder().set("method", method);
		if (alpha != null) b.set("alpha", alpha);
		return MethodRunner.run(b.build(), T, method.equals("pca") ? List.of() : List.of(B),
			CpcaOptions.defaults(), Progress.NONE);
	}

	private static Map<?, ?> entry(final Solution s, final String name) {
		final Object all = s.facts().get(Convergence.KEY);
		assertNotNull(all, "no convergence entry");
		final Object e = ((Map<?, ?>) all).get(name);
		assertNotNull(e, "no " + name + " entry in " + all);
		return (Map<?, ?>) e;
	}

	@Test
	void cpcaReportsItsLobpcgSolves() {
		final Map<?, ?> e = entry(run("cpca", "2"), "lobpcg");
		assertEquals(true, e.get("converged"));
		assertTrue(((Number) e.get("iterations")).intValue() > 0);
		assertTrue(((Number) e.get("iterations")).intValue() <= ((Number) e.get("cap"))
			.intValue());
		assertTrue(((Number) e.get("solves")).intValue() >= 1);
		assertNull(e.get("fallback"));
		assertEquals(SolverLog.LOBPCG_TOLERANCE, (Double) e.get("tolerance"), 0);
	}

	@Test
	void automaticAlphaCountsEverySolveOfTheSweep() {
		final Map<?, ?> e = entry(run("cpca", "auto"), "lobpcg");
		assertEquals(true, e.get("converged"));
		// 41 α in the sweep, and the returned models' re-solves
		assertTrue(((Number) e.get("solves")).intValue() >= 41, e.toString());
	}

	@Test
	void lobpcgStoppedAtItsCapSaysSoAndTheFallbackIsExact() {
		final Solution free = run("cpca", "2");
		final Solution capped = SolverLog.capped(0, 0).during(() -> run("cpca", "2"));
		final Map<?, ?> e = entry(capped, "lobpcg");
		assertEquals(false, e.get("converged"));
		assertEquals(0, ((Number) e.get("cap")).intValue());
		assertTrue(String.valueOf(e.get("fallback")).contains("full eigen-decomposition"), e
			.toString());
		final String warning = Convergence.warning(capped.facts());
		assertNotNull(warning);
		assertTrue(warning.contains("lobpcg (stopped at its cap; a full eigen-decomposition"),
			warning);
		assertFalse(warning.contains("last iterate"), warning);
		sameModel(free.primary(), capped.primary());
	}

	@Test
	void pcaReportsItsLanczosRestartsAndTheirCap() {
		final Solution free = run("pca", null);
		final Map<?, ?> e = entry(free, "lanczos");
		assertEquals(true, e.get("converged"));
		assertTrue(((Number) e.get("iterations")).intValue() >= 1);
		assertNull(Convergence.warning(free.facts()));
		final Solution capped = SolverLog.capped(0, 0).during(() -> run("pca", null));
		final Map<?, ?> c = entry(capped, "lanczos");
		assertEquals(false, c.get("converged"));
		assertTrue(String.valueOf(c.get("fallback")).contains("answered 1 of 1 solves"), c
			.toString());
		sameModel(free.primary(), capped.primary());
	}

	private static void sameModel(final FittedModel a, final FittedModel b) {
		final double[] va = a.eigenvalues(), vb = b.eigenvalues();
		for (int i = 0; i < va.length; i++)
			assertEquals(va[i], vb[i], 1e-10 * Math.abs(va[0]), "eigenvalue " + i);
		for (final double angle : Measures.principalAngles(((CpcaModel) a).components(),
			((CpcaModel) b).components()))
			assertEquals(0, angle, 1e-6, "principal angle");
	}
}
