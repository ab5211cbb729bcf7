package org.cpca.core.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.cpca.core.FamilyPropertyTest;
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
 * The prepared solver on the native backend: its matrix kept in native memory
 * ({@link NativeMatrix}, {@link ContrastSolver}'s hold), each product one call per vector,
 * so the bits do not depend on the block or on what was solved before; the copy lives
 * exactly as long as a hold or a solve uses it; the preparation by LAPACK. The solutions
 * agree with the Java kernels' to rounding. Native backend only.
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
		// a hold closed twice counts once: the other hold keeps the copy
		final ContrastSolver.Hold first = solver.hold(), second = solver.hold();
		first.close();
		first.close();
		assertTrue(solver.holdsCopy(), "a second close freed a copy still held");
		second.close();
		assertFalse(solver.holdsCopy());
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

	/**
	 * The preparation by LAPACK ({@code dsytrd}, {@code dorgtr}): Q orthogonal and
	 * {@code B = QTQᵀ} to rounding, also for a B of rank 3 (most of its columns reduce to
	 * nothing) and with tiny units; the solutions agree with those of the Java preparation
	 * within the backend-equivalence bounds.
	 */
	@Test
	void thePreparationByLapackAgreesWithTheJavaOne() {
		final int m = 130, k = 2;
		final double[] full = SolverTest.spd(41, m, 6, 5), a = SolverTest.spd(42, m, 2, 0);
		final double[] low = new double[m * m];
		final Random r = new Random(43);
		for (int c = 0; c < 3; c++) {
			final double[] u = new double[m];
			for (int i = 0; i < m; i++)
				u[i] = r.nextGaussian();
			for (int i = 0; i < m; i++)
				for (int j = 0; j < m; j++)
					low[i * m + j] += u[i] * u[j];
		}
		final double[] tiny = full.clone(), tinyA = a.clone();
		for (int i = 0; i < tiny.length; i++) {
			tiny[i] *= 1e-30;
			tinyA[i] *= 1e-30;
		}
		for (final double[][] ab : new double[][][] { { a, full }, { a, low }, { tinyA,
			tiny } })
		{
			final double[] aa = ab[0], b = ab[1];
			final ContrastSolver lapack = ContrastSolver.buildFull(aa, b, m);
			final double[][] qt = lapack.basisRows();
			final double[] d = lapack.tridiagonalDiagonal(), e = lapack.tridiagonalOffDiagonal();
			double bNorm = 0;
			for (final double v : b)
				bNorm = Math.max(bNorm, Math.abs(v));
			for (int i = 0; i < m; i++)
				for (int j = 0; j < m; j++) {
					double qq = 0, qtq = 0;
					for (int t = 0; t < m; t++) {
						qq += qt[i][t] * qt[j][t];
						final double tq = d[t] * qt[t][j] + (t > 0 ? e[t - 1] * qt[t - 1][j] : 0) +
							(t + 1 < m ? e[t] * qt[t + 1][j] : 0);
						qtq += qt[t][i] * tq;
					}
					assertEquals(i == j ? 1 : 0, qq, 1e-13, "QᵀQ at " + i + ", " + j);
					assertEquals(b[i * m + j], qtq, 1e-13 * bNorm, "QTQᵀ at " + i + ", " + j);
				}
			final ContrastSolver java = Backend.onJava(() -> ContrastSolver.buildFull(aa, b, m));
			for (final double alpha : new double[] { 0.3, 40 }) {
				final TopEigen.Result x = lapack.solve(alpha, k, null, 7);
				final TopEigen.Result y = Backend.onJava(() -> java.solve(alpha, k, null, 7));
				// both are within the solver's residual bound of the true subspace: apart by at
				// most 2√k·10⁻¹⁰‖S‖_F/gap (Davis–Kahan), which the gap of this pencil at α = 40
				// (0.06) puts above 10⁻⁸°
				final double[] next = lapack.solve(alpha, k + 1, null, 7).values;
				double f2 = 0;
				for (int i = 0; i < m * m; i++)
					f2 += Math.pow(aa[i] - alpha * b[i], 2);
				final double davisKahan = Math.toDegrees(2 * Math.sqrt(k) * 1e-10 * Math.sqrt(f2) /
					(next[k - 1] - next[k]));
				agree(y, x, m, k, Math.max(1e-8, davisKahan));
			}
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
		agree(expected, actual, m, k, 1e-8);
	}

	/** Eigenvalues to 1e-10 of the largest, the subspaces to the given angle (degrees). */
	private static void agree(final TopEigen.Result expected, final TopEigen.Result actual,
		final int m, final int k, final double degrees)
	{
		double scale = 0;
		for (final double v : expected.values)
			scale = Math.max(scale, Math.abs(v));
		for (int c = 0; c < k; c++)
			assertEquals(expected.values[c], actual.values[c], 1e-10 * scale, "eigenvalue " + c);
		assertEquals(0, FamilyPropertyTest.largestAngleDegrees(columns(expected.vectors, m, k),
			columns(actual.vectors, m, k)), degrees, "largest principal angle (degrees)");
	}

	/** The k columns of a row-major m × k array, as vectors. */
	static double[][] columns(final double[] w, final int m, final int k) {
		final double[][] out = new double[k][m];
		for (int i = 0; i < m; i++)
			for (int c = 0; c < k; c++)
				out[c][i] = w[i * k + c];
		return out;
	}
}
