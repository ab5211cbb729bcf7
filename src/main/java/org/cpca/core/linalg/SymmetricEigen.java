package org.cpca.core.linalg;

import java.util.stream.IntStream;
import java.util.Arrays;
import java.util.function.IntConsumer;
import org.cpca.core.Progress;

/**
 * Eigenpairs of a real symmetric matrix, sorted by <em>signed</em> eigenvalue, descending.
 * <p>
 * The input is symmetrised ({@code (S + Sᵀ)/2}) before it is decomposed, so a symmetric
 * solver is always used and the output is always real. {@link TopEigen} finds only the top
 * few eigenpairs; this class does the full decomposition, in two textbook stages written
 * for speed over {@code double[]} rows (which the JIT vectorises):
 * <ol>
 * <li><b>Householder tridiagonalisation</b> {@code A = Q T Qᵀ}. Step k reflects the part
 * below the diagonal of column k onto a multiple of the first unit vector with
 * {@code H = I − βvvᵀ}; the trailing block is updated by the symmetric rank-2 formula
 * {@code A ← A − vwᵀ − wvᵀ}, {@code p = βAv}, {@code w = p − (βpᵀv/2)v}. The full square
 * is kept (not a triangle) so that every pass is a row-wise axpy; the matrix–vector
 * product for step k+1 is fused into the update pass of step k ({@code p = Σ_i v_i a_i},
 * an axpy over the freshly updated rows), so the trailing block is read once per step.
 * Row ranges are split over the cores with per-range partial sums added in a fixed
 * order: the result does not depend on thread timing. Q is accumulated the same way,
 * each reflector's pass also forming the row vector the next one needs. Inner loops use
 * fused multiply–adds ({@link Math#fma}, exactly specified, so deterministic).</li>
 * <li><b>Implicit QL with Wilkinson's shift</b> on T (Golub &amp; Van Loan §8.3), each
 * Givens rotation applied to two rows of Qᵀ (the eigenvectors are kept as rows, so a
 * rotation is a vectorised two-row update); rotations of one sweep are recorded first
 * and applied afterwards by column strips, in parallel. It does not give up at a stall
 * of rounding noise: exceptional shifts and a relaxed deflation cut after 30 sweeps at
 * one eigenvalue, a budget of 30·m sweeps in all ({@link #deflationCut};
 * docs/math/solvers.md).</li>
 * </ol>
 * Matrices of tiny or huge entries are scaled by a power of two first (exact); NaN or
 * infinite entries are refused.
 * The result is backward stable: {@code ‖AV − VΛ‖ ≈ ε‖A‖} and {@code ‖VᵀV − I‖ ≈ ε√m}.
 * Deterministic: the same input gives bit-identical output.
 * <p>
 * Length (about 470 lines of code): the Java backends' symmetric solver (the native one
 * calls LAPACK's {@code dsyevd}, docs/speed.md) and the tridiagonal reduction the prepared
 * solver uses on every backend: the blocked Householder reduction, the accumulation of Q and
 * the implicit QL with its deflation safeguards, stages of one algorithm that share their
 * work arrays.
 */
public final class SymmetricEigen {

	private static final double EPS = Math.ulp(1.0);
	/** Rows per parallel task in the tridiagonalisation (below it, one thread). */
	private static final int PARALLEL_ROWS = 192;

	private final int m;
	private final double[] values;
	private final double[][] rows; // eigenvector c is rows[c]

	private SymmetricEigen(final int m, final double[] values, final double[][] rows) {
		this.m = m;
		this.values = values;
		this.rows = rows;
	}

	/**
	 * Decomposes the symmetric m × m row-major matrix {@code s} (not modified).
	 */
	public static SymmetricEigen of(final double[] s, final int m) {
		if (Backend.isNative()) { // LAPACK's dsyevd (NativeLapack); the Java path if it fails
			final double[] values = new double[m];
			final double[][] rows = NativeLapack.all(s, m, values);
			if (rows != null) return new SymmetricEigen(m, values, rows);
		}
		final double[][] a = new double[m][m];
		for (int i = 0; i < m; i++)
			for (int j = 0; j < m; j++)
				a[i][j] = 0.5 * (s[i * m + j] + s[j * m + i]);
		return ofRows(a);
	}

