package org.cpca.core.online;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;

import org.cpca.core.Progress;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import org.cpca.core.data.SampleSource;
import org.cpca.core.data.SampleStream;
import org.cpca.core.family.Family;
import org.cpca.core.family.FamilyInput;
import org.cpca.core.family.KeyField;
import org.cpca.core.family.OptionKeys;
import org.cpca.core.family.Parse;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.result.Method;
import org.cpca.core.result.Solution;

/**
 * Online cPCA*: the learning rates ({@code eta}, {@code tau}), the passes
 * ({@code epochs}), the sample order ({@code order}), the centring ({@code centring}), the
 * convergence curve's points ({@code checkpoints}) and the offline comparison
 * ({@code reference}); docs/math/online.md. On samples in memory (Fiji, macros) it runs
 * here; streamed from files, {@code io.FitPipeline} runs {@link OnlineRun#run} with
 * {@link Options#online}.
 */
public final class OnlineFamily implements Family<OnlineFamily.Options> {

	/** Online cPCA*'s own settings. */
	public static final class Options {

		private final double eta, tau;
		private final int epochs, checkpoints;
		private final SampleStream.Order order;
		private final OnlineOptions.Centring centring;
		private final String reference;

		private Options(final Builder b) {
			eta = b.eta;
			tau = b.tau;
			epochs = b.epochs;
			checkpoints = b.checkpoints;
			order = b.order;
			centring = b.centring;
			reference = b.reference;
			// the ranges of η, τ, epochs and checkpoints, refused now rather than at the run
			online(Double.NaN, 1, 0, false);
		}

		/**
		 * The online run's options with the settings every family shares.
		 *
		 * @param beta β ∈ [0, 1], or NaN for online cPCA*'s automatic β
		 * @throws IllegalArgumentException for values out of range, or standardising
		 *           without the centring pass
		 */
		public OnlineOptions online(final double beta, final int components, final long seed,
			final boolean standardize)
		{
			final OnlineOptions base = OnlineOptions.defaults();
			final OnlineOptions o = (Double.isNaN(beta) ? base : base.withBeta(beta))
				.withComponents(components).withRates(eta, tau).withEpochs(epochs).withSeed(seed)
				.withOrder(order).withCentring(centring == null ? OnlineOptions.Centring.RUNNING
					: centring).withStandardize(standardize).withCheckpoints(checkpoints);
			o.checkCombination();
			return o;
		}

		/**
		 * Compare with offline cPCA* at the same β: "auto" (when the data are small enough
		 * to hold; always for samples in memory), "offline" (always) or "none".
		 */
		public String reference() {
			return reference;
		}
	}

	private static final class Builder {

		double eta, tau;
		int epochs, checkpoints = DEFAULTS.checkpoints();
		SampleStream.Order order;
		/** {@code null}: not given (running; pass when standardising samples in memory). */
		OnlineOptions.Centring centring;
		String reference;
	}

	/** The defaults of {@link OnlineOptions}, which the dialog fields start from. */
	private static final OnlineOptions DEFAULTS = OnlineOptions.defaults();

