package org.cpca.core.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;

import org.bytedeco.javacpp.Pointer;
import org.cpca.core.FamilyPropertyTest;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * LOBPCG's block steps on the native backend ({@link NativeBlockSteps}, the products'
 * {@code dsbmv} and the preconditioner's {@code dpttrf}/{@code dpttrs}) against the Java
 * ones, on a pencil solvable on paper with a repeated pair and an eigenvalue that crosses
 * into the top from the far end of the spectrum during a warm sweep; and that the native
 * steps did run (no silent fallback). Native backend only.
 */
class NativeBlockStepsTest {

	private static final int M = 160, K = 2;

	@BeforeEach
	void nativeOnly() {
		Assumptions.assumeTrue(Backend.isNative(), "the native backend is not in use");
	}

	/**
	 * {@code A = U diag(a) Uᵀ}, {@code B = U diag(b) Uᵀ} (U random orthonormal, seeded): the
	 * eigenvalues of A − αB are {@code a_i − αb_i}. Directions 0 and 1: 10 − 0.2α and
	 * 10 − 0.22α, a repeated pair on top at α = 0; direction 2: 8 − 0.01α, on top from
	 * α ≈ 10.5 on; direction 3: −1 whatever α, at the bottom at α = 0 (below every other
	 * direction's 0 … 1) and second from the top from α = 55 on, after the pair has
	 * fallen below it; the rest: a in [0, 1], b in [0.3, 1].
	 */
	private static double[][] pencil() {
		final double[] a = new double[M], b = new double[M];
		final Random r = new Random(11);
		for (int i = 0; i < M; i++) {
			a[i] = r.nextDouble();
			b[i] = 0.3 + 0.7 * r.nextDouble();
		}
		a[0] = a[1] = 10;
		b[0] = 0.2;
		b[1] = 0.22;
		a[2] = 8;
		b[2] = 0.01;
		a[3] = -1;
		b[3] = 0;
		final double[][] u = HardSpectraTest.basis(12, M);
		return new double[][] { HardSpectraTest.compose(u, a), HardSpectraTest.compose(u, b),
			a, b };
	}

	/**
	 * A warm sweep (the automatic α's way) on native and Java block steps: the same
	 * eigenvalues to 10⁻¹⁰ of the largest |eigenvalue| and the same subspaces to 10⁻⁸°,
	 * both equal to the values on paper (the crossing found), and the native steps ran:
	 * every solve took Rayleigh–Ritz steps and preconditioner solves natively, none fell
	 * back to Java, and no native memory is left afterwards.
	 */
	@Test
	void aWarmSweepWithACrossingAgreesWithTheJavaSteps() throws InterruptedException {
		final double[][] p = pencil();
		final double[] a = p[0], b = p[1];
		final ContrastSolver solver = ContrastSolver.build(a, b, M);
		final ContrastSolver java = Backend.onJava(() -> ContrastSolver.build(a, b, M));
		final double[] alphas = { 0, 3, 12, 30, 45, 70, 150 };
		final long nativeBytes = settledNativeBytes();
		double[][] warm = null, warmJava = null;
		for (final double alpha : alphas) {
			final long steps = NativeBlockSteps.STEPS.get(), fallbacks = NativeBlockSteps.FALLBACKS
				.get(), solves = ContrastSolver.SHIFTED_SOLVES.get(),
				shifted = ContrastSolver.SHIFTED_FALLBACKS.get();
			final TopEigen.Result n = solver.solve(alpha, K, warm, 3);
			assertTrue(NativeBlockSteps.STEPS.get() > steps, "native steps at α = " + alpha);
			assertTrue(ContrastSolver.SHIFTED_SOLVES.get() > solves, "dpttrs at α = " + alpha);
			assertEquals(fallbacks, NativeBlockSteps.FALLBACKS.get(), "LAPACK fell back");
			assertEquals(shifted, ContrastSolver.SHIFTED_FALLBACKS.get(), "dpttrf fell back");
			final double[][] wj = warmJava;
			final long before = NativeBlockSteps.STEPS.get();
			final TopEigen.Result j = Backend.onJava(() -> java.solve(alpha, K, wj, 3));
			assertEquals(before, NativeBlockSteps.STEPS.get(), "the Java kernels' steps");
			warm = n.warmStart;
			warmJava = j.warmStart;
			final double[] exact = exact(p[2], p[3], alpha);
			double scale = 0;
			for (final double v : exact)
				scale = Math.max(scale, Math.abs(v));
			for (int c = 0; c < K; c++) {
				assertEquals(exact[c], n.values[c], 1e-10 * scale, "on paper, α = " + alpha);
				assertEquals(j.values[c], n.values[c], 1e-10 * scale, "Java, α = " + alpha);
			}
			assertTrue(largestAngle(j.vectors, n.vectors) <= 1e-8, "α = " + alpha +
				": subspaces apart by " + largestAngle(j.vectors, n.vectors) + "°");
		}
		assertEquals(nativeBytes, Pointer.totalBytes(), "native memory left after the solves");
	}