	/**
	 * All eigenvalues of the symmetric m × m row-major matrix {@code s} (not modified),
	 * descending, without the eigenvectors: about a fifth of {@link #of}'s work (no Q,
	 * no rotations accumulated). LAPACK's {@code dsyevd} on the native backend; else the
	 * same reduction and QL as {@link #of}, whose eigenvalues these are to the bit.
	 */
	public static double[] values(final double[] s, final int m) {
		if (Backend.isNative()) {
			final double[] values = NativeLapack.values(s, m);
			if (values != null) return values;
		}
		final double[][] a = new double[m][m];
		for (int i = 0; i < m; i++)
			for (int j = 0; j < m; j++)
				a[i][j] = 0.5 * (s[i * m + j] + s[j * m + i]);
		final int shift = safeScale(a);
		final double[] d = new double[m], e = new double[m];
		reduce(a, d, e, new double[m][], new double[m]);
		ql(d, e, new double[m][0]);
		final double[] values = new double[m];
		for (int i = 0; i < m; i++)
			values[i] = shift != 0 ? Math.scalb(d[i], -shift) : d[i];
		Arrays.sort(values);
		for (int i = 0, j = m - 1; i < j; i++, j--) {
			final double t = values[i];
			values[i] = values[j];
			values[j] = t;
		}
		return values;
	}

	/**
	 * Decomposes a symmetric matrix given as rows, which are used as workspace (destroyed).
	 * The caller guarantees symmetry.
	 */
	static SymmetricEigen ofRows(final double[][] a) {
		final int m = a.length;
		final int shift = safeScale(a);
		final double[] d = new double[m], e = new double[m];
		final double[][] qt = tridiagonalize(a, d, e);
		ql(d, e, qt);
		if (shift != 0) for (int i = 0; i < m; i++)
			d[i] = Math.scalb(d[i], -shift);
		final Integer[] order = new Integer[m];
		for (int i = 0; i < m; i++)
			order[i] = i;
		// descending by signed value; ties keep index order (stable sort): deterministic
		Arrays.sort(order, (p, q) -> Double.compare(d[q], d[p]));
		final double[] values = new double[m];
		final double[][] rows = new double[m][];
		for (int c = 0; c < m; c++) {
			values[c] = d[order[c]];
			rows[c] = qt[order[c]];
		}
		return new SymmetricEigen(m, values, rows);
	}

	/** Largest |entry| kept without scaling: squares and products stay far from overflow. */
	private static final double SAFE_MAX = 0x1p450;
	/** Smallest largest |entry| kept without scaling: squares stay far from underflow. */
	private static final double SAFE_MIN = 0x1p-450;

	/**
	 * Scales a by a power of two (exact) when its largest entry lies outside
	 * [2⁻⁴⁵⁰, 2⁴⁵⁰], to about 1, so that the squares of the
	 * reduction and the shifts of the QL sweeps neither overflow nor underflow (huge and
	 * tiny units); returns the exponent applied (0: unchanged, the common case). A NaN or
	 * infinite entry is refused.
	 */
	static int safeScale(final double[][] a) {
		double max = 0;
		for (final double[] row : a)
			for (final double v : row)
				max = Math.max(max, Math.abs(v));
		if (!Double.isFinite(max)) throw new ArithmeticException("the symmetric eigen-" +
			"decomposition got a non-finite entry (NaN or ∞) in a matrix of size " + a.length +
			": check the input for missing or extreme values");
		if (max == 0 || max >= SAFE_MIN && max <= SAFE_MAX) return 0;
		final int shift = -Math.getExponent(max);
		for (final double[] row : a)
			for (int j = 0; j < row.length; j++)
				row[j] = Math.scalb(row[j], shift);
		return shift;
	}

	/**
	 * Householder reduction. On return d and e hold the diagonal and off-diagonal of T
	 * ({@code e[i] = T[i][i+1]}, {@code e[m−1] = 0}) and the result is Qᵀ (rows); a is
	 * destroyed: row k keeps the Householder vector of step k until Qᵀ is formed, so the
	 * reduction needs no second m × m array (docs/memory.md).
	 */
	static double[][] tridiagonalize(final double[][] a, final double[] d,
		final double[] e)
	{
		final int m = a.length;
		final double[][] vs = new double[m][];
		final double[] betas = new double[m];
		reduce(a, d, e, vs, betas);
		return accumulate(vs, betas, m);
	}