	/**
	 * The keys, with the fields of the Fiji command Online cPCA star… (docs/architecture.md,
	 * "How to add a setting"). Its β, seed and standardize are the shared settings, read with
	 * online cPCA*'s meaning: one β or its automatic rule (not method star's sweep), the seed
	 * of the weights and the order, standardising from the centring pass; they and the
	 * centring (whose default depends on standardize) are given their fields by {@link
	 * OptionKeys#dialogField}.
	 */
	private static final OptionKeys<Builder, Options> KEYS = OptionKeys.of(Builder::new,
		Options::new) //
		.key("eta", "a value in (0, τ)", KeyField.of("η (step size)", String.valueOf(DEFAULTS
			.eta()), "Dimensionless learning rate η, 0 < η < τ (W steps by η/mean‖x‖², so " +
				"the same η suits raw pixels and standardised tables; annealed to η/100 over " +
				"the epochs); lower it if the convergence curve is noisy.").min(0), (b, t,
					k) -> b.eta = Parse.number(t, k)) //
		.key("tau", "a value > 0", KeyField.of("τ", String.valueOf(DEFAULTS.tau()),
			"Ratio τ of the W and M learning time scales (paper: 1).").min(0), (b, t,
				k) -> b.tau = Parse.number(t, k)) //
		.key("epochs", "a whole number ≥ 1", KeyField.of("Epochs", String.valueOf(DEFAULTS
			.epochs()), "Passes over the data.").min(1), (b, t, k) -> b.epochs = Parse.whole(t,
				k, 1)) //
		.key("order", "shuffled or sequential", KeyField.of("Order", DEFAULTS.order()
			.toString(), "Order of each dataset's samples in an epoch: a new seeded shuffle " +
				"per epoch, or stack order. Target and background are interleaved in " +
				"proportion to their counts.").choices("shuffled", "sequential"), (b, t,
					k) -> b.order = SampleStream.Order.parse(t)) //
		.key("centring", "running or pass", (b, t, k) -> b.centring = OnlineOptions.Centring
			.parse(t)) //
		.key("checkpoints", "a whole number ≥ 2", (b, t, k) -> b.checkpoints = Parse.whole(t,
			k, 2)) //
		.key("reference", "auto, offline or none", KeyField.of("Compare with offline cPCA*",
			"auto", "auto: compute offline cPCA* for the alignment curve when the data are " +
				"small (at most 2·10^7 values); offline: always (reads the data into memory); " +
				"none: the curve shows the subspace change between checkpoints.").choices(
					"auto", "offline", "none"), (b, t, k) -> b.reference = reference(t, k)) //
		.dialogField("centring", KeyField.of("Centring", DEFAULTS.centring().toString(),
			"running: each sample is centred on its dataset's running mean (exact after the " +
				"first epoch). pass: an extra first pass computes the means.").choices(
					"running", "pass")) //
		.dialogField("beta", KeyField.of("β", "auto", "Contrast β ∈ [0, 1] of cPCA* (0 is " +
			"PCA of the target), or auto: β = 1/(1 + s), s the background's mean feature " +
			"variance, from one extra pass.")) //
		.dialogField("seed", KeyField.of("Seed", String.valueOf(DEFAULTS.seed()),
			"Seed of the initial weights and of the shuffled order.")) //
		.dialogField("standardize", KeyField.of("Standardize (needs centring pass)", String
			.valueOf(DEFAULTS.standardize()), "Also divide each feature by its own dataset's " +
				"standard deviation, from the first pass of centring=pass (for features in " +
				"different units)."));

	private static String reference(final String t, final String k) {
		final String v = t.trim().toLowerCase(Locale.ROOT);
		if (!v.equals("auto") && !v.equals("offline") && !v.equals("none"))
			throw new IllegalArgumentException(k + t + " is not known: use auto, offline " +
				"or none");
		return v;
	}

	@Override
	public Method method() {
		return Method.ONLINE;
	}

	@Override
	public OptionKeys<?, Options> keys() {
		return KEYS;
	}

	@Override
	public boolean runsFromFit() {
		return false;
	}

	/**
	 * Online cPCA* on samples in memory (the Fiji command's and the macro extension's
	 * method "online"): one fixed β (the given one, or online cPCA*'s automatic rule, {@link
	 * OnlineRun#resolve}; method star sweeps β). The data are in memory, so standardising
	 * takes the centring pass unless another centring is given, and the offline cPCA*
	 * reference is computed unless {@code reference} is "none".
	 */
	@Override
	public Solution run(final Options options, final FamilyInput input) {
		final CpcaOptions shared = input.options();
		if (shared.whiten()) throw new IllegalArgumentException("online cPCA* does not " +
			"whiten: turn whiten off");
		final Options o = options.centring == null && shared.standardize() ? withPass(options)
			: options;
		final OnlineOptions online = o.online(input.beta(), shared.components(), shared
			.seed(), shared.standardize());
		final Dataset target = input.target(Method.ONLINE);
		final Dataset background = input.backgrounds(Method.ONLINE).get(0);
		final SampleSource t = SampleSource.of(target), b = SampleSource.of(background);
		final Progress progress = input.progress();
		try {
			final OnlineOptions resolved = OnlineRun.resolve(online, b, progress);
			final CpcaModel offline = o.reference.equals("none") ? null : OnlineRun
				.offlineReference(t, b, resolved, progress);
			return OnlineRun.fit(t, b, resolved, offline == null ? null : offline
				.components(), progress).solution(resolved, offline);
		}
		catch (final IOException e) {
			throw new UncheckedIOException(e); // in-memory sources do not do I/O
		}
	}

	private static Options withPass(final Options o) {
		final Builder b = new Builder();
		b.eta = o.eta;
		b.tau = o.tau;
		b.epochs = o.epochs;
		b.checkpoints = o.checkpoints;
		b.order = o.order;
		b.centring = OnlineOptions.Centring.PASS;
		b.reference = o.reference;
		return new Options(b);
	}
}
