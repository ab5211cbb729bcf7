package org.cpca.core.contrast;

import org.cpca.core.Progress;
import org.cpca.core.data.Dataset;
import org.cpca.core.data.Preprocessing;
import org.cpca.core.linalg.Products;
import org.cpca.core.linalg.TopEigen;

import java.util.Arrays;
import java.util.stream.IntStream;


/**
 * The exact reduced space of docs/math/cpca.md: the row space of the stacked, centred data
 * {@code Z = [X̃_t; X̃_b1; …]} (N × d): the target and every background (one for cPCA,
 * several for UCA), each centred on its own mean.
 * <p>
 * The Gram matrix {@code G = ZZᵀ} (N × N) is factored by a rank-revealing (pivoted)
 * Cholesky, {@code G = LLᵀ} with L of size N × r. Then {@code Z = LQᵀ} for an orthonormal
 * d × r basis {@code Q = ZᵀL(LᵀL)⁻¹} of the row space, so {@code QᵀC_tQ = L_tᵀL_t/(n_t−1)}
 * and {@code QᵀC_bQ = L_bᵀL_b/(n_b−1)} (per background): the r × r problem. Target scores are
 * {@code L_t w} and never touch d; a component is {@code Qw}, formed only for the k
 * wanted directions. Memory is O(N·d) for the data (not copied) plus O(N²); no d × d
 * matrix is ever formed.
 * <p>
 * {@code LᵀL = L_tᵀL_t + L_bᵀL_b = (n_t−1)A + (n_b−1)B} is formed from the r × r
 * matrices already built (no further pass over L) and factored once by
 * {@link Products#cholesky}; a component then needs two triangular solves, the n × k
 * product y = Lc, and one pass over the data.
 */
public final class ReducedSpace extends ContrastiveSpace {

	/** Pivots stop when the remaining diagonal falls below this fraction of the largest. */
	public static final double RANK_TOLERANCE = 1e-12;

	private final Dataset[] sets;
	private final Preprocessing[] pres;
	private final int nt;
	private final double[][] l;
	private final int d;
	/**
	 * Upper Cholesky factor R of LᵀL = RᵀR (rows), for the basis Q = ZᵀL(LᵀL)⁻¹;
	 * {@code null} until {@link #lTl()}.
	 */
	private double[][] lTl;

	private ReducedSpace(final Dataset[] sets, final Preprocessing[] pres, final int r,
		final double[][] l, final double[] a, final double[][] backgrounds)
	{
		super(r, a, backgrounds);
		this.sets = sets;
		this.pres = pres;
		this.nt = sets[0].samples();
		this.l = l;
		this.d = sets[0].features();
	}

	/** LᵀL's factor ({@link #normalFactor}), formed on the first component asked for. */
	private synchronized double[][] lTl() {
		if (lTl == null) {
			final long[] nb = new long[sets.length - 1];
			for (int j = 0; j < nb.length; j++)
				nb[j] = sets[j + 1].samples();
			lTl = normalFactor(m, a, backgrounds, nt, nb);
		}
		return lTl;
	}

	/**
	 * The upper Cholesky factor R of {@code LᵀL = RᵀR}, from the r × r matrices already
	 * built: {@code LᵀL = L_tᵀL_t + Σ L_jᵀL_j = (n_t − 1)A + Σ (n_j − 1)B_j}, no second
	 * pass over L. Only components need it, so both spaces form it on the first one asked
	 * for: it is not alive while the solver prepares and solves (docs/memory.md).
	 */
	static double[][] normalFactor(final int r, final double[] a, final double[][] backgrounds,
		final long nt, final long[] nb)
	{
		final double[][] p = new double[r][r];
		for (int s = 0; s <= backgrounds.length; s++) {
			final double f = (s == 0 ? nt : nb[s - 1]) - 1;
			final double[] c = s == 0 ? a : backgrounds[s - 1];
			for (int i = 0; i < r; i++)
				for (int j = 0; j < r; j++)
					p[i][j] += f * c[i * r + j];
		}
		return r == 0 ? new double[0][] : Products.cholesky(p);
	}