	/**
	 * The reduction of {@link #tridiagonalize} without forming Qᵀ: d and e as there, the
	 * Householder vectors and their β into vs and betas (length m).
	 */
	private static void reduce(final double[][] a, final double[] d, final double[] e,
		final double[][] vs, final double[] betas)
	{
		final int m = a.length;
		// a column whose entries below the subdiagonal are this small is taken as reduced
		// (H = I): dropping them changes A by less than ε‖A‖/1000, as ql's deflation does;
		// reflecting them instead squares values that may underflow (a rank-deficient
		// matrix such as J/n leaves columns of 1e-150 after a few steps) and gives NaN
		double norm = 0;
		for (final double[] row : a) {
			double sum = 0;
			for (final double v : row)
				sum += Math.abs(v);
			norm = Math.max(norm, sum);
		}
		final double negligible = 1e-3 * EPS * norm;
		// p for the current step (βA₂₂v), computed in the previous step's update pass
		double[] p = null;
		for (int k = 0; k < m - 2; k++) {
			Progress.checkInterrupted(); // a cancelled worker stops here
			p = reduceColumn(a, k, d, e, vs, betas, p, negligible);
		}
		if (m >= 2) {
			d[m - 2] = a[m - 2][m - 2];
			e[m - 2] = a[m - 2][m - 1];
		}
		if (m >= 1) {
			d[m - 1] = a[m - 1][m - 1];
			e[m - 1] = 0;
		}
	}

	/**
	 * Step k of {@link #tridiagonalize}: the reflector of column k (kept in vs, betas) and
	 * the update of the trailing block. {@code p} is this step's βA₂₂v if the previous
	 * step computed it (else null); returns the next step's, or null. A method of its own
	 * so that the JIT compiles the step once instead of the whole loop at each hot inner
	 * loop (docs/speed.md).
	 */
	private static double[] reduceColumn(final double[][] a, final int k, final double[] d,
		final double[] e, final double[][] vs, final double[] betas, double[] p,
		final double negligible)
	{
		final int m = a.length;
		d[k] = a[k][k];
		final double[] ak = a[k];
		final int n0 = k + 1;
		double scale = 0;
		for (int j = n0; j < m; j++)
			scale = Math.max(scale, Math.abs(ak[j]));
		double norm2 = 0;
		if (scale > 0) for (int j = n0; j < m; j++) {
			final double x = ak[j] / scale;
			norm2 += x * x;
		}
		final double norm = scale * Math.sqrt(norm2);
		final double x0 = ak[n0];
		final double tail = norm == 0 ? 0 : norm2 - (x0 / scale) * (x0 / scale);
		if (norm == 0 || tail <= 0 || scale * Math.sqrt(tail) <= negligible) {
			// already tridiagonal in this column (or but for negligible entries): H = I
			e[k] = x0;
			return null;
		}
		final double alpha = x0 > 0 ? -norm : norm;
		e[k] = alpha;
		// the reflector is kept in row k, which the reduction no longer reads: zeros up to
		// column k, then the row's entries but the first (no second m × m array of them)
		final double[] v = ak;
		Arrays.fill(v, 0, n0, 0);
		v[n0] = x0 - alpha;
		// vᵀv = ‖x‖² − x0² + (x0 − α)² = 2‖x‖² − 2αx0·(−1)… computed directly
		double vv = 0;
		for (int j = n0; j < m; j++)
			vv += v[j] * v[j];
		final double beta = 2 / vv;
		vs[k] = v;
		betas[k] = beta;
		if (p == null) p = matVec(a, v, n0, m);
		for (int j = n0; j < m; j++)
			p[j] *= beta;
		double pv = 0;
		for (int j = n0; j < m; j++)
			pv += p[j] * v[j];
		final double kk = 0.5 * beta * pv;
		final double[] w = new double[m];
		for (int j = n0; j < m; j++)
			w[j] = p[j] - kk * v[j];
		return updateAndNext(a, v, w, n0, m, k < m - 3);
	}

	/** {@code A₂₂v} over rows and columns n0…m−1, as Σ_i v_i a_i (axpys). */
	private static double[] matVec(final double[][] a, final double[] v, final int n0,
		final int m)
	{
		final double[] out = new double[m];
		for (int i = n0; i < m; i++) {
			final double vi = v[i];
			if (vi == 0) continue;
			final double[] ai = a[i];
			for (int j = n0; j < m; j++)
				out[j] += vi * ai[j];
		}
		return out;
	}

