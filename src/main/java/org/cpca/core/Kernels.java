package org.cpca.core;

import java.util.stream.IntStream;

/**
 * The few hot loops, written over primitive arrays: symmetric rank-k updates (covariance
 * and Gram matrices) and projections. Everything else is small dense algebra.
 * <p>
 * Matrices are row-major {@code double[]}. The symmetric update accumulates
 * {@code G += Σ_s p_s p_sᵀ} over a panel of vectors {@code p_s} four at a time (four
 * fused axpys per row, which the JIT vectorises), over row blocks of G small enough to
 * stay in cache, on all cores.
 */
final class Kernels {

	/** Row block of the accumulated matrix handled by one task (fits in L2 for m ≤ 2000). */
	private static final int ROW_BLOCK = 48;

	private Kernels() {}

	/** Number of vectors per panel: enough work per pass, small enough to stay cached. */
	static int panelSize(final int m) {
		return Math.max(8, Math.min(256, (1 << 20) / Math.max(1, m)) & ~3);
	}

	/**
	 * {@code g(upper triangle) += Σ_{s<count} p_s p_sᵀ} for the panel rows {@code p_s}
	 * (each of length m). Rows are separate arrays: with four different arrays in the inner
	 * loop the JIT vectorises it (one flat array with four offsets runs ~4× slower).
	 */
	static void syrkUpper(final double[][] g, final double[][] panel, final int count) {
		final int m = g.length;
		final int blocks = (m + ROW_BLOCK - 1) / ROW_BLOCK;
		IntStream.range(0, blocks).parallel().forEach(b -> syrkRows(g, panel, count, b *
			ROW_BLOCK, Math.min(m, (b + 1) * ROW_BLOCK)));
	}

	private static void syrkRows(final double[][] g, final double[][] p, final int count,
		final int i0, final int i1)
	{
		final int m = g.length;
		int s = 0;
		for (; s + 3 < count; s += 4) {
			final double[] p0 = p[s], p1 = p[s + 1], p2 = p[s + 2], p3 = p[s + 3];
			for (int i = i0; i < i1; i++) {
				final double a0 = p0[i], a1 = p1[i], a2 = p2[i], a3 = p3[i];
				final double[] gi = g[i];
				for (int j = i; j < m; j++)
					gi[j] += a0 * p0[j] + a1 * p1[j] + a2 * p2[j] + a3 * p3[j];
			}
		}
		for (; s < count; s++) {
			final double[] p0 = p[s];
			for (int i = i0; i < i1; i++) {
				final double a0 = p0[i];
				final double[] gi = g[i];
				for (int j = i; j < m; j++)
					gi[j] += a0 * p0[j];
			}
		}
	}

	/** The full symmetric matrix (row-major) from an upper triangle, scaled by factor. */
	static double[] symmetric(final double[][] g, final double factor) {
		final int m = g.length;
		final double[] out = new double[m * m];
		for (int i = 0; i < m; i++) {
			for (int j = i; j < m; j++) {
				final double v = g[i][j] * factor;
				out[i * m + j] = v;
				out[j * m + i] = v;
			}
		}
		return out;
	}

	/** {@code Σ_s p_s p_sᵀ · factor} over the given rows (each of length m). */
	static double[] crossProduct(final double[][] rows, final int m, final double factor) {
		final double[][] g = new double[m][m];
		syrkUpper(g, rows, rows.length);
		return symmetric(g, factor);
	}

	/**
	 * The covariance {@code X̃ᵀX̃/(n−1)} (d × d) of a dataset after its preprocessing.
	 */
	static double[] covariance(final Dataset x, final Preprocessing pre,
		final Progress progress)
	{
		final int n = x.samples(), d = x.features();
		final double[][] g = new double[d][d];
		final int panelRows = panelSize(d);
		final double[][] panel = new double[panelRows][d];
		for (int s0 = 0; s0 < n; s0 += panelRows) {
			progress.checkCancelled();
			final int count = Math.min(panelRows, n - s0);
			final int base = s0;
			IntStream.range(0, count).parallel().forEach(s -> pre.apply(x.row(base + s), 0,
				d, panel[s], 0, 1));
			syrkUpper(g, panel, count);
			progress.stage("covariance of " + x.name(), (double) (s0 + count) / n);
		}
		return symmetric(g, 1.0 / (n - 1));
	}

	/**
	 * Above this many multiply–adds (N²d/2) the Gram matrix is accumulated in float
	 * blocks (see {@link #gram}); below it, in double throughout.
	 */
	static final double FLOAT_GRAM_WORK = 2e9;
	/** Features per float block before it is flushed into the double sum. */
	private static final int FLOAT_BLOCK = 64;

