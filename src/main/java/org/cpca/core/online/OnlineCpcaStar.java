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
import org.cpca.core.result.Method;
import org.cpca.core.result.Solution;
import org.cpca.core.star.CpcaStar;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.Arrays;


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
 * <b>Use.</b> This class is the network only: feed it samples ({@link #update}) and read
 * the learned filter or subspace ({@link #filter}, {@link #subspace}) — an accumulator,
 * as a streaming learner should be. {@link OnlineRun} is the driver: it streams the epochs
 * over two sources, records the convergence curve, and ends with one more pass that turns
 * the learned subspace into a model by Rayleigh–Ritz.
 */
public final class OnlineCpcaStar {

	final int k, d;
	/** η, τ, and β of the problem solved (the model's: {@code B_β = (1−β)I + βC_b}). */
	final double eta, tau, beta;
	/**
	 * How the network learns that β: on the centred samples times {@code unit}, at
	 * {@code stepBeta}. For a given β, unit 1 and β itself; for an automatic β = 1/(1 + s),
	 * unit 1/√s and β = ½ — the same generalised eigenvectors (cPCA* of data scaled by c at
	 * β′ equals cPCA* at β when (1 − β′)/(β′c²) = (1 − β)/β), but learned where the
	 * identity and background terms of B have equal trace, on the time scale the
	 * dimensionless step is made for (docs/math/online.md, "Automatic β").
	 */
	final double unit, stepBeta;
	/**
	 * The step actually taken is η/ν̂ (η dimensionless), ν̂ the running mean of ‖x‖² over
	 * the centred samples seen so far; {@link #normalisedSteps} false: η itself.
	 */
	private final boolean normalisedSteps;
	private double meanSquare;
	/**
	 * Per row r of W, the running mean of {@code (w_r·x)²/‖w_r‖²}: the variance along the
	 * learned directions, whose largest over ν̂ is the fastest relative rate of W's update
	 * ({@link #fastest}).
	 */
	private final double[] rowVariance;
	/** ‖w_r‖² per row, kept up to date by {@link #step}. */
	private final double[] rowNorm;
	/** Factor of the dimensionless η in the current epoch (see {@link #annealing(int, int)}). */
	double annealing = 1;

	/**
	 * The annealing of the dimensionless step over the epochs: η·100^(−e/(E−1)) in epoch e of
	 * E (0-based), so the first epochs learn fast and the last one, at η/100, settles
	 * (docs/math/online.md).
	 */
	static double annealing(final int epoch, final int epochs) {
		return epochs <= 1 ? 1 : Math.pow(ANNEALING, -(double) epoch / (epochs - 1));
	}

	/**
	 * The largest relative step of M, and of W along its fastest learned direction, per
	 * sample.
	 */
	static final double MAX_STEP = 0.5;
	/** How much faster than W's fastest learned direction M at least moves. */
	static final double LEAD = 2;

	/** The ratio of the first epoch's dimensionless step to the last one's. */
	static final double ANNEALING = 100;
	private final double[] w;
	private final double[] m;
	private double p = 0.5;
	long t;
	final double[] targetMean, backgroundMean;
	/** Per-feature divisors from the first pass, or {@code null}: centring only. */
	double[] targetScale, backgroundScale;
	/** Notes from preparing the data (zero-variance features when standardising). */
	final List<String> setupNotes = new ArrayList<>();
	private long targetCount, backgroundCount;
	private boolean meansFrozen;
	/** Sum of the squared norms of the centred samples (for the divergence message). */
	private double squaredNorms;
	// scratch: the centred sample, c, z and the Cholesky factor of M
	final double[] x, c, z, l;

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
		if (options.betaIsAutomatic()) throw new IllegalArgumentException("automatic β is " +
			"resolved from the background first (OnlineRun.resolve), or give β");
		beta = options.beta();
		final double s = options.learningVariance();
		unit = Double.isNaN(s) ? 1 : 1 / Math.sqrt(s);
		// an automatic β = 1/(1 + s) maps to ½ exactly (computed from β, 1 − β rounds away
		// when s is tiny); a given β to βs/(βs + 1 − β)
		stepBeta = Double.isNaN(s) ? beta : !Double.isNaN(options.backgroundMeanVariance())
			? 0.5 : beta * s / (beta * s + 1 - beta);
		normalisedSteps = options.normalisedStep();
		w = w0.clone();
		rowVariance = new double[k];
		rowNorm = new double[k];
		for (int r = 0; r < k; r++)
			for (int j = 0; j < d; j++)
				rowNorm[r] += w[r * d + j] * w[r * d + j];
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
				final double c = (v - mean[j]) * unit;
				x[j] = c;
				ss += c * c;
			}
		}
		else {
			final double[] scale = target ? targetScale : backgroundScale;
			if (scale == null) for (int j = 0; j < d; j++) {
				final double c = (sample[j] - mean[j]) * unit;
				x[j] = c;
				ss += c * c;
			}
			else for (int j = 0; j < d; j++) {
				final double c = (sample[j] - mean[j]) / scale[j] * unit;
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
		double ss = 0;
		for (int j = 0; j < d; j++)
			ss += x[j] * x[j];
		meanSquare += (ss - meanSquare) / t;
		// η dimensionless (docs/math/online.md): the step is η/ν̂ with ν̂ the running mean of
		// ‖x‖², so η‖x‖²/ν̂ ≈ η whatever the data's units; every term of the W and M updates
		// is scaled alike, so the fixed point (offline cPCA*) is unchanged
		// ... and at most ½ along W's fastest learned direction (docs/math/online.md, "The
		// step along the dominant direction"): on raw units with one dominant direction
		// (λ/ν̂ ≈ ½) η = 3 overshot it, and the network stalled
		final double fast = fastest();
		final double step = fast > 0 ? Math.min(this.eta * annealing, MAX_STEP / (LEAD * fast)) : this.eta *
			annealing;
		final double eta = !normalisedSteps ? this.eta : meanSquare > 0 ? step / meanSquare : 0;
		if (eta == 0) return;
		final double decay = 1 - 2 * eta * (1 - stepBeta);
		for (int r = 0; r < k; r++)
			c[r] = dot(w, r * d, x, d);
		for (int r = 0; r < k; r++)
			if (rowNorm[r] > 0) rowVariance[r] += (c[r] * c[r] / rowNorm[r] - rowVariance[r]) / t;
		// M's step: η/τ, but never slower than W along its fastest learned direction
		// (docs/math/online.md, "M keeps up with W"): with the dimensionless step W moves
		// by η·λ/ν̂ along a direction of variance λ, which on raw units with one dominant
		// direction (λ/ν̂ ≈ ½) outran an M at η/τ and stalled the network
		final double rate = normalisedSteps ? Math.min(MAX_STEP, step * Math.max(1 / tau,
			LEAD * fast)) : eta / tau;
		if (target) {
			solveM(c, z);
			for (int r = 0; r < k; r++)
				c[r] = 2 * eta * z[r]; // c now holds the gain of row r
			for (int a = 0; a < k; a++)
				for (int b = 0; b < k; b++)
					m[a * k + b] = (1 - rate) * m[a * k + b] + rate * z[a] * z[b];
		}
		else {
			// the anti-Hebbian term −g·c xᵀ; with the dimensionless step it is taken
			// implicitly (docs/math/online.md, "The implicit background step"): W ← W(I +
			// g xxᵀ)⁻¹ = W − g/(1 + g‖x‖²)·c xᵀ, which moves Wx at most to 0 whatever the
			// step, and equals the explicit step as g‖x‖² → 0
			final double g = 2 * eta * stepBeta / p;
			final double gain = normalisedSteps ? -g / (1 + g * ss) : -g;
			for (int r = 0; r < k; r++)
				c[r] *= gain;
			for (int i = 0; i < m.length; i++)
				m[i] *= 1 - rate;
		}
		for (int r = 0; r < k; r++) {
			final double gain = c[r];
			final int o = r * d;
			double norm = 0;
			if (decay == 1) for (int j = 0; j < d; j++) {
				final double v = w[o + j] + gain * x[j];
				w[o + j] = v;
				norm += v * v;
			}
			else for (int j = 0; j < d; j++) {
				final double v = decay * w[o + j] + gain * x[j];
				w[o + j] = v;
				norm += v * v;
			}
			rowNorm[r] = norm;
		}
	}

	/**
	 * The fastest relative rate of W's update per unit of the dimensionless η: the largest
	 * variance along a learned direction over ν̂ (between 1/d and 1).
	 */
	double fastest() {
		double top = 0;
		for (final double v : rowVariance)
			top = Math.max(top, v);
		return meanSquare > 0 ? top / meanSquare : 0;
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
			out[r] = Arrays.copyOfRange(w, r * d, (r + 1) * d);
		return out;
	}

	/** M (k × k, a copy). */
	public double[][] lateral() {
		final double[][] out = new double[k][];
		for (int r = 0; r < k; r++)
			out[r] = Arrays.copyOfRange(m, r * k, (r + 1) * k);
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
	void checkFinite() {
		if (finite() && !exploding()) return;
		final double meanSquare = squaredNorms / Math.max(1, t);
		if (normalisedSteps) throw new IllegalArgumentException(String.format(Locale.ROOT,
			"online cPCA* diverged after %d samples (the weights grew without bound): the " +
				"dimensionless step η = %s is too large for these data; lower --eta (eta=) to " +
				"%.2g or less and raise --epochs to compensate", t, eta, eta / 10));
		throw new IllegalArgumentException(String.format(Locale.ROOT, "online cPCA* " +
			"diverged after %d samples (the weights overflowed): η = %s is too large for " +
			"data of this scale (mean squared norm of a centred sample ‖x‖² ≈ %.3g); use " +
			"η ≤ %.2g (about 0.1/‖x‖²), or scale the data down", t, eta, meanSquare, 0.1 /
				meanSquare));
	}

	/**
	 * Early divergence: M (k × k) tracks E[zzᵀ] of normalised outputs and stays of order
	 * 1 in a stable run; a trace beyond 1e6·k, or a W whose norm exceeds 1e6 times the norm
	 * that maps a typical sample to an output of order 1, means the iteration is blowing up
	 * long before it overflows.
	 */
	private boolean exploding() {
		double trace = 0;
		for (int i = 0; i < k; i++)
			trace += Math.abs(m[i * k + i]);
		return trace > 1e6 * k;
	}

	/** Sets each dataset's preprocessing (from a first pass); it is then fixed. */
	void setPreprocessing(final Preprocessing target, final Preprocessing background) {
		System.arraycopy(target.mean(), 0, targetMean, 0, d);
		System.arraycopy(background.mean(), 0, backgroundMean, 0, d);
		targetScale = target.scale();
		backgroundScale = background.scale();
		meansFrozen = true;
	}
}