	/**
	 * The rank-2 update {@code A₂₂ −= vwᵀ + wvᵀ} over rows/columns n0…m−1, fused with the
	 * unscaled product {@code A'v'} of the next step, where v' is the next Householder
	 * vector. v' comes from row n0 of the updated matrix, so row n0 is updated first.
	 */
	private static double[] updateAndNext(final double[][] a, final double[] v,
		final double[] w, final int n0, final int m, final boolean next)
	{
		updateRow(a[n0], v, w, n0, n0, m);
		if (!next) {
			for (int i = n0 + 1; i < m; i++)
				updateRow(a[i], v, w, i, n0, m);
			return null;
		}
		// the next step's vector, up to its first entry (which only scales a known row):
		// v' = a[n0][n1…] with v'[n1] shifted by −α'; rows i > n1 contribute v'_i a_i and
		// row n1 contributes (a[n0][n1] − α') a_n1. We accumulate y = Σ_{i≥n1} a[n0][i] a_i
		// and fix the first entry in the caller by recomputing it exactly afterwards.
		final int n1 = n0 + 1;
		final double[] x = a[n0];
		final int span = m - n1;
		final int tasks = span >= 2 * PARALLEL_ROWS ? 2 : 1;
		final double[][] partial = new double[tasks][];
		IntStream.range(0, tasks).parallel().forEach(t -> {
			final int i0 = n1 + t * span / tasks, i1 = n1 + (t + 1) * span / tasks;
			final double[] acc = new double[m];
			for (int i = i0; i < i1; i++) {
				final double[] ai = a[i];
				updateRow(ai, v, w, i, n0, m);
				final double xi = x[i];
				if (xi == 0) continue;
				for (int j = n1; j < m; j++)
					acc[j] = Math.fma(xi, ai[j], acc[j]);
			}
			partial[t] = acc;
		});
		final double[] y = partial[0];
		for (int t = 1; t < tasks; t++) {
			final double[] q = partial[t];
			for (int j = n1; j < m; j++)
				y[j] += q[j];
		}
		// next step's v' equals x on n1…m−1 except v'[n1] = x[n1] − α'; A'v' = y − α'a_n1.
		// The caller does not know α' yet, so we return y + correction computed here.
		double scale = 0;
		for (int j = n1; j < m; j++)
			scale = Math.max(scale, Math.abs(x[j]));
		if (scale == 0) return null;
		double norm2 = 0;
		for (int j = n1; j < m; j++) {
			final double s = x[j] / scale;
			norm2 += s * s;
		}
		final double x0 = x[n1];
		final double tail = norm2 - (x0 / scale) * (x0 / scale);
		if (tail <= 0) return null;
		final double norm = scale * Math.sqrt(norm2);
		final double alpha = x0 > 0 ? -norm : norm;
		final double[] an1 = a[n1];
		for (int j = n1; j < m; j++)
			y[j] -= alpha * an1[j];
		return y;
	}

	private static void updateRow(final double[] ai, final double[] v, final double[] w,
		final int i, final int n0, final int m)
	{
		final double vi = v[i], wi = w[i];
		final double nv = -vi, nw = -wi;
		for (int j = n0; j < m; j++)
			ai[j] = Math.fma(nw, v[j], Math.fma(nv, w[j], ai[j]));
	}

