package org.cpca.core.kernel;

import org.cpca.core.Progress;
import org.cpca.core.contrast.AlphaSelection;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import org.cpca.core.data.Preprocessing;
import org.cpca.core.data.SampleSource;
import org.cpca.core.model.CpcaModel;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.cpca.core.Memory;

/**
 * Kernel contrastive PCA (Abid et al. 2018, §4; docs/math/kernel.md): cPCA in the feature
 * space of a kernel h, each dataset centred on its own feature-space mean.
 * <p>
 * <b>Fit once.</b> The kernel input is every sample minus the pooled mean of all training
 * samples; with {@link CpcaOptions#standardize()} instead each dataset is centred on its own
 * mean and divided by its own population standard deviation per feature (docs/math/conventions.md,
 * §3), so the linear kernel with standardisation is standardised linear cPCA. (The
 * background is then carried into the target's input coordinates, so that one input
 * preprocessing, the target's, serves training, support samples and new samples alike.)
 * γ, if automatic, is fixed by the rule of {@link KernelFunction}. Then feature vectors are
 * built whose inner products are the kernel's ({@link KernelFeatures}):
 * <ul>
 * <li><b>exact</b> ({@link ExactFeatures}) for N = n_t + n_b ≤ {@value #EXACT_LIMIT}: the
 * block-centred N × N kernel matrix and its pivoted Cholesky factor;</li>
 * <li><b>Nyström</b> ({@link Nystrom}) above that: {@value #DEFAULT_LANDMARKS} seeded
 * landmarks by default, memory O(N · landmarks).</li>
 * </ul>
 * (see {@link KernelOptions#landmarks()} to choose). Linear cPCA on these features
 * ({@link Cpca}, prepared once) is kernel cPCA: the symmetric r × r problem
 * {@code A − αB} of the specification, never the non-symmetric {@code D K_c}; so every α
 * and the automatic α sweep of §2.1 ({@link AlphaSelection}) reuse the linear solvers and
 * cost no kernel evaluations. Components are unit directions in feature space (the seed's
 * {@code aᵀa = 1} normalisation is corrected to {@code aᵀK_c a = 1}).
 * <p>
 * α = ∞ is not offered: with a rich kernel the target's feature vectors are almost never
 * in the span of the background's, so the background's null space in feature space is
 * large and meaningless. Kernel cPCA takes exactly one background. Immutable and safe to
 * share between threads.
 */
public final class KernelCpca {

	/** Largest N = n_t + n_b for which the exact path is chosen automatically. */
	public static final int EXACT_LIMIT = 2000;
	/** Landmarks of the Nyström path when none are given. */
	public static final int DEFAULT_LANDMARKS = 500;

	private final Cpca cpca;
	private final KernelFeatures features;
	private final KernelFunction kernel;
	private final Preprocessing input;
	private final int landmarks;
	private final List<String> diagnostics;

	private KernelCpca(final Cpca cpca, final KernelFeatures features,
		final KernelFunction kernel, final Preprocessing input, final int landmarks,
		final List<String> diagnostics)
	{
		this.cpca = cpca;
		this.features = features;
		this.kernel = kernel;
		this.input = input;
		this.landmarks = landmarks;
		this.diagnostics = Collections.unmodifiableList(diagnostics);
	}

	/**
	 * Prepares kernel cPCA of the target against one background.
	 *
	 * @throws IllegalArgumentException for data or parameters that cannot be used, with a
	 *           message saying what to do
	 */
	public static KernelCpca fit(final Dataset target, final Dataset background,
		final CpcaOptions options, final KernelOptions kernelOptions,
		final Progress progress)
	{
		return fit(target, background == null ? List.of() : List.of(background), options,
			kernelOptions, progress);
	}

