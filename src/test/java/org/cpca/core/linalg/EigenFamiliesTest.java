package org.cpca.core.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The full symmetric eigen-decomposition on the hard families (docs/math/solvers.md, full
 * symmetric eigendecomposition): clustered and multiple eigenvalues, exact zeros, rank
 * one, graded spectra, tiny and huge norms, Wilkinson's matrices and glued copies of
 * them, and the 784 × 784 positive semidefinite matrix with a 343-fold zero eigenvalue at
 * rounding level that sparse loadings on 28 × 28 images produce. Every family: residual
 * {@code ‖Av − λv‖ ≤ c·n·ε‖A‖} for every pair, {@code |VᵀV − I| ≤ c·n·ε}, eigenvalues
 * descending, and (small sizes) the eigenvalues of Commons Math's decomposition.
 */
class EigenFamiliesTest {

	private static final double EPS = Math.ulp(1.0);
	/** The constant c of the bounds above. */
	private static final double C = 1;

	/** The hard families by name, at a size given by the caller. */
	static double[] family(final String name, final int n) {
		final Random r = new Random(name.hashCode() + 31L * n);
		final double[] s = new double[n];
		switch (name) {
			case "zero":
				return new double[n * n];
			case "scaled identity": {
				final double[] a = new double[n * n];
				for (int i = 0; i < n; i++)
					a[i * n + i] = 7;
				return a;
			}
			case "many identical": // 3/4 of the spectrum at 1, a few at 2, the rest 0
				for (int i = 0; i < n; i++)
					s[i] = i < 3 * n / 4 ? 1 : i < 3 * n / 4 + 3 ? 2 : 0;
				return HardSpectraTest.compose(HardSpectraTest.basis(r.nextLong(), n), s);
			case "clustered": // two clusters 1e-12 and 1e-15 wide
				for (int i = 0; i < n; i++)
					s[i] = i < n / 2 ? 1 + 1e-12 * i : 2 + 1e-15 * i;
				return HardSpectraTest.compose(HardSpectraTest.basis(r.nextLong(), n), s);
			case "exact zeros": // half the spectrum exactly 0, the rest ±
				for (int i = 0; i < n; i++)
					s[i] = i % 2 == 0 ? 0 : i % 4 == 1 ? i : -i;
				return HardSpectraTest.compose(HardSpectraTest.basis(r.nextLong(), n), s);
			case "rank one": {
				final double[] u = new double[n], a = new double[n * n];
				for (int i = 0; i < n; i++)
					u[i] = r.nextGaussian();
				for (int i = 0; i < n; i++)
					for (int j = 0; j < n; j++)
						a[i * n + j] = u[i] * u[j];
				return a;
			}
			case "graded": // eigenvalues 1e-300 … 1, log-spaced
				for (int i = 0; i < n; i++)
					s[i] = Math.pow(10, -300.0 * i / (n - 1));
				return HardSpectraTest.compose(HardSpectraTest.basis(r.nextLong(), n), s);
			case "graded tridiagonal": { // d_i = 10^{-300 i/n}, e_i = √(d_i d_{i+1})
				final double[] a = new double[n * n];
				for (int i = 0; i < n; i++) {
					a[i * n + i] = Math.pow(10, -300.0 * i / n);
					if (i + 1 < n) {
						final double e = Math.pow(10, -300.0 * (i + 0.5) / n);
						a[i * n + i + 1] = e;
						a[(i + 1) * n + i] = e;
					}
				}
				return a;
			}
			case "tiny norm":
				return scaled(family("clustered", n), 1e-300);
			case "huge norm":
				return scaled(family("exact zeros", n), 1e300 / n);
			case "wilkinson":
				return glued(n, n, 0);
			case "glued wilkinson": // copies of W₂₁⁺ glued by 1e-14
				return glued(n, 21, 1e-14);
			case "psd with a 343-fold zero": // seed 1 stalled the old QL at n = 784
				return rankDeficient(n, n - 343, new Random(1));
			default:
				throw new IllegalArgumentException(name);
		}
	}

	private static double[] scaled(final double[] a, final double f) {
		for (int i = 0; i < a.length; i++)
			a[i] *= f;
		return a;
	}

	/**
	 * Copies of Wilkinson's W_w⁺ (diagonal |(w−1)/2 − i|, off-diagonal 1) along the
	 * diagonal of an n × n matrix, consecutive copies coupled by {@code glue}; its
	 * eigenvalues come in pairs that agree to many digits.
	 */
	static double[] glued(final int n, final int w, final double glue) {
		final double[] a = new double[n * n];
		for (int i = 0; i < n; i++) {
			a[i * n + i] = Math.abs((w - 1) / 2.0 - i % w);
			if (i + 1 < n) {
				final double e = (i + 1) % w == 0 ? glue : 1;
				a[i * n + i + 1] = e;
				a[(i + 1) * n + i] = e;
			}
		}
		return a;
	}