	/**
	 * The Gram matrix {@code ZZᵀ} (N × N) of the stacked, preprocessed samples of the given
	 * datasets, in dataset order. Accumulated over panels of features, so it needs
	 * O(N · panel) extra memory and never a d × d matrix.
	 * <p>
	 * <b>Precision.</b> Small problems are summed in double. Large ones (more than
	 * {@link #FLOAT_GRAM_WORK} multiply–adds, e.g. 1000 slices of 256 × 256 pixels) use
	 * float arithmetic, which the JIT vectorises twice as wide: the preprocessed values
	 * (computed in double) are rounded to float — the precision the data arrive in — and
	 * products are summed in float over blocks of {@value #FLOAT_BLOCK} features only, each
	 * block's sum being added into a double accumulator. The error of an entry is then
	 * about 10⁻⁷ (rounding of the values) plus ~64·2⁻²⁴ ≈ 4·10⁻⁶ at the very worst (in
	 * practice √64·2⁻²⁴ ≈ 5·10⁻⁷) of the block sums of |products|, and it does not grow
	 * with d: comparable to the float input itself.
	 */
	static double[] gram(final Dataset[] sets, final Preprocessing[] pres,
		final Progress progress)
	{
		int total = 0;
		for (final Dataset s : sets)
			total += s.samples();
		final int N = total, d = sets[0].features();
		final float[][] rows = new float[N][];
		final Preprocessing[] rowPre = new Preprocessing[N];
		int q = 0;
		for (int k = 0; k < sets.length; k++)
			for (int i = 0; i < sets[k].samples(); i++, q++) {
				rows[q] = sets[k].row(i);
				rowPre[q] = pres[k];
			}
		final double[][] g = new double[N][N];
		if (0.5 * N * N * (double) d > FLOAT_GRAM_WORK) {
			gramFloat(rows, rowPre, g, d, progress);
			return symmetric(g, 1.0);
		}
		final int panelCols = panelSize(N);
		final double[][] panel = new double[panelCols][N];
		for (int f0 = 0; f0 < d; f0 += panelCols) {
			progress.checkCancelled();
			final int count = Math.min(panelCols, d - f0);
			final int from = f0;
			// panel row t holds feature from+t of every sample (a transposed block)
			IntStream.range(0, count).parallel().forEach(t -> {
				final double[] out = panel[t];
				final int f = from + t;
				for (int s = 0; s < N; s++)
					out[s] = rowPre[s].apply(f, rows[s][f]);
			});
			syrkUpper(g, panel, count);
			progress.stage("Gram matrix", (double) (f0 + count) / d);
		}
		return symmetric(g, 1.0);
	}

	/**
	 * The float-block Gram accumulation: each task owns a band of rows of G and its own
	 * float band; per block of {@value #FLOAT_BLOCK} features it sums the products in
	 * float (four-row axpys) and adds the band into the double G.
	 */
	private static void gramFloat(final float[][] rows, final Preprocessing[] rowPre,
		final double[][] g, final int d, final Progress progress)
	{
		final int n = rows.length;
		final int panelCols = 512;
		final float[][] panel = new float[panelCols][n];
		final int bands = Math.max(1, (n + ROW_BLOCK - 1) / ROW_BLOCK);
		final float[][] acc = new float[n][];
		for (int i = 0; i < n; i++)
			acc[i] = new float[n];
		for (int f0 = 0; f0 < d; f0 += panelCols) {
			progress.checkCancelled();
			final int count = Math.min(panelCols, d - f0);
			final int from = f0;
			IntStream.range(0, count).parallel().forEach(t -> {
				final float[] out = panel[t];
				final int f = from + t;
				for (int s = 0; s < n; s++)
					out[s] = (float) rowPre[s].apply(f, rows[s][f]);
			});
			IntStream.range(0, bands).parallel().forEach(b -> {
				final int i0 = b * ROW_BLOCK, i1 = Math.min(n, i0 + ROW_BLOCK);
				for (int c0 = 0; c0 < count; c0 += FLOAT_BLOCK) {
					final int c1 = Math.min(count, c0 + FLOAT_BLOCK);
					floatRows(acc, panel, c0, c1, i0, i1);
					for (int i = i0; i < i1; i++) {
						final float[] ai = acc[i];
						final double[] gi = g[i];
						for (int j = i; j < n; j++) {
							gi[j] += ai[j];
							ai[j] = 0;
						}
					}
				}
			});
			progress.stage("Gram matrix", (double) (f0 + count) / d);
		}
	}

	/** acc[i][j] += Σ_{s ∈ [c0, c1)} p_s[i] p_s[j] for rows i0…i1−1, j ≥ i, in float. */
	private static void floatRows(final float[][] acc, final float[][] p, final int c0,
		final int c1, final int i0, final int i1)
	{
		final int n = acc.length;
		int s = c0;
		for (; s + 3 < c1; s += 4) {
			final float[] p0 = p[s], p1 = p[s + 1], p2 = p[s + 2], p3 = p[s + 3];
			for (int i = i0; i < i1; i++) {
				final float a0 = p0[i], a1 = p1[i], a2 = p2[i], a3 = p3[i];
				final float[] ai = acc[i];
				for (int j = i; j < n; j++)
					ai[j] += a0 * p0[j] + a1 * p1[j] + a2 * p2[j] + a3 * p3[j];
			}
		}
		for (; s < c1; s++) {
			final float[] p0 = p[s];
			for (int i = i0; i < i1; i++) {
				final float a0 = p0[i];
				final float[] ai = acc[i];
				for (int j = i; j < n; j++)
					ai[j] += a0 * p0[j];
			}
		}
	}