	/** As {@link #fit(Dataset, Dataset, CpcaOptions, KernelOptions, Progress)}; exactly one background. */
	public static KernelCpca fit(final Dataset target, final List<Dataset> backgrounds,
		final CpcaOptions options, final KernelOptions kernelOptions,
		final Progress progress)
	{
		if (backgrounds.size() != 1) throw new IllegalArgumentException("kernel cPCA " +
			"takes exactly one background (got " + backgrounds.size() + ")" + (backgrounds
				.isEmpty() ? ": give a background, or use PCA" : ": pool them into one"));
		final Dataset background = backgrounds.get(0);
		final int l = landmarks(target.name(), target.samples(), target.features(), background
			.name(), background.samples(), background.features(), options, kernelOptions);
		final List<String> diagnostics = new ArrayList<>();
		final Preprocessing input;
		final Dataset[] sets;
		if (options.standardize()) {
			input = Preprocessing.fit(target, true, diagnostics);
			sets = new Dataset[] { target, carried(background, Preprocessing.fit(background,
				true, diagnostics), input) };
		}
		else {
			sets = new Dataset[] { target, background };
			input = KernelMatrix.pooledInput(sets, false, diagnostics);
		}
		final KernelInput rows = KernelInput.of(sets);
		final KernelFunction h = KernelMatrix.automaticGamma(kernelOptions.kernel(), rows,
			input, options.seed(), diagnostics);
		progress.stage("kernel input", 1);
		final KernelFeatures f = l == KernelOptions.ALL ? ExactFeatures.build(target, sets[1],
			input, h, progress) : Nystrom.build(rows, input, h, l, options.seed(), progress);
		return finish(target.name(), target.labels(), background.name(), f, h, input, l,
			options, diagnostics, progress);
	}

	/**
	 * Kernel cPCA of a target and one background read in passes, not held (the streamed
	 * plan, docs/memory.md): always the Nyström path, whose landmarks are chosen by their
	 * seeded indices before anything is read (the same as {@link #fit} chooses from the
	 * same N and seed, so the result is the in-memory one with the same landmarks). One
	 * pass for the input preprocessing (two when standardising), reads of the automatic
	 * γ's subsample and of the landmarks, and one pass for every sample's features; the
	 * memory is that of the features (N × landmarks) and the landmarks, never the samples.
	 *
	 * @param targetLabels one class label per target sample, or {@code null}
	 * @throws IllegalArgumentException for the exact path ({@code landmarks all}), which
	 *           holds every sample, and for data or parameters {@link #fit} refuses
	 * @throws IOException if a source cannot be read
	 */
	public static KernelCpca fit(final SampleSource target, final SampleSource background,
		final List<String> targetLabels, final CpcaOptions options,
		final KernelOptions kernelOptions, final Progress progress) throws IOException
	{
		if (kernelOptions.landmarks() == KernelOptions.ALL) throw new IllegalArgumentException(
			"exact kernel cPCA (landmarks all) holds every sample, which the streamed plan " +
				"does not: give a number of landmarks (--landmarks " + DEFAULT_LANDMARKS +
				"), or run it without --stream (with more heap)");
		final int n = target.samples() + background.samples();
		final KernelOptions nystrom = kernelOptions.landmarks() == KernelOptions.AUTOMATIC
			? kernelOptions.withLandmarks(Math.min(DEFAULT_LANDMARKS, n)) : kernelOptions;
		final int l = landmarks(target.name(), target.samples(), target.features(), background
			.name(), background.samples(), background.features(), options, nystrom);
		final List<String> diagnostics = new ArrayList<>();
		if (kernelOptions.landmarks() == KernelOptions.AUTOMATIC && n <= EXACT_LIMIT)
			diagnostics.add("read in passes: Nyström with " + l + " landmarks instead of the " +
				"exact path, which holds every sample (in memory it is the default up to " +
				EXACT_LIMIT + " samples)");
		final Preprocessing input;
		final KernelInput rows;
		final float[] buffer = new float[target.features()];
		if (options.standardize()) {
			input = Preprocessing.fit(target, buffer, true, diagnostics, progress);
			rows = KernelInput.streamed(target, background, Preprocessing.fit(background,
				buffer, true, diagnostics, progress), input);
		}
		else {
			rows = KernelInput.streamed(target, background, null, null);
			input = KernelMatrix.pooledInput(rows, false, diagnostics);
		}
		try {
			final KernelFunction h = KernelMatrix.automaticGamma(kernelOptions.kernel(), rows,
				input, options.seed(), diagnostics);
			progress.stage("kernel input", 1);
			final Nystrom f = Nystrom.build(rows, input, h, l, options.seed(), progress);
			return finish(target.name(), targetLabels, background.name(), f, h, input, l,
				options, diagnostics, progress);
		}
		catch (final UncheckedIOException e) {
			throw e.getCause();
		}
	}

