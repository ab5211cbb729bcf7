package org.cpca.core.online;

import org.cpca.core.data.SampleStream;

import java.util.Locale;

/**
 * Options of online cPCA* ({@link OnlineCpcaStar}, docs/math/online.md): an immutable,
 * validated value with defaults; change a copy with the {@code with…} methods.
 * <ul>
 * <li>{@code components} (k, default 2);</li>
 * <li>{@code eta} (η, default {@value #DEFAULT_ETA}): a <b>dimensionless</b> step size — the
 * W update takes the step η/ν̂ (ν̂ the running mean of ‖x‖²; the background term taken
 * implicitly) and M the step η/τ (at most ½), annealed over the epochs from η to η/100 —
 * so one default serves raw pixels and standardised tables alike ({@link
 * #withNormalisedStep}(false) restores the paper's raw step, 0.003 there), and {@code tau}
 * (τ, ratio of the W and M time scales, default {@value #DEFAULT_TAU}), with 0 &lt; η &lt;
 * τ;</li>
 * <li>{@code beta} (β ∈ [0, 1], default automatic): the contrast, as in cPCA*
 * ({@code B_β = (1−β)I + βC_b}); 0 is PCA of the target. Automatic β is {@code 1/(1 + s)}
 * with s the background's mean feature variance {@code tr(C_b)/d} from one streamed pass
 * ({@link OnlineRun#resolve}): the two terms of {@code B_β} then have equal trace, and the
 * network learns on the samples divided by √s, where that β is ½ (docs/math/online.md,
 * "Automatic β");</li>
 * <li>{@code epochs} (default {@value #DEFAULT_EPOCHS}): passes over the data;</li>
 * <li>{@code seed} (default 0): the random initial W and the shuffled order;</li>
 * <li>{@code order} (default shuffled): order of each dataset's samples within an epoch
 * ({@link SampleStream.Order});</li>
 * <li>{@code centring} (default running): how samples are centred ({@link Centring});</li>
 * <li>{@code standardize} (default off): also divide each feature by its own dataset's
 * standard deviation, as offline {@code standardize}; needs {@link Centring#PASS}, whose
 * first pass then computes the standard deviations too;</li>
 * <li>{@code checkpoints} (default 200): how many points of the convergence curve are
 * recorded over the run (plus one before the first sample).</li>
 * </ul>
 */
public final class OnlineOptions {

	/** How streamed samples are centred on their own dataset's mean. */
	public enum Centring {
		/**
		 * Each incoming sample is centred on its dataset's running mean, which includes the
		 * sample itself (so the very first sample of each dataset is centred to 0). The
		 * running mean is complete (exact) at the end of the first epoch and is frozen from
		 * then on. No extra pass.
		 */
		RUNNING,
		/** One extra pass over the data computes the exact means before learning. */
		PASS,
		/** Means given by the caller ({@link OnlineOptions#withMeans}). */
		GIVEN;

		/** Parses "running" or "pass" (any case); "given" needs means, so it is not parsed. */
		public static Centring parse(final String text) {
			final String s = text.trim().toLowerCase(Locale.ROOT);
			if (s.equals("running")) return RUNNING;
			if (s.equals("pass")) return PASS;
			throw new IllegalArgumentException("centring '" + text +
				"' is not known: use running (running means, no extra pass) or pass (an " +
				"extra first pass for the exact means)");
		}

		@Override
		public String toString() {
			return name().toLowerCase(Locale.ROOT);
		}
	}

	/**
	 * The default dimensionless step (docs/math/online.md, {@link #withNormalisedStep}): with
	 * the default τ and epochs it converges on the bundled raw-pixel digits (alignment 0.96
	 * with offline cPCA*) and on the standardised mouse table (0.999); see
	 * docs/math/defaults.md.
	 */
	public static final double DEFAULT_ETA = 3;
	/**
	 * Default passes over the data: raw pixels need hundreds (docs/math/online.md, "Why raw
	 * pixels need many passes"); lower it for large data, and read the convergence curve.
	 */
	public static final int DEFAULT_EPOCHS = 300;
	/** Alignment with offline cPCA* below which a run is reported as far from converged. */
	public static final double CONVERGED_ALIGNMENT = 0.9;
	/**
	 * Default τ: M's step η/τ is 0.3 at the default η — or, when W moves faster along its
	 * fastest learned direction, twice that (docs/math/online.md, "M keeps up with W").
	 */
	public static final double DEFAULT_TAU = 10;

