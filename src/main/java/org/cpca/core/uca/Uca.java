package org.cpca.core.uca;

import org.cpca.core.Progress;
import org.cpca.core.contrast.ContrastiveSpace;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import org.cpca.core.linalg.TopEigen;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.result.Convergence;
import org.cpca.core.result.Method;
import org.cpca.core.result.Solution;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Arrays;
import java.util.Locale;

/**
 * Unique Component Analysis (UCA; Tu, Foss &amp; Zhao; docs/math/uca.md):
 * contrastive PCA without a tuning parameter, with one or several backgrounds.
 * <p>
 * The primal problem is {@code max vᵀAv} subject to {@code ‖v‖ = 1} and
 * {@code vᵀB_j v ≤ s_j} for every background j (A = C_t, B_j = C_bj, each dataset centred,
 * and optionally standardised, on its own; covariances with n − 1; s_j below). With B_j
 * standing for {@code B_j/s_j}, its Lagrangian dual
 * {@code g(λ) = λ_max(A − Σ_j λ_j B_j) + Σ_j λ_j} is convex and is <em>minimised</em> over
 * λ ≥ 0 ({@link UcaDual}: one background is a 1-D problem solved by Brent's method;
 * several by projected Newton steps on a smoothed dual, {@link UcaSmoothing}, because
 * coordinate descent stalls where the top eigenvalue is repeated). The components are the top-k eigenvectors of {@code A − Σ_j λ_j B_j}, i.e. cPCA
 * with the α's chosen by the data. The model's parameters are "lambda" (every λ_j) and
 * "dual" (g at the minimum); α is NaN.
 * <p>
 * <b>The constraint's scale</b> ({@link Scale}). The paper's {@code vᵀB_jv ≤ 1} compares a
 * background variance with the number 1, so it depends on the units of the data: raw grey
 * levels (variance ~10³ per pixel) leave no feasible direction, data of variance far below
 * 1 make the constraint inactive. By default ({@link Scale#TYPICAL_VARIANCE}) the bound is
 * the variance of a typical feature of that background, s_j = the median variance of its
 * non-constant features: {@code vᵀB_jv ≤ s_j}. It is unit-free (scaling all data by c
 * scales both sides by c²), is not inflated by the few loud features of a background that
 * carries a nuisance (a mean would be, and would let part of the nuisance through), and is
 * the paper's constraint up to the factor n/(n − 1) on standardised data, where s_j ≈ 1.
 * {@link Scale#UNIT} keeps the literal bound 1. The model's "lambda" are the multipliers
 * of the B_j themselves (the α_j of {@code A − Σ_j λ_j B_j}) and "constraint_scale" the
 * s_j.
 * <p>
 * <b>Duality.</b> With one background the S-lemma gives no duality gap: g at the minimum
 * is the primal optimum. When the top eigenvalue of {@code A − λB} is simple there, the
 * first component attains it ({@code vᵀAv = g}, {@code vᵀBv = 1} or λ = 0); when it is
 * repeated (a kink of g; e.g. diagonal A and B) the optimum mixes the tied eigenvectors,
 * which the first components then span. Both facts are reported as diagnostics.
 * <p>
 * <b>Stacked.</b> {@link #stacked} pools every background into one dataset (centred on the
 * pooled mean) and solves the one-background problem: the comparison the paper makes to
 * show that split backgrounds remove nuisance directions a pooled covariance dilutes.
 * <p>
 * <b>High dimensions.</b> Everything runs in the fit's space ({@link Cpca#fit}): the
 * reduced space of the stacked target and all backgrounds is built once, and every
 * evaluation of g is a top eigenpair of an r × r matrix, warm-started from the previous one.
 */
public final class Uca {

	private Uca() {}

	/** The right-hand side of the constraints {@code vᵀB_jv ≤ s_j} (see the class comment). */
	public enum Scale {
		/**
		 * s_j = the median variance of background j's non-constant features, the variance of
		 * a typical feature: unit-free (default).
		 */
		TYPICAL_VARIANCE,
		/** s_j = 1, the paper's literal constraint (in the data's units). */
		UNIT
	}

