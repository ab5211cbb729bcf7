package org.cpca.core.linalg;

import static org.bytedeco.openblas.global.openblas.LAPACK_COL_MAJOR;
import static org.bytedeco.openblas.global.openblas.LAPACKE_dpotrf;
import static org.bytedeco.openblas.global.openblas.LAPACKE_dpstrf_work;
import static org.bytedeco.openblas.global.openblas.LAPACKE_dsyevd;
import static org.bytedeco.openblas.global.openblas.LAPACKE_dsyevr;
import static org.bytedeco.openblas.global.openblas.LAPACKE_dsygvx;

import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.javacpp.IntPointer;

import java.util.Arrays;

/**
 * The native backend's symmetric eigenproblems, on LAPACK as OpenBLAS carries it
 * ({@link NativeBlas}): all pairs by divide and conquer ({@code dsyevd}), the top few by
 * the subset solver {@code dsyevr} (relatively robust representations: only the wanted
 * pairs are computed after the tridiagonal reduction), and the top few of a
 * symmetric-definite pencil {@code A v = λ B v} by {@code dsygvx}. LAPACK's solvers are
 * the reference for these problems: they do not fail on clustered spectra. Also the
 * rank-revealing (pivoted) Cholesky factorisation of a Gram matrix, by {@code dpstrf}, and
 * the plain one of a positive definite matrix, by {@code dpotrf}.
 * <p>
 * Matrices go to LAPACK column-major; a symmetric input reads the same either way, and
 * column j of the result is eigenvector j, contiguous. Inputs are symmetrised
 * ({@code (S + Sᵀ)/2}) as {@link SymmetricEigen} does. Every method returns null when
 * LAPACK reports a failure to converge, and the caller then takes the Java path.
 */
final class NativeLapack {

	private static final byte VECTORS = 'V', INDEX = 'I', UPPER = 'U', LOWER = 'L';

	private NativeLapack() {}

	/** {@code (S + Sᵀ)/2} of the m × m row-major s, off-heap (symmetric, so either major). */
	private static DoublePointer symmetrised(final double[] s, final int m) {
		final DoublePointer a = new DoublePointer((long) m * m);
		final double[] column = new double[m];
		for (int j = 0; j < m; j++) {
			for (int i = 0; i < m; i++)
				column[i] = 0.5 * (s[i * m + j] + s[j * m + i]);
			a.position((long) j * m).put(column, 0, m);
		}
		return a.position(0);
	}

	/**
	 * All eigenpairs of the symmetric m × m row-major s: the values, descending, into
	 * {@code values}; returns the eigenvectors as rows (row c belongs to value c), or null.
	 */
	static double[][] all(final double[] s, final int m, final double[] values) {
		try (DoublePointer a = symmetrised(s, m); DoublePointer w = new DoublePointer(m)) {
			if (LAPACKE_dsyevd(LAPACK_COL_MAJOR, VECTORS, UPPER, m, a, m, w) != 0) return null;
			final double[][] rows = new double[m][m];
			for (int c = 0; c < m; c++) {
				values[c] = w.get(m - 1 - c);
				a.position((long) (m - 1 - c) * m).get(rows[c], 0, m);
			}
			return rows;
		}
	}

	/**
	 * The top p eigenpairs of the symmetric m × m row-major s: the values, descending, into
	 * {@code values} (length ≥ p); returns the vectors as rows, or null.
	 */
	static double[][] top(final double[] s, final int m, final int p, final double[] values) {
		try (DoublePointer a = symmetrised(s, m); DoublePointer w = new DoublePointer(m);
			DoublePointer z = new DoublePointer((long) m * p);
			IntPointer found = new IntPointer(1); IntPointer support = new IntPointer(2L * p))
		{
			if (LAPACKE_dsyevr(LAPACK_COL_MAJOR, VECTORS, INDEX, UPPER, m, a, m, 0, 0, m - p +
				1, m, 0, found, w, z, m, support) != 0 || found.get() != p) return null;
			return descending(w, z, m, p, values);
		}
	}

	/**
	 * The top k pairs of {@code A v = λ B v} (A symmetric m × m row-major, B symmetric
	 * positive definite as rows): values descending into {@code values}, B-orthonormal
	 * vectors as rows; null when LAPACK does not converge.
	 *
	 * @throws ArithmeticException if B is not numerically positive definite
	 */
	static double[][] generalizedTop(final double[] a, final double[][] b, final int k,
		final double[] values)
	{
		final int m = b.length;
		final double[] flatB = new double[m * m];
		for (int i = 0; i < m; i++)
			System.arraycopy(b[i], 0, flatB, i * m, m);
		try (DoublePointer pa = symmetrised(a, m); DoublePointer pb = symmetrised(flatB, m);
			DoublePointer w = new DoublePointer(m); DoublePointer z = new DoublePointer((long) m *
				k); IntPointer found = new IntPointer(1); IntPointer fail = new IntPointer(m))
		{
			final int info = LAPACKE_dsygvx(LAPACK_COL_MAJOR, 1, VECTORS, INDEX, UPPER, m, pa, m,
				pb, m, 0, 0, m - k + 1, m, 0, found, w, z, m, fail);
			if (info > m) throw new ArithmeticException(
				"matrix is not positive definite (leading minor of order " + (info - m) + ")");
			if (info != 0 || found.get() != k) return null;
			return descending(w, z, m, k, values);
		}
	}