	static ReducedSpace build(final Dataset target, final Preprocessing targetPre,
		final Dataset[] backgrounds, final Preprocessing[] backgroundPre,
		final Progress progress)
	{
		final Dataset[] sets = new Dataset[backgrounds.length + 1];
		final Preprocessing[] pres = new Preprocessing[sets.length];
		sets[0] = target;
		pres[0] = targetPre;
		for (int j = 0; j < backgrounds.length; j++) {
			sets[j + 1] = backgrounds[j];
			pres[j + 1] = backgroundPre[j];
		}
		int n = 0;
		for (final Dataset x : sets)
			n += x.samples();
		// G's rows are handed over, not kept here: the factorisation uses them as its working
		// copy and lets them go before L is formed (docs/memory.md)
		final double[][] l = pivotedCholesky(Products.gramRows(sets, pres, progress), n, 0,
			null, RANK_TOLERANCE);
		progress.checkCancelled();
		final int r = l.length == 0 ? 0 : l[0].length;
		final int nt = target.samples();
		// one r × r accumulator for A and every B_j (docs/memory.md)
		final double[][] work = new double[r][r];
		final double[] a = Products.crossProduct(Arrays.copyOf(l, nt), r, 1.0 / (nt - 1),
			work);
		final double[][] b = new double[backgrounds.length][];
		for (int j = 0, from = nt; j < b.length; j++) {
			final int to = from + backgrounds[j].samples();
			b[j] = Products.crossProduct(Arrays.copyOfRange(l, from, to), r, 1.0 /
				(backgrounds[j].samples() - 1), work);
			from = to;
		}
		return new ReducedSpace(sets, pres, r, l, a, b);
	}

	/** Columns per panel of {@link #pivotedCholesky}. */
	private static final int PANEL = 32;

	/**
	 * Pivoted Cholesky {@code G = LLᵀ}; returns L (n rows of length r, original order).
	 * <p>
	 * Each step pivots on the row with the largest remaining diagonal (the diagonal of the
	 * Schur complement, kept up to date after every column) and stops when it falls below
	 * {@link #RANK_TOLERANCE} times the largest diagonal of G; r is the numerical rank.
	 * <p>
	 * Blocked by panels of {@value #PANEL} columns (as LAPACK's pstrf): a working copy W of
	 * G holds the Schur complement as of the start of the panel. Column c of L is
	 * {@code (w_p − Σ L_pc' l_c')/√diag_p} over the columns c' already computed in this
	 * panel (rows pivoted earlier get 0, the pivot row √diag_p); after the panel, the
	 * not-yet-pivoted rows of W are updated once, {@code w_i −= Σ_c L_ic l_c} over the
	 * panel's columns. L is held by columns (separate arrays); both updates are block
	 * products ({@link Products#multiplyAdd}: the column update of one row, the panel update
	 * of all rows left, on the vector kernels where they run), so W is read and written once
	 * per panel instead of L being re-read for every column. Tiles are spread
	 * over the cores; every entry is computed in the same order whatever the split.
	 * <p>
	 * On the native backend LAPACK's {@code dpstrf} factors a native copy of G instead,
	 * which takes the place of W ({@link Products#nativePivotedCholesky}; with priority
	 * rows, their block first and then the Schur complement of the rest): the same
	 * pivoting and stopping rule, L in the same layout. Its pivot order can differ from
	 * this one's where remaining diagonals tie (duplicated samples): another factor of the
	 * same G.
	 */
	public static double[][] pivotedCholesky(final double[] g, final int n) {
		return pivotedCholesky(g, n, 0, null, RANK_TOLERANCE);
	}

