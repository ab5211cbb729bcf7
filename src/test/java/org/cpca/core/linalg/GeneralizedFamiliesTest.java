package org.cpca.core.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The generalized solver {@code A v = λ B v} on the hard families of
 * {@link EigenFamiliesTest} for A, with a positive definite B (condition number 10) of
 * ordinary, tiny and huge units: residual {@code ‖Av − λBv‖ ≤ c·n·ε·κ(B)(‖A‖ + |λ|‖B‖)}
 * (the full decomposition, n ≤ 64) or the block Lanczos tolerance (larger n), and
 * B-orthonormal vectors. A semidefinite B is refused in one line.
 */
class GeneralizedFamiliesTest {

	private static final double EPS = Math.ulp(1.0);

	/** U diag(1 … 10) Uᵀ times {@code unit}. */
	private static double[] denominator(final int n, final double unit) {
		final double[] s = new double[n];
		for (int i = 0; i < n; i++)
			s[i] = unit * (1 + 9.0 * i / Math.max(1, n - 1));
		return HardSpectraTest.compose(HardSpectraTest.basis(n, n), s);
	}

	private static double[][] rows(final double[] a, final int n) {
		final double[][] out = new double[n][];
		for (int i = 0; i < n; i++)
			out[i] = java.util.Arrays.copyOfRange(a, i * n, (i + 1) * n);
		return out;
	}

	@ParameterizedTest(name = "{0}, n = {1}, B in units of {2}")
	@CsvSource({ "clustered, 40, 1", "exact zeros, 40, 1e-306", "rank one, 40, 1e300",
		"graded, 40, 1", "tiny norm, 40, 1e-310", "huge norm, 40, 1e200", "glued wilkinson, 42, 1",
		"many identical, 60, 1e-200", "psd with a 343-fold zero, 400, 1",
		"exact zeros, 200, 1e-300", "huge norm, 200, 1e300" })
	void hardFamiliesSolve(final String name, final int n, final double unit) {
		final double[] a = EigenFamiliesTest.family(name, n), b = denominator(n, unit);
		final int k = n <= 64 ? n : 6;
		final TopEigen.Result r = GeneralizedEigen.top(a, rows(b, n), k, 3);
		final double na = EigenFamiliesTest.norm(a, n), nb = EigenFamiliesTest.norm(b, n);
		// the full decomposition is backward stable; block Lanczos stops at its tolerance
		final double c = k == n ? 10 * n * EPS * 10 : 1e-8;
		for (int col = 0; col < k; col++) {
			final double lambda = r.values[col];
			final double scale = na + Math.abs(lambda) * nb;
			double r2 = 0;
			for (int i = 0; i < n; i++) {
				double y = 0;
				for (int j = 0; j < n; j++)
					y += (a[i * n + j] - lambda * b[i * n + j]) * r.vectors[j * k + col];
				// relative before squaring: the units reach 1e±300; ‖v‖ ≈ 1/√‖B‖
				y = y / scale * Math.sqrt(nb);
				r2 += y * y;
			}
			assertTrue(Math.sqrt(r2) <= c, name + ": relative residual " + Math.sqrt(r2) +
				" of pair " + col + " (λ = " + lambda + ")");
			if (col > 0) assertTrue(lambda <= r.values[col - 1], "descending");
			for (int o = col; o < Math.min(k, col + 3); o++) {
				double vbv = 0;
				for (int i = 0; i < n; i++)
					for (int j = 0; j < n; j++)
						vbv += r.vectors[i * k + col] * b[i * n + j] * r.vectors[j * k + o];
				assertEquals(col == o ? 1 : 0, vbv, 1e-9, name + ": VᵀBV at " + col + "," + o);
			}
		}
	}

	@Test
	void semidefiniteDenominatorIsRefusedInOneLine() {
		final int n = 20;
		final double[] b = EigenFamiliesTest.family("rank one", n);
		final ArithmeticException e = assertThrows(ArithmeticException.class,
			() -> GeneralizedEigen.top(EigenFamiliesTest.family("clustered", n), rows(b, n), 3,
				1));
		assertTrue(e.getMessage().contains("positive definite B"), e.getMessage());
		assertTrue(!e.getMessage().contains("\n"), "one line");
	}

	@Test
	void eigenvaluesScaleWithTheUnits() {
		// λ(A, cB) = λ(A, B)/c exactly for powers of two c, also outside the safe range
		final int n = 30;
		final double[] a = EigenFamiliesTest.family("exact zeros", n), b = denominator(n, 1);
		final double[] tiny = b.clone();
		for (int i = 0; i < tiny.length; i++)
			tiny[i] = Math.scalb(tiny[i], -1000);
		final double[] plain = GeneralizedEigen.top(a, rows(b, n), n, 1).values;
		final double[] scaled = GeneralizedEigen.top(a, rows(tiny, n), n, 1).values;
		for (int i = 0; i < n; i++)
			assertEquals(plain[i], Math.scalb(scaled[i], -1000), 1e-12 * Math.abs(plain[0]),
				"eigenvalue " + i);
	}
}