	/**
	 * Pivoted Cholesky {@code G = LLᵀ} of the symmetric n × n G by LAPACK's {@code dpstrf}:
	 * L as n rows of length r in the original order of G's rows, and the pivot row of each
	 * column into {@code pivots} (length ≥ n) when it is not null. Each step pivots on the
	 * largest remaining diagonal and stops when it is at most {@code tolerance} times the
	 * largest diagonal of G ({@code dpstrf}'s {@code tol} is compared with the remaining
	 * diagonal itself, not its root, so it is that product); r is the numerical rank. The
	 * rows of G are given either flat ({@code flat}, row-major, not changed) or as rows,
	 * which are consumed: each is copied into native memory and its entry in {@code rows}
	 * set to null, so that a caller keeping no other reference lets it go while the rest is
	 * copied (docs/memory.md). Only the lower triangle is read.
	 * <p>
	 * The native matrix is G read column-major with {@code uplo = U}: its upper triangle
	 * (column-major) is the lower one of the rows. The factor {@code PᵀGP = UᵀU} then has
	 * column k of U, which is row k of L in pivoted order, contiguous (entries
	 * 0 … min(k, r − 1)), and it is copied as the row of the sample pivoted k-th. One
	 * thread per call (as every native call here): the same bits run to run.
	 *
	 * @return L, or null (nothing consumed) when G's diagonal is not finite: the caller's
	 *         Java factorisation then answers, as on the other backends
	 */
	static double[][] pivotedCholesky(final double[] flat, final double[][] rows, final int n,
		final double tolerance, final int[] pivots)
	{
		if (n == 0) return new double[0][0];
		double max = 0;
		for (int i = 0; i < n; i++)
			max = Math.max(max, flat != null ? flat[i * n + i] : rows[i][i]);
		if (!Double.isFinite(max)) return null;
		try (DoublePointer a = new DoublePointer((long) n * n); IntPointer piv = new IntPointer(
			n); IntPointer rank = new IntPointer(1); DoublePointer work = new DoublePointer(2L *
				n))
		{
			for (int i = 0; i < n; i++) {
				a.position((long) i * n);
				if (flat != null) a.put(flat, i * n, i + 1);
				else {
					a.put(rows[i], 0, i + 1);
					rows[i] = null;
				}
			}
			a.position(0);
			final int info = LAPACKE_dpstrf_work(LAPACK_COL_MAJOR, UPPER, n, a, n, piv, rank,
				tolerance * max, work);
			if (info < 0) throw new IllegalStateException("dpstrf: argument " + -info +
				" is illegal");
			final int r = rank.get();
			final double[][] l = new double[n][r];
			for (int k = 0; k < n; k++) {
				final int row = piv.get(k) - 1;
				a.position((long) k * n).get(l[row], 0, Math.min(k + 1, r));
				if (pivots != null && k < r) pivots[k] = row;
			}
			return l;
		}
	}

	/**
	 * Cholesky {@code S = RᵀR} of the symmetric positive definite m × m S given as rows
	 * (their upper triangles are read) by LAPACK's {@code dpotrf}, as {@link
	 * Products#cholesky} promises: the rows overwritten with R, zeros below the diagonal.
	 * The rows' upper triangles, copied as they lie, are the lower triangle of the
	 * column-major native matrix, factored as {@code LLᵀ} with {@code L = Rᵀ}, whose
	 * columns are R's rows.
	 *
	 * @return false, the rows untouched, when S or R holds a value that is not finite
	 *         (the Java factorisation then answers, with its own refusal)
	 * @throws ArithmeticException if S is not numerically positive definite
	 */
	static boolean cholesky(final double[][] s) {
		final int m = s.length;
		try (DoublePointer a = new DoublePointer((long) m * m)) {
			for (int i = 0; i < m; i++)
				a.position((long) i * m + i).put(s[i], i, m - i);
			a.position(0);
			final int info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, LOWER, m, a, m);
			if (info < 0) return false; // LAPACKE found a NaN in S
			if (info > 0) throw new ArithmeticException("matrix is not positive definite " +
				"(pivot " + a.get((long) (info - 1) * (m + 1)) + " at " + (info - 1) + ")");
			for (int i = 0; i < m; i++)
				if (!Double.isFinite(a.get((long) i * (m + 1)))) return false;
			for (int i = 0; i < m; i++) {
				a.position((long) i * m + i).get(s[i], i, m - i);
				Arrays.fill(s[i], 0, i, 0.0);
			}
			return true;
		}
	}

	/** The p ascending pairs (w, columns of z) as descending values and rows. */
	private static double[][] descending(final DoublePointer w, final DoublePointer z,
		final int m, final int p, final double[] values)
	{
		final double[][] rows = new double[p][m];
		for (int c = 0; c < p; c++) {
			values[c] = w.get(p - 1 - c);
			z.position((long) (p - 1 - c) * m).get(rows[c], 0, m);
		}
		return rows;
	}
}