	/**
	 * The number of landmarks ({@link KernelOptions#ALL} for the exact path) for these
	 * sizes, after the checks every path shares and the memory check.
	 */
	private static int landmarks(final String targetName, final int targetSamples,
		final int targetFeatures, final String backgroundName, final int backgroundSamples,
		final int backgroundFeatures, final CpcaOptions options,
		final KernelOptions kernelOptions)
	{
		if (targetSamples < 2) throw tooFew(targetName, targetSamples);
		if (backgroundSamples < 2) throw tooFew(backgroundName, backgroundSamples);
		if (backgroundFeatures != targetFeatures) throw new IllegalArgumentException(
			backgroundName + " has " + backgroundFeatures + " features but " + targetName +
				" has " + targetFeatures + ": both must have the same features");
		final int n = targetSamples + backgroundSamples, k = options.components();
		int l = kernelOptions.landmarks();
		if (l == KernelOptions.AUTOMATIC) l = n <= EXACT_LIMIT ? KernelOptions.ALL : Math
			.min(DEFAULT_LANDMARKS, n);
		if (l != KernelOptions.ALL) {
			if (l < k) throw new IllegalArgumentException(l + " landmarks cannot give k = " +
				k + " components: use at least k landmarks (default " + DEFAULT_LANDMARKS +
				")");
			if (l > n) throw new IllegalArgumentException(l + " landmarks were asked for but " +
				"there are only N = " + n + " samples: use at most " + n +
				" (or all, the exact path)");
		}
		// exact: the N × N kernel matrix, its centred copy and the eigensolver's work;
		// Nyström: N × L features (twice) and L × L kernel blocks
		Memory.require(l == KernelOptions.ALL ? "exact kernel cPCA (a " + n +
			" × " + n + " kernel matrix)" : "kernel cPCA with " + l + " landmarks (" + n +
				" × " + l + " features)", l == KernelOptions.ALL ? Memory.times(
					Memory.doubles(n, n), 3) : Memory.times(
						Memory.doubles(n, l), 2) + Memory.times(Memory
							.doubles(l, l), 3), "use fewer landmarks (--landmarks " + Math.min(
								DEFAULT_LANDMARKS, n / 2 + 1) + "; landmarks= in Fiji and macros) or fewer samples");
		return l;
	}

	private static IllegalArgumentException tooFew(final String name, final int samples) {
		return new IllegalArgumentException(name + " has only " + samples + " sample: " +
			"kernel cPCA needs at least 2 samples per dataset");
	}

	/** Linear cPCA on the kernel features f: the kernel cPCA of the target. */
	private static KernelCpca finish(final String target, final List<String> labels,
		final String background,
		final KernelFeatures f, final KernelFunction h, final Preprocessing input,
		final int l, final CpcaOptions options, final List<String> diagnostics,
		final Progress progress)
	{
		final int k = options.components();
		diagnostics.add(0, f.description() + "; kernel " + h);
		if (k > f.dimension()) throw new IllegalArgumentException("k = " + k +
			" components were requested but the kernel features have rank " + f
				.dimension() + ": choose k ≤ " + f.dimension() + ", another kernel, or " +
				"more samples" + (l == KernelOptions.ALL ? "" : " or landmarks"));
		final Dataset ft = Dataset.wrap(target + " (kernel features)", f.target).withLabels(
			labels), fb = Dataset.wrap(background + " (kernel features)",
				f.background);
		final Cpca cpca = Cpca.fit(ft, fb, options.withStandardize(false)
			.withFeatureSpace(null), progress);
		return new KernelCpca(cpca, f, h, input, l, diagnostics);
	}

	/**
	 * x's samples standardised by their own {@code own} preprocessing and expressed in the
	 * coordinates of {@code into}: {@code into.apply(result) = own.apply(x)} (to float
	 * rounding). A zero-variance feature of x stays at 0 after {@code into}.
	 */
	static Dataset carried(final Dataset x, final Preprocessing own,
		final Preprocessing into)
	{
		final int d = x.features();
		final float[][] rows = new float[x.samples()][];
		final double[] z = new double[d];
		for (int i = 0; i < rows.length; i++)
			rows[i] = carry(x.row(i).clone(), own, into, z);
		return Dataset.wrap(x.name(), rows);
	}

