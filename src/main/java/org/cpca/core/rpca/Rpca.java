package org.cpca.core.rpca;

import org.cpca.core.Progress;
import org.cpca.core.contrast.ContrastiveSpace;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import org.cpca.core.linalg.TopEigen;
import org.cpca.core.model.CpcaModel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.QRDecomposition;
import org.apache.commons.math3.linear.RealVector;
import java.util.Locale;

/**
 * Residual PCA (rPCA; Tu, Foss &amp; Zhao, docs/math/rpca.md): the target is projected off the top
 * k_b principal components of each background, then PCA of what remains.
 * <p>
 * With several backgrounds, each background's own top k_b components are removed in turn:
 * the removed subspace is the span of all of them (orthonormalised one background after
 * the other), so the residual is orthogonal to every removed direction. k_b is given (one
 * value for all backgrounds, or one per background), or chosen per background by a rule:
 * by default the <b>log-elbow</b> ({@link #logElbow}: two straight lines fitted to
 * log λ_i, scale-free, so one dominant component — the brightness of an image stack —
 * does not hide the rest of the spectrum), or, as an option ({@link #SEED_ELBOW}), the
 * elbow on λ_i itself ({@link #elbow}, the original paper's rule, which keeps k_b = 1
 * whenever one component dominates). The model's parameter "k_b" lists the values used
 * and the diagnostics say which rule ran and why. k_b = 0 is PCA; k_b = rank(C_b) removes
 * the background's whole range, which is cPCA at α = ∞.
 * <p>
 * <b>Exact in the fit's space.</b> A background's principal components with non-zero
 * variance lie in the row space of its centred samples, hence in the reduced space's span
 * (the row space of the stacked target and backgrounds), where the reduced coordinates are
 * an isometry; the projection off them maps that span into itself, so the residual target
 * (and its covariance P A P) stays in it too. The background eigenvalues, the removed
 * subspace and the residual's principal components are therefore the same whether the
 * problem is solved with d × d covariances or in the reduced space.
 * <p>
 * <b>Computation.</b> With W (m × q) an orthonormal basis of the removed subspace and
 * {@code P = I − WWᵀ}, the components are the top-k eigenvectors of
 * {@code PAP − σWWᵀ}, σ = tr A + 1: the matrix is block diagonal with PAP restricted to the
 * complement of W (positive semi-definite) and −σ on W, so its top k eigenvectors are the
 * residual's principal components and never a removed direction, even when the residual
 * has fewer than k directions of non-zero variance.
 */
public final class Rpca {

	/** Eigenvalues considered by the elbow rule: the first min(20, rank). */
	static final int ELBOW_WINDOW = 20;

	/**
	 * A k_b entry that asks for the original elbow rule on λ_i ({@link #elbow}) instead of
	 * the default log-elbow ({@code null} entries); "elbow" in the user's text.
	 */
	public static final int SEED_ELBOW = Integer.MIN_VALUE;

	/** Fewest background eigenvalues the default log-elbow uses; below, the elbow on λ. */
	static final int LOG_ELBOW_MINIMUM = 8;

	private Rpca() {}

	/**
	 * rPCA with each background of the fit separately.
	 *
	 * @param backgroundComponents k_b: {@code null} for the elbow rule on every background;
	 *          otherwise one entry for all backgrounds or one per background, each a count
	 *          (≥ 0, ≤ the background's rank) or {@code null} for the elbow rule
	 */
	public static CpcaModel fit(final Cpca cpca, final List<Integer> backgroundComponents,
		final Progress progress)
	{
		return fit(cpca, backgroundComponents, progress, 0);
	}

	/**
	 * rPCA with all backgrounds pooled into one dataset (for comparison with {@link #fit});
	 * the model carries the parameter "stacked" (the number of backgrounds pooled).
	 */
	public static CpcaModel stacked(final Dataset target, final List<Dataset> backgrounds,
		final List<Integer> backgroundComponents, final CpcaOptions options,
		final Progress progress)
	{
		if (backgrounds.isEmpty()) throw new IllegalArgumentException(
			"rPCA needs at least one background");
		return fit(Cpca.fit(target, List.of(Dataset.pool(backgrounds)), options, progress),
			backgroundComponents, progress, backgrounds.size());
	}

