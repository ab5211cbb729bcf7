package org.cpca.core.online;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.cpca.core.Curve;
import org.cpca.core.Progress;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.contrast.Measures;
import org.cpca.core.data.Dataset;
import org.cpca.core.data.Preprocessing;
import org.cpca.core.data.SampleSource;
import org.cpca.core.data.SampleStream;
import org.cpca.core.linalg.GeneralizedEigen;
import org.cpca.core.linalg.TopEigen;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.result.Convergence;
import org.cpca.core.result.Method;
import org.cpca.core.result.Solution;
import org.cpca.core.star.CpcaStar;
import java.util.stream.Collectors;

/**
 * The driver of online cPCA*: it streams the network ({@link OnlineCpcaStar}, which
 * learns from one sample at a time) over target and background for the epochs, records
 * the convergence curve at checkpoints, and ends with one evaluation pass that turns the
 * learned subspace into a model ({@link #fit}); it decides whether and how to compare
 * with offline cPCA* ({@link #run}, the one copy of this orchestration for the command
 * line and Fiji); {@link OnlineFamily} runs it on data in memory. See
 * docs/math/online.md.
 * <p>
 * Length (about 480 lines of code): the epochs' loop, the checkpoints, the evaluation pass and
 * the comparison with offline cPCA* share one run's state (the network, the clock, the curve).
 */
public final class OnlineRun {

	/** The learned model and curve, and the offline reference ({@code null} if none). */
	public final Result result;
	public final CpcaModel offline;
	/** Wall time of the offline reference and of the online run, in seconds. */
	public final double referenceSeconds, onlineSeconds;

	private OnlineRun(final Result result, final CpcaModel offline,
		final double referenceSeconds, final double onlineSeconds)
	{
		this.result = result;
		this.offline = offline;
		this.referenceSeconds = referenceSeconds;
		this.onlineSeconds = onlineSeconds;
	}

	/**
	 * @param reference "auto" (compare when both datasets fit in memory, {@link
	 *          #referenceFits}), "offline" (always) or "none"
	 * @throws IllegalArgumentException for an unknown reference mode, unusable data or a
	 *           diverging run, with what to do
	 */
	public static OnlineRun run(final SampleSource target, final SampleSource background,
		final OnlineOptions options, final String reference, final Progress progress)
		throws IOException
	{
		final String mode = reference == null ? "auto" : reference.trim().toLowerCase(
			Locale.ROOT);
		if (!mode.equals("auto") && !mode.equals("offline") && !mode.equals("none"))
			throw new IllegalArgumentException("reference=" + reference +
				" is not known: use auto, offline or none");
		final long t0 = System.nanoTime();
		final OnlineOptions resolved = resolve(options, background, progress);
		final boolean compare = mode.equals("offline") || mode.equals("auto") &&
			referenceFits(target, background);
		final CpcaModel offline = compare ? offlineReference(target,
			background, resolved, progress) : null;
		final long t1 = System.nanoTime();
		final Result result = fit(target, background, resolved,
			offline == null ? null : offline.components(), progress);
		return new OnlineRun(result, offline, (t1 - t0) / 1e9, (System.nanoTime() - t1) /
			1e9);
	}

	/** One point of the convergence curve. */
	public static final class Checkpoint {

		/** Samples seen (target and background). */
		public final long samples;
		/** Epoch (1-based) the checkpoint falls in; 0 before the first sample. */
		public final int epoch;
		/** {@code tr(P_F P_ref)/k} against the reference, NaN without one. */
		public final double alignment;
		/**
		 * Change of the learned subspace since the previous checkpoint, {@code 1 −
		 * tr(P_prev P_now)/k} ∈ [0, 1]; NaN at the first checkpoint.
		 */
		public final double change;

		Checkpoint(final long samples, final int epoch, final double alignment,
			final double change)
		{
			this.samples = samples;
			this.epoch = epoch;
			this.alignment = alignment;
			this.change = change;
		}
	}

