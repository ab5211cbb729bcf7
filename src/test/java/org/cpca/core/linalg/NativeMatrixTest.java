package org.cpca.core.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.cpca.core.Progress;
import org.cpca.core.TestData;
import org.cpca.core.contrast.AlphaSelection;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Random;

/**
 * The solvers' matrix kept in native memory ({@link NativeMatrix}, {@link ContrastSolver}'s
 * hold): each product is one call per vector, so the bits do not depend on the block or on
 * what was solved before; the solutions agree with the Java kernels' to rounding; the copy
 * lives exactly as long as a hold or a solve uses it. Native backend only.
 */
class NativeMatrixTest {

	@BeforeEach
	void nativeOnly() {
		Assumptions.assumeTrue(Backend.isNative(), "the native backend is not in use");
	}

	private static double[][] symmetricRows(final long seed, final int m) {
		final Random r = new Random(seed);
		final double[][] s = new double[m][m];
		for (int i = 0; i < m; i++)
			for (int j = i; j < m; j++)
				s[i][j] = s[j][i] = r.nextGaussian();
		return s;
	}

	@Test
	void eachVectorIsOneCallWhateverTheBlock() {
		final int m = 300;
		final double[][] s = symmetricRows(3, m);
		final Random r = new Random(4);
		final double[][] block = new double[7][m];
		for (final double[] v : block)
			for (int i = 0; i < m; i++)
				v[i] = r.nextGaussian();
		try (NativeMatrix n = NativeMatrix.of(s)) {
			final double[][] all = n.times(block);
			final double[][] java = Products.symmetricTimesRows(s, block);
			for (int v = 0; v < block.length; v++) {
				// the same vector alone, or in a block of another width: the same bits
				assertArrayEquals(all[v], n.times(new double[][] { block[v] })[0], 0);
				for (int i = 0; i < m; i++)
					assertEquals(java[v][i], all[v][i], 1e-12 * m);
			}
		}
	}

	@Test
	void onlyPreparedProblemsThatStayInTheCacheReside() {
		assertFalse(ContrastSolver.resides(64), "no preparation at m ≤ 64");
		assertTrue(ContrastSolver.resides(65));
		assertTrue(ContrastSolver.resides(NativeMatrix.FITS));
		assertFalse(ContrastSolver.resides(NativeMatrix.FITS + 1));
		assertFalse(Backend.onJava(() -> ContrastSolver.resides(200)), "Java kernels");
	}

	/**
	 * A solve in a hold, alone, or after others gives the same bits; the copy exists while
	 * held and is gone after; and the native products agree with the Java kernels' (the
	 * backend-equivalence bounds: eigenvalues 1e-10 of the largest, subspaces 1e-8°).
	 */
	@Test
	void aHoldChangesNoBitAndTheBackendsAgree() {
		final int m = 150, k = 3;
		final double[] b = SolverTest.spd(31, m, 5, 4), a = SolverTest.spd(32, m, 2, 0);
		final ContrastSolver solver = ContrastSolver.build(a, b, m);
		final double[] alphas = { 0, 0.7, 9, 120 };
		final TopEigen.Result[] alone = new TopEigen.Result[alphas.length];
		for (int i = 0; i < alphas.length; i++) {
			alone[i] = solver.solve(alphas[i], k, null, 5);
			assertFalse(solver.holdsCopy(), "a solve frees its own copy");
		}
		try (ContrastSolver.Hold held = solver.hold()) {
			assertTrue(solver.holdsCopy());
			double[][] warm = null;
			for (int i = alphas.length - 1; i >= 0; i--) {
				final TopEigen.Result r = solver.solve(alphas[i], k, null, 5);
				assertArrayEquals(alone[i].values, r.values, 0);
				assertArrayEquals(alone[i].vectors, r.vectors, 0);
				warm = solver.solve(alphas[i], k, warm, 5).warmStart;
			}
			assertTrue(solver.holdsCopy());
		}
		assertFalse(solver.holdsCopy(), "the last user frees the copy");
		for (int i = 0; i < alphas.length; i++) {
			final double alpha = alphas[i];
			final TopEigen.Result java = Backend.onJava(() -> solver.solve(alpha, k, null, 5));
			agree(java, alone[i], m, k);
			final TopEigen.Result direct = ContrastSolver.direct(a, b, m, alpha, k, 5, 200);
			final TopEigen.Result directJava = Backend.onJava(() -> ContrastSolver.direct(a, b,
				m, alpha, k, 5, 200));
			assertEquals(directJava == null, direct == null, "the same path at α = " + alpha);
			if (direct != null) agree(directJava, direct, m, k);
		}
	}

	/** The automatic α's sweep holds the copy while it runs and leaves none behind. */
	@Test
	void theSweepLeavesNoCopy() {
		final float[][][] data = TestData.planted(8, 300, 300, 90, 20, 3, 0.3);
		final Cpca fit = Cpca.fit(Dataset.wrap("t", data[0]), Dataset.wrap("b", data[1]),
			CpcaOptions.defaults().withComponents(2), Progress.NONE);
		final TopEigen.Result[] once = AlphaSelection.sweep(fit, fit.options().alphaGrid(),
			Progress.NONE);
		assertFalse(fit.solver().holdsCopy());
		final TopEigen.Result[] again = AlphaSelection.sweep(fit, fit.options().alphaGrid(),
			Progress.NONE);
		for (int i = 0; i < once.length; i++)
			assertArrayEquals(once[i].vectors, again[i].vectors, 0, "bit for bit");
	}

	/** Eigenvalues to 1e-10 of the largest, the k-dimensional subspaces to 1e-8°. */
	private static void agree(final TopEigen.Result expected, final TopEigen.Result actual,
		final int m, final int k)
	{
		double scale = 0;
		for (final double v : expected.values)
			scale = Math.max(scale, Math.abs(v));
		for (int c = 0; c < k; c++)
			assertEquals(expected.values[c], actual.values[c], 1e-10 * scale, "eigenvalue " + c);
		final double[][] u = columns(expected.vectors, m, k), v = columns(actual.vectors, m, k);
		// sin of the largest principal angle ≤ ‖(I − UUᵀ)V‖_F (U, V orthonormal)
		double sum = 0;
		for (final double[] vc : v) {
			final double[] r = vc.clone();
			for (final double[] uc : u)
				TopEigen.axpy(-TopEigen.dot(uc, vc), uc, r);
			sum += TopEigen.dot(r, r);
		}
		assertEquals(0, Math.toDegrees(Math.asin(Math.min(1, Math.sqrt(sum)))), 1e-8,
			"largest principal angle (degrees)");
	}

	private static double[][] columns(final double[] w, final int m, final int k) {
		final double[][] out = new double[k][m];
		for (int i = 0; i < m; i++)
			for (int c = 0; c < k; c++)
				out[c][i] = w[i * k + c];
		return out;
	}
}
