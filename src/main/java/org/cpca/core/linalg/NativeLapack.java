package org.cpca.core.linalg;

import static org.bytedeco.openblas.global.openblas.CblasColMajor;
import static org.bytedeco.openblas.global.openblas.CblasNoTrans;
import static org.bytedeco.openblas.global.openblas.CblasNonUnit;
import static org.bytedeco.openblas.global.openblas.CblasRight;
import static org.bytedeco.openblas.global.openblas.CblasUpper;
import static org.bytedeco.openblas.global.openblas.LAPACK_COL_MAJOR;
import static org.bytedeco.openblas.global.openblas.LAPACKE_dorgtr;
import static org.bytedeco.openblas.global.openblas.LAPACKE_dpotrf;
import static org.bytedeco.openblas.global.openblas.LAPACKE_dpstrf_work;
import static org.bytedeco.openblas.global.openblas.LAPACKE_dpttrf;
import static org.bytedeco.openblas.global.openblas.LAPACKE_dpttrs;
import static org.bytedeco.openblas.global.openblas.LAPACKE_dsyevd;
import static org.bytedeco.openblas.global.openblas.LAPACKE_dsyevr;
import static org.bytedeco.openblas.global.openblas.LAPACKE_dsygvx;
import static org.bytedeco.openblas.global.openblas.LAPACKE_dsytrd;
import static org.bytedeco.openblas.global.openblas.cblas_dsyrk;
import static org.bytedeco.openblas.global.openblas.cblas_dtrsm;

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

	private static final byte VECTORS = 'V', NO_VECTORS = 'N', INDEX = 'I', UPPER = 'U',
		LOWER = 'L';

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
	 * {@link SymmetricEigen#tridiagonalize} by LAPACK: {@code B = QTQᵀ} for the symmetric
	 * m × m matrix given as rows (read, not changed) by {@code dsytrd} (blocked Householder
	 * reduction, upper triangle) and Q by {@code dorgtr}, in one native copy of B that Q
	 * then overwrites. The diagonal and off-diagonal of T into d and e ({@code e[i] =
	 * T[i][i+1]}, {@code e[m−1] = 0}); returns Qᵀ as rows (column i of Q, contiguous in
	 * column-major order, is row i), or null when LAPACK reports an error.
	 */
	static double[][] tridiagonalize(final double[][] rows, final double[] d,
		final double[] e)
	{
		final int m = rows.length;
		if (m < 2) return null;
		try (DoublePointer a = new DoublePointer((long) m * m); DoublePointer dd =
			new DoublePointer(m); DoublePointer ee = new DoublePointer(m - 1);
			DoublePointer tau = new DoublePointer(m - 1))
		{
			// symmetric: row i is column i
			for (int i = 0; i < m; i++)
				a.position((long) i * m).put(rows[i], 0, m);
			a.position(0);
			if (LAPACKE_dsytrd(LAPACK_COL_MAJOR, UPPER, m, a, m, dd, ee, tau) != 0 ||
				LAPACKE_dorgtr(LAPACK_COL_MAJOR, UPPER, m, a, m, tau) != 0) return null;
			dd.get(d, 0, m);
			ee.get(e, 0, m - 1);
			e[m - 1] = 0;
			final double[][] qt = new double[m][m];
			for (int i = 0; i < m; i++)
				a.position((long) i * m).get(qt[i], 0, m);
			a.position(0);
			return qt;
		}
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
	 * All eigenvalues of the symmetric m × m row-major s, descending, by {@code dsyevd}
	 * without vectors (tridiagonal reduction and the root-free QR of {@code dsterf}: no
	 * Q formed, no rotations accumulated); null when LAPACK reports an error.
	 */
	static double[] values(final double[] s, final int m) {
		try (DoublePointer a = symmetrised(s, m); DoublePointer w = new DoublePointer(m)) {
			if (LAPACKE_dsyevd(LAPACK_COL_MAJOR, NO_VECTORS, UPPER, m, a, m, w) != 0) return null;
			final double[] values = new double[m];
			for (int c = 0; c < m; c++)
				values[c] = w.get(m - 1 - c);
			return values;
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
	 * copied (docs/memory.md). Without priority rows only the lower triangle is read; with
	 * them G must be symmetric in full (the Schur step reads both triangles).
	 * <p>
	 * With {@code priority} rows (flat G only) the first rows are pivoted first, as the Java
	 * factorisation does: {@code dpstrf} on their block G₁₁ to the same tolerance (rank r₁),
	 * then the other rows, and the first ones left below the tolerance, against those
	 * pivots, {@code L₂₁ = G₂₁ P₁ U₁₁⁻¹} by {@code dtrsm}, and {@code dpstrf} on their Schur
	 * complement {@code G₂₂ − L₂₁L₂₁ᵀ} ({@code dsyrk}).
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
		final int priority, final double tolerance, final int[] pivots)
	{
		if (priority > 0 && flat == null) throw new IllegalArgumentException("priority rows " +
			"need G flat");
		if (n == 0) return new double[0][0];
		double max = 0;
		for (int i = 0; i < n; i++)
			max = Math.max(max, flat != null ? flat[i * n + i] : rows[i][i]);
		if (!Double.isFinite(max)) return null;
		if (priority > 0 && priority < n) return prioritized(flat, n, priority, tolerance *
			max, pivots);
		try (DoublePointer a = new DoublePointer((long) n * n)) {
			for (int i = 0; i < n; i++) {
				a.position((long) i * n);
				if (flat != null) a.put(flat, i * n, i + 1);
				else {
					a.put(rows[i], 0, i + 1);
					rows[i] = null;
				}
			}
			final int[] piv = new int[n];
			final int r = pstrf(a.position(0), n, tolerance * max, piv);
			final double[][] l = new double[n][r];
			for (int k = 0; k < n; k++) {
				a.position((long) k * n).get(l[piv[k]], 0, Math.min(k + 1, r));
				if (pivots != null && k < r) pivots[k] = piv[k];
			}
			return l;
		}
	}

	/**
	 * {@code dpstrf} (uplo U) on the m × m column-major a, stopping at the absolute
	 * tolerance tol: the pivots (0-based) into piv, returns the rank. {@code dpstrf} tests
	 * the tolerance from its second pivot on (it takes the first whenever it is positive),
	 * so a largest diagonal at or below tol is rank 0 here, as in the Java rule.
	 */
	private static int pstrf(final DoublePointer a, final int m, final double tol,
		final int[] piv)
	{
		double max = 0;
		for (int k = 0; k < m; k++)
			max = Math.max(max, a.get((long) k * (m + 1)));
		if (!(max > tol)) {
			for (int k = 0; k < m; k++)
				piv[k] = k;
			return 0;
		}
		try (IntPointer p = new IntPointer(m); IntPointer rank = new IntPointer(1);
			DoublePointer work = new DoublePointer(2L * m))
		{
			final int info = LAPACKE_dpstrf_work(LAPACK_COL_MAJOR, UPPER, m, a, m, p, rank, tol,
				work);
			if (info < 0) throw new IllegalStateException("dpstrf: argument " + -info +
				" is illegal");
			p.get(piv, 0, m);
			for (int k = 0; k < m; k++)
				piv[k]--;
			return rank.get();
		}
	}

	/**
	 * {@link #pivotedCholesky} with the first {@code priority} (0 < p < n) rows of the flat
	 * G pivoted first, to the absolute tolerance tol.
	 */
	private static double[][] prioritized(final double[] g, final int n, final int p,
		final double tol, final int[] pivots)
	{
		final int[] piv1 = new int[p];
		try (DoublePointer a = new DoublePointer((long) p * p)) {
			for (int i = 0; i < p; i++)
				a.position((long) i * p).put(g, i * n, i + 1);
			final int r1 = pstrf(a.position(0), p, tol, piv1);
			// the rows left: the first ones not pivoted, then all the others
			final int m = n - r1;
			final int[] left = new int[m];
			for (int k = r1; k < p; k++)
				left[k - r1] = piv1[k];
			for (int i = p; i < n; i++)
				left[i - r1] = i;
			try (DoublePointer b = new DoublePointer(Math.max(1L, (long) m * r1));
				DoublePointer s = new DoublePointer((long) m * m))
			{
				// S = G₂₂ (its upper triangle, column-major: column j holds rows 0 … j)
				final double[] column = new double[m];
				for (int j = 0; j < m; j++) {
					final int gj = left[j] * n;
					for (int i = 0; i <= j; i++)
						column[i] = g[gj + left[i]];
					s.position((long) j * m).put(column, 0, j + 1);
				}
				s.position(0);
				if (r1 > 0) {
					// B = G₂₁ P₁ (m × r₁, column-major), then L₂₁ = B U₁₁⁻¹ and S −= L₂₁L₂₁ᵀ
					for (int c = 0; c < r1; c++) {
						final int gc = piv1[c] * n;
						for (int i = 0; i < m; i++)
							column[i] = g[gc + left[i]];
						b.position((long) c * m).put(column, 0, m);
					}
					b.position(0);
					cblas_dtrsm(CblasColMajor, CblasRight, CblasUpper, CblasNoTrans,
						CblasNonUnit, m, r1, 1.0, a, p, b, m);
					cblas_dsyrk(CblasColMajor, CblasUpper, CblasNoTrans, m, r1, -1.0, b, m, 1.0,
						s, m);
				}
				final int[] piv2 = new int[m];
				final int r2 = pstrf(s, m, tol, piv2);
				final int r = r1 + r2;
				final double[][] l = new double[n][r];
				for (int k = 0; k < r1; k++) {
					a.position((long) k * p).get(l[piv1[k]], 0, k + 1);
					if (pivots != null) pivots[k] = piv1[k];
				}
				for (int q = 0; q < m; q++) {
					final double[] row = l[left[piv2[q]]];
					for (int c = 0; c < r1; c++)
						row[c] = b.get((long) c * m + piv2[q]);
					s.position((long) q * m).get(row, r1, Math.min(q + 1, r2));
					if (pivots != null && q < r2) pivots[r1 + q] = left[piv2[q]];
				}
				return l;
			}
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

	/**
	 * {@code z = T⁻¹ r} for each vector r of the block, T the symmetric positive definite
	 * tridiagonal matrix of diagonal d and off-diagonal e ({@code e[i] = T[i][i+1]}), by
	 * LAPACK's {@code dpttrf} ({@code T = LDLᵀ}) and one {@code dpttrs} for the whole
	 * block; null, nothing solved, when {@code dpttrf} finds T not positive definite.
	 */
	static double[][] positiveTridiagonalSolve(final double[] d, final double[] e,
		final double[][] r)
	{
		final int m = d.length, n = r.length;
		final double[][] z = new double[n][m];
		if (n == 0 || m == 0) return z;
		try (DoublePointer a = new DoublePointer(2L * m + (long) n * m)) {
			final DoublePointer dd = a.put(d, 0, m), ee = NativeMatrix.at(a, m).put(e, 0, m - 1);
			if (LAPACKE_dpttrf(m, dd, ee) != 0) return null;
			final DoublePointer b = NativeMatrix.at(a, 2L * m);
			for (int q = 0; q < n; q++)
				NativeMatrix.at(b, (long) q * m).put(r[q], 0, m);
			if (LAPACKE_dpttrs(LAPACK_COL_MAJOR, m, n, dd, ee, b, m) != 0) return null;
			for (int q = 0; q < n; q++)
				NativeMatrix.at(b, (long) q * m).get(z[q], 0, m);
			return z;
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