	/** What {@link #fit} returns: the model and the convergence curve. */
	public static final class Result {

		private final CpcaModel model;
		private final List<Checkpoint> curve;
		private final double[][] subspace;
		private final boolean hasReference;
		private final OnlineOptions used;

		Result(final CpcaModel model, final List<Checkpoint> curve, final double[][] subspace,
			final boolean hasReference, final OnlineOptions used)
		{
			this.used = used;
			this.model = model;
			this.curve = Collections.unmodifiableList(curve);
			this.subspace = subspace;
			this.hasReference = hasReference;
		}

		/** The model (method "online"). */
		public CpcaModel model() {
			return model;
		}

		/** The convergence curve, in order of samples seen. */
		public List<Checkpoint> curve() {
			return curve;
		}

		/** Whether the curve has alignments against a reference. */
		public boolean hasReference() {
			return hasReference;
		}

		/** Orthonormal basis (k × d rows) of the learned subspace (a copy). */
		public double[][] subspace() {
			final double[][] out = new double[subspace.length][];
			for (int i = 0; i < out.length; i++)
				out[i] = subspace[i].clone();
			return out;
		}

		/**
		 * The curve as a {@link Curve} named "convergence": x = samples seen; series
		 * "alignment" (with a reference) and "subspace_change".
		 */
		public Curve convergence() {
			final int n = curve.size();
			final double[] x = new double[n], alignment = new double[n], change = new double[n];
			for (int i = 0; i < n; i++) {
				x[i] = curve.get(i).samples;
				alignment[i] = curve.get(i).alignment;
				change[i] = curve.get(i).change;
			}
			final Map<String, double[]> series = new LinkedHashMap<>();
			if (hasReference) series.put("alignment", alignment);
			series.put("subspace_change", change);
			return new Curve("convergence", hasReference
				? "online cPCA*: alignment with offline cPCA* (1 = same subspace)"
				: "online cPCA*: subspace change between checkpoints", "samples_seen",
				hasReference ? "alignment, change" : "subspace change", false, x, series);
		}

		/**
		 * A warning when the run ended far from converged, else {@code null}: with a
		 * reference, a final alignment below {@value OnlineOptions#CONVERGED_ALIGNMENT};
		 * without, a subspace still moving (change ≥ 0.01 between the last two checkpoints).
		 */
		public String convergenceWarning(final OnlineOptions options) {
			if (hasReference) {
				final double a = finalAlignment();
				if (a >= OnlineOptions.CONVERGED_ALIGNMENT) return null;
				return String.format(Locale.ROOT, "WARNING: online cPCA* ended far from " +
					"converged: alignment with offline cPCA* at the same β is %.3f (1 = the " +
					"same subspace; %.1f expected); %s", a, OnlineOptions.CONVERGED_ALIGNMENT,
					advice(options));
			}
			final double change = curve.get(curve.size() - 1).change;
			if (!(change >= 0.01)) return null;
			return String.format(Locale.ROOT, "WARNING: online cPCA* may not have " +
				"converged: the learned subspace still changed by %.3g between the last two " +
				"checkpoints; %s", change, advice(options));
		}

		/**
		 * The change to make (docs/math/online.md, "When it warns"): a curve still climbing
		 * over the second half of the run (alignment up by ≥ 0.02, or without a reference a
		 * subspace still moving) needs more passes — four times as many; one that has
		 * levelled off below the mark while the subspace still moves (a mean change ≥ 0.01
		 * between the checkpoints of the second half) is held back by the step's noise — a
		 * quarter of the step, with four times the passes; one that hardly moves at all has
		 * too small a step — four times it, at least the default η (below τ).
		 */
		String advice(final OnlineOptions options) {
			final int e = options.epochs();
			final double eta = options.eta();
			if (climbing()) return String.format(Locale.ROOT, "the curve was still climbing: " +
				"run with --epochs %d (now %d)", Math.multiplyExact(4, e), e);
			if (meanChange() >= 0.01) return String.format(Locale.ROOT, "the curve had " +
				"levelled off in the step's noise: run with --eta %s --epochs %d (now --eta %s " +
				"--epochs %d)", trim(eta / 4), Math.multiplyExact(4, e), trim(eta), e);
			final double larger = Math.min(Math.max(4 * eta, OnlineOptions.DEFAULT_ETA), options
				.tau() / 2);
			return String.format(Locale.ROOT, "the learned subspace hardly moved: the step is " +
				"too small: run with --eta %s (now %s)", trim(larger), trim(eta));
		}