	private int components = 2;
	private double eta = DEFAULT_ETA;
	private double tau = DEFAULT_TAU;
	/** β; NaN: automatic, not yet resolved ({@link OnlineRun#resolve}). */
	private double beta = Double.NaN;
	/**
	 * The background's mean feature variance s of an automatic β once resolved (the network
	 * learns on the samples divided by √s, at β = ½); NaN for a given β.
	 */
	private double meanVariance = Double.NaN;
	/**
	 * The background's mean feature variance s the network learns in (samples divided by
	 * √s, β mapped to the same problem: {@link OnlineCpcaStar}); NaN: raw units.
	 */
	private double learningVariance = Double.NaN;
	private int epochs = DEFAULT_EPOCHS;
	private long seed = 0;
	private SampleStream.Order order = SampleStream.Order.SHUFFLED;
	private Centring centring = Centring.RUNNING;
	private boolean standardize;
	private boolean normalisedStep = true;
	private double[] targetMean, backgroundMean;
	private int checkpoints = 200;

	public static OnlineOptions defaults() {
		return new OnlineOptions();
	}

	private OnlineOptions copy() {
		final OnlineOptions o = new OnlineOptions();
		o.components = components;
		o.eta = eta;
		o.tau = tau;
		o.beta = beta;
		o.meanVariance = meanVariance;
		o.learningVariance = learningVariance;
		o.epochs = epochs;
		o.seed = seed;
		o.order = order;
		o.centring = centring;
		o.standardize = standardize;
		o.normalisedStep = normalisedStep;
		o.targetMean = targetMean;
		o.backgroundMean = backgroundMean;
		o.checkpoints = checkpoints;
		return o;
	}

	public OnlineOptions withComponents(final int k) {
		if (k < 1) throw new IllegalArgumentException("the number of components k must be" +
			" at least 1 (got " + k + ")");
		final OnlineOptions o = copy();
		o.components = k;
		return o;
	}

	/**
	 * η and τ together (their constraint η &lt; τ involves both).
	 *
	 * @throws IllegalArgumentException unless 0 &lt; η &lt; τ (both finite)
	 */
	public OnlineOptions withRates(final double eta, final double tau) {
		if (!(tau > 0) || Double.isInfinite(tau)) throw new IllegalArgumentException(
			"τ (tau) must be a positive number (got " + tau + "): it is the ratio of the " +
				"W and M learning time scales; the paper uses τ = 1");
		if (!(eta > 0) || !(eta < tau)) throw new IllegalArgumentException(
			"η (eta) must satisfy 0 < η < τ (got η = " + eta + ", τ = " + tau + "): the " +
				"paper uses η = 0.003 with τ = 1; lower η if the run diverges");
		final OnlineOptions o = copy();
		o.eta = eta;
		o.tau = tau;
		return o;
	}

	/**
	 * Whether η is dimensionless (default true: the step is η/ν̂, ν̂ the running mean of
	 * ‖x‖², docs/math/online.md) or, false, the paper's raw step η (which must then be of order
	 * 0.1/‖x‖² or less: 0.003 suits standardised tables of ~77 features, not raw pixels).
	 */
	public OnlineOptions withNormalisedStep(final boolean on) {
		final OnlineOptions o = copy();
		o.normalisedStep = on;
		return o;
	}

	/** See {@link #withNormalisedStep}. */
	public boolean normalisedStep() {
		return normalisedStep;
	}

	public OnlineOptions withEta(final double eta) {
		return withRates(eta, tau);
	}

	public OnlineOptions withTau(final double tau) {
		return withRates(eta, tau);
	}

	public OnlineOptions withBeta(final double beta) {
		if (!(beta >= 0 && beta <= 1)) throw new IllegalArgumentException("β (beta) must " +
			"be in [0, 1] (got " + beta + "): 0 is PCA of the target, 1 the ratio of " +
			"target to background variance");
		final OnlineOptions o = copy();
		o.beta = beta;
		o.meanVariance = Double.NaN;
		return o;
	}

	/** Automatic β (the default; see the class comment and {@link OnlineRun#resolve}). */
	public OnlineOptions withAutomaticBeta() {
		final OnlineOptions o = copy();
		o.beta = Double.NaN;
		o.meanVariance = Double.NaN;
		return o;
	}

	/**
	 * The automatic β for a background of mean feature variance {@code s > 0}: β = 1/(1 + s),
	 * learned on the samples divided by √s (docs/math/online.md, "Automatic β").
	 */
	OnlineOptions withResolvedBeta(final double s) {
		if (!(s > 0 && s < Double.POSITIVE_INFINITY)) throw new IllegalArgumentException(
			"automatic β needs a background with variance (its mean feature variance is " + s +
				"): give β (--beta)");
		final OnlineOptions o = copy();
		o.beta = 1 / (1 + s);
		o.meanVariance = s;
		o.learningVariance = s;
		return o;
	}