	/**
	 * {@link #pivotedCholesky(double[], int)}, with the first {@code priority} rows pivoted
	 * before any other: while one of them has a remaining diagonal above the tolerance, the
	 * pivot is chosen among them only. Columns 0 … r₁−1 of L then belong to pivots among the
	 * first rows, and those rows have only roundoff-sized entries (below the rank
	 * tolerance) in the later columns. {@code priority = 0} is the plain factorisation.
	 *
	 * @param pivots if not {@code null} (length ≥ n), receives the pivot row of each
	 *          column of L
	 * @param tolerance pivots stop below this fraction of the largest diagonal
	 */
	public static double[][] pivotedCholesky(final double[] g, final int n, final int priority,
		final int[] pivots, final double tolerance)
	{
		// the native backend: LAPACK's dpstrf on a native copy of G, in place of W
		final double[][] factored = Products.nativePivotedCholesky(g, null, n, priority,
			tolerance, pivots);
		if (factored != null) return factored;
		final double[][] w = new double[n][];
		for (int i = 0; i < n; i++)
			w[i] = Arrays.copyOfRange(g, i * n, (i + 1) * n);
		return pivotedCholesky(w, n, priority, pivots, tolerance);
	}

	/**
	 * {@link #pivotedCholesky(double[], int, int, int[], double)} of G given as rows, which
	 * are overwritten: they are the working copy W. W is let go before L is allocated, so a
	 * caller that keeps no other reference to the rows lets the collector reclaim them
	 * (docs/memory.md). On the native backend each row is copied to native memory and its
	 * entry set to null, so the rows go as the native copy fills.
	 */
	static double[][] pivotedCholesky(double[][] w, final int n, final int priority,
		final int[] pivots, final double tolerance)
	{
		// the native backend: dpstrf on a native copy of G, its rows let go as they are copied
		final double[][] factored = priority > 0 ? null : Products.nativePivotedCholesky(null,
			w, n, 0, tolerance, pivots);
		if (factored != null) return factored;
		final double[] diag = new double[n];
		double max = 0;
		for (int i = 0; i < n; i++) {
			diag[i] = w[i][i];
			max = Math.max(max, diag[i]);
		}
		final boolean[] pivoted = new boolean[n];
		final double[][] cols = new double[n][];
		int r = 0;
		boolean exhausted = false;
		// the rows among which pivots are sought: the priority rows first, then all
		int limit = priority > 0 ? priority : n;
		while (!exhausted && r < n) {
			final int r0 = r;
			while (r < n && r - r0 < PANEL) {
				int p = -1;
				double best = tolerance * max;
				for (int i = 0; i < limit; i++)
					if (!pivoted[i] && diag[i] > best) {
						best = diag[i];
						p = i;
					}
				if (p < 0 && limit < n) {
					limit = n;
					continue;
				}
				if (p < 0) {
					exhausted = true;
					break;
				}
				pivoted[p] = true;
				if (pivots != null) pivots[r] = p;
				final double lpp = Math.sqrt(diag[p]);
				final double[] v = w[p].clone(); // W symmetric: row p is column p
				minusColumns(cols, r0, r, v, p, n);
				for (int i = 0; i < n; i++) {
					if (pivoted[i]) {
						v[i] = 0;
						continue;
					}
					final double x = v[i] / lpp;
					v[i] = x;
					diag[i] -= x * x;
				}
				v[p] = lpp;
				diag[p] = 0;
				cols[r++] = v;
			}
			if (exhausted || r == n || r == r0) break;
			// w_i −= Σ_c L_ic l_c for the rows not pivoted yet: a block product of their
			// factors −L_ic with the panel's columns, tiled over the cores
			final int width = r - r0;
			int left = 0;
			for (int i = 0; i < n; i++)
				if (!pivoted[i]) left++;
			final double[][] rows = new double[left][], factors = new double[left][width];
			for (int i = 0, q = 0; i < n; i++)
				if (!pivoted[i]) {
					rows[q] = w[i];
					for (int t = 0; t < width; t++)
						factors[q][t] = -cols[r0 + t][i];
					q++;
				}
			Products.multiplyAdd(factors, Arrays.copyOfRange(cols, r0, r), rows, 0, left, 0,
				width, 0, n);
		}
		w = null; // W is done with: collectable before L is allocated
		final double[][] l = new double[n][r];
		for (int j = 0; j < r; j++) {
			final double[] c = cols[j];
			for (int i = 0; i < n; i++)
				l[i][j] = c[i];
		}
		return l;
	}