	/**
	 * rPCA on a fit, recording that its one background is {@code stacked} backgrounds
	 * pooled ({@link Dataset#pool}; 0 or 1: not pooled).
	 */
	public static CpcaModel fit(final Cpca cpca, final List<Integer> backgroundComponents,
		final int stacked, final Progress progress)
	{
		return fit(cpca, backgroundComponents, progress, stacked > 1 ? stacked : 0);
	}

	private static CpcaModel fit(final Cpca cpca, final List<Integer> given,
		final Progress progress, final int stacked)
	{
		final int nb = cpca.backgroundCount();
		if (nb == 0) throw new IllegalArgumentException(
			"rPCA needs at least one background: give one or more background datasets");
		if (given != null && given.size() != 1 && given.size() != nb)
			throw new IllegalArgumentException(given.size() + " values of k_b were given " +
				"for " + nb + " backgrounds: give one value for all, or one per background");
		final ContrastiveSpace space = cpca.space();
		final int m = space.dimension();
		final double[] used = new double[nb];
		final List<String> notes = new ArrayList<>();
		final List<double[]> removed = new ArrayList<>();
		for (int j = 0; j < nb; j++) {
			progress.checkCancelled();
			final Integer kb = given == null ? null : given.get(given.size() == 1 ? 0 : j);
			final String name = cpca.backgroundNames().get(j);
			if (kb != null && kb < 0 && kb != SEED_ELBOW) throw new IllegalArgumentException("k_b = " + kb +
				" for " + name + ": the number of background components to remove must be " +
				"≥ 0 (0 is PCA), or auto for the elbow rule");
			final boolean rule = kb == null || kb == SEED_ELBOW;
			final int want = Math.min(m, Math.max(rule ? 0 : kb, ELBOW_WINDOW));
			final TopEigen.Result eb = TopEigen.solve(space.backgrounds[j], m, want, null,
				cpca.options().seed());
			final double threshold = Cpca.NULL_SPACE_TOLERANCE * Math.max(eb.values[0], 0);
			int rank = 0;
			while (rank < want && eb.values[rank] > threshold)
				rank++;
			final int k;
			if (kb == null && Math.min(ELBOW_WINDOW, rank) < LOG_ELBOW_MINIMUM) {
				// too few eigenvalues for two lines with slopes: the elbow on λ
				k = elbow(Arrays.copyOf(eb.values, rank));
				notes.add("rPCA: k_b = " + k + " for " + name + " by the elbow rule on λ_i " +
					"(only " + rank + " non-zero eigenvalues: too few for the log-elbow, which " +
					"needs " + LOG_ELBOW_MINIMUM + ")");
			}
			else if (kb == null) {
				final double[] values = Arrays.copyOf(eb.values, rank);
				k = logElbow(values);
				notes.add(String.format(Locale.ROOT, "rPCA: k_b = %d for %s by the " +
					"log-elbow rule (default: two least-squares lines fitted to log λ_i of its " +
					"first %d eigenvalues, split where they fit best, scale-free; the steep head " +
					"ends at λ_%d = %.4g, %.3g of λ_1); the elbow on λ_i itself " +
					"(--background-components elbow) would keep k_b = %d", k, name, Math.min(ELBOW_WINDOW, rank), k, values[k - 1],
					values[k - 1] / values[0], elbow(values)));
			}
			else if (kb == SEED_ELBOW) {
				k = elbow(Arrays.copyOf(eb.values, rank));
				notes.add("rPCA: k_b = " + k + " for " + name + " by the elbow rule on λ_i " +
					"(as asked: one-knot spline on its first " + Math.min(ELBOW_WINDOW, rank) +
					" eigenvalues; a dominant first component makes it keep k_b = 1)");
			}
			else {
				if (kb > rank) throw new IllegalArgumentException("k_b = " + kb + " for " +
					name + " but that background has only " + rank + " directions of " +
					"non-zero variance (its rank): choose k_b ≤ " + rank + " (k_b = " + rank +
					" is cPCA at α = ∞), or auto");
				k = kb;
			}
			used[j] = k;
			for (int c = 0; c < k; c++) {
				final double[] v = new double[m];
				for (int i = 0; i < m; i++)
					v[i] = eb.vectors[i * want + c];
				removed.add(v);
			}
		}
		// one background after the other: each one's directions orthonormalised against
		// those already removed (dependent ones dropped)
		final double[][] w = TopEigen.orthonormalize(removed.toArray(new double[0][]),
			new double[0][], null, m);
		final int q = w.length;
		final int k = cpca.options().components();
		if (m - q < k) throw new IllegalArgumentException("rPCA removes " + q +
			" background direction(s), leaving " + (m - q) + " of the data's " + m +
			": fewer than the k = " + k + " components requested; choose a smaller k_b or k");
		// σ = tr A > 0 (a constant target is refused by the fit): in the data's own scale, so
		// that the solver's relative accuracy is the residual's, whatever the units
		final TopEigen.Result top = TopEigen.solve(residual(space.a, m, w,
			space.targetTotalVariance), m, k, null, cpca.options().seed());
		notes.add("rPCA: target projected off " + q + " background direction(s) " +
			Arrays.toString(Arrays.stream(used).mapToInt(x -> (int) x).toArray()) +
			", then PCA of the residual");
		if (stacked > 1) notes.add("rPCA stacked: the " + stacked + " backgrounds were " +
			"pooled into one dataset (one covariance, centred on the pooled mean)");
		final Map<String, Object> parameters = new LinkedHashMap<>();
		parameters.put("k_b", used);
		if (stacked > 0) parameters.put("stacked", (double) stacked);
		return cpca.build("rpca", Double.NaN, parameters, top.values, top.vectors, k, notes);
	}

