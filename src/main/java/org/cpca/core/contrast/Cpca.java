package org.cpca.core.contrast;

import org.cpca.core.Progress;
import org.cpca.core.data.Dataset;
import org.cpca.core.data.Preprocessing;
import org.cpca.core.linalg.ContrastSolver;
import org.cpca.core.linalg.TopEigen;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.model.FittedModel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The shared contrastive problem every linear family builds on: the target and its
 * backgrounds, each centred on its own mean (and optionally standardised by its own
 * standard deviation), the space the problem is solved in (the d × d covariances, or the
 * exact reduced space of the stacked data when features outnumber samples, see
 * {@link ReducedSpace}; or the same from a Gram matrix or from moments), with
 * ‖C_t‖_F and ‖C_b‖_F, the target's total variance and the solver of {@code C_t − αC_b},
 * and the one way every family turns its solution into a model ({@link #build}).
 * Covariances are normalised by {@code n − 1}.
 * <p>
 * {@link #fit}, {@link #fromGram}, {@link #fromMoments} and {@link #fromRange} do the
 * expensive part once ({@link Preparation}); every model after it — any α, α = ∞, PCA,
 * the automatic α sweep, cPCA*, cPCA++, UCA, rPCA — is small dense algebra on that space.
 * cPCA's own models (Abid et al., Nature Communications 2018: the top-k eigenvectors of
 * {@code C_t − αC_b}; α = 0 is PCA of the target, α = ∞ PCA of the target inside the
 * null space of {@code C_b}) are made by {@link CpcaModels}, reached through
 * {@link #model}, {@link #pca} and {@link #automatic}. A {@code Cpca} is immutable and
 * safe to share between threads.
 * <p>
 * A little over 500 lines, most of them the javadoc of the entry points other code
 * calls; the work is in {@link Preparation} and {@link CpcaModels}.
 * <p>
 * Conventions: eigenpairs sorted by signed eigenvalue, descending; each component is a
 * unit vector whose entry of largest magnitude is positive; if fewer than k directions
 * have positive eigenvalue, k components are still returned with a diagnostic.
 */
public final class Cpca {

	/** Relative threshold below which a background eigenvalue counts as zero (α = ∞). */
	public static final double NULL_SPACE_TOLERANCE = 1e-10;

	private final Dataset target;
	private final List<Dataset> backgrounds;
	/** The target's name, sample count and labels (also known for a fit from moments). */
	private final String targetName;
	private final int targetSamples;
	private final List<String> targetLabels;
	/** Every background's name and sample count, in the order given. */
	private final List<String> backgroundNames;
	private final long[] backgroundSamples;
	private final CpcaOptions options;
	private final Preprocessing targetPre;
	private final ContrastiveSpace space;
	private final List<String> diagnostics;
	/** Built on first use (the one-time tridiagonalisation of B); see {@link #solver()}. */
	private volatile ContrastSolver solver;
	/** See {@link #lastSolves()}. */
	private volatile boolean lastSolves;
	/** For a fit without samples: the backgrounds' fourth moments, or {@code null}. */
	private final FourthMoments fourth;
	/** For a fit without samples: moments of subsets of the samples, or {@code null}. */
	private final SubsetMoments subsets;
	/** For a fit without samples: each background's feature variances, or {@code null}. */
	private final double[][] featureVariances;

	/**
	 * The moments of a subset of one dataset's samples (dataset 0 is the target, j + 1
	 * background j; {@code rows} the sample indices, in sample order): what a refit on a
	 * split of the samples needs (PCPCA's held-out log-likelihood, docs/math/pcpca.md)
	 * when the samples are held elsewhere (one pass per call, docs/spark.md).
	 */
	public interface SubsetMoments {

		Moments of(int dataset, BitSet rows);
	}

	/**
	 * {@code Σ_i ‖y_i‖⁴} over background j's samples y_i, preprocessed (centred, and
	 * standardised if the fit is) on their own as the fit preprocesses them: what
	 * cPCA++'s Ledoit–Wolf ridge needs besides C_b (docs/math/star.md). A fit from samples
	 * computes it from them; a fit from moments asks the samples' holder (one more pass,
	 * docs/spark.md).
	 */
	public interface FourthMoments {

		double sum(int background);
	}

	/** A fit from samples (see {@link #fit}). */
	Cpca(final Dataset target, final List<Dataset> backgrounds, final CpcaOptions options,
		final Preprocessing targetPre, final ContrastiveSpace space,
		final List<String> diagnostics)
	{
		this(target, backgrounds, target.name(), target.samples(), target.labels(),
			Collections.unmodifiableList(backgrounds.stream().map(Dataset::name).collect(
				Collectors.toList())), backgrounds.stream().mapToLong(Dataset::samples)
					.toArray(), options, targetPre, space, Collections.unmodifiableList(
						diagnostics), null, null, null);
	}

	/** A fit without samples in memory (see {@link #fromMoments}, {@link #fromGram}). */
	Cpca(final String targetName, final int targetSamples, final List<String> targetLabels,
		final List<String> backgroundNames, final long[] backgroundSamples,
		final CpcaOptions options, final Preprocessing targetPre,
		final ContrastiveSpace space, final List<String> diagnostics)
	{
		this(null, List.of(), targetName, targetSamples, targetLabels == null ? null
			: Collections.unmodifiableList(new ArrayList<>(targetLabels)), Collections
				.unmodifiableList(new ArrayList<>(backgroundNames)), backgroundSamples.clone(),
			options, targetPre, space, Collections.unmodifiableList(diagnostics), null, null,
			null);
	}

	private Cpca(final Dataset target, final List<Dataset> backgrounds,
		final String targetName, final int targetSamples, final List<String> targetLabels,
		final List<String> backgroundNames, final long[] backgroundSamples,
		final CpcaOptions options, final Preprocessing targetPre,
		final ContrastiveSpace space, final List<String> diagnostics,
		final FourthMoments fourth, final SubsetMoments subsets,
		final double[][] featureVariances)
	{
		this.target = target;
		this.backgrounds = backgrounds;
		this.targetName = targetName;
		this.targetSamples = targetSamples;
		this.targetLabels = targetLabels;
		this.backgroundNames = backgroundNames;
		this.backgroundSamples = backgroundSamples;
		this.options = options;
		this.targetPre = targetPre;
		this.space = space;
		this.diagnostics = diagnostics;
		this.fourth = fourth;
		this.subsets = subsets;
		this.featureVariances = featureVariances;
	}

	/**
	 * This fit, with the backgrounds' fourth moments ({@link #backgroundFourthMoment}) asked
	 * of {@code fourth} (for a fit without samples: from moments or a Gram matrix).
	 */
	public Cpca withFourthMoments(final FourthMoments fourth) {
		return with(fourth, subsets, featureVariances);
	}

	/** This fit, with moments of subsets of its samples asked of {@code subsets}. */
	public Cpca withSubsetMoments(final SubsetMoments subsets) {
		return with(fourth, subsets, featureVariances);
	}

	/**
	 * This fit, with each background's variance of each of its d features (raw values,
	 * divided by n − 1; in background order) for a fit whose space keeps only their sum (from
	 * a Gram matrix): UCA's constraint scale, the median of them (docs/math/uca.md).
	 */
	public Cpca withFeatureVariances(final double[][] variances) {
		return with(fourth, subsets, variances);
	}

	private Cpca with(final FourthMoments fourth, final SubsetMoments subsets,
		final double[][] variances)
	{
		return new Cpca(target, backgrounds, targetName, targetSamples, targetLabels,
			backgroundNames, backgroundSamples, options, targetPre, space, diagnostics, fourth,
			subsets, variances);
	}

	/**
	 * Background j's variance of each raw feature (n − 1) given by
	 * {@link #withFeatureVariances}, or {@code null} (a fit from samples computes them).
	 */
	public double[] backgroundFeatureVariances(final int j) {
		return featureVariances == null ? null : featureVariances[j];
	}

	/** Moments of subsets of the samples of a fit without samples, or {@code null}. */
	public SubsetMoments subsetMoments() {
		return subsets;
	}

	/**
	 * {@code Σ_i ‖y_i‖⁴} of background j's preprocessed samples ({@link FourthMoments}):
	 * from the samples when the fit has them, else from the fit's {@link FourthMoments};
	 * NaN when neither is available.
	 */
	public double backgroundFourthMoment(final int j) {
		if (!backgrounds.isEmpty()) {
			final Dataset x = backgrounds.get(j);
			final int n = x.samples(), d = x.features();
			final Preprocessing pre = Preprocessing.fit(x, options.standardize(),
				new ArrayList<>());
			double sum = 0;
			for (int i = 0; i < n; i++) {
				final float[] row = x.row(i);
				double norm = 0;
				for (int f = 0; f < d; f++) {
					final double y = pre.apply(f, row[f]);
					norm += y * y;
				}
				sum += norm * norm;
			}
			return sum;
		}
		return fourth == null ? Double.NaN : fourth.sum(j);
	}

	/**
	 * Prepares a fit from each dataset's moments (count, mean, scatter; see
	 * {@link Moments}) instead of its samples — how a cluster fits data spread over many
	 * machines (docs/math/spark.md): the samples are reduced to moments where they are,
	 * the moments are merged, and this fit runs every linear method on the merged
	 * covariances exactly as {@link #fit} does (the d × d feature space: every α,
	 * α = ∞, the automatic α sweep, cPCA*, cPCA++, UCA, rPCA). Equal to {@link #fit} on
	 * the same samples to rounding; the checks and messages are the same.
	 * <p>
	 * Target scores (for the models and the rare rank-deficient sweep) are asked of
	 * {@code projection}, which makes one pass over the target samples per model.
	 *
	 * @param targetLabels one class label per target sample, or {@code null}
	 * @param backgroundNames one name per background moments, in the same order
	 */
	public static Cpca fromMoments(final String targetName, final Moments target,
		final List<String> targetLabels, final List<String> backgroundNames,
		final List<Moments> backgrounds, final CpcaOptions options,
		final TargetProjection projection)
	{
		return Preparation.moments(targetName, target, targetLabels, backgroundNames,
			backgrounds, options, projection, null, null, target.features(), Double.NaN);
	}

	/**
	 * A fit in a shared subspace of feature space (the randomized range of
	 * docs/math/spark.md): the moments are those of the preprocessed samples projected on
	 * an orthonormal basis Q (d × r), so A = QᵀC_tQ and B = QᵀC_bQ are r × r; every
	 * method then runs as {@link #fromMoments} does, and each solution w maps back to the
	 * component Qw. Exact when the preprocessed data lie in the span of Q.
	 *
	 * @param targetPre each target sample's preprocessing before the projection (d
	 *          features; kept in the models and used by {@code projection})
	 * @param targetTotalVariance trace of the target's covariance in feature space
	 * @param target the moments of Qᵀx̃ for the target samples x̃ (r features)
	 * @param backgrounds the same for every background (each preprocessed on its own)
	 * @param basis Q, d × r, row-major, orthonormal columns
	 */
	public static Cpca fromRange(final String targetName, final Preprocessing targetPre,
		final double targetTotalVariance, final Moments target,
		final List<String> targetLabels, final List<String> backgroundNames,
		final List<Moments> backgrounds, final CpcaOptions options, final double[] basis,
		final int features, final TargetProjection projection)
	{
		if (basis.length != (long) features * target.features())
			throw new IllegalArgumentException("the basis has " + basis.length +
				" entries but needs " + features + " × " + target.features());
		return Preparation.moments(targetName, target, targetLabels, backgroundNames,
			backgrounds, options, projection, targetPre, basis, features, targetTotalVariance);
	}

	/**
	 * Prepares target and background for any α.
	 *
	 * @param background may be {@code null} for plain PCA
	 * @throws IllegalArgumentException for data that cannot be analysed, with a message
	 *           saying what to do
	 */
	public static Cpca fit(final Dataset target, final Dataset background,
		final CpcaOptions options, final Progress progress)
	{
		return fit(target, background == null ? List.of() : List.of(background), options,
			progress);
	}

	/**
	 * Prepares the target and any number of backgrounds (each centred, and optionally
	 * standardised, on its own) in one space built once. cPCA at α ({@link #model}) takes
	 * exactly one background; UCA takes several.
	 *
	 * @param backgrounds empty for plain PCA
	 */
	public static Cpca fit(final Dataset target, final List<Dataset> backgrounds,
		final CpcaOptions options, final Progress progress)
	{
		return Preparation.samples(target, backgrounds, options, progress);
	}

	/**
	 * Prepares a fit from the Gram matrix {@code G = ZZᵀ} of the stacked preprocessed
	 * samples {@code Z = [X̃_t; X̃_b1; …]} (N × N, N = n_t + Σ n_b) instead of the samples:
	 * the exact reduced space of {@link #fit} when features far outnumber samples (many
	 * pixels, up to ~10⁴ images), for samples held elsewhere (docs/math/spark.md). Target
	 * scores need no pass over the data; each model's components take one, asked of
	 * {@code lift} (one for all the models announced by {@link #componentsAhead}). Equal to {@link #fit} on the same samples to rounding.
	 *
	 * @param targetPre the preprocessing each target sample received before G was formed
	 *          (kept in the models, for transforming new data)
	 * @param gram ZZᵀ, row-major, rows and columns in stacked order
	 * @param features d
	 */
	public static Cpca fromGram(final String targetName, final Preprocessing targetPre,
		final int targetSamples, final List<String> targetLabels,
		final List<String> backgroundNames, final long[] backgroundSamples,
		final double[] gram, final int features, final CpcaOptions options,
		final GramLift lift)
	{
		return Preparation.gram(targetName, targetPre, targetSamples, targetLabels,
			backgroundNames, backgroundSamples, gram, features, options, lift);
	}

	public CpcaOptions options() {
		return options;
	}

	/** Notes from preparing the data (which space, zero-variance features, …). */
	public List<String> diagnostics() {
		return diagnostics;
	}

	/** Dimension of the space the problem is solved in: d, or the data's rank r. */
	public int rank() {
		return space.dimension();
	}

	/** Whether the exact reduced space (not the d × d covariances) is in use. */
	public boolean reducedSpace() {
		return space instanceof ReducedSpace || space instanceof GramSpace;
	}

	/** PCA of the target; background variances are reported when a background was given. */
	public CpcaModel pca() {
		return new CpcaModels(this).pca();
	}

	/**
	 * cPCA at α.
	 *
	 * @param alpha ≥ 0, or {@link Double#POSITIVE_INFINITY} for α = ∞
	 */
	public CpcaModel model(final double alpha) {
		return new CpcaModels(this).model(alpha);
	}

	/** The automatic α selection of docs/math/cpca.md with this fit's options. */
	public AlphaSelection<CpcaModel> automatic(final Progress progress) {
		return new CpcaModels(this).automatic(progress);
	}

	/**
	 * Solves at α on the grid with a warm start; used by the sweep (see
	 * {@link CpcaModels#solve}).
	 */
	TopEigen.Result solve(final double alpha, final double[][] warm) {
		return new CpcaModels(this).solve(alpha, warm);
	}

	/** Number of backgrounds this fit was prepared with. */
	public int backgroundCount() {
		return backgroundNames.size();
	}

	/** The backgrounds, in the order given (empty for a fit {@link #fromMoments}). */
	public List<Dataset> backgrounds() {
		return backgrounds;
	}

	/** Every background's name, in the order given. */
	public List<String> backgroundNames() {
		return backgroundNames;
	}

	/** Number of samples of background j (0-based). */
	public long backgroundSamples(final int j) {
		return backgroundSamples[j];
	}

	/** The target's name. */
	public String targetName() {
		return targetName;
	}

	/** Number of target samples n_t. */
	public int targetSamples() {
		return targetSamples;
	}

	/** Class labels of the target samples, or {@code null}. */
	public List<String> targetLabels() {
		return targetLabels;
	}

	/** The space the problem is solved in (shared: do not modify its matrices). */
	public ContrastiveSpace space() {
		return space;
	}

	/**
	 * Announces the coefficients of the models about to be {@link #build built} (m × k
	 * each, row-major, as they will be passed): a fit from a Gram matrix then computes all
	 * their components in one pass over the data instead of one pass per model.
	 */
	public void componentsAhead(final List<double[]> ws, final int k) {
		beforeComponents();
		space.componentsAhead(ws, k);
	}

	public static void checkAlpha(final double alpha) {
		if (!(alpha >= 0)) throw new IllegalArgumentException("α must be ≥ 0 (got " +
			alpha + "): use 0 for PCA, a positive value, inf for the background's null " +
			"space, or auto");
	}

	/**
	 * Whether the target still shows in {@code A − αB} in floating point: {@code α‖B‖_F ≤
	 * ‖A‖_F/ε} (see {@link #requireResolved(double, double, double)}).
	 */
	static boolean resolved(final double normA, final double normB, final double alpha) {
		return !(alpha > 0) || alpha * normB <= normA / EPSILON;
	}

	/**
	 * Refuses a finite α at which the target no longer shows in {@code A − αB}: when
	 * {@code α‖B‖_F > ‖A‖_F/ε} the target's part lies below the rounding of αB (and far
	 * enough above it, the numbers overflow), so the result would be rounding noise, not
	 * the limit α → ∞, which α = ∞ computes exactly (docs/math/cpca.md).
	 *
	 * @param normA ‖A‖_F (the target's covariance in the fit's space)
	 * @param normB ‖B‖_F (the background's)
	 */
	public static void requireResolved(final double normA, final double normB,
		final double alpha)
	{
		requireResolved(normA, normB, alpha, "use inf for the limit α → ∞, or a smaller α");
	}

	/** {@link #requireResolved(double, double, double)} with the fix to offer. */
	public static void requireResolved(final double normA, final double normB,
		final double alpha, final String fix)
	{
		if (!resolved(normA, normB, alpha)) throw new IllegalArgumentException(
			"α = " + FittedModel.alphaText(alpha) + " is too large for these data: the target " +
				"is below the rounding of α·C_b (α‖C_b‖_F > ‖C_t‖_F/ε), so the result would be " +
				"rounding noise; " + fix);
	}

	/** The unit roundoff of doubles (2⁻⁵²). */
	private static final double EPSILON = Math.ulp(1.0);

	/**
	 * The solver for every finite α, built once and shared: B is tridiagonalised and A
	 * carried into the same basis the first time it is needed (see {@link ContrastSolver}).
	 * Every α is then solved by the same deterministic method whether or not other α were
	 * solved before, so results do not depend on call order.
	 */
	public ContrastSolver solver() {
		ContrastSolver s = solver;
		if (s == null) synchronized (this) {
			s = solver;
			if (s == null) solver = s = ContrastSolver.build(space.a, space.b, space
				.dimension());
		}
		return s;
	}

	/**
	 * Keeps the solver's matrix in native memory until the hold is closed
	 * ({@link ContrastSolver#hold}), for a sweep's many solves; where that does nothing
	 * ({@link ContrastSolver#resides}) the solver is not even prepared here.
	 */
	public ContrastSolver.Hold holdSolver() {
		return ContrastSolver.resides(space.dimension()) ? solver().hold() : () -> {};
	}

	/**
	 * Says that the models asked for next are the last this run solves for. In a reduced
	 * space their components need L, LᵀL's factor and the data but not the prepared
	 * solver (two r × r matrices): the solver is then let go before the components are
	 * lifted, so that the three are not alive together (docs/memory.md). A later solve
	 * (Fiji's α explorer) prepares it again, to the same bits.
	 */
	public void lastSolves() {
		lastSolves = true;
	}

	/**
	 * Lets go of the solver before components are lifted, once after {@link #lastSolves()}
	 * (a solve after that keeps the solver it prepares).
	 */
	private synchronized void beforeComponents() {
		if (!lastSolves) return;
		lastSolves = false;
		if (reducedSpace()) solver = null;
	}

	public double[] targetScores(final double[] w, final int k) {
		return space.targetScores(w, k);
	}

	/** The target samples ({@code null} for a fit {@link #fromMoments}). */
	public Dataset target() {
		return target;
	}

	public CpcaModel build(final double alpha, final TopEigen.Result top) {
		return build("cpca", alpha, top.values, top.vectors, options.components(),
			new ArrayList<>());
	}

	private static double[] nans(final int k) {
		final double[] v = new double[k];
		Arrays.fill(v, Double.NaN);
		return v;
	}

	/**
	 * Turns the m × k coefficients w into a model: components in feature space with the sign
	 * rule, per-component variances, scores and diagnostics.
	 */
	CpcaModel build(final String method, final double alpha,
		final double[] values, final double[] w, final int k, final List<String> notes)
	{
		return build(method, alpha, Collections.emptyMap(), values, w, k, notes);
	}

	/**
	 * Turns the m × k coefficients w (row-major, in this fit's space, orthonormal columns:
	 * the space's components are then unit vectors) into a model of any
	 * linear method: components in feature space with the sign rule (w is flipped along),
	 * target and (first) background variance per component, training scores and
	 * diagnostics. {@code parameters} are the method's own settings (β, λ_j, k_b, …):
	 * values are {@link Double} or {@code double[]}.
	 */
	public CpcaModel build(final String method, final double alpha,
		final Map<String, Object> parameters, final double[] values, final double[] w,
		final int k, final List<String> notes)
	{
		final int m = space.dimension();
		beforeComponents();
		final double[][] components = space.components(w, k);
		for (int c = 0; c < k; c++) {
			int arg = 0;
			for (int j = 1; j < components[c].length; j++)
				if (Math.abs(components[c][j]) > Math.abs(components[c][arg])) arg = j;
			if (components[c][arg] < 0) {
				for (int j = 0; j < components[c].length; j++)
					components[c][j] = -components[c][j];
				for (int i = 0; i < m; i++)
					w[i * k + c] = -w[i * k + c];
			}
		}
		final double[] flat = space.targetScores(w, k);
		// the target scores are the centred target projected on the unit components, so
		// their variance is vᵀC_tv: no pass over A
		final double[] tv = new double[k];
		final int nt = targetSamples;
		for (int i = 0; i < nt; i++)
			for (int c = 0; c < k; c++)
				tv[c] += flat[i * k + c] * flat[i * k + c];
		for (int c = 0; c < k; c++)
			tv[c] /= nt - 1;
		final double[] bv = backgroundNames.isEmpty() ? nans(k) : space.quadratics(space.b, w,
			k);
		int positive = 0;
		for (int c = 0; c < k; c++)
			if (values[c] > 0) positive++;
		final List<String> diag = new ArrayList<>(diagnostics);
		diag.addAll(notes);
		if (positive < k && "cpca".equals(method) && alpha != Double.POSITIVE_INFINITY)
			diag.add("only " + positive + " of " + k + " directions " + (positive == 1 ? "has"
				: "have") + " more target than background variance at α = " + FittedModel
					.alphaText(alpha) + " (eigenvalue > 0); the others are returned but carry " +
				"no contrast");
		final double[][] scores = new double[nt][k];
		for (int i = 0; i < scores.length; i++)
			for (int c = 0; c < k; c++) {
				final double s = flat[i * k + c];
				scores[i][c] = options.whiten() && tv[c] > 0 ? s / Math.sqrt(tv[c]) : s;
			}
		return new CpcaModel(method, alpha, parameters, components, values.clone(), tv, bv,
			space.targetTotalVariance, targetPre, options.whiten(), diag,
			Collections.emptyMap(), scores);
	}
}