	/**
	 * A given β learned on the samples divided by √s (OnlineRun.resolve passes the
	 * background's mean feature variance when it is below 1, else 1: raw units;
	 * docs/math/online.md, "Units"); unchanged when s is not a positive number.
	 */
	OnlineOptions withLearningVariance(final double s) {
		if (!(s > 0 && s < Double.POSITIVE_INFINITY)) return this;
		final OnlineOptions o = copy();
		o.learningVariance = s;
		return o;
	}

	/** The variance the samples are divided by while learning ({@link #withLearningVariance}). */
	double learningVariance() {
		return learningVariance;
	}

	/** Whether β is automatic and not yet resolved (then {@link #beta()} is NaN). */
	public boolean betaIsAutomatic() {
		return Double.isNaN(beta);
	}

	/**
	 * The background's mean feature variance s that fixed an automatic β = 1/(1 + s), or NaN
	 * when β was given.
	 */
	public double backgroundMeanVariance() {
		return meanVariance;
	}

	public OnlineOptions withEpochs(final int epochs) {
		if (epochs < 1) throw new IllegalArgumentException("the number of epochs (passes " +
			"over the data) must be at least 1 (got " + epochs + ")");
		final OnlineOptions o = copy();
		o.epochs = epochs;
		return o;
	}

	public OnlineOptions withSeed(final long seed) {
		final OnlineOptions o = copy();
		o.seed = seed;
		return o;
	}

	public OnlineOptions withOrder(final SampleStream.Order order) {
		final OnlineOptions o = copy();
		o.order = order;
		return o;
	}

	/** {@link Centring#RUNNING} or {@link Centring#PASS}; for given means use {@link #withMeans}. */
	public OnlineOptions withCentring(final Centring centring) {
		if (centring == Centring.GIVEN) throw new IllegalArgumentException(
			"give the means themselves with withMeans(target, background)");
		final OnlineOptions o = copy();
		o.centring = centring;
		o.targetMean = o.backgroundMean = null;
		return o;
	}

	/** Centres every sample on these means (length d each; copied). */
	public OnlineOptions withMeans(final double[] target, final double[] background) {
		if (target.length != background.length) throw new IllegalArgumentException(
			"the target mean has " + target.length + " features but the background mean " +
				"has " + background.length);
		for (final double[] m : new double[][] { target, background })
			for (final double v : m)
				if (!Double.isFinite(v)) throw new IllegalArgumentException("a given mean " +
					"has a non-finite value (" + v + ")");
		final OnlineOptions o = copy();
		o.centring = Centring.GIVEN;
		o.targetMean = target.clone();
		o.backgroundMean = background.clone();
		return o;
	}

	/**
	 * The options that depend on each other are consistent: standardising needs
	 * {@link Centring#PASS}.
	 *
	 * @throws IllegalArgumentException naming the fix otherwise
	 */
	public void checkCombination() {
		if (standardize && centring != Centring.PASS) throw new IllegalArgumentException(
			"standardising online cPCA* needs each dataset's exact means and standard " +
				"deviations from a first pass: use centring pass (--centring pass)");
	}

	/** Standardise as well as centre (see {@link #checkCombination}). */
	public OnlineOptions withStandardize(final boolean on) {
		final OnlineOptions o = copy();
		o.standardize = on;
		return o;
	}

	public OnlineOptions withCheckpoints(final int checkpoints) {
		if (checkpoints < 1) throw new IllegalArgumentException("the number of " +
			"checkpoints of the convergence curve must be at least 1 (got " + checkpoints +
			")");
		final OnlineOptions o = copy();
		o.checkpoints = checkpoints;
		return o;
	}

	public int components() {
		return components;
	}

	public double eta() {
		return eta;
	}

	public double tau() {
		return tau;
	}

	public double beta() {
		return beta;
	}

	public int epochs() {
		return epochs;
	}

	public long seed() {
		return seed;
	}

	public SampleStream.Order order() {
		return order;
	}

	public Centring centring() {
		return centring;
	}

	public boolean standardize() {
		return standardize;
	}

	/** The given target mean (a copy), or null unless {@link Centring#GIVEN}. */
	public double[] targetMean() {
		return targetMean == null ? null : targetMean.clone();
	}

	/** The given background mean (a copy), or null unless {@link Centring#GIVEN}. */
	public double[] backgroundMean() {
		return backgroundMean == null ? null : backgroundMean.clone();
	}

	public int checkpoints() {
		return checkpoints;
	}
}