	/**
	 * {@code out_i = Σ_j l[i][j] · r_j} for rows r_j: the product L·R of two matrices given
	 * as rows (L: p × q, R: q × c), the form in which the inner loop is an axpy over a row
	 * of R. Four output rows are produced together (four accumulator arrays, each row of R
	 * loaded once for all four), in
	 * parallel over output rows. Deterministic: every output entry is summed in j order.
	 */
	static double[][] multiplyRows(final double[][] l, final double[][] r) {
		final int p = l.length, q = r.length, c = q == 0 ? 0 : r[0].length;
		final double[][] out = new double[p][c];
		final int groups = (p + 3) / 4;
		IntStream.range(0, groups).parallel().forEach(g -> {
			final int i0 = 4 * g;
			if (i0 + 3 < p) {
				final double[] o0 = out[i0], o1 = out[i0 + 1], o2 = out[i0 + 2], o3 =
					out[i0 + 3];
				final double[] l0 = l[i0], l1 = l[i0 + 1], l2 = l[i0 + 2], l3 = l[i0 + 3];
				for (int j = 0; j < q; j++) {
					final double a0 = l0[j], a1 = l1[j], a2 = l2[j], a3 = l3[j];
					final double[] rj = r[j];
					for (int t = 0; t < c; t++) {
						final double v = rj[t];
						o0[t] += a0 * v;
						o1[t] += a1 * v;
						o2[t] += a2 * v;
						o3[t] += a3 * v;
					}
				}
			}
			else for (int i = i0; i < p; i++) {
				final double[] oi = out[i], li = l[i];
				for (int j = 0; j < q; j++) {
					final double a = li[j];
					final double[] rj = r[j];
					for (int t = 0; t < c; t++)
						oi[t] += a * rj[t];
				}
			}
		});
		return out;
	}

	/** {@code C = A·B} for small row-major matrices (A: r × m, B: m × c). */
	static double[] multiply(final double[] a, final int r, final int m,
		final double[] b, final int c)
	{
		final double[] out = new double[r * c];
		for (int i = 0; i < r; i++)
			for (int t = 0; t < m; t++) {
				final double v = a[i * m + t];
				if (v == 0) continue;
				final int bo = t * c, oo = i * c;
				for (int j = 0; j < c; j++)
					out[oo + j] += v * b[bo + j];
			}
		return out;
	}

	/** {@code Aᵀ·B} for row-major A (m × r) and B (m × c): r × c. */
	static double[] multiplyTransposed(final double[] a, final int m, final int r,
		final double[] b, final int c)
	{
		final double[] out = new double[r * c];
		for (int t = 0; t < m; t++)
			for (int i = 0; i < r; i++) {
				final double v = a[t * r + i];
				if (v == 0) continue;
				final int bo = t * c, oo = i * c;
				for (int j = 0; j < c; j++)
					out[oo + j] += v * b[bo + j];
			}
		return out;
	}

	/** Symmetric (square, row-major) matrix times a block: m × m times m × c. */
	static double[] symmetricTimes(final double[] s, final int m, final double[] x,
		final int c)
	{
		final double[] out = new double[m * c];
		final int blocks = (m + 63) / 64;
		IntStream.range(0, blocks).parallel().forEach(b -> {
			final int i1 = Math.min(m, (b + 1) * 64);
			for (int i = b * 64; i < i1; i++) {
				final int so = i * m, oo = i * c;
				for (int t = 0; t < m; t++) {
					final double v = s[so + t];
					final int xo = t * c;
					for (int j = 0; j < c; j++)
						out[oo + j] += v * x[xo + j];
				}
			}
		});
		return out;
	}

	/**
	 * Scores of the preprocessed samples of {@code x} on directions given as the columns of
	 * {@code v} (d × k, row-major): n × k.
	 */
	static double[] project(final Dataset x, final Preprocessing pre, final double[] v,
		final int k)
	{
		final int n = x.samples(), d = x.features();
		final double[] out = new double[n * k];
		IntStream.range(0, n).parallel().forEach(i -> {
			final float[] row = x.row(i);
			final double[] acc = new double[k];
			for (int j = 0; j < d; j++) {
				final double c = pre.apply(j, row[j]);
				final int vo = j * k;
				for (int c2 = 0; c2 < k; c2++)
					acc[c2] += c * v[vo + c2];
			}
			System.arraycopy(acc, 0, out, i * k, k);
		});
		return out;
	}
}