	/**
	 * One sample of {@link #carried} in place: {@code row} standardised by {@code own} and
	 * expressed in the coordinates of {@code into}.
	 *
	 * @param z work space of the sample's length
	 * @return row
	 */
	static float[] carry(final float[] row, final Preprocessing own,
		final Preprocessing into, final double[] z)
	{
		final int d = row.length;
		final double[] mean = into.mean(), scale = into.scale();
		own.apply(row, 0, d, z, 0, 1);
		for (int j = 0; j < d; j++)
			row[j] = (float) (z[j] * (scale == null ? 1 : scale[j]) + mean[j]);
		return row;
	}

	/** The kernel, with γ fixed. */
	public KernelFunction kernel() {
		return kernel;
	}

	/** Whether the exact path ran (else Nyström). */
	public boolean exact() {
		return landmarks == KernelOptions.ALL;
	}

	/** Number of Nyström landmarks, or {@link KernelOptions#ALL} for the exact path. */
	public int landmarks() {
		return landmarks;
	}

	/** Dimension r of the kernel features (the rank of the centred kernel matrix). */
	public int rank() {
		return features.dimension();
	}

	/** The linear cPCA on the kernel features (shared). */
	Cpca linear() {
		return cpca;
	}

	/** Which path ran, γ, and other notes from the fit. */
	public List<String> diagnostics() {
		return diagnostics;
	}

	/**
	 * Kernel cPCA at α.
	 *
	 * @param alpha finite, ≥ 0
	 */
	public KernelCpcaModel model(final double alpha) {
		if (alpha == Double.POSITIVE_INFINITY) throw new IllegalArgumentException("α = ∞ " +
			"is not defined for kernel cPCA (in a rich feature space the background's null " +
			"space is large and says nothing about the data): use a finite α or auto");
		Cpca.checkAlpha(alpha);
		Cpca.requireResolved(cpca.space().normA, cpca.space().normB, alpha,
			"use a smaller α");
		return wrap(cpca.model(alpha));
	}

	/** The automatic α selection of docs/math/cpca.md on the kernel problem. */
	public AlphaSelection<KernelCpcaModel> automatic(final Progress progress) {
		return cpca.automatic(progress).map(this::wrap);
	}

	/**
	 * The kernel model of a linear model on the features: coefficients over the support
	 * samples and offsets such that {@link KernelCpcaModel#transform} gives the same scores,
	 * with the sign rule applied to the target scores.
	 */
	KernelCpcaModel wrap(final CpcaModel m) {
		final int k = m.numComponents();
		final double[][] v = m.components();
		final double[][] b = features.coefficients(v);
		final double[] rho = features.offsets();
		final double[] mean = m.targetMean();
		final double[] tv = m.targetVariance();
		final double[] offsets = new double[k];
		for (int c = 0; c < k; c++) {
			double o = 0;
			for (int s = 0; s < rho.length; s++)
				o += b[s][c] * rho[s];
			for (int q = 0; q < mean.length; q++)
				o += mean[q] * v[c][q];
			offsets[c] = -o;
			if (m.whiten() && tv[c] > 0) {
				final double f = 1 / Math.sqrt(tv[c]);
				for (final double[] row : b)
					row[c] *= f;
				offsets[c] *= f;
			}
		}
		// sign rule: the target score of largest magnitude is positive
		final double[][] scores = m.targetScores();
		for (int c = 0; c < k; c++) {
			int arg = 0;
			for (int i = 1; i < scores.length; i++)
				if (Math.abs(scores[i][c]) > Math.abs(scores[arg][c])) arg = i;
			if (scores[arg][c] < 0) {
				for (final double[] row : scores)
					row[c] = -row[c];
				for (final double[] row : b)
					row[c] = -row[c];
				offsets[c] = -offsets[c];
			}
		}
		final List<String> diag = new ArrayList<>(diagnostics);
		final List<String> linear = cpca.diagnostics();
		for (final String note : m.diagnostics())
			if (!linear.contains(note)) diag.add(note);
		diag.add(KernelCpcaModel.NO_COMPONENTS);
		final Map<String, Object> parameters = new LinkedHashMap<>(kernel.parameters());
		parameters.put("path", exact() ? "exact" : "nystrom");
		if (!exact()) parameters.put("landmarks", (double) landmarks);
		return new KernelCpcaModel(m.alpha(), parameters, kernel, input, features.support(),
			b, offsets, m.eigenvalues(), tv, m.backgroundVariance(), m.targetTotalVariance(),
			diag, Collections.emptyMap(), scores);
	}
}
