package org.cpca.core.online;

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
import org.cpca.core.run.Method;
import org.cpca.core.run.MethodSettings;
import org.cpca.core.run.Solution;
import org.cpca.core.star.CpcaStar;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;


/**
 * Online cPCA* (Golkar, Lipshutz, Tesileanu &amp; Chklovskii, §3, eqs. 9–11; docs/math/online.md): a Hebbian/anti-Hebbian network
 * that learns the top-k cPCA* subspace ({@code C_t v = λ B_β v}, {@code B_β = (1−β)I +
 * βC_b}) from a stream of target (δ = 1) and background (δ = 0) samples, one at a time, in
 * O(k·d) memory and O(k·d) operations per sample.
 * <p>
 * State: W (k × d, random with a fixed seed, rows of length ≈ 1), M (k × k, = I), the
 * running background fraction p (p₀ = ½) and the sample count t. Per centred sample x:
 * <pre>
 * t ← t + 1;  p ← p + (1 − δ − p)/t
 * c = W x;  z = δ M⁻¹ c
 * W ← W + 2η (z − β (1−δ)/p · c) xᵀ − 2η(1−β) W
 * M ← M + (η/τ)(z zᵀ − M)
 * </pre>
 * The learned filter is F = M⁻¹W (z = F x); its row space converges to the span of the top-k
 * generalized eigenvectors of cPCA* at the same β.
 * <p>
 * <b>Centring</b> ({@link OnlineOptions.Centring}): each sample is centred on its own
 * dataset's mean — by default the running mean so far (this sample included), exact and
 * frozen after the first epoch; or exact means from an extra first pass; or given means.
 * With {@link OnlineOptions#standardize} the first pass also gives each dataset's
 * standard deviations, and every sample is divided by them as offline standardisation
 * does ({@link Preprocessing}).
 * <p>
 * <b>Use.</b> Either feed samples yourself ({@link #update}, {@link #filter},
 * {@link #subspace}: an accumulator), or run {@link #fit} on two {@link SampleSource}s,
 * which streams the epochs ({@link SampleStream}), records the convergence curve and ends
 * with one more pass that turns the learned subspace into a {@link CpcaModel}: there the
 * k × k target and background covariances inside the subspace give, by Rayleigh–Ritz,
 * per-component unit vectors (estimates of the individual cPCA* components, not
 * necessarily orthogonal), their eigenvalues, target and background variances, and the
 * training target's scores.
 */
public final class OnlineCpcaStar {

	private final int k, d;
	private final double eta, tau, beta;
	/** 1 − 2η(1−β): the decay of W at every sample. */
	private final double decay;
	private final double[] w;
	private final double[] m;
	private double p = 0.5;
	private long t;
	private final double[] targetMean, backgroundMean;
	/** Per-feature divisors from the first pass, or {@code null}: centring only. */
	private double[] targetScale, backgroundScale;
	/** Notes from preparing the data (zero-variance features when standardising). */
	private final List<String> setupNotes = new ArrayList<>();
	private long targetCount, backgroundCount;
	private boolean meansFrozen;
	/** Sum of the squared norms of the centred samples (for the divergence message). */
	private double squaredNorms;
	// scratch: the centred sample, c, z and the Cholesky factor of M
	private final double[] x, c, z, l;

	/** A fresh learner for samples of {@code features} values: W seeded, M = I. */
	public OnlineCpcaStar(final int features, final OnlineOptions options) {
		this(features, options, initialW(features, options.components(), options.seed()));
	}

	/** A learner starting from the given W (k × d row-major, copied); M = I. */
	OnlineCpcaStar(final int features, final OnlineOptions options, final double[] w0) {
		k = options.components();
		d = features;
		if (k > d) throw new IllegalArgumentException("k = " + k + " components were " +
			"requested but the samples have only " + d + " features: choose k ≤ " + d);
		if (w0.length != k * d) throw new IllegalArgumentException("W has " + w0.length +
			" entries, expected k·d = " + k * d);
		eta = options.eta();
		tau = options.tau();
		beta = options.beta();
		decay = 1 - 2 * eta * (1 - beta);
		w = w0.clone();
		m = new double[k * k];
		for (int i = 0; i < k; i++)
			m[i * k + i] = 1;
		x = new double[d];
		c = new double[k];
		z = new double[k];
		l = new double[k * k];
		if (options.centring() == OnlineOptions.Centring.GIVEN) {
			targetMean = options.targetMean();
			backgroundMean = options.backgroundMean();
			if (targetMean.length != d) throw new IllegalArgumentException("the given means " +
				"have " + targetMean.length + " features but the samples have " + d);
			meansFrozen = true;
		}
		else {
			targetMean = new double[d];
			backgroundMean = new double[d];
		}
	}

