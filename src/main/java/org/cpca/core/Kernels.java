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
	 * The Gram matrix {@code ZZᵀ} (N × N) of the stacked, preprocessed samples of the given
	 * datasets, in dataset order. Accumulated over panels of features, so it needs
	 * O(N · panel) extra memory and never a d × d matrix.
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
