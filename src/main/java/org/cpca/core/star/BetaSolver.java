package org.cpca.core.star;

import org.cpca.core.contrast.ContrastiveSpace;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.linalg.ContrastSolver;
import org.cpca.core.linalg.GeneralizedEigen;
import org.cpca.core.linalg.TopEigen;
import java.util.List;
import java.util.Locale;

/**
 * cPCA* for many β on one fit (the automatic β sweep), reusing the preparation that cPCA's
 * α path makes once per fit ({@link ContrastSolver}): the background covariance reduced to
 * tridiagonal form, {@code B = QTQᵀ}, and the target carried into that basis,
 * {@code Ã = QᵀAQ}.
 * <p>
 * Then {@code B_β = (1−β)I + βB = Q T_β Qᵀ} with the tridiagonal
 * {@code T_β = (1−β)I + β(T + δI)}, whose Cholesky factor {@code T_β = LLᵀ} is lower
 * bidiagonal (O(m)). {@code A v = λ B_β v} becomes the ordinary symmetric problem
 * {@code L⁻¹ÃL⁻ᵀ z = λz} with {@code v = Q L⁻ᵀ z}; forming {@code L⁻¹ÃL⁻ᵀ} is two
 * bidiagonal substitutions, O(m²). So every β after the one-time preparation costs O(m²)
 * plus a top-k solve, warm-started from the neighbouring β: the warm start is kept as
 * {@code y = L⁻ᵀz = Qᵀv} (independent of β) and mapped exactly into the next β's
 * coordinates, {@code z' = L'ᵀy}.
 * <p>
 * The same generalized problem as {@link GeneralizedEigen} (another factor of B_β), so the
 * eigenvalues and subspaces agree. Small problems (m ≤ 64, where no preparation is made)
 * use {@link GeneralizedEigen} per β. If T_β is not numerically positive definite (β so
 * close to 1 that the round-off of a singular C_b matters), the diagonal is raised by the
 * round-off level {@link #shift} and the caller records it.
 */
final class BetaSolver {

	private final int m;
	private final double[] a;
	private final double[] b;
	private final ContrastSolver prepared;

	private BetaSolver(final int m, final double[] a, final double[] b,
		final ContrastSolver prepared)
	{
		this.m = m;
		this.a = a;
		this.b = b;
		this.prepared = prepared;
	}

	/** The sweep solver of a fit (its target covariance and first background's). */
	static BetaSolver of(final Cpca fit) {
		final ContrastiveSpace space = fit.space();
		return new BetaSolver(space.dimension(), space.a, space.b, fit.solver());
	}

	/**
	 * The round-off level of B_β at β: added to the diagonal when its factorisation fails
	 * although B_β is mathematically positive definite.
	 */
	static double shift(final double[] b, final int m, final double beta) {
		double max = 0;
		for (int i = 0; i < m; i++)
			max = Math.max(max, Math.abs(b[i * m + i]));
		return 4 * m * Math.ulp(1.0) * Math.max(beta * max, 1 - beta);
	}

