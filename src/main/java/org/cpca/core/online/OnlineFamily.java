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

		final OnlineOptions defaults = OnlineOptions.defaults();
		double eta = defaults.eta(), tau = defaults.tau();
		int epochs = defaults.epochs(), checkpoints = defaults.checkpoints();
		SampleStream.Order order = defaults.order();
		/** {@code null}: not given (running; pass when standardising samples in memory). */
		OnlineOptions.Centring centring;
		String reference = "auto";
	}

	private static final OptionKeys<Builder, Options> KEYS = OptionKeys.of(Builder::new,
		Options::new).key("eta", "a value in (0, τ)", (b, t, k) -> b.eta = Parse.number(t, k))
		.key("tau", "a value > 0", (b, t, k) -> b.tau = Parse.number(t, k)).key("epochs",
			"a whole number ≥ 1", (b, t, k) -> b.epochs = Parse.whole(t, k, 1)).key("order",
				"shuffled or sequential", (b, t, k) -> b.order = SampleStream.Order.parse(t)).key(
					"centring", "running or pass", (b, t, k) -> b.centring = OnlineOptions.Centring
						.parse(t)).key("checkpoints", "a whole number ≥ 2", (b, t,
							k) -> b.checkpoints = Parse.whole(t, k, 2)).key("reference",
								"auto, offline or none", (b, t, k) -> b.reference = reference(t, k));

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