	/**
	 * Qᵀ = H_{m−3}⋯H₀ … formed as Q = H₀H₁⋯H_{m−3} by applying the reflectors from the last
	 * to the first (each touches only the trailing block, which is still the identity
	 * outside it), then transposed.
	 * <p>
	 * Applying H_k is {@code X −= βv tᵀ} with {@code t = Xᵀv}. The row vector t of the next
	 * reflector (k − 1) is accumulated in the same pass over the rows as the update of
	 * step k ({@code t' += v'_i x_i} right after row i is updated), so the trailing block is
	 * read and written once per reflector instead of read twice. Row k itself is still the
	 * unit row e_k at that point and contributes {@code v'_k} to {@code t'_k}. Rows are split
	 * in a fixed number of strips (by size only), partial sums added in strip order:
	 * deterministic.
	 */
	private static double[][] accumulate(final double[][] vs, final double[] betas,
		final int m)
	{
		if (m >= BLOCKED_ACCUMULATE) return accumulateBlocked(vs, betas, m);
		final double[][] x = new double[m][m];
		for (int i = 0; i < m; i++)
			x[i][i] = 1;
		double[] t = null; // Xᵀv of the current step, if the previous pass computed it
		for (int k = m - 3; k >= 0; k--) {
			Progress.checkInterrupted();
			final double[] v = vs[k];
			if (v == null) {
				t = null;
				continue;
			}
			final int n0 = k + 1;
			final double beta = betas[k];
			if (t == null) {
				t = new double[m];
				for (int i = n0; i < m; i++) {
					final double vi = v[i];
					if (vi == 0) continue;
					final double[] xi = x[i];
					for (int j = n0; j < m; j++)
						t[j] += vi * xi[j];
				}
			}
			final double[] next = k > 0 ? vs[k - 1] : null;
			final double[] tk = t;
			final int span = m - n0;
			final int tasks = span >= PARALLEL_ROWS ? 2 : 1;
			final double[][] partial = new double[tasks][];
			final IntConsumer strip = q -> {
				final int i0 = n0 + q * span / tasks, i1 = n0 + (q + 1) * span / tasks;
				final double[] acc = next == null ? null : new double[m];
				for (int i = i0; i < i1; i++) {
					final double[] xi = x[i];
					final double f = beta * v[i];
					final double nf = -f;
					if (f != 0) for (int j = n0; j < m; j++)
						xi[j] = Math.fma(nf, tk[j], xi[j]);
					if (acc != null) {
						final double ni = next[i];
						if (ni != 0) for (int j = n0; j < m; j++)
							acc[j] = Math.fma(ni, xi[j], acc[j]);
					}
				}
				partial[q] = acc;
			};
			if (tasks == 1) strip.accept(0);
			else IntStream.range(0, tasks).parallel().forEach(strip);
			if (next == null) {
				t = null;
				continue;
			}
			final double[] nt = partial[0];
			for (int q = 1; q < tasks; q++) {
				final double[] pq = partial[q];
				for (int j = n0; j < m; j++)
					nt[j] += pq[j];
			}
			nt[k] += next[k]; // row k is still e_k
			t = nt;
		}
		// transpose in place: rows of the result are the columns of Q
		for (int i = 0; i < m; i++)
			for (int j = i + 1; j < m; j++) {
				final double s = x[i][j];
				x[i][j] = x[j][i];
				x[j][i] = s;
			}
		return x;
	}

	/** From this size on, Q is formed by blocks of reflectors ({@link #accumulateBlocked}). */
	static final int BLOCKED_ACCUMULATE = 256;
	/** Reflectors per block of {@link #accumulateBlocked}. */
	private static final int REFLECTOR_BLOCK = 48;

