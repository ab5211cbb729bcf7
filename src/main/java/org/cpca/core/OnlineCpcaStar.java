package org.cpca.core;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

import org.apache.commons.math3.linear.CholeskyDecomposition;
import org.apache.commons.math3.linear.LUDecomposition;
import org.apache.commons.math3.linear.MatrixUtils;
import org.apache.commons.math3.linear.NonPositiveDefiniteMatrixException;
import org.apache.commons.math3.linear.RealMatrix;

/**
 * Online cPCA* (seed 001, §3, eqs. 9–11; ALGORITHMS.md §5): a Hebbian/anti-Hebbian network
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
	private long targetCount, backgroundCount;
	private boolean meansFrozen;
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
		if (!meansFrozen) {
			final double inv = 1.0 / (target ? ++targetCount : ++backgroundCount);
			for (int j = 0; j < d; j++) {
				final double v = sample[j];
				mean[j] += (v - mean[j]) * inv;
				x[j] = v - mean[j];
			}
		}
		else for (int j = 0; j < d; j++)
			x[j] = sample[j] - mean[j];
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

	private void checkFinite() {
		if (!finite()) throw new IllegalArgumentException("online cPCA* diverged after " +
			t + " samples (the weights overflowed): η = " + eta + " is too large for data " +
			"of this scale; lower η (e.g. η ÷ 10), or scale the data down");
	}

	/** Set the centring means (from a first pass); they are then fixed. */
	private void setMeans(final double[] target, final double[] background) {
		System.arraycopy(target, 0, targetMean, 0, d);
		System.arraycopy(background, 0, backgroundMean, 0, d);
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
				? "online cPCA*: alignment with offline cPCA*, tr(P_online P_offline)/k"
				: "online cPCA*: subspace change between checkpoints", "samples_seen",
				hasReference ? "alignment, change" : "1 − tr(P_prev P_now)/k", false, x, series);
		}

		/** The last checkpoint's alignment (NaN without a reference). */
		public double finalAlignment() {
			return curve.get(curve.size() - 1).alignment;
		}
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
		final OnlineCpcaStar net = new OnlineCpcaStar(d, options);
		final float[] sample = new float[d];
		if (options.centring() == OnlineOptions.Centring.PASS) net.setMeans(mean(target,
			sample, progress), mean(background, sample, progress));
		final long total = stream.length() * options.epochs();
		final long interval = Math.max(1, (total + options.checkpoints() - 1) / options
			.checkpoints());
		final List<Checkpoint> curve = new ArrayList<>();
		final double[][][] last = { net.subspace() };
		curve.add(new Checkpoint(0, 0, reference == null ? Double.NaN : Measures
			.projectorAlignment(last[0], reference), Double.NaN));
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
							.projectorAlignment(last[0], now)));
					last[0] = now;
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
		return new Result(model, curve, last[0], reference != null);
	}

	/** Exact mean of a source by one sequential pass. */
	private static double[] mean(final SampleSource s, final float[] buffer,
		final Progress progress) throws IOException
	{
		final int n = s.samples(), d = s.features();
		final double[] sum = new double[d];
		for (int i = 0; i < n; i++) {
			s.read(i, buffer);
			for (int j = 0; j < d; j++)
				sum[j] += buffer[j];
			if ((i & 1023) == 1023) {
				progress.checkCancelled();
				progress.stage("online cPCA*, means of " + s.name(), (double) i / n);
			}
		}
		for (int j = 0; j < d; j++)
			sum[j] /= n;
		return sum;
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
			q.length + " < k = " + k + ": the data support fewer contrastive directions; " +
			"lower k, or run more epochs");
		final int nt = target.samples(), nb = background.samples();
		final double[][] projected = new double[nt][];
		final double[] a = new double[k * k], bq = new double[k * k];
		double totalVariance = 0;
		for (int pass = 0; pass < 2; pass++) {
			final SampleSource s = pass == 0 ? target : background;
			final double[] mean = pass == 0 ? targetMean : backgroundMean;
			final double[] acc = pass == 0 ? a : bq;
			final int n = s.samples();
			for (int i = 0; i < n; i++) {
				s.read(i, sample);
				for (int j = 0; j < d; j++)
					x[j] = sample[j] - mean[j];
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
		final RealMatrix am = MatrixUtils.createRealMatrix(k, k), bm = MatrixUtils
			.createRealMatrix(k, k), bBeta = MatrixUtils.createRealMatrix(k, k);
		for (int r = 0; r < k; r++)
			for (int r2 = 0; r2 < k; r2++) {
				am.setEntry(r, r2, a[r * k + r2]);
				bm.setEntry(r, r2, bq[r * k + r2]);
				bBeta.setEntry(r, r2, beta * bq[r * k + r2] + (r == r2 ? 1 - beta : 0));
			}
		RealMatrix lower;
		try {
			lower = new CholeskyDecomposition(bBeta, 1e-12, 1e-14).getL();
		}
		catch (final NonPositiveDefiniteMatrixException e) {
			final double eps = 1e-10 * Math.max(bBeta.getTrace() / k, Double.MIN_NORMAL);
			lower = new CholeskyDecomposition(bBeta.add(MatrixUtils.createRealIdentityMatrix(k)
				.scalarMultiply(eps)), 0, 0).getL();
			notes.add("the background has no variance in part of the learned subspace " +
				"(β = 1): B_β was regularised by " + String.format(Locale.ROOT, "%.3g", eps) +
				"·I there");
		}
		final RealMatrix linv = new LUDecomposition(lower).getSolver().getInverse();
		final RealMatrix reduced = linv.multiply(am).multiply(linv.transpose());
		final double[] flat = new double[k * k];
		for (int r = 0; r < k; r++)
			for (int r2 = 0; r2 < k; r2++)
				flat[r * k + r2] = 0.5 * (reduced.getEntry(r, r2) + reduced.getEntry(r2, r));
		final SymmetricEigen eig = SymmetricEigen.of(flat, k);
		final double[] u = eig.vectors(k);
		final double[][] components = new double[k][d];
		final double[] values = new double[k], tv = new double[k], bv = new double[k];
		final double[][] ys = new double[k][k];
		for (int col = 0; col < k; col++) {
			// y = L⁻ᵀ u, then v = Qᵀ y / |y| (Q has orthonormal rows)
			final double[] y = new double[k];
			for (int r = 0; r < k; r++)
				for (int s = 0; s < k; s++)
					y[r] += linv.getEntry(s, r) * u[s * k + col];
			double norm = 0;
			for (final double v : y)
				norm += v * v;
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
			values[col] = eig.value(col);
			tv[col] = quadratic(am, y);
			bv[col] = quadratic(bm, y);
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
			"τ = %s, β = %s, seed %d, %s centring", total, options.epochs(), nt, nb, options
				.order(), eta, tau, beta, options.seed(), options.centring()));
		diagnostics.add("online cPCA*: components are Rayleigh–Ritz vectors of the learned " +
			"subspace (unit length, not necessarily orthogonal), with variances from one " +
			"more pass over the data");
		if (!Double.isNaN(finalAlignment)) diagnostics.add(String.format(Locale.ROOT,
			"online cPCA*: projector alignment with offline cPCA* %.4f", finalAlignment));
		diagnostics.addAll(notes);
		return new CpcaModel("online", Double.NaN, parameters, components, values, tv, bv,
			totalVariance, Preprocessing.of(targetMean, null), false, diagnostics,
			Collections.emptyMap(), scores);
	}

	private static double quadratic(final RealMatrix s, final double[] y) {
		double v = 0;
		for (int r = 0; r < y.length; r++)
			for (int r2 = 0; r2 < y.length; r2++)
				v += y[r] * s.getEntry(r, r2) * y[r2];
		return v;
	}
}