	private static double[] initialW(final int d, final int k, final long seed) {
		final SplittableRandom random = new SplittableRandom(seed);
		final double[] w = new double[k * d];
		final double scale = 1 / Math.sqrt(d);
		for (int r = 0; r < k; r++) {
			final double[] g = TopEigen.gaussian(random, d);
			for (int j = 0; j < d; j++)
				w[r * d + j] = g[j] * scale;
		}
		return w;
	}

	/**
	 * One step of the network on a raw sample (centred here, see the class comment).
	 *
	 * @param target δ: true for a target sample, false for a background sample
	 */
	public void update(final float[] sample, final boolean target) {
		centre(sample, target);
		step(target);
	}

	private void centre(final float[] sample, final boolean target) {
		final double[] mean = target ? targetMean : backgroundMean;
		double ss = 0;
		if (!meansFrozen) {
			final double inv = 1.0 / (target ? ++targetCount : ++backgroundCount);
			for (int j = 0; j < d; j++) {
				final double v = sample[j];
				mean[j] += (v - mean[j]) * inv;
				final double c = v - mean[j];
				x[j] = c;
				ss += c * c;
			}
		}
		else {
			final double[] scale = target ? targetScale : backgroundScale;
			if (scale == null) for (int j = 0; j < d; j++) {
				final double c = sample[j] - mean[j];
				x[j] = c;
				ss += c * c;
			}
			else for (int j = 0; j < d; j++) {
				final double c = (sample[j] - mean[j]) / scale[j];
				x[j] = c;
				ss += c * c;
			}
		}
		squaredNorms += ss;
	}

	/** Eqs. 9–11 on the centred sample in {@link #x}. */
	void step(final boolean target) {
		t++;
		p += ((target ? 0 : 1) - p) / t;
		for (int r = 0; r < k; r++)
			c[r] = dot(w, r * d, x, d);
		final double rate = eta / tau;
		if (target) {
			solveM(c, z);
			for (int r = 0; r < k; r++)
				c[r] = 2 * eta * z[r]; // c now holds the gain of row r
			for (int a = 0; a < k; a++)
				for (int b = 0; b < k; b++)
					m[a * k + b] = (1 - rate) * m[a * k + b] + rate * z[a] * z[b];
		}
		else {
			final double g = -2 * eta * beta / p;
			for (int r = 0; r < k; r++)
				c[r] *= g;
			for (int i = 0; i < m.length; i++)
				m[i] *= 1 - rate;
		}
		for (int r = 0; r < k; r++) {
			final double gain = c[r];
			final int o = r * d;
			if (decay == 1) for (int j = 0; j < d; j++)
				w[o + j] += gain * x[j];
			else for (int j = 0; j < d; j++)
				w[o + j] = decay * w[o + j] + gain * x[j];
		}
	}

	/** Dot product of W's row at offset o with v (length n), four partial sums. */
	private static double dot(final double[] w, final int o, final double[] v, final int n) {
		double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
		int j = 0;
		for (; j + 3 < n; j += 4) {
			s0 += w[o + j] * v[j];
			s1 += w[o + j + 1] * v[j + 1];
			s2 += w[o + j + 2] * v[j + 2];
			s3 += w[o + j + 3] * v[j + 3];
		}
		for (; j < n; j++)
			s0 += w[o + j] * v[j];
		return (s0 + s1) + (s2 + s3);
	}