	/**
	 * UCA with every background of the fit treated separately ("split").
	 *
	 * @param cpca a fit with at least one background
	 * @throws IllegalArgumentException without a background, or when no direction can meet
	 *           every constraint (the message says to standardise or rescale)
	 */
	public static CpcaModel fit(final Cpca cpca, final Progress progress) {
		return fit(cpca, progress, 0, Scale.TYPICAL_VARIANCE);
	}

	/** {@link #fit(Cpca, Progress)} with the given constraint scale. */
	public static CpcaModel fit(final Cpca cpca, final Scale scale, final Progress progress) {
		return fit(cpca, progress, 0, scale);
	}

	/**
	 * UCA with all backgrounds pooled into one dataset ("stacked"), centred (and
	 * standardised, if the options say so) as one: for comparison with {@link #fit}. The
	 * model carries the parameter "stacked" (the number of backgrounds pooled).
	 */
	public static CpcaModel stacked(final Dataset target, final List<Dataset> backgrounds,
		final CpcaOptions options, final Progress progress)
	{
		return stacked(target, backgrounds, options, Scale.TYPICAL_VARIANCE, progress);
	}

	/** {@link #stacked(Dataset, List, CpcaOptions, Progress)} with the given constraint scale. */
	public static CpcaModel stacked(final Dataset target, final List<Dataset> backgrounds,
		final CpcaOptions options, final Scale scale, final Progress progress)
	{
		if (backgrounds.isEmpty()) throw new IllegalArgumentException(
			"UCA needs at least one background");
		return fit(Cpca.fit(target, List.of(Dataset.pool(backgrounds)), options, progress),
			progress, backgrounds.size(), scale);
	}

	/**
	 * UCA on a fit, recording that its one background is {@code stacked} backgrounds pooled
	 * ({@link Dataset#pool}; 0 or 1: not pooled).
	 */
	public static CpcaModel fit(final Cpca cpca, final int stacked,
		final Progress progress)
	{
		return fit(cpca, progress, stacked > 1 ? stacked : 0, Scale.TYPICAL_VARIANCE);
	}

	/**
	 * UCA as {@link #fit(Cpca, int, Progress)}, as a {@link Solution} whose facts say how the
	 * dual's minimisation ended ({@link Convergence}, "dual").
	 */
	public static Solution solution(final Cpca cpca, final int stacked,
		final Progress progress)
	{
		final UcaDual.Minimum[] min = new UcaDual.Minimum[1];
		final CpcaModel model = fit(cpca, progress, stacked > 1 ? stacked : 0,
			Scale.TYPICAL_VARIANCE, min);
		return Solution.of(Method.UCA, null, List.of(model), null, cpca).withConvergence("dual",
			convergence(min[0]));
	}

	static Convergence convergence(final UcaDual.Minimum min) {
		return Convergence.of(min.iterations, min.converged, min.tolerance, min.residual,
			min.cap);
	}

	private static CpcaModel fit(final Cpca cpca, final Progress progress,
		final int stacked, final Scale scale)
	{
		return fit(cpca, progress, stacked, scale, new UcaDual.Minimum[1]);
	}

	/** {@code minimum[0]} receives how the dual's minimisation ended. */
	private static CpcaModel fit(final Cpca cpca, final Progress progress,
		final int stacked, final Scale scale, final UcaDual.Minimum[] minimum)
	{
		if (cpca.backgroundCount() == 0) throw new IllegalArgumentException(
			"UCA needs at least one background: give one or more background datasets");
		final ContrastiveSpace space = cpca.space();
		final String[] names = cpca.backgroundNames().toArray(new String[0]);
		progress.stage("UCA", 0);
		// the constraints vᵀB_jv ≤ s_j as vᵀ(B_j/s_j)v ≤ 1
		final double[] scales = new double[names.length];
		final double[][] bs = new double[names.length][];
		for (int j = 0; j < names.length; j++) {
			scales[j] = scale == Scale.UNIT ? 1 : typicalVariance(cpca, j);
			bs[j] = space.backgrounds[j].clone();
			for (int i = 0; i < bs[j].length; i++)
				bs[j][i] /= scales[j];
		}
		final UcaDual dual = new UcaDual(space, bs, scale == Scale.UNIT, space.features() >
			space.dimension(), cpca.options().seed(), progress);
		final UcaDual.Minimum min = dual.minimise();
		minimum[0] = min;
		final UcaDual.Point p = min.point;
		final int k = cpca.options().components();
		// at least two, to see whether the top eigenvalue is repeated
		final int wanted = Math.min(space.dimension(), Math.max(k, 2));
		final TopEigen.Result solved = TopEigen.solve(dual.contrast(p.lambda), space
			.dimension(), wanted, dual.warmStart(), cpca.options().seed());
		final TopEigen.Result top = wanted == k ? solved : firstColumns(solved, k, space
			.dimension());
		final Map<String, Object> parameters = new LinkedHashMap<>();
		final double[] lambda = p.lambda.clone();
		for (int j = 0; j < lambda.length; j++)
			lambda[j] /= scales[j]; // the multiplier of B_j itself
		parameters.put("lambda", lambda);
		parameters.put("constraint_scale", scales.clone());
		parameters.put("dual", p.value);
		if (stacked > 0) parameters.put("stacked", (double) stacked);
		return cpca.build("uca", Double.NaN, parameters, top.values, top.vectors, k, notes(
			min, names, solved, stacked, lambda, scales, scale));
	}

