package org.cpca.core.linalg;

import java.util.Arrays;

/**
 * Top-k eigenpairs of the symmetric-definite generalized problem {@code A v = λ B v} (A
 * symmetric, B symmetric positive definite) through the Cholesky factor of B.
 * <p>
 * With {@code B = RᵀR} (R upper triangular) the problem is the ordinary symmetric one
 * {@code M w = λ w} for {@code M = R⁻ᵀ A R⁻¹}, and {@code v = R⁻¹ w}. M is formed by two
 * forward substitutions with m right-hand sides ({@code Y = R⁻ᵀA}, then
 * {@code M = R⁻ᵀYᵀ}, using the symmetry of A; only its upper triangle, which is half the
 * work of the second substitution), mirrored, and its top k eigenpairs are found by
 * {@link TopEigen}. The returned vectors are B-orthonormal
 * ({@code VᵀBV = I}); callers normalise them as they need. The symmetric problem is
 * solved by {@link TopEigen} and {@link SymmetricEigen}, which do not give up and scale
 * tiny and huge units (docs/math/solvers.md). A B that is not positive definite is refused
 * with an {@link ArithmeticException} that says so (callers that can shift B catch it).
 * Cost: m³/3 multiply–adds for the factor, 3m³/4 for the two substitutions, then the
 * top-k solve.
 */
public final class GeneralizedEigen {

	private GeneralizedEigen() {}

	/**
	 * @param a symmetric m × m, row-major (not modified)
	 * @param b B as rows (m × m); destroyed (overwritten by its Cholesky factor)
	 * @return eigenvalues descending, B-orthonormal eigenvectors as the columns of an
	 *         m × k row-major block
	 * @throws ArithmeticException if B is not numerically positive definite
	 */
	public static TopEigen.Result top(final double[] a, final double[][] b, final int k,
		final long seed)
	{
		final int m = b.length;
		if (Backend.isNative()) { // LAPACK's dsygvx (NativeLapack); the Java path if it fails
			final double[] values = new double[k];
			final double[][] rows;
			try {
				rows = NativeLapack.generalizedTop(a, b, k, values);
			}
			catch (final ArithmeticException e) {
				throw notPositiveDefinite(m, e);
			}
			if (rows != null) return TopEigen.ofRows(values, rows, m, 0);
		}
		final double[][] r;
		try {
			r = Products.cholesky(b);
		}
		catch (final ArithmeticException e) {
			throw notPositiveDefinite(m, e);
		}
		final double[][] y = new double[m][];
		for (int i = 0; i < m; i++)
			y[i] = Arrays.copyOfRange(a, i * m, (i + 1) * m);
		Products.forwardSolveRows(r, y, false); // Y = R⁻ᵀA
		final double[][] yt = transpose(y); // Yᵀ = A R⁻¹
		Products.forwardSolveRows(r, yt, true); // M = R⁻ᵀ A R⁻¹, upper triangle
		final double[] flat = new double[m * m];
		for (int i = 0; i < m; i++)
			for (int j = i; j < m; j++) {
				final double v = yt[i][j];
				flat[i * m + j] = v;
				flat[j * m + i] = v;
			}
		final TopEigen.Result top = TopEigen.solve(flat, m, k, null, seed);
		return new TopEigen.Result(top.values, Products.backSolve(r, top.vectors, k), null,
			top.restarts, top.fullDecomposition);
	}

	static double[][] transpose(final double[][] x) {
		final int p = x.length, q = p == 0 ? 0 : x[0].length;
		final double[][] t = new double[q][p];
		for (int i = 0; i < p; i++) {
			final double[] xi = x[i];
			for (int j = 0; j < q; j++)
				t[j][i] = xi[j];
		}
		return t;
	}

	/** The one refusal of a B that is not positive definite, whichever backend found it. */
	private static ArithmeticException notPositiveDefinite(final int m,
		final ArithmeticException e)
	{
		return new ArithmeticException("the generalized eigenproblem A v = λ B v needs a " +
			"positive definite B, but B (size " + m + ") is not numerically: " + e.getMessage());
	}
}
