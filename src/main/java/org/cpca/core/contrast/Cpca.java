package org.cpca.core.contrast;

import org.cpca.core.Progress;
import org.cpca.core.data.Dataset;
import org.cpca.core.data.Preprocessing;
import org.cpca.core.linalg.ContrastSolver;
import org.cpca.core.linalg.Products;
import org.cpca.core.linalg.SymmetricEigen;
import org.cpca.core.linalg.TopEigen;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.model.FittedModel;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Contrastive PCA (Abid et al., Nature Communications 2018) and PCA as its α = 0 case.
 * <p>
 * Components are the top-k eigenvectors of {@code C(α) = C_t − αC_b}, with each dataset
 * centred on its own mean (and optionally standardised by its own standard deviation) and
 * covariances normalised by {@code n − 1}. α = 0 is PCA of the target; α = ∞ is PCA of the
 * target inside the null space of {@code C_b}.
 * <p>
 * {@link #fit} does the expensive part once (preprocessing and the covariances, or the
 * exact reduced space when features outnumber samples, see {@link ReducedSpace}); every
 * model after it — any α, α = ∞, PCA, the automatic α sweep — is small dense algebra on
 * that space. A {@code Cpca} is immutable and safe to share between threads.
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
	/** Rows of A for the sweep's block products, built on first use. */
	private volatile double[][] targetRows;
	/** For a fit without samples: the backgrounds' fourth moments, or {@code null}. */
	private final FourthMoments fourth;
	/** For a fit without samples: moments of subsets of the samples, or {@code null}. */
	private final SubsetMoments subsets;

	/**
	 * The moments of a subset of one dataset's samples (dataset 0 is the target, j + 1
	 * background j; {@code rows} the sample indices, in sample order): what a refit on a
	 * split of the samples needs (PCPCA's held-out log-likelihood, docs/math/pcpca.md)
	 * when the samples are held elsewhere (one pass per call, docs/spark.md).
	 */
	public interface SubsetMoments {

		Moments of(int dataset, java.util.BitSet rows);
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

	private Cpca(final Dataset target, final List<Dataset> backgrounds,
		final CpcaOptions options, final Preprocessing targetPre,
		final ContrastiveSpace space, final List<String> diagnostics)
	{
		this.target = target;
		this.backgrounds = backgrounds;
		this.targetName = target.name();
		this.targetSamples = target.samples();
		this.targetLabels = target.labels();
		final List<String> names = new ArrayList<>();
		this.backgroundSamples = new long[backgrounds.size()];
		for (int j = 0; j < backgrounds.size(); j++) {
			names.add(backgrounds.get(j).name());
			backgroundSamples[j] = backgrounds.get(j).samples();
		}
		this.backgroundNames = Collections.unmodifiableList(names);
		this.options = options;
		this.targetPre = targetPre;
		this.space = space;
		this.diagnostics = Collections.unmodifiableList(diagnostics);
		this.fourth = null;
		this.subsets = null;
	}

	/** A fit from moments: no samples in memory (see {@link #fromMoments}). */
	private Cpca(final String targetName, final int targetSamples,
		final List<String> targetLabels, final List<String> backgroundNames,
		final long[] backgroundSamples, final CpcaOptions options,
		final Preprocessing targetPre, final ContrastiveSpace space,
		final List<String> diagnostics)
	{
		this.target = null;
		this.backgrounds = List.of();
		this.targetName = targetName;
		this.targetSamples = targetSamples;
		this.targetLabels = targetLabels == null ? null : Collections.unmodifiableList(
			new ArrayList<>(targetLabels));
		this.backgroundNames = Collections.unmodifiableList(new ArrayList<>(
			backgroundNames));
		this.backgroundSamples = backgroundSamples.clone();
		this.options = options;
		this.targetPre = targetPre;
		this.space = space;
		this.diagnostics = Collections.unmodifiableList(diagnostics);
		this.fourth = null;
		this.subsets = null;
	}

	/** A copy of {@code o} with these hooks for a fit without samples. */
	private Cpca(final Cpca o, final FourthMoments fourth, final SubsetMoments subsets) {
		this.target = o.target;
		this.backgrounds = o.backgrounds;
		this.targetName = o.targetName;
		this.targetSamples = o.targetSamples;
		this.targetLabels = o.targetLabels;
		this.backgroundNames = o.backgroundNames;
		this.backgroundSamples = o.backgroundSamples;
		this.options = o.options;
		this.targetPre = o.targetPre;
		this.space = o.space;
		this.diagnostics = o.diagnostics;
		this.fourth = fourth;
		this.subsets = subsets;
	}

	/**
	 * This fit, with the backgrounds' fourth moments ({@link #backgroundFourthMoment}) asked
	 * of {@code fourth} (for a fit without samples: from moments or a Gram matrix).
	 */
	public Cpca withFourthMoments(final FourthMoments fourth) {
		return new Cpca(this, fourth, subsets);
	}

	/** This fit, with moments of subsets of its samples asked of {@code subsets}. */
	public Cpca withSubsetMoments(final SubsetMoments subsets) {
		return new Cpca(this, fourth, subsets);
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
		return fromMoments(targetName, target, targetLabels, backgroundNames, backgrounds,
			options, projection, null, null, target.features(), Double.NaN);
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
		return fromMoments(targetName, target, targetLabels, backgroundNames, backgrounds,
			options, projection, targetPre, basis, features, targetTotalVariance);
	}

	/** {@link #fromMoments}, or {@link #fromRange} when {@code basis} is given. */
	private static Cpca fromMoments(final String targetName, final Moments target,
		final List<String> targetLabels, final List<String> backgroundNames,
		final List<Moments> backgrounds, final CpcaOptions options,
		final TargetProjection projection, final Preprocessing rangePre,
		final double[] basis, final int features, final double total)
	{
		if (backgroundNames.size() != backgrounds.size()) throw new IllegalArgumentException(
			backgroundNames.size() + " background names for " + backgrounds.size() +
				" backgrounds: give one name per background");
		requireSamples(targetName, target.count());
		final int d = target.features();
		for (int j = 0; j < backgrounds.size(); j++) {
			final Moments b = backgrounds.get(j);
			requireSamples(backgroundNames.get(j), b.count());
			if (b.features() != d) throw new IllegalArgumentException(backgroundNames.get(j) +
				" has " + b.features() + " features but " + targetName + " has " + d +
				": both must have the same features (the same image " +
				"width × height, mask and binning, or the same table columns)");
		}
		if (target.count() > Integer.MAX_VALUE) throw new IllegalArgumentException(
			targetName + " has " + target.count() + " samples: at most " + Integer.MAX_VALUE +
			" target samples can be scored");
		if (targetLabels != null && targetLabels.size() != target.count())
			throw new IllegalArgumentException(targetName + " has " + target.count() +
				" samples but " + targetLabels.size() +
				" labels were given: give exactly one label per sample, in sample order");
		final List<String> diagnostics = new ArrayList<>();
		// in a range the samples were standardised before the projection: centre only
		final boolean standardize = basis == null && options.standardize();
		final Preprocessing tp = target.preprocessing(targetName, standardize, diagnostics);
		final double[][] b = new double[backgrounds.size()][];
		final long[] nb = new long[b.length];
		for (int j = 0; j < b.length; j++) {
			final Moments x = backgrounds.get(j);
			b[j] = x.covariance(x.preprocessing(backgroundNames.get(j), standardize,
				diagnostics));
			nb[j] = x.count();
		}
		final MomentSpace space = new MomentSpace(d, target.covariance(tp), b, basis == null
			? tp : rangePre, projection, basis, features, total);
		diagnostics.add(space.description());
		if (!(space.targetTotalVariance > 0)) throw new IllegalArgumentException(
			targetName + " is constant: all its samples are identical" + (options
				.standardize() ? "" : " after centring") +
				", so there is no variation to analyse; check that the right images or " +
				"columns were given");
		for (int j = 0; j < b.length; j++)
			if (isZero(b[j])) diagnostics.add(backgroundNames.get(j) +
				" is constant (zero variance): it removes nothing (cPCA equals PCA for " +
				"every α)");
		final int k = options.components();
		if (k > space.dimension()) throw new IllegalArgumentException("k = " + k +
			" components were requested but the data allow at most " + space.dimension() +
			" (the rank of the centred " + (b.length == 0 ? "target" : "target and " +
				"background") + "): choose k ≤ " + space.dimension() + " or add samples");
		return new Cpca(targetName, (int) target.count(), targetLabels, backgroundNames, nb,
			options, basis == null ? tp : rangePre, space, diagnostics);
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
		requireSamples(target);
		for (final Dataset background : backgrounds) {
			requireSamples(background);
			if (background.features() != target.features())
				throw new IllegalArgumentException(background.name() + " has " + background
					.features() + " features but " + target.name() + " has " + target
						.features() + ": both must have the same features (the same image " +
						"width × height, mask and binning, or the same table columns)");
		}
		final List<String> diagnostics = new ArrayList<>();
		final Preprocessing tp = Preprocessing.fit(target, options.standardize(),
			diagnostics);
		final Dataset[] bs = backgrounds.toArray(new Dataset[0]);
		final Preprocessing[] bps = new Preprocessing[bs.length];
		for (int j = 0; j < bs.length; j++)
			bps[j] = Preprocessing.fit(bs[j], options.standardize(), diagnostics);
		progress.stage("preprocessing", 1);
		final ContrastiveSpace space = ContrastiveSpace.build(target, tp, bs, bps, options
			.space(), progress);
		diagnostics.add(space.description());
		if (!(space.targetTotalVariance > 0)) throw new IllegalArgumentException(target
			.name() + " is constant: all its samples are identical" +
			(options.standardize() ? "" : " after centring") +
			", so there is no variation to analyse; check that the right images or " +
			"columns were given");
		for (int j = 0; j < bs.length; j++)
			if (isZero(space.backgrounds[j])) diagnostics.add(bs[j].name() +
				" is constant (zero variance): it removes nothing (cPCA equals PCA for " +
				"every α)");
		final int k = options.components();
		if (k > space.dimension()) throw new IllegalArgumentException("k = " + k +
			" components were requested but the data allow at most " + space.dimension() +
			" (the rank of the centred " + (bs.length == 0 ? "target" : "target and " +
				"background") + "): choose k ≤ " + space.dimension() + " or add samples");
		return new Cpca(target, List.of(bs), options, tp, space, diagnostics);
	}

	/**
	 * Prepares a fit from the Gram matrix {@code G = ZZᵀ} of the stacked preprocessed
	 * samples {@code Z = [X̃_t; X̃_b1; …]} (N × N, N = n_t + Σ n_b) instead of the samples:
	 * the exact reduced space of {@link #fit} when features far outnumber samples (many
	 * pixels, up to ~10⁴ images), for samples held elsewhere (docs/math/spark.md). Target
	 * scores need no pass over the data; each model's components take one, asked of
	 * {@code lift}. Equal to {@link #fit} on the same samples to rounding.
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
		if (backgroundNames.size() != backgroundSamples.length)
			throw new IllegalArgumentException(backgroundNames.size() + " background names " +
				"for " + backgroundSamples.length + " backgrounds: give one name per background");
		requireSamples(targetName, targetSamples);
		long n = targetSamples;
		for (int j = 0; j < backgroundSamples.length; j++) {
			requireSamples(backgroundNames.get(j), backgroundSamples[j]);
			n += backgroundSamples[j];
		}
		if (gram.length != n * n) throw new IllegalArgumentException("the Gram matrix has " +
			gram.length + " entries but the datasets have " + n + " samples in all (need " +
			n + " × " + n + ")");
		if (targetLabels != null && targetLabels.size() != targetSamples)
			throw new IllegalArgumentException(targetName + " has " + targetSamples +
				" samples but " + targetLabels.size() +
				" labels were given: give exactly one label per sample, in sample order");
		final List<String> diagnostics = new ArrayList<>();
		final GramSpace space = GramSpace.build(gram, targetSamples, backgroundSamples,
			features, lift);
		diagnostics.add(space.description());
		if (!(space.targetTotalVariance > 0)) throw new IllegalArgumentException(
			targetName + " is constant: all its samples are identical" + (options
				.standardize() ? "" : " after centring") +
				", so there is no variation to analyse; check that the right images or " +
				"columns were given");
		for (int j = 0; j < backgroundSamples.length; j++)
			if (isZero(space.backgrounds[j])) diagnostics.add(backgroundNames.get(j) +
				" is constant (zero variance): it removes nothing (cPCA equals PCA for " +
				"every α)");
		final int k = options.components();
		if (k > space.dimension()) throw new IllegalArgumentException("k = " + k +
			" components were requested but the data allow at most " + space.dimension() +
			" (the rank of the centred " + (backgroundSamples.length == 0 ? "target"
				: "target and background") + "): choose k ≤ " + space.dimension() +
			" or add samples");
		return new Cpca(targetName, targetSamples, targetLabels, backgroundNames,
			backgroundSamples, options, targetPre, space, diagnostics);
	}

	private static void requireSamples(final Dataset x) {
		requireSamples(x.name(), x.samples());
	}

	private static void requireSamples(final String name, final long samples) {
		if (samples < 2) throw new IllegalArgumentException(name + " has only " + samples +
			" sample: a covariance needs at least 2 samples (slices or rows)");
	}

	private static boolean isZero(final double[] m) {
		for (final double v : m)
			if (v != 0) return false;
		return true;
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
		int k = options.components();
		if (options.varianceFraction() > 0) {
			final SymmetricEigen e = SymmetricEigen.of(space.a, space.dimension());
			double sum = 0;
			k = 0;
			while (k < e.size() && sum < options.varianceFraction() *
				space.targetTotalVariance * (1 - 1e-12))
				sum += Math.max(0, e.value(k++));
			k = Math.max(1, k);
			return build("pca", Double.NaN, java.util.Arrays.copyOf(e.values(), k), e
				.vectors(k), k, new ArrayList<>(List.of("k = " + k + " retains " + String
					.format(java.util.Locale.ROOT, "%.4g", sum / space.targetTotalVariance) +
					" of the target variance (asked for " + options.varianceFraction() + ")")));
		}
		final TopEigen.Result top = TopEigen.solve(space.a, space.dimension(), k, null,
			options.seed());
		return build("pca", Double.NaN, top.values, top.vectors, k, new ArrayList<>());
	}

	/**
	 * cPCA at α.
	 *
	 * @param alpha ≥ 0, or {@link Double#POSITIVE_INFINITY} for α = ∞
	 */
	public CpcaModel model(final double alpha) {
		checkAlpha(alpha);
		requireOneBackground("cPCA");
		if (alpha == Double.POSITIVE_INFINITY) return atInfinity();
		requireResolved(space.normA, space.normB, alpha);
		final TopEigen.Result top = single(alpha);
		return build("cpca", alpha, top.values, top.vectors, options.components(),
			new ArrayList<>());
	}

	/**
	 * Above {@code α‖B‖_F > DIRECT_RATIO·‖A‖_F} the direct path is not even tried: the top
	 * of A − αB then comes from the low end of B's spectrum, typically a crowded noise
	 * floor that only the prepared solver's preconditioner resolves quickly. Only speed
	 * depends on this rule (both paths are exact), and it depends only on the data and α.
	 */
	static final double DIRECT_RATIO = 4;


	/** Iteration budget of the direct single-α solve, from the problem size. */
	static int directIterations(final int m) {
		return Math.max(40, Math.min(120, m / 8));
	}

	/**
	 * One α, cold: first the direct LOBPCG on {@code A − αB} (no one-time preparation; see
	 * {@link ContrastSolver#direct}), and only if that does not converge within its budget
	 * the prepared solver. Both are deterministic functions of α, and which one is used
	 * depends only on α and the data, never on what was solved before: {@code model(α)} is
	 * bit-identical whatever the call order.
	 */
	private TopEigen.Result single(final double alpha) {
		return single(alpha, false);
	}

	/** @param solverBasis return the warm-start block in the prepared solver's basis */
	private TopEigen.Result single(final double alpha, final boolean solverBasis) {
		final int k = options.components(), m = space.dimension();
		final double[][][] partial = new double[1][][];
		final TopEigen.Result direct = alpha * space.normB > DIRECT_RATIO * space.normA ? null
			: ContrastSolver.direct(space.a, space.b, m, alpha, k, options
				.seed(), directIterations(m), partial);
		if (direct != null) return solverBasis ? solver().inBasis(direct) : direct;
		// the direct attempt's last block is a better start than random vectors
		final ContrastSolver s = solver();
		return s.solve(alpha, k, partial[0] == null ? null : s.inBasis(partial[0]), options
			.seed());
	}

	/** The automatic α selection of docs/math/cpca.md with this fit's options. */
	public AlphaSelection<CpcaModel> automatic(final Progress progress) {
		requireOneBackground("automatic α");
		final double[] grid = options.alphaGrid();
		final double top = grid[grid.length - 1];
		if (!resolved(space.normA, space.normB, top))
			throw new IllegalArgumentException("the α range reaches " + FittedModel.alphaText(
				top) + ", too large for these data: there the target is below the rounding of " +
				"α·C_b (α‖C_b‖_F > ‖C_t‖_F/ε); give a smaller α range (--alpha-range, or " +
				"alpha_range= in Fiji and macros)");
		return AlphaSelection.select(this, progress);
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

	private void requireOneBackground(final String what) {
		if (backgroundNames.size() > 1) throw new IllegalArgumentException(what +
			" takes one background but " + backgroundNames.size() + " were given: use UCA for " +
			"several backgrounds, or pool them into one");
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
	 * Solves at α on the grid with a warm start; used by the sweep. Without a warm start
	 * (the first grid value) this is exactly {@link #model}'s solve, so the sweep's first
	 * model equals {@code model(α)}; a direct result's vectors are then carried into the
	 * solver's basis to warm-start the next α.
	 */
	TopEigen.Result solve(final double alpha, final double[][] warm) {
		if (warm == null) return single(alpha, true);
		return solver().solve(alpha, options.components(), warm, options.seed());
	}

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

	/** Rows of A = C_t in the solver's space (built once, shared: do not modify). */
	double[][] targetRows() {
		double[][] r = targetRows;
		if (r == null) synchronized (this) {
			r = targetRows;
			if (r == null) {
				final int m = space.dimension();
				r = new double[m][];
				for (int i = 0; i < m; i++)
					r[i] = java.util.Arrays.copyOfRange(space.a, i * m, (i + 1) * m);
				targetRows = r;
			}
		}
		return r;
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
		java.util.Arrays.fill(v, Double.NaN);
		return v;
	}

	/**
	 * α = ∞ (docs/math/cpca.md): target PCA inside the null space of C_b, taken <b>inside the
	 * span of the data</b>. The span is the range of {@code A/‖A‖ + B/‖B‖} (both positive
	 * semi-definite, each scaled so that neither dataset's units hide the other's range); a
	 * direction outside it has no variance in either dataset (two collinear table columns,
	 * a constant pixel) and is no candidate, exactly as for finite α. Inside the span, the
	 * directions with background eigenvalue ≤ tol·λ_max(C_b) form the null space; if fewer
	 * than k of its directions carry target variance, those are returned with a diagnostic.
	 */
	private CpcaModel atInfinity() {
		if (backgroundNames.isEmpty()) throw new IllegalArgumentException(
			"α = ∞ needs a background");
		final int m = space.dimension();
		// 1. an orthonormal basis P (m × s) of the data's span
		final double na = space.normA, nbk = space.normB;
		final double[] sum = new double[m * m];
		for (int i = 0; i < sum.length; i++)
			sum[i] = (na > 0 ? space.a[i] / na : 0) + (nbk > 0 ? space.b[i] / nbk : 0);
		final SymmetricEigen es = SymmetricEigen.of(sum, m);
		final double spanThreshold = NULL_SPACE_TOLERANCE * Math.max(es.value(0), 0);
		int s = 0;
		while (s < m && es.value(s) > spanThreshold)
			s++;
		final double[] p = es.vectors(s);
		// 2. the background inside the span and its null space N (s × q)
		final double[] bs = Products.multiplyTransposed(p, m, s, Products.multiply(space.b, m,
			m, p, s), s);
		final double[] as = Products.multiplyTransposed(p, m, s, Products.multiply(space.a, m,
			m, p, s), s);
		symmetrise(bs, s);
		symmetrise(as, s);
		final SymmetricEigen eb = SymmetricEigen.of(bs, s);
		final double threshold = NULL_SPACE_TOLERANCE * Math.max(eb.value(0), 0);
		int rank = 0;
		while (rank < s && eb.value(rank) > threshold)
			rank++;
		final int q = s - rank;
		if (q == 0) throw new IllegalArgumentException("α = ∞ is undefined here: inside the " +
			"data's span the background covariance has no null space (the background varies " +
			"in every direction the target does); use a finite α, automatic α, or rPCA");
		final double[] all = eb.vectors();
		final double[] nb = new double[s * q];
		for (int i = 0; i < s; i++)
			System.arraycopy(all, i * s + rank, nb, i * q, q);
		// 3. target PCA inside the null space
		final double[] an = Products.multiplyTransposed(nb, s, q, Products.multiply(as, s, s,
			nb, q), q);
		symmetrise(an, q);
		final SymmetricEigen e = SymmetricEigen.of(an, q);
		final double targetThreshold = NULL_SPACE_TOLERANCE * Math.max(SymmetricEigen.of(
			space.a, m).value(0), 0);
		int withVariance = 0;
		while (withVariance < q && e.value(withVariance) > targetThreshold)
			withVariance++;
		final List<String> notes = new ArrayList<>();
		int k = options.components();
		if (withVariance == 0) throw new IllegalArgumentException("α = ∞ is undefined here: " +
			"the background's null space inside the data's span (" + q + " dimension(s)) " +
			"carries no target variance; use a finite α, automatic α, or rPCA");
		if (withVariance < k) {
			notes.add("α = ∞: inside the data's span only " + withVariance + " direction(s) " +
				"of the background's null space carry target variance; returning " +
				withVariance + " component(s) instead of " + k);
			k = withVariance;
		}
		final double[] w = Products.multiply(p, m, s, Products.multiply(nb, s, q, e.vectors(
			k), k), k);
		notes.add("α = ∞: target PCA inside the " + q + "-dimensional null space of the " +
			"background covariance (within the " + s + "-dimensional span of the data)");
		return build("cpca", Double.POSITIVE_INFINITY, java.util.Arrays.copyOf(e.values(),
			k), w, k, notes);
	}

	private static void symmetrise(final double[] x, final int n) {
		for (int i = 0; i < n; i++)
			for (int j = i + 1; j < n; j++) {
				final double v = 0.5 * (x[i * n + j] + x[j * n + i]);
				x[i * n + j] = v;
				x[j * n + i] = v;
			}
	}

	/**
	 * Turns the m × k coefficients w into a model: components in feature space with the sign
	 * rule, per-component variances, scores and diagnostics.
	 */
	private CpcaModel build(final String method, final double alpha,
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
