package org.cpca.core;

import java.util.Arrays;
import java.util.stream.IntStream;

import org.apache.commons.math3.linear.CholeskyDecomposition;
import org.apache.commons.math3.linear.MatrixUtils;
import org.apache.commons.math3.linear.RealMatrix;

/**
 * The exact reduced space of ALGORITHMS.md §2: the row space of the stacked, centred data
 * {@code Z = [X̃_t; X̃_b]} (N × d).
 * <p>
 * The Gram matrix {@code G = ZZᵀ} (N × N) is factored by a rank-revealing (pivoted)
 * Cholesky, {@code G = LLᵀ} with L of size N × r. Then {@code Z = LQᵀ} for an orthonormal
 * d × r basis {@code Q = ZᵀL(LᵀL)⁻¹} of the row space, so {@code QᵀC_tQ = L_tᵀL_t/(n_t−1)}
 * and {@code QᵀC_bQ = L_bᵀL_b/(n_b−1)}: the r × r problem. Target scores are
 * {@code L_t w} and never touch d; a component is {@code Qw}, formed only for the k
 * wanted directions. Memory is O(N·d) for the data (not copied) plus O(N²); no d × d
 * matrix is ever formed.
 */
final class ReducedSpace extends ContrastiveSpace {

	/** Pivots stop when the remaining diagonal falls below this fraction of the largest. */
	static final double RANK_TOLERANCE = 1e-12;

	private final Dataset[] sets;
	private final Preprocessing[] pres;
	private final int nt;
	private final int n;
	private final double[][] l;
	private final int d;
	private final CholeskyDecomposition lTl;

	private ReducedSpace(final Dataset[] sets, final Preprocessing[] pres, final int r,
		final double[][] l, final double[] a, final double[] b)
	{
		super(r, a, b);
		this.sets = sets;
		this.pres = pres;
		this.nt = sets[0].samples();
		int total = 0;
		for (final Dataset s : sets)
			total += s.samples();
		this.n = total;
		this.l = l;
		this.d = sets[0].features();
		final double[] p = Kernels.crossProduct(l, r, 1.0);
		this.lTl = new CholeskyDecomposition(MatrixUtils.createRealMatrix(toRows(p, r)),
			1e-300, 0);
	}

	static ReducedSpace build(final Dataset target, final Preprocessing targetPre,
		final Dataset background, final Preprocessing backgroundPre,
		final Progress progress)
	{
		final Dataset[] sets = background == null ? new Dataset[] { target }
			: new Dataset[] { target, background };
		final Preprocessing[] pres = background == null ? new Preprocessing[] {
			targetPre } : new Preprocessing[] { targetPre, backgroundPre };
		final double[] g = Kernels.gram(sets, pres, progress);
		progress.checkCancelled();
		final int n = g.length == 0 ? 0 : (int) Math.round(Math.sqrt(g.length));
		final double[][] l = pivotedCholesky(g, n);
		final int r = l.length == 0 ? 0 : l[0].length;
		final int nt = target.samples();
		final double[] a = Kernels.crossProduct(Arrays.copyOf(l, nt), r, 1.0 / (nt - 1));
		final double[] b = background == null ? new double[r * r] : Kernels.crossProduct(
			Arrays.copyOfRange(l, nt, n), r, 1.0 / (background.samples() - 1));
		return new ReducedSpace(sets, pres, r, l, a, b);
	}

