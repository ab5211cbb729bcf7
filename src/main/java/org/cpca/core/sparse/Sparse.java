package org.cpca.core.sparse;

import org.cpca.core.contrast.ContrastiveSpace;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.Measures;
import org.cpca.core.gcpca.Gcpca;
import org.cpca.core.linalg.SymmetricEigen;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.model.FittedModel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Sparse loadings for cPCA and gcPCA models (docs/math/sparse.md): Θ² is the positive part of
 * the contrast in the fit's space — for cPCA at α, of {@code C_t − αC_b}; for each end of
 * gcPCA, of its whitened problem {@code W N W} (for v2 minus I; negated for the
 * background-enriched end), see {@link #gcpca} — and {@link SparseLoadings} turns it into k
 * sparse unit loadings.
 * <p>
 * Automatic sparsity walks the log path {@link #PATH}, keeping only values at which every
 * sparse loading stays on its dense counterpart's side of "no contrast" (see
 * {@link #choose}); when no value does, those at which the leading component (of each
 * end, for gcPCA) does, with a note. When the target has two or more
 * classes, the sparsest value whose target scores keep the LDA accuracy of the classes
 * within {@link #LDA_SLACK} of the dense loadings' wins (an earlier version took the
 * largest silhouette, which on digits on grass chose loadings of a handful of pixels 8
 * points below the dense accuracy). Otherwise the criterion is the subspace affinity of automatic α (the product
 * of the cosines of the principal angles between the target-score subspaces): the sparsest
 * value whose scores keep an affinity of at least {@value #AFFINITY} with the dense
 * loadings' scores (the dense loadings when none does).
 * <p>
 * Length (about 390 lines of code): the cPCA and gcPCA entries, the automatic-sparsity walk
 * and the model they make share private helpers (positive parts, the score affinity, the notes),
 * which one class keeps private.
 */
public final class Sparse {

	/** The automatic path: 9 values log-spaced over [10^−2.5, 10^−0.5]. */
	public static final double[] PATH = path(-2.5);
	/**
	 * gcPCA's path: 9 values log-spaced over [10^−4.5, 10^−2.5]. Its sparsity is the soft
	 * threshold per step of size 1/λ_max(GᵀPG) ({@link SparseLoadings#fitMapped}), a
	 * smaller step than cPCA's, so the same number removes more.
	 */
	public static final double[] GCPCA_PATH = path(-4.5);
	/** With classes: the largest loss of LDA accuracy (a fraction) the choice accepts. */
	public static final double LDA_SLACK = 0.05;
	/** Smallest affinity with the dense scores accepted by the unsupervised criterion. */
	public static final double AFFINITY = 0.9;

	private Sparse() {}

	private static double[] path(final double from) {
		final double[] p = new double[9];
		for (int i = 0; i < p.length; i++)
			p[i] = Math.pow(10, from + 0.25 * i);
		return p;
	}

	/** The orthonormal basis Q of the fit's space, as m rows of length d. */
	public static double[][] basis(final Cpca fit) {
		final int m = fit.rank();
		final double[] identity = new double[m * m];
		for (int i = 0; i < m; i++)
			identity[i * m + i] = 1;
		return fit.space().components(identity, m);
	}

	/** The positive part of a symmetric m × m matrix. */
	static double[] positivePart(final double[] s, final int m) {
		final SymmetricEigen e = SymmetricEigen.of(s, m);
		final double[] out = new double[m * m];
		for (int c = 0; c < m && e.value(c) > 0; c++) {
			final double l = e.value(c);
			final double[] u = e.vector(c);
			for (int i = 0; i < m; i++)
				for (int j = 0; j < m; j++)
					out[i * m + j] += l * u[i] * u[j];
		}
		return out;
	}

	/**
	 * Sparse cPCA at α (finite) replacing {@code dense}'s loadings.
	 *
	 * @param sparsity ≥ 0, or NaN for automatic
	 * @param q {@link #basis} of the fit (computed once per fit)
	 */
	public static CpcaModel cpca(final Cpca fit, final double[][] q, final CpcaModel dense,
		final double sparsity)
	{
		return cpca(fit, q, dense, sparsity, SparseLoadings.MAX_ITERATIONS, true);
	}

	/**
	 * {@link #cpca(Cpca, double[][], CpcaModel, double)} with at most {@code cap}
	 * iterations (a fixed sparsity; the refits of the permutation test and the bootstrap,
	 * docs/math/significance.md#sparse-loadings).
	 */
	public static CpcaModel cpca(final Cpca fit, final double[][] q, final CpcaModel dense,
		final double sparsity, final int cap)
	{
		SparseLoadings.checkSparsity(sparsity);
		if (cap < 1) throw new IllegalArgumentException("the cap of iterations must be ≥ 1");
		return cpca(fit, q, dense, sparsity, cap, true);
	}

	/**
	 * {@link #cpca(Cpca, double[][], CpcaModel, double)} with at most {@code cap}
	 * iterations, with or without momentum ({@link SparseLoadings#fit}). Where
	 * {@code C(α)} has only j &lt; k directions of positive contrast (a large α; a permuted
	 * split of the significance test can have none), the first j loadings are sparse and
	 * the others stay the dense model's, with their eigenvalue of {@code C(α)} (≤ 0) and a
	 * note, as for an end of sparse gcPCA: the positive part has nothing to sparsify
	 * there (an earlier version ran the iteration on the positive part's null space, whose
	 * eigenvalues are rounding noise, and returned a meaningless loading of value 0).
	 */
	static CpcaModel cpca(final Cpca fit, final double[][] q, final CpcaModel dense,
		final double sparsity, final int cap, final boolean momentum)
	{
		final double alpha = dense.alpha();
		if (!(alpha < Double.POSITIVE_INFINITY)) throw new IllegalArgumentException(
			"sparse loadings need a finite α (α = ∞ has no contrast matrix to sparsify): " +
				"give a finite α or auto");
		final ContrastiveSpace s = fit.space();
		final int m = s.dimension(), k = dense.numComponents();
		final double[] c = new double[m * m];
		for (int i = 0; i < c.length; i++)
			c[i] = s.a[i] - (Double.isNaN(alpha) ? 0 : alpha) * s.b[i];
		final double[] p = positivePart(c, m);
		final SymmetricEigen pe = SymmetricEigen.of(p, m);
		// the positive part's eigenvalues past its rank are rounding noise, maybe > 0: count
		// the positive eigenvalues of C(α) itself, as the dense model has them
		final int sparse = positives(dense.eigenvalues(), k);
		final List<String> notes = sparse == k ? List.of() : List.of(String.format(Locale.ROOT,
			"sparse cPCA at α = %s: only %d of %d directions have positive contrast; the " +
				"other loadings are kept dense", FittedModel.alphaText(alpha), sparse, k));
		return choose(fit, dense, sparsity, PATH, 0, new int[] { 0 }, v -> {
			final SparseLoadings l = leading(q, k, sparse, dense.components(), 0, n ->
				SparseLoadings.fit(q, p, pe, n, v, 0, cap, momentum));
			final double[] values = s.quadratics(c, l.coordinates, k);
			return model(fit, dense, l, v, values, dense.method(), dense.parameters(), notes);
		});
	}

	/**
	 * Sparse gcPCA (docs/math/sparse.md#sparse-gcpca): each end sparsified on its own, on
	 * the variant's whitened problem {@code W N W}, {@code W = D^{-1/2}}, in the pooled
	 * principal components the dense fit was solved in — its positive part for the
	 * target-enriched end, its negative part (negated) for the background-enriched end
	 * (for v2, the ratio's contrast {@code W N W − I}). The variable projection runs in the
	 * whitened coordinates y; the zeros are put on the loadings {@code W y} in feature
	 * space ({@link SparseLoadings#fitMapped}). Values are the variant's quotient
	 * {@code vᵀNv / vᵀDv} of each sparse loading (with the dense fit's ridge). The dense
	 * shuffle test does not carry over: the model keeps only its thresholds, not the
	 * "significant" marks.
	 */
	public static CpcaModel gcpca(final Gcpca g, final double[][] q, final CpcaModel dense,
		final double sparsity)
	{
		return gcpca(g, q, dense, sparsity, SparseLoadings.MAX_ITERATIONS);
	}

	/** {@link #gcpca(Gcpca, double[][], CpcaModel, double)} with at most {@code cap} iterations. */
	static CpcaModel gcpca(final Gcpca g, final double[][] q, final CpcaModel dense,
		final double sparsity, final int cap)
	{
		final Cpca fit = g.fit();
		final ContrastiveSpace s = fit.space();
		final int m = s.dimension(), k = dense.numComponents() / 2;
		final double[][] nd = numeratorDenominator(s.a, s.b, m, g.variant(), dense.alpha(),
			(Double) dense.parameters().get("ridge"));
		// the directions (rows, length m) the dense problem was solved in
		final double[][] u = g.basis();
		final int r = u.length;
		final double[] nr = Gcpca.restrict(nd[0], u, m), dr = Gcpca.restrict(nd[1], u, m);
		final SymmetricEigen de = SymmetricEigen.of(dr, r);
		final double[] w = new double[r * r], winv = new double[r * r];
		for (int c = 0; c < r; c++) {
			final double mu = de.value(c);
			if (!(mu > 0)) throw new IllegalArgumentException("sparse gcPCA: the " +
				"denominator is not positive definite in the pooled components; use v4");
			final double[] x = de.vector(c);
			for (int i = 0; i < r; i++)
				for (int j = 0; j < r; j++) {
					w[i * r + j] += x[i] * x[j] / Math.sqrt(mu);
					winv[i * r + j] += x[i] * x[j] * Math.sqrt(mu);
				}
		}
		final double[] whitened = Gcpca.multiply(w, Gcpca.multiply(nr, w, r), r);
		if (g.variant() == Gcpca.Variant.V2) for (int i = 0; i < r; i++)
			whitened[i * r + i] -= 1;
		final double[] negated = new double[r * r];
		for (int i = 0; i < negated.length; i++)
			negated[i] = -whitened[i];
		final double[] top = positivePart(whitened, r), bottom = positivePart(negated, r);
		final SymmetricEigen et = SymmetricEigen.of(top, r), eb = SymmetricEigen.of(bottom, r);
		final double[][] mapT = maps(u, w, winv, et, m, r), mapB = maps(u, w, winv, eb, m, r);
		final Map<String, Object> parameters = new LinkedHashMap<>(dense.parameters());
		parameters.remove("significant");
		// an end with fewer than k directions of contrast keeps the rest of its loadings dense
		final int pt = positives(et, k), pb = positives(eb, k);
		final double[][] denseRows = dense.components();
		final List<String> notes = new ArrayList<>();
		if (pt < k || pb < k) notes.add("sparse gcPCA: " + (pt < k ? "the target-enriched " +
			"end has " + pt : "") + (pt < k && pb < k ? " and " : "") + (pb < k ? "the " +
				"background-enriched end has " + pb : "") + " of " + k + " directions with " +
			"contrast (values on the enriched side of 0); the other loadings are kept dense");
		return choose(fit, dense, sparsity, GCPCA_PATH, g.variant() == Gcpca.Variant.V2 ? 1 : 0,
			new int[] { 0, k }, v -> {
			final SparseLoadings lt = leading(q, k, pt, denseRows, 0, n -> SparseLoadings
				.fitMapped(q, top, et, n, v, mapT[0], mapT[1], cap));
			final SparseLoadings lb = leading(q, k, pb, denseRows, k, n -> SparseLoadings
				.fitMapped(q, bottom, eb, n, v, mapB[0], mapB[1], cap));
			final double[][] loadings = new double[2 * k][];
			final double[] coords = new double[m * 2 * k];
			for (int c = 0; c < 2 * k; c++) {
				final SparseLoadings l = c < k ? lt : lb;
				final int cc = c % k;
				loadings[c] = l.loadings[cc];
				for (int i = 0; i < m; i++)
					coords[i * 2 * k + c] = l.coordinates[i * k + cc];
			}
			final double[] num = s.quadratics(nd[0], coords, 2 * k), den = s.quadratics(nd[1],
				coords, 2 * k);
			final double[] values = new double[2 * k];
			for (int c = 0; c < 2 * k; c++)
				values[c] = den[c] > 0 ? num[c] / den[c] : 0;
			final double zeros = (lt.zeroFraction + lb.zeroFraction) / 2;
			final int[] iterations = new int[2 * k];
			final double[] change = new double[2 * k];
			for (int c = 0; c < k; c++) {
				iterations[c] = lt.iterations[c];
				iterations[k + c] = lb.iterations[c];
				change[c] = lt.finalChange[c];
				change[k + c] = lb.finalChange[c];
			}
			final SparseLoadings both = SparseLoadings.of(loadings, coords, zeros, lt.lambda1,
				lt.emptyLoadings + lb.emptyLoadings, iterations, change, lt.converged &&
					lb.converged, cap);
			return model(fit, dense, both, v, values, "gcpca", parameters, notes);
		});
	}

	/** The number of positive values among the first k. */
	private static int positives(final double[] values, final int k) {
		int n = 0;
		while (n < Math.min(k, values.length) && values[n] > 0)
			n++;
		return n;
	}

	/** The number of positive eigenvalues among the first k. */
	private static int positives(final SymmetricEigen e, final int k) {
		int n = 0;
		while (n < Math.min(k, e.size()) && e.value(n) > 0)
			n++;
		return n;
	}

	/**
	 * k loadings: the first {@code sparse} by {@code fit} (given their number), the others
	 * the dense rows {@code offset + sparse …} (a problem without that many directions of
	 * contrast has nothing to sparsify there: an end of gcPCA, cPCA at a large α).
	 */
	private static SparseLoadings leading(final double[][] q, final int k, final int sparse,
		final double[][] denseRows, final int offset, final IntFunction<SparseLoadings> fit)
	{
		if (sparse == k) return fit.apply(k);
		final int d = q[0].length;
		final double[][] rows = new double[k][];
		double zeros = 0, lambda1 = 0;
		int empty = 0;
		final int[] iterations = new int[k];
		final double[] change = new double[k];
		boolean converged = true;
		int cap = 0;
		if (sparse > 0) {
			final SparseLoadings l = fit.apply(sparse);
			cap = l.cap;
			System.arraycopy(l.loadings, 0, rows, 0, sparse);
			System.arraycopy(l.iterations, 0, iterations, 0, sparse);
			System.arraycopy(l.finalChange, 0, change, 0, sparse);
			converged = l.converged;
			zeros = l.zeroFraction * sparse * d;
			lambda1 = l.lambda1;
			empty = l.emptyLoadings;
		}
		for (int c = sparse; c < k; c++)
			rows[c] = denseRows[offset + c].clone();
		return SparseLoadings.of(rows, SparseLoadings.coordinates(q, rows, k), zeros / ((double) k
			* d), lambda1, empty, iterations, change, converged, cap);
	}

	/**
	 * {map, inverse}: the whitened coordinates y to the space's, {@code x = c·U W y}
	 * (m × r; U the pooled components as columns), and its left inverse
	 * {@code (1/c) W⁻¹ Uᵀ} (r × m); c makes the end's leading dense loading unit length,
	 * so the sparsity is in loading units as for cPCA.
	 */
	private static double[][] maps(final double[][] u, final double[] w, final double[] winv,
		final SymmetricEigen e, final int m, final int r)
	{
		final double[] y = e.vector(0), wy = new double[r];
		for (int i = 0; i < r; i++)
			for (int j = 0; j < r; j++)
				wy[i] += w[i * r + j] * y[j];
		double norm = 0;
		for (final double x : wy)
			norm += x * x;
		final double c = norm > 0 ? 1 / Math.sqrt(norm) : 1;
		final double[] map = new double[m * r], inverse = new double[r * m];
		for (int i = 0; i < m; i++)
			for (int j = 0; j < r; j++) {
				double x = 0, z = 0;
				for (int t = 0; t < r; t++) {
					x += u[t][i] * w[t * r + j];
					z += winv[j * r + t] * u[t][i];
				}
				map[i * r + j] = c * x;
				inverse[j * m + i] = z / c;
			}
		return new double[][] { map, inverse };
	}

	/** N and D of a gcPCA variant (m × m), D with the ridge. */
	static double[][] numeratorDenominator(final double[] a, final double[] b, final int m,
		final Gcpca.Variant v, final double alpha, final double ridge)
	{
		final double[][] nd = Gcpca.numeratorDenominator(a, b, m, v, alpha);
		final double[] n = nd[0], d = nd[1];
		for (int i = 0; i < m; i++)
			d[i * m + i] += v == Gcpca.Variant.V1 ? 1 : ridge;
		return new double[][] { n, d };
	}

	/** Builds loadings at one sparsity value. */
	interface Builder {

		CpcaModel at(double sparsity);
	}

	/**
	 * A fixed value, or the automatic path. On the path a value is admissible only when
	 * every sparse loading keeps its dense counterpart's side of {@code neutral} (the value
	 * of a direction with no contrast: 0, or 1 for a variance ratio), so the choice never
	 * trades a component's contrast for separation.
	 */
	static CpcaModel choose(final Cpca fit, final CpcaModel dense, final double sparsity,
		final double[] path, final double neutral, final int[] leading, final Builder builder)
	{
		if (!Double.isNaN(sparsity)) {
			SparseLoadings.checkSparsity(sparsity);
			return builder.at(sparsity);
		}
		final List<String> labels = fit.target().labels();
		final boolean classes = labels != null && new HashSet<>(labels).size() >= 2;
		// per tier (0: every component keeps its contrast, 1: the leading ones do)
		final CpcaModel[] best = new CpcaModel[2];
		final List<String> trail = new ArrayList<>();
		final double[] ref = dense.eigenvalues();
		// gcPCA: the separation of its target-enriched end (the first k of 2k scores)
		final int scored = leading.length > 1 ? leading[1] : ref.length;
		final double denseLda = classes ? Measures.ldaAccuracy(first(dense.targetScores(),
			scored), labels) : Double.NaN;
		// from the sparsest down: the first value that qualifies wins (per tier)
		for (int i = path.length - 1; i >= 0; i--) {
			final CpcaModel m;
			try {
				m = builder.at(path[i]);
			}
			catch (final IllegalArgumentException e) {
				continue;
			}
			if (m.diagnostics().stream().anyMatch(s -> s.startsWith("sparse loadings: " +
				"every entry"))) {
				trail.add(String.format(Locale.ROOT, "%.3g → a loading all zero", path[i]));
				continue;
			}
			final double[] values = m.eigenvalues();
			final boolean all = keepsContrast(values, ref, neutral);
			boolean lead = true;
			for (final int c : leading)
				lead &= keepsContrast(new double[] { values[c] }, new double[] { ref[c] },
					neutral);
			if (!lead) {
				trail.add(String.format(Locale.ROOT, "%.3g → loses contrast", path[i]));
				continue;
			}
			final double score = classes ? Measures.ldaAccuracy(first(m.targetScores(), scored),
				labels) : affinity(m.targetScores(), dense.targetScores());
			trail.add(String.format(Locale.ROOT, "%.3g → %.3f%s", path[i], score, all ? ""
				: " (leading only)"));
			for (int tier = all ? 0 : 1; tier < 2; tier++)
				if (best[tier] == null && (classes ? score >= denseLda - LDA_SLACK
					: score >= AFFINITY)) best[tier] = m;
			if (best[0] != null) break; // the denser values cannot win any more
		}
		CpcaModel chosen = best[0] != null ? best[0] : best[1];
		final boolean partial = best[0] == null && best[1] != null;
		final boolean none = chosen == null;
		if (none) chosen = builder.at(0);
		final List<String> notes = new ArrayList<>(chosen.diagnostics());
		notes.add("automatic sparsity: " + (classes ? String.format(Locale.ROOT,
			"sparsest loadings whose LDA accuracy of the classes stays within %.0f points of " +
				"the dense loadings' (%.3f)", 100 * LDA_SLACK, denseLda)
			: "sparsest loadings whose target scores keep an affinity ≥ " + AFFINITY +
				" with the dense ones") + " on the path (sparsity → " + (classes
					? "LDA accuracy" : "affinity") + "): " + String.join(", ", trail) +
			"; chosen " + String.format(Locale.ROOT, "%.3g", (Double) chosen.parameters().get(
				"sparsity")) + (partial ? " — no value kept every component's contrast, so " +
					"only the leading component" + (leading.length > 1 ? "s keep theirs"
						: " keeps its") : "") + (none ? " (dense): no value on the path kept " +
							(classes ? "the separation" : "the target scores") + " and the " +
							"leading contrast" : ""));
		return new CpcaModel(chosen.method(), chosen.alpha(), chosen.parameters(), chosen
			.components(), chosen.eigenvalues(), chosen.targetVariance(), chosen
				.backgroundVariance(), chosen.targetTotalVariance(), chosen.preprocessing(),
			chosen.whiten(), notes, chosen.attributes(), chosen.targetScores());
	}

	/**
	 * The note of a run that stopped before reaching the tolerance: at the cap, or earlier
	 * for want of progress ({@link SparseLoadings#NO_PROGRESS}).
	 */
	static String capNote(final int cap, final double[] iterations, final double[] change) {
		double worst = 0, stop = 0;
		for (int c = 0; c < change.length; c++) {
			worst = Math.max(worst, change[c]);
			stop = Math.max(stop, iterations[c]);
		}
		return String.format(Locale.ROOT, "sparse loadings did not converge: stopped %s with " +
			"a relative change of %.2g (tolerance %.0e); the loadings are the last iterate",
			stop >= cap ? "at the cap of " + cap + " iterations" : String.format(Locale.ROOT,
				"after %d iterations, %d without progress (cap %d)", (long) stop,
				SparseLoadings.NO_PROGRESS, cap), worst, SparseLoadings.TOLERANCE);
	}

	/**
	 * Whether the iteration of every loading of a sparse model (made here) reached
	 * {@link SparseLoadings#TOLERANCE}: false when it stopped at the cap or for want of
	 * progress (its parameter "final_change").
	 */
	public static boolean converged(final CpcaModel sparse) {
		final Object change = sparse.parameters().get("final_change");
		if (!(change instanceof double[])) throw new IllegalArgumentException("not a model " +
			"with sparse loadings");
		for (final double c : (double[]) change)
			if (!(c <= SparseLoadings.TOLERANCE)) return false;
		return true;
	}

	/** Whether every value lies on the same side of {@code neutral} as the dense one. */
	static boolean keepsContrast(final double[] values, final double[] dense,
		final double neutral)
	{
		for (int c = 0; c < values.length; c++)
			if (dense[c] > neutral && !(values[c] > neutral) || dense[c] < neutral &&
				!(values[c] < neutral)) return false;
		return true;
	}

	/** The first n columns of the scores. */
	private static double[][] first(final double[][] scores, final int n) {
		final double[][] out = new double[scores.length][];
		for (int i = 0; i < scores.length; i++)
			out[i] = Arrays.copyOf(scores[i], n);
		return out;
	}

	/** Product of the cosines of the principal angles between two score subspaces. */
	static double affinity(final double[][] x, final double[][] y) {
		final double[] angles = Measures.principalAngles(transpose(x), transpose(y));
		double p = 1;
		for (final double a : angles)
			p *= Math.cos(a);
		return p;
	}

	private static double[][] transpose(final double[][] x) {
		final double[][] t = new double[x[0].length][x.length];
		for (int i = 0; i < x.length; i++)
			for (int j = 0; j < x[0].length; j++)
				t[j][i] = x[i][j];
		return t;
	}

	private static CpcaModel model(final Cpca fit, final CpcaModel dense,
		final SparseLoadings l, final double sparsity, final double[] values,
		final String method, final Map<String, Object> denseParameters,
		final List<String> extraNotes)
	{
		final ContrastiveSpace s = fit.space();
		final int k = values.length;
		final double[] tv = s.quadratics(s.a, l.coordinates, k), bv = s.quadratics(s.b,
			l.coordinates, k);
		final double[] flat = fit.targetScores(l.coordinates, k);
		final double[][] scores = new double[fit.target().samples()][k];
		for (int i = 0; i < scores.length; i++)
			for (int c = 0; c < k; c++)
				scores[i][c] = flat[i * k + c];
		final Map<String, Object> parameters = new LinkedHashMap<>(denseParameters);
		parameters.put("sparsity", sparsity);
		parameters.put("lambda1", l.lambda1);
		parameters.put("zero_fraction", l.zeroFraction);
		parameters.put("iterations", Arrays.stream(l.iterations).asDoubleStream().toArray());
		parameters.put("final_change", l.finalChange.clone());
		final List<String> notes = new ArrayList<>(dense.diagnostics());
		notes.addAll(extraNotes);
		notes.add(String.format(Locale.ROOT, "sparse loadings (variable projection): " +
			"sparsity %.4g (λ₁ = %.4g), %.1f %% of the loadings are exactly zero", sparsity,
			l.lambda1, 100 * l.zeroFraction));
		if (!l.converged) notes.add(capNote(l.cap, Arrays.stream(l.iterations)
			.asDoubleStream().toArray(), l.finalChange));
		if (l.emptyLoadings > 0) notes.add("sparse loadings: every entry of " +
			l.emptyLoadings + " loading(s) is zero at this sparsity; lower it");
		return new CpcaModel(method, dense.alpha(), parameters, l.loadings, values, tv, bv,
			s.targetTotalVariance, dense.preprocessing(), false, notes, dense.attributes(),
			scores);
	}
}