	/**
	 * G Gᵀ for a Gaussian n × rank G with decaying columns, plus symmetric noise of 10⁻¹⁶
	 * of its largest entry: positive semidefinite with an (n − rank)-fold eigenvalue at
	 * rounding level, as the negative part of sparse gcPCA's whitened problem on 784
	 * pixels (441 directions with data).
	 */
	static double[] rankDeficient(final int n, final int rank, final Random r) {
		final double[][] g = new double[n][rank];
		for (final double[] row : g)
			for (int j = 0; j < rank; j++)
				row[j] = r.nextGaussian() * Math.exp(-3.0 * j / rank);
		final double[] a = new double[n * n];
		double norm = 0;
		for (int i = 0; i < n; i++)
			for (int j = i; j < n; j++) {
				double v = 0;
				for (int t = 0; t < rank; t++)
					v += g[i][t] * g[j][t];
				a[i * n + j] = v;
				a[j * n + i] = v;
				norm = Math.max(norm, Math.abs(v));
			}
		for (int i = 0; i < n; i++)
			for (int j = i; j < n; j++) {
				final double v = 1e-16 * norm * r.nextGaussian();
				a[i * n + j] += v;
				if (i != j) a[j * n + i] += v;
			}
		return a;
	}

	static Stream<Arguments> families() {
		return Stream.of(Arguments.of("zero", 50), Arguments.of("scaled identity", 100),
			Arguments.of("many identical", 200), Arguments.of("clustered", 200), Arguments.of(
				"exact zeros", 150), Arguments.of("rank one", 120), Arguments.of("graded", 100),
			Arguments.of("graded tridiagonal", 120), Arguments.of("tiny norm", 100), Arguments
				.of("huge norm", 100), Arguments.of("wilkinson", 21), Arguments.of("wilkinson",
					201), Arguments.of("glued wilkinson", 210), Arguments.of("glued wilkinson",
						420));
	}

	@ParameterizedTest(name = "{0}, n = {1}")
	@MethodSource("families")
	void hardFamiliesDecompose(final String name, final int n) {
		assertDecomposes(family(name, n), n, name);
	}

	/**
	 * The matrix sparse loadings met on 28 × 28 images: 784 × 784, positive semidefinite,
	 * a 343-fold zero eigenvalue at rounding level. The implicit QL stalled at rounding
	 * level and gave up after 200 sweeps ("did not converge (matrix of size 784)").
	 */
	@Test
	void psdMatrixWithA343FoldZeroDecomposes() {
		assertDecomposes(family("psd with a 343-fold zero", 784), 784, "784 pixels");
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("families")
	void smallMembersAgreeWithCommonsMath(final String name, final int size) {
		// Commons Math gives up on the graded tridiagonal matrix (too many iterations)
		Assumptions.assumeFalse(name.equals("graded tridiagonal"));
		final int n = name.contains("wilkinson") ? 21 : 30;
		final double[] a = family(name, n);
		// nor does it scale: tiny and huge norms are compared with its eigenvalues of the
		// unscaled family, scaled
		final String unscaled = name.equals("tiny norm") ? "clustered" : name.equals(
			"huge norm") ? "exact zeros" : name;
		final double f = a.length == 0 || unscaled.equals(name) ? 1 : a[0] / family(unscaled,
			n)[0];
		final double[] ref = HardSpectraTest.commonsEigenvalues(family(unscaled, n), n);
		for (int i = 0; i < n; i++)
			ref[i] *= f;
		final SymmetricEigen e = SymmetricEigen.of(a, n);
		final double norm = norm(a, n);
		for (int i = 0; i < n; i++)
			assertEquals(ref[i], e.value(i), C * n * EPS * norm, name + ": eigenvalue " +
				i);
	}

	@Test
	void nonFiniteEntriesAreRefusedInOneLine() {
		final double[] a = family("clustered", 10);
		a[3] = Double.NaN;
		final ArithmeticException e = assertThrows(ArithmeticException.class,
			() -> SymmetricEigen.of(a, 10));
		assertTrue(e.getMessage().contains("non-finite"), e.getMessage());
	}

	/** The largest absolute row sum (the ∞-norm, ≥ the 2-norm of a symmetric matrix). */
	static double norm(final double[] a, final int n) {
		double norm = 0;
		for (int i = 0; i < n; i++) {
			double sum = 0;
			for (int j = 0; j < n; j++)
				sum += Math.abs(a[i * n + j]);
			norm = Math.max(norm, sum);
		}
		return norm;
	}

	/** Residuals, orthonormality and order of the full decomposition of a. */
	static void assertDecomposes(final double[] a, final int n, final String what) {
		final SymmetricEigen e = SymmetricEigen.of(a, n);
		final double norm = norm(a, n), bound = C * n * EPS;
		double worst = 0, worstDot = 0;
		for (int c = 0; c < n; c++) {
			final double[] v = e.vector(c);
			double r2 = 0;
			for (int i = 0; i < n; i++) {
				double y = -e.value(c) * v[i];
				for (int j = 0; j < n; j++)
					y = Math.fma(a[i * n + j], v[j], y);
				r2 += (y / norm) * (y / norm); // relative: huge norms would overflow
			}
			worst = Math.max(worst, Math.sqrt(r2));
			if (c > 0) assertTrue(e.value(c) <= e.value(c - 1), what + ": order at " + c);
		}
		for (int c = 0; c < n; c++)
			for (int o = c; o < n; o++)
				worstDot = Math.max(worstDot, Math.abs(TopEigen.dot(e.vector(c), e.vector(o)) -
					(c == o ? 1 : 0)));
		assertTrue(worst <= bound || norm == 0, what + ": residual " + worst + " ‖A‖ > " +
			bound + " ‖A‖");
		assertTrue(worstDot <= bound, what + ": |VᵀV − I| = " + worstDot + " > " + bound);
	}
}