		private boolean climbing() {
			final Checkpoint last = curve.get(curve.size() - 1);
			if (hasReference) return last.alignment - half().alignment >= 0.02;
			return true;
		}

		/** The checkpoint half-way through the run (by samples seen). */
		private Checkpoint half() {
			final Checkpoint last = curve.get(curve.size() - 1);
			Checkpoint half = curve.get(0);
			for (final Checkpoint c : curve)
				if (2 * c.samples <= last.samples) half = c;
			return half;
		}

		/** The mean subspace change between the checkpoints of the run's second half. */
		private double meanChange() {
			final long from = half().samples;
			double sum = 0;
			int n = 0;
			for (final Checkpoint c : curve)
				if (c.samples > from && !Double.isNaN(c.change)) {
					sum += c.change;
					n++;
				}
			return n == 0 ? 0 : sum / n;
		}

		private static String trim(final double v) {
			return String.format(Locale.ROOT, "%.3g", v).replaceAll("(\\.\\d*?)0+$", "$1")
				.replaceAll("\\.$", "");
		}

		/** The options the network learned with (an automatic β resolved). */
		public OnlineOptions options() {
			return used;
		}

		/** The last checkpoint's alignment (NaN without a reference). */
		public double finalAlignment() {
			return curve.get(curve.size() - 1).alignment;
		}

		/**
		 * The run as a {@link Solution} for the layers that show and write results: the
		 * model, the convergence curve, and the settings as the summary entry "online".
		 *
		 * @param offline the offline cPCA* model the alignment was measured against, or null
		 */
		public Solution solution(final OnlineOptions options, final CpcaModel offline) {
			final Map<String, Object> online = new LinkedHashMap<>();
			online.put("eta", options.eta());
			online.put("tau", options.tau());
			online.put("beta", used.beta());
			online.put("beta_rule", Double.isNaN(used.backgroundMeanVariance()) ? "given"
				: "automatic: 1/(1 + s), s = the background's mean feature variance");
			if (!Double.isNaN(used.backgroundMeanVariance())) online.put(
				"background_mean_variance", used.backgroundMeanVariance());
			online.put("epochs", options.epochs());
			online.put("seed", options.seed());
			online.put("order", options.order().toString());
			online.put("centring", options.centring().toString());
			online.put("standardize", options.standardize());
			online.put("samples_seen", curve.get(curve.size() - 1).samples);
			online.put("checkpoints", curve.size());
			online.put("reference", offline == null ? "none (subspace change between " +
				"checkpoints only)" : "offline cPCA* at the same β");
			if (offline != null) {
				online.put("final_alignment", finalAlignment());
				online.put("offline_eigenvalues", offline.eigenvalues());
			}
			final List<String> notes = new ArrayList<>();
			final String warning = convergenceWarning(options);
			online.put("converged", warning == null);
			online.put("warning", warning);
			if (warning != null) notes.add(warning);
			if (offline != null) notes.addAll(offline.diagnostics().stream().filter(n -> n
				.contains("regularis")).collect(Collectors.toList()));
			// the network runs every epoch; converged: the alignment reached the mark (with a
			// reference) or the subspace stopped moving (without)
			final Convergence c = Convergence.of(options.epochs(), warning == null, hasReference
				? OnlineOptions.CONVERGED_ALIGNMENT : 0.01, curve.get(curve.size() - 1).change,
				options.epochs());
			return new Solution(Method.ONLINE, null, List.of(model), null, null, List.of(
				convergence()), c.addTo(Map.of("online", online), "online"), notes);
		}
	}