	/** out = M⁻¹ in by a Cholesky factor of M (k × k, positive definite by construction). */
	private void solveM(final double[] in, final double[] out) {
		for (int i = 0; i < k; i++)
			for (int j = 0; j <= i; j++) {
				double s = m[i * k + j];
				for (int q = 0; q < j; q++)
					s -= l[i * k + q] * l[j * k + q];
				l[i * k + j] = i == j ? Math.sqrt(s) : s / l[j * k + j];
			}
		for (int i = 0; i < k; i++) {
			double s = in[i];
			for (int q = 0; q < i; q++)
				s -= l[i * k + q] * out[q];
			out[i] = s / l[i * k + i];
		}
		for (int i = k - 1; i >= 0; i--) {
			double s = out[i];
			for (int q = i + 1; q < k; q++)
				s -= l[q * k + i] * out[q];
			out[i] = s / l[i * k + i];
		}
	}

	/** Stops updating the running means (they are exact after one full pass). */
	public void freezeMeans() {
		meansFrozen = true;
	}

	/** Samples seen so far, t. */
	public long samplesSeen() {
		return t;
	}

	/** The running background fraction p. */
	public double backgroundFraction() {
		return p;
	}

	public int features() {
		return d;
	}

	public int components() {
		return k;
	}

	/** W (k × d, a copy). */
	public double[][] weights() {
		final double[][] out = new double[k][];
		for (int r = 0; r < k; r++)
			out[r] = java.util.Arrays.copyOfRange(w, r * d, (r + 1) * d);
		return out;
	}

	/** M (k × k, a copy). */
	public double[][] lateral() {
		final double[][] out = new double[k][];
		for (int r = 0; r < k; r++)
			out[r] = java.util.Arrays.copyOfRange(m, r * k, (r + 1) * k);
		return out;
	}

	/** The current target mean used for centring (a copy). */
	public double[] targetMean() {
		return targetMean.clone();
	}

	/** The current background mean used for centring (a copy). */
	public double[] backgroundMean() {
		return backgroundMean.clone();
	}

	/** The filter F = M⁻¹W (k × d): the output of the network is z = F x. */
	public double[][] filter() {
		final double[][] f = new double[k][d];
		final double[] col = new double[k], out = new double[k];
		for (int j = 0; j < d; j++) {
			for (int r = 0; r < k; r++)
				col[r] = w[r * d + j];
			solveM(col, out);
			for (int r = 0; r < k; r++)
				f[r][j] = out[r];
		}
		return f;
	}

	/**
	 * An orthonormal basis (rows) of the filter's row space, by Gram–Schmidt in row order;
	 * fewer than k rows if the filter has lost rank.
	 */
	public double[][] subspace() {
		return TopEigen.orthonormalize(filter(), new double[0][], null, d);
	}

	private boolean finite() {
		for (final double v : w)
			if (!Double.isFinite(v)) return false;
		for (final double v : m)
			if (!Double.isFinite(v)) return false;
		return true;
	}

	/**
	 * @throws IllegalArgumentException if W or M has overflowed; the message suggests an η
	 *           from the samples' mean squared norm (the steps are stable while 2η‖x‖² stays
	 *           well below 1)
	 */
	private void checkFinite() {
		if (finite()) return;
		final double meanSquare = squaredNorms / Math.max(1, t);
		throw new IllegalArgumentException(String.format(Locale.ROOT, "online cPCA* " +
			"diverged after %d samples (the weights overflowed): η = %s is too large for " +
			"data of this scale (mean squared norm of a centred sample ‖x‖² ≈ %.3g); use " +
			"η ≤ %.2g (about 0.1/‖x‖²), or scale the data down", t, eta, meanSquare, 0.1 /
				meanSquare));
	}