	/**
	 * {@code v[j] −= Σ_{c ∈ [c0, c1)} l_c[p] · l_c[j]} for every j: the block product of the
	 * one row of factors {@code −l_c[p]} with the columns (the panel update's kernel).
	 */
	private static void minusColumns(final double[][] cols, final int c0, final int c1,
		final double[] v, final int p, final int n)
	{
		if (c1 == c0) return;
		final double[][] factors = new double[1][c1 - c0];
		for (int t = 0; t < c1 - c0; t++)
			factors[0][t] = -cols[c0 + t][p];
		Products.multiplyAdd(factors, Arrays.copyOfRange(cols, c0, c1), new double[][] { v },
			0, 1, 0, c1 - c0, 0, n);
	}

	/**
	 * Q w = Zᵀ L (LᵀL)⁻¹ w: solve the r × r system with the Cholesky factor, lift to the
	 * samples (y = L c, n × k), then to the features, {@code v_c = Σ_s y_sc z_s}. The last
	 * step is the only one that touches d: per strip of features, the preprocessed values
	 * of four samples are formed once (exactly as {@link Preprocessing} defines them) and
	 * added into the k components with four-row axpys; strips run on all cores and the
	 * result does not depend on the split.
	 */
	@Override
	public int features() {
		return d;
	}

	@Override
	public double[][] components(final double[] w, final int k) {
		final double[] coef = Products.choleskySolve(lTl(), w, k);
		final double[] y = rowsTimes(l, l.length, coef, k); // n × k
		final double[][] v = new double[k][d];
		final int strip = 1024;
		final int blocks = (d + strip - 1) / strip;
		IntStream.range(0, blocks).parallel().forEach(q -> {
			final int f0 = q * strip, f1 = Math.min(d, f0 + strip), len = f1 - f0;
			final double[][] z = new double[4][len];
			int s = 0;
			for (int set = 0; set < sets.length; set++) {
				final Dataset x = sets[set];
				final Preprocessing pre = pres[set];
				final int count = x.samples();
				int i = 0;
				for (; i + 3 < count; i += 4, s += 4) {
					for (int u = 0; u < 4; u++)
						pre.apply(x.row(i + u), f0, f1, z[u], 0, 1);
					final double[] z0 = z[0], z1 = z[1], z2 = z[2], z3 = z[3];
					for (int c = 0; c < k; c++) {
						final double y0 = y[s * k + c], y1 = y[(s + 1) * k + c], y2 = y[(s + 2) *
							k + c], y3 = y[(s + 3) * k + c];
						final double[] vc = v[c];
						for (int f = 0; f < len; f++)
							vc[f0 + f] += y0 * z0[f] + y1 * z1[f] + y2 * z2[f] + y3 * z3[f];
					}
				}
				for (; i < count; i++, s++) {
					pre.apply(x.row(i), f0, f1, z[0], 0, 1);
					final double[] z0 = z[0];
					for (int c = 0; c < k; c++) {
						final double y0 = y[s * k + c];
						final double[] vc = v[c];
						for (int f = 0; f < len; f++)
							vc[f0 + f] += y0 * z0[f];
					}
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

	/**
	 * The first {@code rows} rows of L times w (m × k): rows × k, row-major (all rows: the
	 * samples' coordinates; the first n_t: the target's scores). Shared with
	 * {@link GramSpace}, which has the same L.
	 */
	static double[] rowsTimes(final double[][] l, final int rows, final double[] w,
		final int k)
	{
		final double[] out = new double[rows * k];
		for (int i = 0; i < rows; i++)
			for (int t = 0; t < l[i].length; t++) {
				final double v = l[i][t];
				for (int c = 0; c < k; c++)
					out[i * k + c] += v * w[t * k + c];
			}
		return out;
	}

	@Override
	double[] targetScores(final double[] w, final int k) {
		return rowsTimes(l, nt, w, k);
	}

	@Override
	String description() {
		return "reduced space: r = " + m + " (rank of the stacked centred data) of d = " +
			d + " features; no d × d matrix formed";
	}
}
