package org.cpca.core.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Products#cholesky} on the native backend is LAPACK's {@code dpotrf}
 * ({@link NativeLapack#cholesky}) and agrees with the Java factorisation on clustered
 * spectra, a scale of 10⁻³⁰ and a large diagonal offset; a matrix that is not positive
 * definite is refused by both with the same words, and one with a NaN by the Java path.
 * Skipped where the native backend is not in use.
 */
class NativeCholeskyTest {

	private static double[][] rows(final double[] s, final int m, final double scale,
		final double offset)
	{
		final double[][] rows = new double[m][m];
		for (int i = 0; i < m; i++) {
			for (int j = 0; j < m; j++)
				rows[i][j] = s[i * m + j] * scale;
			rows[i][i] += offset;
		}
		return rows;
	}

	private static double[][] copy(final double[][] rows) {
		final double[][] out = new double[rows.length][];
		for (int i = 0; i < rows.length; i++)
			out[i] = rows[i].clone();
		return out;
	}

	@ParameterizedTest(name = "scale {0}")
	@ValueSource(doubles = { 1, 1e-30, 1e8 })
	void dpotrfFactorsAsTheJavaPathDoes(final double scale) {
		assumeTrue(Backend.isNative(), "the native backend is not in use");
		final int m = 200;
		// four decades with a cluster of 20 equal eigenvalues; at 10⁸ also an offset of
		// 10⁸ on the diagonal (a matrix near a multiple of I)
		final double[] s = SolverTest.spd(3, m, 4, 20);
		final double offset = scale == 1e8 ? 1e8 : 0;
		final double[][] a = rows(s, m, scale, offset);
		final double[][] r = Products.cholesky(copy(a));
		final double[][] direct = copy(a);
		assertTrue(NativeLapack.cholesky(direct));
		final double[][] java = Backend.onJava(() -> Products.cholesky(copy(a)));
		final double[][] again = Products.cholesky(copy(a));
		double max = 0;
		for (int i = 0; i < m; i++)
			max = Math.max(max, Math.abs(java[i][i]));
		for (int i = 0; i < m; i++) {
			assertArrayEquals(direct[i], r[i], 0, "row " + i + ": dpotrf's bits");
			assertArrayEquals(r[i], again[i], 0, "row " + i + " run to run");
			assertArrayEquals(java[i], r[i], 1e-12 * max, "row " + i);
			for (int j = 0; j < i; j++)
				assertEquals(0.0, r[i][j]);
		}
	}

	@Test
	void bothBackendsRefuseWhatIsNotPositiveDefinite() {
		assumeTrue(Backend.isNative(), "the native backend is not in use");
		final int m = 100;
		final double[] s = SolverTest.spd(4, m, 2, 0);
		final double[][] indefinite = rows(s, m, 1, 0);
		// row and column 60 repeat 10, but for a diagonal smaller by 0.5: the 61st leading
		// minor is negative (its Schur complement −0.5)
		for (int j = 0; j < m; j++)
			indefinite[60][j] = indefinite[10][j];
		for (int i = 0; i < m; i++)
			indefinite[i][60] = indefinite[i][10];
		indefinite[60][60] = indefinite[10][10] - 0.5;
		for (final boolean onJava : new boolean[] { false, true }) {
			final ArithmeticException e = assertThrows(ArithmeticException.class, () -> {
				if (onJava) Backend.onJava(() -> Products.cholesky(copy(indefinite)));
				else Products.cholesky(copy(indefinite));
			});
			assertTrue(e.getMessage().startsWith("matrix is not positive definite (pivot "), e
				.getMessage());
			assertTrue(e.getMessage().endsWith(" at 60)"), e.getMessage());
		}
		final double[][] nan = rows(s, m, 1, 0);
		nan[30][30] = Double.NaN;
		final double[][] left = copy(nan);
		assertTrue(!NativeLapack.cholesky(left), "dpotrf declines a NaN");
		for (int i = 0; i < m; i++)
			assertArrayEquals(nan[i], left[i], 0, "row " + i + " untouched");
		final ArithmeticException e = assertThrows(ArithmeticException.class, () -> Products
			.cholesky(copy(nan)));
		assertEquals("matrix is not positive definite (pivot NaN at 30)", e.getMessage());
	}
}