	/**
	 * The bound s_j of {@link Scale#TYPICAL_VARIANCE}: the median variance (n − 1) of background
	 * j's non-constant features, as the fit preprocessed them (standardised: n/(n − 1)); from
	 * the samples, or from the variances a fit without them carries
	 * ({@link Cpca#backgroundFeatureVariances}: the streamed plan's Gram pass), or from the
	 * covariance's diagonal (moments); 1 if every feature is constant. Where none of these
	 * exist, the mean tr(C_bj)/d.
	 */
	static double typicalVariance(final Cpca cpca, final int j) {
		final ContrastiveSpace space = cpca.space();
		final int m = space.dimension(), d = space.features();
		double[] variances = cpca.backgroundFeatureVariances(j);
		if (cpca.backgrounds().size() > j) {
			final Dataset x = cpca.backgrounds().get(j);
			final int n = x.samples();
			final double[] mean = new double[d], ss = new double[d];
			for (int i = 0; i < n; i++) {
				final float[] row = x.row(i);
				for (int f = 0; f < d; f++) {
					final double delta = row[f] - mean[f];
					mean[f] += delta / (i + 1);
					ss[f] += delta * (row[f] - mean[f]);
				}
			}
			variances = new double[d];
			for (int f = 0; f < d; f++)
				variances[f] = n < 2 ? 0 : ss[f] / (n - 1);
		}
		if (variances != null && cpca.options().standardize()) {
			// a standardised feature's variance (n − 1) is n/(n − 1), a constant one's 0
			final long n = cpca.backgroundSamples(j);
			variances = Arrays.stream(variances).map(v -> v > 0 ? n / (n - 1.0) : 0).toArray();
		}
		else if (variances == null && m == d) {
			variances = new double[d];
			for (int f = 0; f < d; f++)
				variances[f] = space.backgrounds[j][f * m + f];
		}
		if (variances == null) {
			// the reduced space holds all of the background's variance: tr B_j = tr C_bj
			double trace = 0;
			for (int i = 0; i < m; i++)
				trace += space.backgrounds[j][i * m + i];
			return trace > 0 ? trace / d : 1;
		}
		final double[] positive = Arrays.stream(variances).filter(v -> v > 0)
			.sorted().toArray();
		if (positive.length == 0) return 1;
		final int h = positive.length / 2;
		return positive.length % 2 == 1 ? positive[h] : 0.5 * (positive[h - 1] + positive[h]);
	}

	/** The first k eigenpairs of a result with more columns. */
	private static TopEigen.Result firstColumns(final TopEigen.Result r, final int k,
		final int m)
	{
		final int wide = r.values.length;
		final double[] vectors = new double[m * k];
		for (int i = 0; i < m; i++)
			System.arraycopy(r.vectors, i * wide, vectors, i * k, k);
		return new TopEigen.Result(Arrays.copyOf(r.values, k), vectors,
			r.warmStart, r.restarts, r.fullDecomposition);
	}