	/**
	 * {@link #accumulate} by blocks of {@value #REFLECTOR_BLOCK} reflectors, the compact WY
	 * form of LAPACK's {@code dlarft}/{@code dlarfb} (Schreiber &amp; Van Loan, "A
	 * storage-efficient WY representation for products of Householder transformations",
	 * SIAM J. Sci. Stat. Comput., 1989): {@code H_{k0}⋯H_{k1−1} = I − V T Vᵀ} with V the
	 * block's reflectors as columns and T upper triangular, {@code T_jj = β_j},
	 * {@code T[0:j, j] = −β_j T[0:j, 0:j] Vᵀ[0:j] v_j}. Blocks are applied from the last to
	 * the first, each as three matrix products on the trailing block X (rows and columns
	 * from k0 + 1 on, the rest still the identity): {@code W = VᵀX}, {@code W ← TW},
	 * {@code X −= VW} ({@link Products#multiplyAdd}). Two thirds of m³ multiply–adds, as
	 * before, but at the speed of the matrix product instead of one memory pass per
	 * reflector. Deterministic (fixed tiling and summation order).
	 */
	static double[][] accumulateBlocked(final double[][] vs, final double[] betas,
		final int m)
	{
		final double[][] x = new double[m][m];
		for (int i = 0; i < m; i++)
			x[i][i] = 1;
		final int last = m - 3; // reflectors 0 … m−3
		final double[] zero = new double[m];
		for (int k1 = last + 1; k1 > 0; k1 -= REFLECTOR_BLOCK) {
			Progress.checkInterrupted();
			final int k0 = Math.max(0, k1 - REFLECTOR_BLOCK), nb = k1 - k0, n0 = k0 + 1;
			final double[][] v = new double[nb][];
			final double[] beta = new double[nb];
			boolean any = false;
			for (int j = 0; j < nb; j++) {
				v[j] = vs[k0 + j] == null ? zero : vs[k0 + j];
				beta[j] = vs[k0 + j] == null ? 0 : betas[k0 + j];
				any |= beta[j] != 0;
			}
			if (!any) continue;
			// T (nb × nb, upper triangular) as rows
			final double[][] t = new double[nb][nb];
			for (int j = 0; j < nb; j++) {
				t[j][j] = beta[j];
				if (beta[j] == 0) continue;
				final double[] z = new double[j];
				for (int l = 0; l < j; l++) {
					double dot = 0;
					final double[] vl = v[l], vj = v[j];
					for (int i = n0; i < m; i++)
						dot = Math.fma(vl[i], vj[i], dot);
					z[l] = -beta[j] * dot;
				}
				for (int l = 0; l < j; l++) {
					double sum = 0;
					for (int q = l; q < j; q++)
						sum = Math.fma(t[l][q], z[q], sum);
					t[l][j] = sum;
				}
			}
			final double[][] w = new double[nb][m];
			Products.multiplyAdd(v, x, w, 0, nb, n0, m, n0, m);
			final double[][] tw = new double[nb][m];
			Products.multiplyAdd(t, w, tw, 0, nb, 0, nb, n0, m);
			final double[][] nv = new double[m][nb];
			for (int j = 0; j < nb; j++)
				for (int i = n0; i < m; i++)
					nv[i][j] = -v[j][i];
			Products.multiplyAdd(nv, tw, x, n0, m, 0, nb, n0, m);
		}
		for (int i = 0; i < m; i++)
			for (int j = i + 1; j < m; j++) {
				final double s = x[i][j];
				x[i][j] = x[j][i];
				x[j][i] = s;
			}
		return x;
	}

	/**
	 * Implicit QL with Wilkinson's shift on the tridiagonal (d, e); the rotations are
	 * applied to the rows of z (z ← Gᵀz). On return d holds the eigenvalues and row i of z
	 * the eigenvector of d[i].
	 */
	static void ql(final double[] d, final double[] e, final double[][] z) {
		final int m = d.length;
		final double[] cs = new double[m], sn = new double[m];
		// off-diagonals below ε·‖T‖/1000 are negligible in the backward-error sense even
		// where the neighbouring diagonal is ~0 (rank-deficient covariances)
		double tnorm = 0;
		for (int i = 0; i < m; i++)
			tnorm = Math.max(tnorm, Math.abs(d[i]) + Math.abs(e[i]) + (i > 0 ? Math.abs(e[i -
				1]) : 0));
		final double floor = 1e-3 * EPS * tnorm;
		final long budget = 30L * Math.max(m, 1);
		long sweeps = 0;
		for (int l = 0; l < m; l++) {
			Progress.checkInterrupted();
			int iterations = 0;
			while (true) {
				final double cut = deflationCut(floor, tnorm, iterations);
				int end = l;
				while (end < m - 1) {
					final double dd = Math.abs(d[end]) + Math.abs(d[end + 1]);
					if (Math.abs(e[end]) <= EPS * dd || Math.abs(e[end]) <= cut) break;
					end++;
				}
				if (end == l) break;
				if (++sweeps > budget) throw new ArithmeticException(
					"the symmetric eigen-decomposition did not converge within its budget of " +
						budget + " QL sweeps (30 per row; matrix of size " + m + ", " + l +
						" eigenvalues found); check the input for extreme values");
				iterations++;
				double g;
				if (iterations >= STALL && iterations % EXCEPTIONAL == 0) {
					// exceptional shift: a rounding-level stall of Wilkinson's shift is broken
					// by shifting off the leading entry by the coupling (Rayleigh quotient
					// plus |e|), which moves the iteration to a different fixed point
					g = d[end] - d[l] - Math.abs(e[l]) * (iterations / EXCEPTIONAL % 2 == 0 ? 1
						: -1.5);
				}
				else {
					// Wilkinson shift from the leading 2 × 2 block
					g = (d[l + 1] - d[l]) / (2 * e[l]);
					final double h = Math.hypot(g, 1);
					g = d[end] - d[l] + e[l] / (g + (g >= 0 ? h : -h));
				}
				double r;
				double s = 1, c = 1, p = 0;
				int i = end - 1;
				boolean underflow = false;
				for (; i >= l; i--) {
					final double f = s * e[i], b = c * e[i];
					r = Math.hypot(f, g);
					e[i + 1] = r;
					if (r == 0) {
						d[i + 1] -= p;
						e[end] = 0;
						underflow = true;
						break;
					}
					s = f / r;
					c = g / r;
					g = d[i + 1] - p;
					r = (d[i] - g) * s + 2 * c * b;
					p = s * r;
					d[i + 1] = g + p;
					g = c * r - b;
					cs[i] = c;
					sn[i] = s;
				}
				final int first = underflow ? i + 1 : l;
				rotate(z, cs, sn, first, end);
				if (underflow) continue;
				d[l] -= p;
				e[l] = g;
				e[end] = 0;
			}
		}
	}