	/**
	 * {@code PAP − σWWᵀ} with {@code P = I − WWᵀ} (W: q orthonormal rows of length m), in
	 * O(m²q): with Y = AW and V = W(WᵀAW), entry (i, j) is
	 * {@code A_ij + Σ_c (V_ic − Y_ic − σW_ic)W_jc − W_ic Y_jc}; symmetrised.
	 */
	static double[] residual(final double[] a, final int m, final double[][] w,
		final double sigma)
	{
		final int q = w.length;
		final double[][] y = new double[q][];
		for (int c = 0; c < q; c++) {
			final double[] yc = new double[m], wc = w[c];
			for (int i = 0; i < m; i++) {
				final int o = i * m;
				double v = 0;
				for (int j = 0; j < m; j++)
					v += a[o + j] * wc[j];
				yc[i] = v;
			}
			y[c] = yc;
		}
		final double[][] z = new double[q][q];
		for (int c = 0; c < q; c++)
			for (int e = 0; e < q; e++)
				z[c][e] = TopEigen.dot(w[c], y[e]);
		final double[][] u = new double[q][m]; // V − Y − σW
		for (int c = 0; c < q; c++)
			for (int i = 0; i < m; i++) {
				double v = 0;
				for (int e = 0; e < q; e++)
					v += w[e][i] * z[e][c];
				u[c][i] = v - y[c][i] - sigma * w[c][i];
			}
		final double[] s = a.clone();
		for (int c = 0; c < q; c++) {
			final double[] uc = u[c], wc = w[c], yc = y[c];
			for (int i = 0; i < m; i++) {
				final int o = i * m;
				final double ui = uc[i], wi = wc[i];
				for (int j = 0; j < m; j++)
					s[o + j] += ui * wc[j] - wi * yc[j];
			}
		}
		for (int i = 0; i < m; i++)
			for (int j = i + 1; j < m; j++) {
				final double v = 0.5 * (s[i * m + j] + s[j * m + i]);
				s[i * m + j] = v;
				s[j * m + i] = v;
			}
		return s;
	}