	/**
	 * Samples × features above which {@link #fit}'s callers should not compute the offline
	 * reference automatically: it holds both datasets in memory (4 bytes per value) and
	 * solves cPCA* on them. 2·10⁷ values are 80 MB.
	 */
	public static final long REFERENCE_LIMIT = 20_000_000L;

	/** Whether both sources together have at most {@link #REFERENCE_LIMIT} values. */
	public static boolean referenceFits(final SampleSource target,
		final SampleSource background)
	{
		return ((long) target.samples() + background.samples()) * target.features() <=
			REFERENCE_LIMIT;
	}

	/**
	 * The offline cPCA* model at the options' β and k ({@link CpcaStar}), for the
	 * alignment of {@link #fit}: both sources are read into memory (each centred on its
	 * own exact mean, not standardised, as the online run does). Its components span the
	 * reference subspace.
	 */
	public static CpcaModel offlineReference(final SampleSource target,
		final SampleSource background, final OnlineOptions options,
		final Progress progress) throws IOException
	{
		final OnlineOptions resolved = resolve(options, background, progress);
		final Dataset t = read(target, progress), b = read(background, progress);
		final Cpca fit = Cpca.fit(t, b, CpcaOptions.defaults().withComponents(options
			.components()).withSeed(options.seed()).withStandardize(options.standardize()),
			progress);
		return CpcaStar.of(fit).model(resolved.beta());
	}

	/**
	 * The options with an automatic β resolved (unchanged when β is given): one streamed
	 * pass over the background gives its mean feature variance {@code s = tr(C_b)/d} (each
	 * feature's variance with n − 1, after the run's preprocessing: with standardising, a
	 * non-constant feature's is n/(n − 1)), and β = 1/(1 + s) — the β at which the two
	 * terms of {@code B_β = (1−β)I + βC_b} have equal trace, ½ on standardised data,
	 * unit-free on raw data (docs/math/online.md, "Automatic β"). Memory O(d).
	 *
	 * @throws IllegalArgumentException if the background has no variance
	 */
	public static OnlineOptions resolve(final OnlineOptions options,
		final SampleSource background, final Progress progress) throws IOException
	{
		if (!options.betaIsAutomatic()) return options.normalisedStep() && options
			.learningVariance() != options.learningVariance() && background.samples() >= 2
				? options.withLearningVariance(Math.min(1, meanVariance(options, background,
					progress))) : options;
		if (background.samples() < 2) throw new IllegalArgumentException("automatic β needs " +
			"at least two background samples (got " + background.samples() + "): give β " +
			"(--beta)");
		return options.withResolvedBeta(meanVariance(options, background, progress));
	}

	/** The background's mean feature variance s = tr(C_b)/d, from one streamed pass. */
	private static double meanVariance(final OnlineOptions options,
		final SampleSource background, final Progress progress) throws IOException
	{
		final int n = background.samples(), d = background.features();
		final double[] mean = new double[d], m2 = new double[d];
		final float[] row = new float[d];
		for (int i = 0; i < n; i++) {
			background.read(i, row);
			final double inv = 1.0 / (i + 1);
			for (int j = 0; j < d; j++) {
				final double delta = row[j] - mean[j];
				mean[j] += delta * inv;
				m2[j] += delta * (row[j] - mean[j]);
			}
			if ((i & 1023) == 1023) {
				progress.checkCancelled();
				progress.stage("automatic β: variance of " + background.name(), (double) i / n);
			}
		}
		double s = 0;
		for (int j = 0; j < d; j++)
			s += options.standardize() ? m2[j] > 0 ? n / (n - 1.0) : 0 : m2[j] / (n - 1);
		return s / d;
	}