	/** The same solve twice, and after others: the same bits (the steps hold no state). */
	@Test
	void nativeSolvesDoNotDependOnWhatWasSolvedBefore() {
		final double[][] p = pencil();
		final ContrastSolver solver = ContrastSolver.build(p[0], p[1], M);
		final TopEigen.Result first = solver.solve(45, K, null, 9);
		solver.solve(3, K, null, 1);
		solver.solve(150, K + 1, first.warmStart, 2);
		final TopEigen.Result again = solver.solve(45, K, null, 9);
		assertArrayEquals(first.values, again.values, 0);
		assertArrayEquals(first.vectors, again.vectors, 0);
	}

	/** {@code dsymv} + {@code dsbmv}: S x − αT x, as the Java kernels form it, to rounding. */
	@Test
	void theTridiagonalPartByDsbmv() {
		final int m = 90;
		final Random r = new Random(5);
		final double[][] s = new double[m][m];
		for (int i = 0; i < m; i++)
			for (int j = i; j < m; j++)
				s[i][j] = s[j][i] = r.nextGaussian();
		final double[] d = new double[m], e = new double[m], x = new double[m];
		for (int i = 0; i < m; i++) {
			d[i] = r.nextGaussian();
			e[i] = i + 1 < m ? r.nextGaussian() : 0;
			x[i] = r.nextGaussian();
		}
		try (NativeMatrix n = NativeMatrix.of(s)) {
			final double[] y = n.times(new double[][] { x }, NativeMatrix.band(d, e), -2.5)[0];
			for (int i = 0; i < m; i++) {
				double want = -2.5 * (d[i] * x[i] + (i > 0 ? e[i - 1] * x[i - 1] : 0) + (i + 1 < m
					? e[i] * x[i + 1] : 0));
				for (int j = 0; j < m; j++)
					want += s[i][j] * x[j];
				assertEquals(want, y[i], 1e-12 * m, "entry " + i);
			}
		}
	}

	/**
	 * {@code dpttrf}/{@code dpttrs} solve a positive definite tridiagonal system for a
	 * block, and refuse an indefinite one (null: the caller's guarded Java solve answers).
	 */
	@Test
	void positiveDefiniteTridiagonalSolvesAndRefusals() {
		final int m = 50;
		final Random r = new Random(6);
		final double[] d = new double[m], e = new double[m - 1];
		for (int i = 0; i < m; i++)
			d[i] = 3 + r.nextDouble();
		for (int i = 0; i < m - 1; i++)
			e[i] = r.nextDouble() - 0.5;
		final double[][] rhs = new double[3][m];
		for (final double[] v : rhs)
			for (int i = 0; i < m; i++)
				v[i] = r.nextGaussian();
		final double[][] z = NativeLapack.positiveTridiagonalSolve(d, e, rhs);
		assertNotNull(z);
		for (int q = 0; q < rhs.length; q++)
			for (int i = 0; i < m; i++) {
				final double tz = d[i] * z[q][i] + (i > 0 ? e[i - 1] * z[q][i - 1] : 0) + (i + 1 <
					m ? e[i] * z[q][i + 1] : 0);
				assertEquals(rhs[q][i], tz, 1e-12, "T z = r at " + i);
			}
		final double[] indefinite = d.clone();
		indefinite[20] = -1;
		assertNull(NativeLapack.positiveTridiagonalSolve(indefinite, e, rhs));
	}

	private static double[] exact(final double[] a, final double[] b, final double alpha) {
		final double[] v = new double[a.length];
		for (int i = 0; i < v.length; i++)
			v[i] = -(a[i] - alpha * b[i]);
		Arrays.sort(v);
		for (int i = 0; i < v.length; i++)
			v[i] = -v[i];
		return v;
	}

	/**
	 * JavaCPP's native bytes once earlier tests' unreachable pointers are freed: they are
	 * freed by the garbage collector's thread whenever it runs, which would otherwise show
	 * as memory freed during the solves (seen when NativeMatrixTest ran first).
	 */
	private static long settledNativeBytes() throws InterruptedException {
		long before = -1, now = Pointer.totalBytes();
		for (int i = 0; i < 50 && now != before; i++) {
			System.gc();
			Thread.sleep(20);
			before = now;
			now = Pointer.totalBytes();
		}
		return now;
	}

	/** The largest principal angle (degrees) between the K-subspaces of two results. */
	private static double largestAngle(final double[] u, final double[] v) {
		return FamilyPropertyTest.largestAngleDegrees(NativeMatrixTest.columns(u, M, K),
			NativeMatrixTest.columns(v, M, K));
	}
}