	/** Pivoted Cholesky {@code G = LLᵀ}; returns L (n rows of length r, original order). */
	static double[][] pivotedCholesky(final double[] g, final int n) {
		final double[] diag = new double[n];
		double max = 0;
		for (int i = 0; i < n; i++) {
			diag[i] = g[i * n + i];
			max = Math.max(max, diag[i]);
		}
		final boolean[] pivoted = new boolean[n];
		final double[] work = new double[n * n]; // row i: L[i][0..r)
		int r = 0;
		while (r < n) {
			int p = -1;
			double best = RANK_TOLERANCE * max;
			for (int i = 0; i < n; i++)
				if (!pivoted[i] && diag[i] > best) {
					best = diag[i];
					p = i;
				}
			if (p < 0) break;
			pivoted[p] = true;
			final double lpp = Math.sqrt(diag[p]);
			final int col = r, po = p * n, pivot = p;
			work[po + col] = lpp;
			IntStream.range(0, n).parallel().forEach(i -> {
				if (pivoted[i]) return;
				final int io = i * n;
				double s = g[io + pivot];
				for (int j = 0; j < col; j++)
					s -= work[io + j] * work[po + j];
				final double v = s / lpp;
				work[io + col] = v;
				diag[i] -= v * v;
			});
			diag[p] = 0;
			r++;
		}
		final double[][] l = new double[n][r];
		for (int i = 0; i < n; i++)
			System.arraycopy(work, i * n, l[i], 0, r);
		return l;
	}

	private static double[][] toRows(final double[] s, final int m) {
		final double[][] out = new double[m][m];
		for (int i = 0; i < m; i++)
			System.arraycopy(s, i * m, out[i], 0, m);
		return out;
	}

	@Override
	double[][] components(final double[] w, final int k) {
		// Q w = Zᵀ L (LᵀL)⁻¹ w: solve the r × r system, lift to samples, then to features
		final RealMatrix coef = lTl.getSolver().solve(MatrixUtils.createRealMatrix(toRows(w,
			m, k)));
		final double[] y = times(l, flatten(coef), k); // n × k
		final double[][] v = new double[k][d];
		final int blocks = (d + 4095) / 4096;
		IntStream.range(0, blocks).parallel().forEach(q -> {
			final int f0 = q * 4096, f1 = Math.min(d, f0 + 4096);
			int s = 0;
			for (int set = 0; set < sets.length; set++)
				for (int i = 0; i < sets[set].samples(); i++, s++) {
					final float[] row = sets[set].row(i);
					for (int f = f0; f < f1; f++) {
						final double z = pres[set].apply(f, row[f]);
						for (int c = 0; c < k; c++)
							v[c][f] += z * y[s * k + c];
					}
				}
		});
		for (final double[] vc : v) {
			final double norm = Math.sqrt(TopEigen.dot(vc, vc));
			if (norm > 0) for (int f = 0; f < d; f++)
				vc[f] /= norm;
		}
		return v;
	}

	private static double[][] toRows(final double[] w, final int m, final int k) {
		final double[][] out = new double[m][k];
		for (int i = 0; i < m; i++)
			System.arraycopy(w, i * k, out[i], 0, k);
		return out;
	}

	private static double[] flatten(final RealMatrix mtx) {
		final int r = mtx.getRowDimension(), c = mtx.getColumnDimension();
		final double[] out = new double[r * c];
		for (int i = 0; i < r; i++)
			for (int j = 0; j < c; j++)
				out[i * c + j] = mtx.getEntry(i, j);
		return out;
	}

	/** Rows of L times w (m × k): rows.length × k, row-major. */
	private static double[] times(final double[][] rows, final double[] w, final int k) {
		final double[] out = new double[rows.length * k];
		for (int i = 0; i < rows.length; i++)
			for (int t = 0; t < rows[i].length; t++) {
				final double v = rows[i][t];
				for (int c = 0; c < k; c++)
					out[i * k + c] += v * w[t * k + c];
			}
		return out;
	}

	@Override
	double[] targetScores(final double[] w, final int k) {
		return times(Arrays.copyOf(l, nt), w, k);
	}

	@Override
	double[] backgroundScores(final double[] w, final int k) {
		return sets.length < 2 ? null : times(Arrays.copyOfRange(l, nt, n), w, k);
	}

	@Override
	String description() {
		return "reduced space: r = " + m + " (rank of the stacked centred data) of d = " +
			d + " features; no d × d matrix formed";
	}
}