	/**
	 * @param delta the regularisation at β = 1 (0 otherwise), added to B
	 * @param warm the previous β's {@link TopEigen.Result#warmStart}, or {@code null}
	 * @param notes receives a note if the round-off shift was needed
	 * @return eigenvalues, B_β-orthonormal vectors v (m × k) and a warm start for the next
	 *         β
	 */
	TopEigen.Result solve(final double beta, final double delta, final int k,
		final double[][] warm, final long seed, final List<String> notes)
	{
		if (!prepared.prepared()) return dense(beta, delta, k, seed, notes);
		final double[] td = prepared.tridiagonalDiagonal(), te = prepared
			.tridiagonalOffDiagonal();
		double[][] lg = bidiagonal(td, te, beta, delta, 0);
		if (lg == null) {
			final double eta = shift(b, m, beta);
			lg = bidiagonal(td, te, beta, delta, eta);
			if (lg == null) throw new ArithmeticException("B_β is not positive definite");
			notes.add(shiftNote(beta, eta));
		}
		final double[] l = lg[0], g = lg[1];
		// X = L⁻¹Ã by rows: x_0 = ã_0/l_0, x_i = (ã_i − g_i x_{i−1})/l_i
		final double[][] at = prepared.targetInBasis();
		final double[][] x = new double[m][];
		for (int i = 0; i < m; i++) {
			final double[] xi = at[i].clone();
			if (i > 0) TopEigen.axpy(-g[i], x[i - 1], xi);
			final double inv = 1 / l[i];
			for (int j = 0; j < m; j++)
				xi[j] *= inv;
			x[i] = xi;
		}
		// M = X L⁻ᵀ: the same substitution along each row
		final double[] flat = new double[m * m];
		for (int i = 0; i < m; i++) {
			final double[] xi = x[i];
			double prev = xi[0] / l[0];
			xi[0] = prev;
			for (int j = 1; j < m; j++)
				xi[j] = prev = (xi[j] - g[j] * prev) / l[j];
		}
		for (int i = 0; i < m; i++)
			for (int j = i; j < m; j++) {
				final double v = 0.5 * (x[i][j] + x[j][i]);
				flat[i * m + j] = v;
				flat[j * m + i] = v;
			}
		double[][] start = null;
		if (warm != null) {
			start = new double[warm.length][];
			for (int r = 0; r < warm.length; r++)
				start[r] = timesLt(l, g, warm[r]);
		}
		final TopEigen.Result top = TopEigen.solve(flat, m, k, start, seed);
		final double[][] qt = prepared.basisRows();
		final double[] v = new double[m * k];
		for (int col = 0; col < k; col++) {
			final double[] z = new double[m];
			for (int i = 0; i < m; i++)
				z[i] = top.vectors[i * k + col];
			final double[] y = solveLt(l, g, z);
			final double[] vc = new double[m];
			for (int i = 0; i < m; i++)
				if (y[i] != 0) TopEigen.axpy(y[i], qt[i], vc);
			for (int i = 0; i < m; i++)
				v[i * k + col] = vc[i];
		}
		final double[][] next = new double[top.warmStart.length][];
		for (int r = 0; r < next.length; r++)
			next[r] = solveLt(l, g, top.warmStart[r]);
		return new TopEigen.Result(top.values, v, next, top.restarts, top.fullDecomposition);
	}

	/** Small problems: the dense Cholesky solve at β (no warm start needed). */
	private TopEigen.Result dense(final double beta, final double delta, final int k,
		final long seed, final List<String> notes)
	{
		try {
			return GeneralizedEigen.top(a, matrix(b, m, beta, delta, 0), k, seed);
		}
		catch (final ArithmeticException e) {
			final double eta = shift(b, m, beta);
			notes.add(shiftNote(beta, eta));
			return GeneralizedEigen.top(a, matrix(b, m, beta, delta, eta), k, seed);
		}
	}

	/** {@code B_β = (1−β)I + β(B + δI) + ηI} as rows. */
	static double[][] matrix(final double[] b, final int m, final double beta,
		final double delta, final double eta)
	{
		final double[][] out = new double[m][m];
		for (int i = 0; i < m; i++) {
			for (int j = 0; j < m; j++)
				out[i][j] = beta * b[i * m + j];
			out[i][i] += (1 - beta) + beta * delta + eta;
		}
		return out;
	}

	static String shiftNote(final double beta, final double eta) {
		return String.format(Locale.ROOT, "β = %s: B_β is numerically singular (β is within round-off " +
			"of 1 for the background's scale); its diagonal was raised by %.3g", beta, eta);
	}

	/**
	 * Cholesky factor of {@code T_β + ηI}: {l (diagonal), g (sub-diagonal, g[i] = L[i][i−1])},
	 * or {@code null} if a pivot is not positive.
	 */
	private double[][] bidiagonal(final double[] td, final double[] te, final double beta,
		final double delta, final double eta)
	{
		final double[] l = new double[m], g = new double[m];
		for (int i = 0; i < m; i++) {
			final double t = (1 - beta) + beta * (td[i] + delta) + eta;
			double p = t;
			if (i > 0) {
				g[i] = beta * te[i - 1] / l[i - 1];
				p -= g[i] * g[i];
			}
			if (!(p > 0)) return null;
			l[i] = Math.sqrt(p);
		}
		return new double[][] { l, g };
	}

	/** {@code Lᵀy} for the bidiagonal L. */
	private static double[] timesLt(final double[] l, final double[] g, final double[] y) {
		final int m = l.length;
		final double[] z = new double[m];
		for (int i = 0; i < m; i++)
			z[i] = l[i] * y[i] + (i + 1 < m ? g[i + 1] * y[i + 1] : 0);
		return z;
	}

	/** {@code L⁻ᵀz}: back substitution with the upper bidiagonal Lᵀ. */
	private static double[] solveLt(final double[] l, final double[] g, final double[] z) {
		final int m = l.length;
		final double[] y = new double[m];
		for (int i = m - 1; i >= 0; i--)
			y[i] = (z[i] - (i + 1 < m ? g[i + 1] * y[i + 1] : 0)) / l[i];
		return y;
	}
}