	/**
	 * The elbow rule of docs/math/rpca.md: on the first K = min(20, n) eigenvalues
	 * λ_1 ≥ … ≥ λ_K (n = how many are given, normally the rank), for each knot
	 * k = 2 … K − 1 the continuous piecewise-linear spline with one knot at k is fitted to
	 * (i, λ_i) by least squares; the knot with the smallest squared error wins (the first
	 * on ties) and k_b = k − 1 components come before the elbow.
	 *
	 * @param eigenvalues descending, the non-zero ones
	 * @return k_b ≥ 1
	 */
	public static int elbow(final double[] eigenvalues) {
		final int n = Math.min(ELBOW_WINDOW, eigenvalues.length);
		if (n < 3) throw new IllegalArgumentException("the elbow rule needs at least 3 " +
			"non-zero background eigenvalues but the background has " + eigenvalues.length +
			" (its rank): give k_b (the number of background components to remove) instead");
		final RealVector values = new ArrayRealVector(Arrays.copyOf(eigenvalues, n));
		int best = -1;
		double bestError = Double.POSITIVE_INFINITY;
		for (int knot = 2; knot <= n - 1; knot++) {
			final double[][] x = new double[n][];
			for (int i = 1; i <= n; i++)
				x[i - 1] = new double[] { 1, i, Math.max(0, i - knot) };
			final Array2DRowRealMatrix design = new Array2DRowRealMatrix(x, false);
			final RealVector fit = new QRDecomposition(design).getSolver().solve(values);
			final double error = design.operate(fit).subtract(values).dotProduct(design
				.operate(fit).subtract(values));
			if (error < bestError) {
				bestError = error;
				best = knot;
			}
		}
		return best - 1;
	}

	/**
	 * The default, scale-free k_b rule (docs/math/rpca.md), a broken-stick fit of the log
	 * spectrum: on y_i = log λ_i of the first K = min(20, n) eigenvalues, for each split
	 * q = 2 … K − 1 a least-squares straight line is fitted to the head (i ≤ q) and another,
	 * independent one to the tail (i &gt; q); the split with the smallest total squared error
	 * wins (the first on ties) and k_b = q. On the log scale a decade is a decade wherever it
	 * lies, so a first component that dominates by orders of magnitude (image brightness)
	 * does not decide the fit, and rescaling the data changes nothing; the lines are not
	 * joined, so a cliff (a few strong directions, then a noise floor) is cut exactly at
	 * the cliff. k_b ≥ 2 (the head needs two points to have a slope).
	 *
	 * @param eigenvalues descending, the non-zero (positive) ones
	 * @return k_b ≥ 2
	 */
	public static int logElbow(final double[] eigenvalues) {
		final int n = Math.min(ELBOW_WINDOW, eigenvalues.length);
		if (n < 3) throw new IllegalArgumentException("the elbow rule needs at least 3 " +
			"non-zero background eigenvalues but the background has " + eigenvalues.length +
			" (its rank): give k_b (the number of background components to remove) instead");
		final double[] y = new double[n];
		for (int i = 0; i < n; i++)
			y[i] = Math.log(eigenvalues[i]);
		int best = 2;
		double bestError = Double.POSITIVE_INFINITY;
		for (int q = 2; q <= n - 1; q++) {
			final double error = lineError(y, 0, q) + lineError(y, q, n);
			if (error < bestError) {
				bestError = error;
				best = q;
			}
		}
		return best;
	}

	/** Squared error of the least-squares line through (i, y_i), i in [from, to). */
	static double lineError(final double[] y, final int from, final int to) {
		final int m = to - from;
		if (m <= 2) return 0;
		double mx = 0, my = 0;
		for (int i = from; i < to; i++) {
			mx += i;
			my += y[i];
		}
		mx /= m;
		my /= m;
		double sxx = 0, sxy = 0, syy = 0;
		for (int i = from; i < to; i++) {
			sxx += (i - mx) * (i - mx);
			sxy += (i - mx) * (y[i] - my);
			syy += (y[i] - my) * (y[i] - my);
		}
		return Math.max(0, syy - sxy * sxy / sxx);
	}
}