	/** A source read into memory (for the offline reference only). */
	private static Dataset read(final SampleSource s, final Progress progress)
		throws IOException
	{
		final float[][] rows = new float[s.samples()][];
		for (int i = 0; i < rows.length; i++) {
			rows[i] = new float[s.features()];
			s.read(i, rows[i]);
			if ((i & 1023) == 1023) {
				progress.checkCancelled();
				progress.stage("offline cPCA*: reading " + s.name(), (double) i / rows.length);
			}
		}
		return Dataset.wrap(s.name(), rows);
	}

	/**
	 * Streams {@code options.epochs()} passes over target and background (interleaved and
	 * ordered as {@link SampleStream} says), then one evaluation pass for the model.
	 * <p>
	 * The curve has a point before the first sample and then every ⌈total /
	 * checkpoints⌉ samples and at the end. Progress is reported, and cancellation checked,
	 * every 1024 samples.
	 *
	 * @param reference rows spanning the offline cPCA* subspace at the same β (any basis,
	 *          length d each) for the alignment, or {@code null}
	 * @throws IllegalArgumentException for unusable data or options, or if the run
	 *           diverges
	 * @throws IOException if a source cannot be read
	 * @throws java.util.concurrent.CancellationException if the user cancels
	 */
	public static Result fit(final SampleSource target, final SampleSource background,
		OnlineOptions options, final double[][] reference, final Progress progress)
		throws IOException
	{
		options = resolve(options, background, progress);
		final SampleStream stream = new SampleStream(target, background, options.order(),
			options.seed());
		final int d = stream.features();
		if (reference != null) for (final double[] r : reference)
			if (r.length != d) throw new IllegalArgumentException("the reference subspace has " +
				"vectors of length " + r.length + " but the samples have " + d + " features");
		options.checkCombination();
		final OnlineCpcaStar net = new OnlineCpcaStar(d, options);
		final float[] sample = new float[d];
		if (options.centring() == OnlineOptions.Centring.PASS) net.setPreprocessing(
			Preprocessing.fit(target, sample, options.standardize(), net.setupNotes, progress),
			Preprocessing.fit(background, sample, options.standardize(), net.setupNotes,
				progress));
		final long total = stream.length() * options.epochs();
		final long interval = Math.max(1, (total + options.checkpoints() - 1) / options
			.checkpoints());
		final List<Checkpoint> curve = new ArrayList<>();
		double[][] last = net.subspace();
		curve.add(new Checkpoint(0, 0, reference == null ? Double.NaN : Measures
			.projectorAlignment(last, reference), Double.NaN));
		for (int e = 0; e < options.epochs(); e++) {
			final String stage = String.format(Locale.ROOT, "online cPCA*, epoch %d of %d",
				e + 1, options.epochs());
			progress.stage(stage, (double) net.t / total);
			if (options.normalisedStep()) net.annealing = OnlineCpcaStar.annealing(e, options.epochs());
			stream.start(e);
			int which;
			while ((which = stream.next(sample)) != SampleStream.END) {
				net.update(sample, which == SampleStream.TARGET);
				if (net.t % interval == 0 || net.t == total) {
					net.checkFinite();
					final double[][] now = net.subspace();
					curve.add(new Checkpoint(net.t, e + 1, reference == null ? Double.NaN
						: Measures.projectorAlignment(now, reference), 1 - Measures
							.projectorAlignment(last, now)));
					last = now;
				}
				if ((net.t & 1023) == 0) {
					progress.checkCancelled();
					progress.stage(stage, (double) net.t / total);
				}
			}
			net.freezeMeans();
		}
		net.checkFinite();
		final CpcaModel model = evaluate(net, target, background, options, total, sample,
			reference == null ? Double.NaN : curve.get(curve.size() - 1).alignment, progress);
		return new Result(model, curve, last, reference != null, options);
	}