	/**
	 * Sweeps at one eigenvalue after which the iteration counts as stalled: from then on
	 * every {@value #EXCEPTIONAL}th sweep takes an exceptional shift and the deflation cut
	 * is relaxed ({@link #deflationCut}). A matrix whose eigenvalues all deflate sooner
	 * (every ordinary one) gets exactly the result it got before these safeguards.
	 */
	static final int STALL = 30;
	/** Every this many sweeps of a stall, an exceptional shift. */
	static final int EXCEPTIONAL = 10;

	/**
	 * The absolute deflation cut after {@code iterations} sweeps at one eigenvalue:
	 * {@code 10⁻³ε‖T‖} at first, then, after {@value #STALL} sweeps, {@code ε‖T‖} doubling
	 * every further {@value #STALL} (rounding noise of about ε‖T‖ in the sweep keeps
	 * an off-diagonal entry from falling below 10⁻³ε‖T‖ when tiny diagonal entries sit
	 * beside large ones; dropping {@code |e| ≤ 2^j ε‖T‖} is still a backward error of that size).
	 */
	static double deflationCut(final double floor, final double tnorm, final int iterations) {
		if (iterations < STALL) return floor;
		return EPS * tnorm * Math.scalb(1.0, Math.min(iterations / STALL - 1, 10));
	}

	/**
	 * Applies the recorded rotations i = end−1 down to first to the rows of z: rows i and
	 * i+1 become (c·z_i − s·z_{i+1}, s·z_i + c·z_{i+1}). Columns are independent, so the
	 * work is split into column strips (one per core for large matrices).
	 */
	private static void rotate(final double[][] z, final double[] cs, final double[] sn,
		final int first, final int end)
	{
		final int n = z.length == 0 ? 0 : z[0].length;
		final int strips = (long) (end - first) * n >= 1 << 16 ? 2 : 1;
		if (strips == 1) rotateStrip(z, cs, sn, first, end, 0, n);
		else IntStream.range(0, strips).parallel().forEach(t -> rotateStrip(z, cs, sn,
			first, end, t * n / strips, (t + 1) * n / strips));
	}

	private static void rotateStrip(final double[][] z, final double[] cs,
		final double[] sn, final int first, final int end, final int j0, final int j1)
	{
		for (int i = end - 1; i >= first; i--) {
			final double c = cs[i], s = sn[i];
			final double[] zi = z[i], zn = z[i + 1];
			for (int j = j0; j < j1; j++) {
				final double f = zn[j];
				final double x = zi[j];
				zn[j] = s * x + c * f;
				zi[j] = c * x - s * f;
			}
		}
	}

	/** Eigenvalues, descending (a copy). */
	public double[] values() {
		return values.clone();
	}

	public double value(final int c) {
		return values[c];
	}

	/** Eigenvectors as the columns of an m × m row-major matrix (a copy). */
	public double[] vectors() {
		return vectors(m);
	}

	/** The first {@code k} eigenvectors as columns of an m × k row-major matrix. */
	public double[] vectors(final int k) {
		final double[] out = new double[m * k];
		for (int c = 0; c < k; c++) {
			final double[] v = rows[c];
			for (int i = 0; i < m; i++)
				out[i * k + c] = v[i];
		}
		return out;
	}

	/** Eigenvector c (unit length), shared: do not modify. */
	public double[] vector(final int c) {
		return rows[c];
	}

	public int size() {
		return m;
	}
}