	/** Sets each dataset's preprocessing (from a first pass); it is then fixed. */
	private void setPreprocessing(final Preprocessing target, final Preprocessing background) {
		System.arraycopy(target.mean(), 0, targetMean, 0, d);
		System.arraycopy(background.mean(), 0, backgroundMean, 0, d);
		targetScale = target.scale();
		backgroundScale = background.scale();
		meansFrozen = true;
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

		Result(final CpcaModel model, final List<Checkpoint> curve, final double[][] subspace,
			final boolean hasReference)
		{
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
			online.put("beta", options.beta());
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
			if (offline != null) notes.addAll(offline.diagnostics().stream().filter(n -> n
				.contains("regularis")).collect(java.util.stream.Collectors.toList()));
			return new Solution(Method.ONLINE, null, List.of(model), null, null, List.of(
				convergence()), Map.of("online", online), notes);
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
		final Dataset t = read(target, progress), b = read(background, progress);
		final Cpca fit = Cpca.fit(t, b, CpcaOptions.defaults().withComponents(options
			.components()).withSeed(options.seed()).withStandardize(options.standardize()),
			progress);
		return CpcaStar.of(fit).model(options.beta());
	}

	/**
	 * Online cPCA* on data already in memory ({@link MethodRunner}: the Fiji command's
	 * and the macro extension's method "online"): a fixed β and η, τ, epochs from the
	 * settings, k and the seed from the options; the offline cPCA* reference is always
	 * computed (the data are in memory anyway).
	 */
	public static Solution inMemory(final MethodSettings s, final Dataset target,
		final Dataset background, final CpcaOptions options, final Progress progress)
	{
		if (Double.isNaN(s.beta)) throw new IllegalArgumentException("online cPCA* learns " +
			"at one fixed β: give β in [0, 1] (e.g. beta=0.5); automatic β is method star");
		if (options.whiten()) throw new IllegalArgumentException("online cPCA* does not " +
			"whiten: turn whiten off");
		OnlineOptions o = OnlineOptions.defaults().withComponents(options.components())
			.withRates(s.eta, s.tau).withBeta(s.beta).withEpochs(s.epochs).withSeed(options
				.seed());
		// the data are in memory, so the first pass that standardising needs is cheap
		if (options.standardize()) o = o.withCentring(OnlineOptions.Centring.PASS)
			.withStandardize(true);
		final SampleSource t = SampleSource.of(target), b = SampleSource.of(background);
		try {
			final CpcaModel offline = offlineReference(t, b, o, progress);
			return fit(t, b, o, offline.components(), progress).solution(o, offline);
		}
		catch (final IOException e) {
			throw new java.io.UncheckedIOException(e); // in-memory sources do not do I/O
		}
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
		final OnlineOptions options, final double[][] reference, final Progress progress)
		throws IOException
	{
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
		final CpcaModel model = net.evaluate(target, background, options, total, sample,
			reference == null ? Double.NaN : curve.get(curve.size() - 1).alignment, progress);
		return new Result(model, curve, last, reference != null);
	}

	/**
	 * The evaluation pass: target and background read once more, in file order, centred
	 * on their (exact) means and projected on an orthonormal basis Q of the learned
	 * subspace; Rayleigh–Ritz on the k × k matrices {@code A = QC_tQᵀ} and {@code B_β =
	 * (1−β)I + βQC_bQᵀ} gives the components.
	 */
	private CpcaModel evaluate(final SampleSource target, final SampleSource background,
		final OnlineOptions options, final long total, final float[] sample,
		final double finalAlignment, final Progress progress) throws IOException
	{
		final double[][] q = subspace();
		if (q.length < k) throw new IllegalArgumentException("the learned filter has rank " +
			q.length + " < k = " + k + " (its rows vanished or became dependent): lower η " +
			"(now " + eta + "), run more epochs, or lower k");
		final int nt = target.samples(), nb = background.samples();
		final double[][] projected = new double[nt][];
		final double[] a = new double[k * k], bq = new double[k * k];
		double totalVariance = 0;
		for (int pass = 0; pass < 2; pass++) {
			final SampleSource s = pass == 0 ? target : background;
			final double[] mean = pass == 0 ? targetMean : backgroundMean;
			final double[] scale = pass == 0 ? targetScale : backgroundScale;
			final double[] acc = pass == 0 ? a : bq;
			final int n = s.samples();
			for (int i = 0; i < n; i++) {
				s.read(i, sample);
				for (int j = 0; j < d; j++)
					x[j] = scale == null ? sample[j] - mean[j] : (sample[j] - mean[j]) /
						scale[j];
				final double[] proj = new double[k];
				for (int r = 0; r < k; r++)
					proj[r] = TopEigen.dot(q[r], x);
				for (int r = 0; r < k; r++)
					for (int r2 = 0; r2 < k; r2++)
						acc[r * k + r2] += proj[r] * proj[r2];
				if (pass == 0) {
					projected[i] = proj;
					totalVariance += TopEigen.dot(x, x);
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
		final double[][] bBeta = new double[k][k];
		for (int r = 0; r < k; r++)
			for (int r2 = 0; r2 < k; r2++)
				bBeta[r][r2] = beta * bq[r * k + r2] + (r == r2 ? 1 - beta : 0);
		TopEigen.Result ritz;
		try {
			ritz = GeneralizedEigen.top(a, copy(bBeta), k, options.seed());
		}
		catch (final ArithmeticException e) {
			double trace = 0;
			for (int r = 0; r < k; r++)
				trace += bBeta[r][r];
			final double eps = 1e-10 * Math.max(trace / k, Double.MIN_NORMAL);
			for (int r = 0; r < k; r++)
				bBeta[r][r] += eps;
			ritz = GeneralizedEigen.top(a, bBeta, k, options.seed());
			notes.add("the background has no variance in part of the learned subspace " +
				"(β = 1): B_β was regularised by " + String.format(Locale.ROOT, "%.3g", eps) +
				"·I there");
		}
		final double[][] components = new double[k][d];
		final double[] values = new double[k], tv = new double[k], bv = new double[k];
		final double[][] ys = new double[k][k];
		for (int col = 0; col < k; col++) {
			// v = Qᵀ y / |y| (Q has orthonormal rows, so |Qᵀy| = |y|)
			final double[] y = new double[k];
			double norm = 0;
			for (int r = 0; r < k; r++) {
				y[r] = ritz.vectors[r * k + col];
				norm += y[r] * y[r];
			}
			norm = Math.sqrt(norm);
			for (int r = 0; r < k; r++)
				y[r] /= norm;
			for (int r = 0; r < k; r++)
				for (int j = 0; j < d; j++)
					components[col][j] += y[r] * q[r][j];
			int arg = 0;
			for (int j = 1; j < d; j++)
				if (Math.abs(components[col][j]) > Math.abs(components[col][arg])) arg = j;
			if (components[col][arg] < 0) {
				for (int j = 0; j < d; j++)
					components[col][j] = -components[col][j];
				for (int r = 0; r < k; r++)
					y[r] = -y[r];
			}
			values[col] = ritz.values[col];
			tv[col] = quadratic(a, y);
			bv[col] = quadratic(bq, y);
			ys[col] = y;
		}
		final double[][] scores = new double[nt][k];
		for (int i = 0; i < nt; i++)
			for (int col = 0; col < k; col++) {
				double s = 0;
				for (int r = 0; r < k; r++)
					s += ys[col][r] * projected[i][r];
				scores[i][col] = s;
			}
		final Map<String, Object> parameters = new LinkedHashMap<>();
		parameters.put("eta", eta);
		parameters.put("tau", tau);
		parameters.put("beta", beta);
		parameters.put("epochs", (double) options.epochs());
		parameters.put("samples_seen", (double) total);
		final List<String> diagnostics = new ArrayList<>();
		diagnostics.add(String.format(Locale.ROOT, "online cPCA*: %d samples (%d epoch(s) " +
			"of %d target + %d background, %s order, interleaved in proportion), η = %s, " +
			"τ = %s, β = %s, seed %d, %s centring%s", total, options.epochs(), nt, nb, options
				.order(), eta, tau, beta, options.seed(), options.centring(), targetScale == null
					? "" : ", standardised"));
		diagnostics.addAll(setupNotes);
		diagnostics.add("online cPCA*: components are Rayleigh–Ritz vectors of the learned " +
			"subspace (unit length, not necessarily orthogonal), with variances from one " +
			"more pass over the data");
		if (!Double.isNaN(finalAlignment)) diagnostics.add(String.format(Locale.ROOT,
			"online cPCA*: projector alignment with offline cPCA* %.4f", finalAlignment));
		diagnostics.addAll(notes);
		return new CpcaModel("online", Double.NaN, parameters, components, values, tv, bv,
			totalVariance, Preprocessing.of(targetMean, targetScale), false, diagnostics,
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