	private static List<String> notes(final UcaDual.Minimum min, final String[] names,
		final TopEigen.Result top, final int stacked, final double[] lambda,
		final double[] scales, final Scale scale)
	{
		final UcaDual.Point p = min.point;
		final List<String> notes = new ArrayList<>();
		notes.add(scale == Scale.UNIT ? "UCA: constraints vᵀB_jv ≤ 1 (in the data's units)"
			: "UCA: constraints vᵀB_jv ≤ s_j with s_j the median variance of background j's " +
				"features (a typical feature's variance; unit-free): s = " + format(scales,
					false));
		if (stacked > 1) notes.add("UCA stacked: the " + stacked + " backgrounds were " +
			"pooled into one dataset (one covariance, centred on the pooled mean)");
		if (min.inactive) {
			notes.add("UCA: the constraint is inactive (the target's first principal " +
				"direction has background variance vᵀB_jv/s_j = " + format(min.derivativeAtZero,
					true) + " ≤ 1): λ = 0 and UCA equals PCA" + (scale == Scale.UNIT ? ". The " +
						"constraint vᵀBv ≤ 1 is in the background's units: standardise or " +
						"rescale the data if the background should count" : ""));
			return notes;
		}
		final double primal = p.floored ? Double.NaN : p.top + dot(p.lambda, p.constraint);
		notes.add("UCA: λ = " + format(lambda, false) + " after " + (names.length == 1
			? "a 1-D solve" : min.iterations + " Newton step(s)") + ", " + min.evaluations +
			" eigen-solves; dual g = " + String.format(Locale.ROOT, "%.6g", p.value) + (p.floored ? ""
				: ", first component vᵀAv = " + String.format(Locale.ROOT, "%.6g", primal) + ", vᵀB_jv/s_j = " +
					format(p.constraint, false)));
		for (int j = 0; j < names.length && names.length > 1; j++)
			if (p.lambda[j] == 0) notes.add("UCA: " + names[j] + " is redundant here: its " +
				"constraint is inactive at the optimum (λ = 0, vᵀBv/s = " + String.format(Locale.ROOT, "%.4g",
					p.constraint[j]) + ")");
		if (!min.converged) notes.add("UCA: the optimality test failed (projected " +
			"subgradient " + String.format(Locale.ROOT, "%.2g", min.residual) + "): λ may be inaccurate");
		if (p.floored) notes.add("UCA: at the optimum every direction with target " +
			"variance has more background variance than the bound s_j; the optimum mixes in " +
			"directions without any variance, which no component can show" + (scale ==
				Scale.UNIT ? ". The constraint is in the backgrounds' units: standardise or " +
					"rescale the data" : ""));
		else {
			double violation = 0;
			for (int j = 0; j < p.lambda.length; j++)
				violation = Math.max(violation, p.lambda[j] > 0 ? Math.abs(p.constraint[j] - 1)
					: Math.max(0, p.constraint[j] - 1));
			final double gap = Math.abs(p.value - primal) / Math.max(Math.abs(p.value),
				Double.MIN_NORMAL);
			final boolean tied = top.values.length > 1 && top.values[0] - top.values[1] <=
				1e-6 * Math.max(Math.abs(top.values[0]), Double.MIN_NORMAL);
			if (violation > 1e-6 || gap > 1e-6 || tied) notes.add("UCA: the first " +
				"component alone does not attain the dual bound (relative gap " + String
					.format(Locale.ROOT, "%.2g", gap) + ", constraint off by " + String.format(Locale.ROOT, "%.2g",
						violation) + ")" + (tied ? ": the top eigenvalue of A − Σλ_jB_j is " +
							"repeated at the optimum, whose direction mixes the tied " +
							"components" : ""));
		}
		return notes;
	}

	private static double dot(final double[] x, final double[] y) {
		double s = 0;
		for (int i = 0; i < x.length; i++)
			s += x[i] * y[i];
		return s;
	}

	/** Values as "[0.25, 1.5]"; {@code oneMinus} prints 1 − x (variance from derivative). */
	private static String format(final double[] v, final boolean oneMinus) {
		final StringBuilder s = new StringBuilder(v.length == 1 ? "" : "[");
		for (int i = 0; i < v.length; i++)
			s.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.6g", oneMinus ? 1 - v[i]
				: v[i]));
		return s.append(v.length == 1 ? "" : "]").toString();
	}
}