	/**
	 * The evaluation pass: target and background read once more, in file order, centred
	 * on their (exact) means and projected on an orthonormal basis Q of the learned
	 * subspace; Rayleigh–Ritz on the k × k matrices {@code A = QC_tQᵀ} and {@code B_β =
	 * (1−β)I + βQC_bQᵀ} gives the components.
	 */
	private static CpcaModel evaluate(final OnlineCpcaStar net, final SampleSource target, final SampleSource background,
		final OnlineOptions options, final long total, final float[] sample,
		final double finalAlignment, final Progress progress) throws IOException
	{
		final double[][] q = net.subspace();
		if (q.length < net.k) throw new IllegalArgumentException("the learned filter has rank " +
			q.length + " < k = " + net.k + " (its rows vanished or became dependent): lower η " +
			"(now " + net.eta + "), run more epochs, or lower k");
		final int nt = target.samples(), nb = background.samples();
		final double[][] projected = new double[nt][];
		final double[] a = new double[net.k * net.k], bq = new double[net.k * net.k];
		double totalVariance = 0;
		for (int pass = 0; pass < 2; pass++) {
			final SampleSource s = pass == 0 ? target : background;
			final double[] mean = pass == 0 ? net.targetMean : net.backgroundMean;
			final double[] scale = pass == 0 ? net.targetScale : net.backgroundScale;
			final double[] acc = pass == 0 ? a : bq;
			final int n = s.samples();
			for (int i = 0; i < n; i++) {
				s.read(i, sample);
				for (int j = 0; j < net.d; j++)
					net.x[j] = scale == null ? sample[j] - mean[j] : (sample[j] - mean[j]) /
						scale[j];
				final double[] proj = new double[net.k];
				for (int r = 0; r < net.k; r++)
					proj[r] = TopEigen.dot(q[r], net.x);
				for (int r = 0; r < net.k; r++)
					for (int r2 = 0; r2 < net.k; r2++)
						acc[r * net.k + r2] += proj[r] * proj[r2];
				if (pass == 0) {
					projected[i] = proj;
					totalVariance += TopEigen.dot(net.x, net.x);
				}
				if ((i & 1023) == 1023) {
					progress.checkCancelled();
					progress.stage("online cPCA*, scores", (double) (i + (pass == 0 ? 0 : nt)) /
						(nt + nb));
				}
			}
			for (int i = 0; i < acc.length; i++)
				acc[i] /= n - 1;
		}
		totalVariance /= nt - 1;
		final List<String> notes = new ArrayList<>();
		final double[][] bBeta = new double[net.k][net.k];
		for (int r = 0; r < net.k; r++)
			for (int r2 = 0; r2 < net.k; r2++)
				bBeta[r][r2] = net.beta * bq[r * net.k + r2] + (r == r2 ? 1 - net.beta : 0);
		TopEigen.Result ritz;
		try {
			ritz = GeneralizedEigen.top(a, copy(bBeta), net.k, options.seed());
		}
		catch (final ArithmeticException e) {
			double trace = 0;
			for (int r = 0; r < net.k; r++)
				trace += bBeta[r][r];
			final double eps = 1e-10 * Math.max(trace / net.k, Double.MIN_NORMAL);
			for (int r = 0; r < net.k; r++)
				bBeta[r][r] += eps;
			ritz = GeneralizedEigen.top(a, bBeta, net.k, options.seed());
			notes.add("the background has no variance in part of the learned subspace " +
				"(β = 1): B_β was regularised by " + String.format(Locale.ROOT, "%.3g", eps) +
				"·I there");
		}
		final double[][] components = new double[net.k][net.d];
		final double[] values = new double[net.k], tv = new double[net.k], bv = new double[net.k];
		final double[][] ys = new double[net.k][net.k];
		for (int col = 0; col < net.k; col++) {
			// v = Qᵀ y / |y| (Q has orthonormal rows, so |Qᵀy| = |y|)
			final double[] y = new double[net.k];
			double norm = 0;
			for (int r = 0; r < net.k; r++) {
				y[r] = ritz.vectors[r * net.k + col];
				norm += y[r] * y[r];
			}
			norm = Math.sqrt(norm);
			for (int r = 0; r < net.k; r++)
				y[r] /= norm;
			for (int r = 0; r < net.k; r++)
				for (int j = 0; j < net.d; j++)
					components[col][j] += y[r] * q[r][j];
			int arg = 0;
			for (int j = 1; j < net.d; j++)
				if (Math.abs(components[col][j]) > Math.abs(components[col][arg])) arg = j;
			if (components[col][arg] < 0) {
				for (int j = 0; j < net.d; j++)
					components[col][j] = -components[col][j];
				for (int r = 0; r < net.k; r++)
					y[r] = -y[r];
			}
			values[col] = ritz.values[col];
			tv[col] = quadratic(a, y);
			bv[col] = quadratic(bq, y);
			ys[col] = y;
		}
		final double[][] scores = new double[nt][net.k];
		for (int i = 0; i < nt; i++)
			for (int col = 0; col < net.k; col++) {
				double s = 0;
				for (int r = 0; r < net.k; r++)
					s += ys[col][r] * projected[i][r];
				scores[i][col] = s;
			}
		final Map<String, Object> parameters = new LinkedHashMap<>();
		parameters.put("eta", net.eta);
		parameters.put("tau", net.tau);
		parameters.put("beta", net.beta);
		parameters.put("epochs", (double) options.epochs());
		parameters.put("samples_seen", (double) total);
		final List<String> diagnostics = new ArrayList<>();
		diagnostics.add(String.format(Locale.ROOT, "online cPCA*: %d samples (%d epoch(s) " +
			"of %d target + %d background, %s order, interleaved in proportion), η = %s, " +
			"τ = %s, β = %s, seed %d, %s centring%s", total, options.epochs(), nt, nb, options
				.order(), net.eta, net.tau, net.beta, options.seed(), options.centring(), net.targetScale == null
					? "" : ", standardised"));
		if (!Double.isNaN(options.backgroundMeanVariance())) diagnostics.add(String
			.format(Locale.ROOT, "online cPCA*: automatic β = 1/(1 + s) = %.6g, s = %.6g the " +
				"background's mean feature variance (the identity and background terms of B_β " +
				"have equal trace); learned on the samples divided by √s, where this β is ½",
			net.beta, options.backgroundMeanVariance()));
		diagnostics.addAll(net.setupNotes);
		diagnostics.add("online cPCA*: components are Rayleigh–Ritz vectors of the learned " +
			"subspace (unit length, not necessarily orthogonal), with variances from one " +
			"more pass over the data");
		if (!Double.isNaN(finalAlignment)) diagnostics.add(String.format(Locale.ROOT,
			"online cPCA*: projector alignment with offline cPCA* %.4f", finalAlignment));
		diagnostics.addAll(notes);
		return new CpcaModel("online", Double.NaN, parameters, components, values, tv, bv,
			totalVariance, Preprocessing.of(net.targetMean, net.targetScale), false, diagnostics,
			Collections.emptyMap(), scores);
	}

	/** yᵀSy for S k × k row-major. */
	private static double quadratic(final double[] s, final double[] y) {
		final int k = y.length;
		double v = 0;
		for (int r = 0; r < k; r++)
			for (int r2 = 0; r2 < k; r2++)
				v += y[r] * s[r * k + r2] * y[r2];
		return v;
	}

	private static double[][] copy(final double[][] x) {
		final double[][] out = new double[x.length][];
		for (int i = 0; i < x.length; i++)
			out[i] = x[i].clone();
		return out;
	}
}
