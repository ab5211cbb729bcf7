package org.cpca.core.run;

import org.cpca.core.result.Method;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.SampleStream;
import org.cpca.core.kernel.KernelFunction;
import org.cpca.core.online.OnlineOptions;

/**
 * Everything a user can set about a method, as one immutable, validated value: the
 * method, α and β ({@link Choice}), the number of components, the preprocessing, the
 * automatic-selection grids and each family's own settings. Every front end fills it
 * through one {@link Builder} by <b>key</b>: the keys are the snake_case names that Fiji
 * dialogs and macros use ({@code alpha}, {@code background_components}, …), and the
 * command line's flags are their kebab-case forms ({@code --alpha},
 * {@code --background-components}). One parser per key, one validator for the
 * combination ({@link Builder#build()}).
 * <p>
 * Adding a setting: a field here, its key in {@link #KEYS} with its parser, and the
 * front ends' declarations (CLI option, Fiji parameter) — nothing else.
 */
public final class Settings {

	/** How a key is written in messages: {@code --alpha} or {@code alpha=}. */
	public enum Style {
			/** The command line: {@code --kebab-case}. */
			FLAG,
			/** Fiji dialogs and macros: {@code snake_case=}. */
			KEY;

		/** The key as the user writes it, ready to be followed by the value. */
		public String name(final String key) {
			return this == FLAG ? "--" + key.replace('_', '-') : key + "=";
		}
	}

	/** One setting: its key, what it accepts, and how it is parsed into a builder. */
	private static final class Key {

		final String name;
		final String accepts;
		final Parser parser;

		Key(final String name, final String accepts, final Parser parser) {
			this.name = name;
			this.accepts = accepts;
			this.parser = parser;
		}
	}

	@FunctionalInterface
	private interface Parser {

		void parse(Builder b, String text, String shown);
	}

	/** Every key, in the order help texts list them. */
	private static final Map<String, Key> KEYS = new LinkedHashMap<>();

	private static void key(final String name, final String accepts, final Parser p) {
		KEYS.put(name, new Key(name, accepts, p));
	}

	static {
		key("method", "one of " + Method.names(), (b, t, k) -> b.method = parseMethod(t, k));
		key("alpha", "a value ≥ 0, inf or auto", (b, t, k) -> b.alphaText = t);
		key("alpha_mode", "auto, fixed or inf", (b, t, k) -> b.alphaMode = t);
		key("beta", "a value in [0, 1] or auto", (b, t, k) -> b.betaText = t);
		key("beta_mode", "auto or fixed", (b, t, k) -> b.betaMode = t);
		key("components", "a whole number ≥ 1", (b, t, k) -> b.components = whole(t, k, 1));
		key("retain", "a fraction in (0, 1]", (b, t, k) -> {
			final double v = number(t, k);
			if (!(v > 0 && v <= 1)) throw new IllegalArgumentException(k + t +
				" is not a fraction in (0, 1]: e.g. 0.95");
			b.retain = v;
		});
		key("standardize", "true or false", (b, t, k) -> b.standardize = bool(t, k));
		key("whiten", "true or false", (b, t, k) -> b.whiten = bool(t, k));
		key("seed", "a whole number", (b, t, k) -> b.seed = longValue(t, k));
		key("alpha_count", "a whole number ≥ 1", (b, t, k) -> b.alphaCount = whole(t, k, 1));
		key("alpha_range", "MIN,MAX with 0 < MIN ≤ MAX", (b, t, k) -> {
			final String[] parts = t.split(",");
			final double lo = parts.length == 2 ? number(parts[0], k) : Double.NaN;
			final double hi = parts.length == 2 ? number(parts[1], k) : Double.NaN;
			if (!(lo > 0 && hi >= lo && hi < Double.POSITIVE_INFINITY))
				throw new IllegalArgumentException(k + t + " needs MIN,MAX with 0 < MIN ≤ MAX " +
					"(e.g. 0.1,1000)");
			b.alphaRange = new double[] { lo, hi };
		});
		key("alphas_returned", "a whole number ≥ 1", (b, t, k) -> b.alphasReturned = whole(t,
			k, 1));
		key("beta_count", "a whole number ≥ 1", (b, t, k) -> b.betaCount = whole(t, k, 1));
		key("betas_returned", "a whole number ≥ 2 (β = 0 and one more)", (b, t,
			k) -> b.betasReturned = whole(t, k, 2));
		key("epsilon", "auto (0) or a value > 0, e.g. 1e-6", (b, t, k) -> {
			if (t.trim().equalsIgnoreCase("auto")) {
				b.epsilon = Double.NaN;
				return;
			}
			final double v = number(t, k);
			if (!(v >= 0) || Double.isInfinite(v)) throw new IllegalArgumentException(Choice.name(
				k) + " must be auto (or 0) or > 0 (got " + t + "): the regularisation δ = " +
				"ε·trace(C_b)/d of the background covariance, e.g. 1e-6");
			b.epsilon = v == 0 ? Double.NaN : v;
		});
		key("kernel", "linear, poly or rbf", (b, t, k) -> {
			KernelFunction.Type.parse(t);
			b.kernel = t.trim().toLowerCase(Locale.ROOT);
		});
		key("gamma", "a value > 0 or auto", (b, t, k) -> b.gamma = Choice.parse(t,
			Choice.Range.POSITIVE, k));
		key("degree", "a value ≥ 1", (b, t, k) -> b.degree = number(t, k));
		key("coef0", "a value", (b, t, k) -> b.coef0 = number(t, k));
		key("landmarks", "a number ≥ 1, auto or all", (b, t, k) -> b.landmarks =
			MethodSettings.parseLandmarks(t, k.endsWith("=") ? k.substring(0, k
				.length() - 1) : k.trim()));
		key("stacked", "true or false", (b, t, k) -> b.stacked = bool(t, k));
		key("k_b", "auto, a number ≥ 0, or one per background (e.g. 3,auto)",
			(b, t, k) -> b.backgroundComponents = MethodSettings.parseBackgroundComponents(t,
				k.endsWith("=") ? k.substring(0, k.length() - 1) : k));
		key("eta", "a value in (0, τ)", (b, t, k) -> b.eta = number(t, k));
		key("tau", "a value > 0", (b, t, k) -> b.tau = number(t, k));
		key("epochs", "a whole number ≥ 1", (b, t, k) -> b.epochs = whole(t, k, 1));
		key("order", "shuffled or sequential", (b, t, k) -> b.order = SampleStream.Order
			.parse(t));
		key("centring", "running or pass", (b, t, k) -> b.centring = OnlineOptions.Centring
			.parse(t));
		key("checkpoints", "a whole number ≥ 2", (b, t, k) -> b.checkpoints = whole(t, k, 2));
		key("variant", "v1, v2, v3 or v4", (b, t, k) -> b.variant = org.cpca.core.gcpca.Gcpca
			.Variant.parse(t).id());
		key("orthogonal", "true or false", (b, t, k) -> b.orthogonal = bool(t, k));
		key("shuffles", "a whole number ≥ 0 (0: no significance test)", (b, t, k) -> {
			final long v = longValue(t, k);
			if (v < 0 || v > Integer.MAX_VALUE) throw new IllegalArgumentException(Choice.name(
				k) + " must be ≥ 0 (got " + t + "): 0 for no significance test, e.g. 100 for one");
			b.shuffles = (int) v;
		});
		key("sparsity", "none, a value ≥ 0 or auto", (b, t, k) -> b.sparsity = t.trim()
			.equalsIgnoreCase("none") ? null : MethodSettings.parseSparsity(t, Choice.name(k)));
		key("reference", "auto, offline or none", (b, t, k) -> {
			final String v = t.trim().toLowerCase(Locale.ROOT);
			if (!v.equals("auto") && !v.equals("offline") && !v.equals("none"))
				throw new IllegalArgumentException(k + t + " is not known: use auto, offline " +
					"or none");
			b.reference = v;
		});
	}

	/**
	 * Other names accepted for a key. rPCA's k_b is {@code --background-components} on the
	 * command line too (the key cannot be {@code background_components}: ImageJ's macro
	 * option lookup would read it for {@code components}).
	 */
	private static final Map<String, String> ALIASES = new LinkedHashMap<>();
	static {
		ALIASES.put("background_components", "k_b");
	}

	/** Whether {@code name} (snake_case or kebab-case, or an alias) is a setting's key. */
	public static boolean isKey(final String name) {
		final String typed = name.trim().replaceFirst("^--", "").replace('-', '_').toLowerCase(
			Locale.ROOT);
		return KEYS.containsKey(ALIASES.getOrDefault(typed, typed));
	}

	/** The keys, in order: the names Fiji and macros use (CLI: kebab-case). */
	public static List<String> keys() {
		return Collections.unmodifiableList(new ArrayList<>(KEYS.keySet()));
	}

	/** What a key accepts, for help texts and messages. */
	public static String accepts(final String key) {
		final Key k = KEYS.get(key);
		if (k == null) throw new IllegalArgumentException("no setting " + key);
		return k.accepts;
	}

	// -- the settings ------------------------------------------------------------------

	private final Method method;
	private final Choice alpha, beta, gamma;
	private final int components;
	private final Double retain;
	private final boolean standardize, whiten, stacked;
	private final long seed;
	private final int alphaCount, alphasReturned, betaCount, betasReturned;
	private final double[] alphaRange;
	private final double epsilon;
	private final String kernel;
	private final double degree, coef0;
	private final int landmarks;
	private final List<Integer> backgroundComponents;
	private final double eta, tau;
	private final int epochs, checkpoints;
	private final SampleStream.Order order;
	private final OnlineOptions.Centring centring;
	private final String reference;
	private final String variant;
	private final boolean orthogonal;
	private final int shuffles;
	private final Double sparsity;
	/** The keys the user gave (for "applies to … only" checks and summaries). */
	private final Set<String> given;

	private Settings(final Builder b, final Choice alpha, final Choice beta) {
		method = b.method;
		this.alpha = alpha;
		this.beta = beta;
		gamma = b.gamma;
		components = b.components;
		retain = b.retain;
		standardize = b.standardize;
		whiten = b.whiten;
		stacked = b.stacked;
		seed = b.seed;
		alphaCount = b.alphaCount;
		alphasReturned = b.alphasReturned;
		betaCount = b.betaCount;
		betasReturned = b.betasReturned;
		alphaRange = b.alphaRange.clone();
		epsilon = b.epsilon;
		kernel = b.kernel;
		degree = b.degree;
		coef0 = b.coef0;
		landmarks = b.landmarks;
		backgroundComponents = b.backgroundComponents == null ? null : Collections
			.unmodifiableList(new ArrayList<>(b.backgroundComponents));
		eta = b.eta;
		tau = b.tau;
		epochs = b.epochs;
		checkpoints = b.checkpoints;
		order = b.order;
		centring = b.centring;
		reference = b.reference;
		variant = b.variant;
		orthogonal = b.orthogonal;
		shuffles = b.shuffles;
		sparsity = b.sparsity;
		given = Collections.unmodifiableSet(new LinkedHashSet<>(b.given));
	}

	/** The defaults (cPCA with automatic α, k = 2). */
	public static Settings defaults() {
		return builder().build();
	}

	public static Builder builder() {
		return new Builder(Style.KEY);
	}

	/** A builder whose messages write keys in {@code style}. */
	public static Builder builder(final Style style) {
		return new Builder(style);
	}

	public Method method() {
		return method;
	}

	public Choice alpha() {
		return alpha;
	}

	public Choice beta() {
		return beta;
	}

	public int components() {
		return components;
	}

	public boolean standardize() {
		return standardize;
	}

	public boolean whiten() {
		return whiten;
	}

	public long seed() {
		return seed;
	}

	public boolean stacked() {
		return stacked;
	}

	/**
	 * Online cPCA*: compare with offline cPCA* at the same β — "auto" (when the data are
	 * small enough to hold), "offline" (always) or "none".
	 */
	public String reference() {
		return reference;
	}

	/** The keys the user gave, in the order given. */
	public Set<String> given() {
		return given;
	}

	/** The core's options of the linear fit (components, preprocessing, α grid, seed). */
	public CpcaOptions cpcaOptions() {
		CpcaOptions o = CpcaOptions.defaults().withComponents(components).withStandardize(
			standardize).withWhiten(whiten).withSeed(seed).withAlphaGrid(alphaCount, Math.log10(
				alphaRange[0]), Math.log10(alphaRange[1])).withAlphasReturned(alphasReturned);
		if (retain != null) o = o.withVarianceFraction(retain);
		return o;
	}

	/** The method's own settings, for {@link MethodRunner}. */
	public MethodSettings methodSettings() {
		final MethodSettings s = new MethodSettings().method(method).alpha(alpha.value())
			.beta(beta.value()).epsilon(epsilon).online(eta, tau, epochs).stacked(stacked)
			.backgroundComponents(backgroundComponents);
		s.betaCount = betaCount;
		s.betasReturned = betasReturned;
		s.variant = variant;
		s.orthogonal = orthogonal;
		s.shuffles = shuffles;
		s.sparsity = sparsity;
		if (method == Method.KERNEL) s.kernel(KernelFunction.of(KernelFunction.Type.parse(
			kernel), gamma.value(), degree, coef0)).landmarks(landmarks);
		return s;
	}

	/**
	 * Online cPCA*'s options. The network learns at one fixed β: automatic β is online
	 * cPCA*'s own rule (β = 1/(1 + s) from a streamed pass over the background,
	 * {@link org.cpca.core.online.OnlineRun#resolve}), not method star's sweep.
	 */
	public OnlineOptions onlineOptions() {
		final OnlineOptions base = OnlineOptions.defaults();
		final OnlineOptions o = (beta.isAuto() ? base : base.withBeta(beta.value()))
			.withComponents(components).withRates(eta, tau).withEpochs(epochs).withSeed(seed)
			.withOrder(order).withCentring(centring).withStandardize(standardize)
			.withCheckpoints(checkpoints);
		o.checkCombination();
		return o;
	}

	/** The settings as key → text, the user's keys and every default (for summaries). */
	public Map<String, String> asText() {
		final Map<String, String> m = new LinkedHashMap<>();
		m.put("method", method.id);
		m.put("alpha", alpha.toString());
		m.put("beta", beta.toString());
		m.put("components", Integer.toString(components));
		if (retain != null) m.put("retain", retain.toString());
		m.put("standardize", Boolean.toString(standardize));
		m.put("whiten", Boolean.toString(whiten));
		m.put("seed", Long.toString(seed));
		return m;
	}

	// -- building ----------------------------------------------------------------------

	/** Collects settings by key (text, as the user gave them), then validates them. */
	public static final class Builder {

		private final Style style;
		private final Set<String> given = new LinkedHashSet<>();
		Method method = Method.CPCA;
		String alphaText = "auto", alphaMode;
		String betaText = "auto", betaMode;
		int components = 2;
		Double retain;
		boolean standardize, whiten, stacked;
		long seed;
		int alphaCount = 40, alphasReturned = 4, betaCount = 40, betasReturned = 4;
		double[] alphaRange = { 0.1, 1000 };
		/** NaN: automatic (cPCA++'s shrinkage; 10⁻⁶ on a singular C_b for cPCA* at β = 1). */
		double epsilon = Double.NaN;
		String kernel = "rbf";
		Choice gamma = Choice.auto();
		double degree = KernelFunction.DEFAULT_DEGREE, coef0 = KernelFunction.DEFAULT_COEF0;
		int landmarks = org.cpca.core.kernel.KernelOptions.AUTOMATIC;
		List<Integer> backgroundComponents;
		double eta = OnlineOptions.DEFAULT_ETA, tau = OnlineOptions.DEFAULT_TAU;
		int epochs = OnlineOptions.DEFAULT_EPOCHS, checkpoints = 200;
		SampleStream.Order order = SampleStream.Order.SHUFFLED;
		OnlineOptions.Centring centring = OnlineOptions.Centring.RUNNING;
		String reference = "auto";
		String variant = "v4";
		boolean orthogonal;
		int shuffles;
		Double sparsity;
		private boolean lenient;

		private Builder(final Style style) {
			this.style = style;
		}

		/**
		 * Sets {@code key} from text (a flag's kebab-case form is accepted too).
		 *
		 * @throws IllegalArgumentException for an unknown key (with the nearest known one)
		 *           or a value the key does not accept
		 */
		public Builder set(final String key, final String text) {
			final String typed = key.trim().replace('-', '_').toLowerCase(Locale.ROOT);
			final String name = ALIASES.getOrDefault(typed, typed);
			final Key k = KEYS.get(name);
			if (k == null) throw new IllegalArgumentException(unknownKey(key, style));
			final String shown = style.name(name);
			if (text == null) throw new IllegalArgumentException(shown + " needs a value: " +
				k.accepts);
			k.parser.parse(this, text.trim(), style == Style.FLAG ? shown + " " : shown);
			given.add(name);
			return this;
		}

		/** Sets a key from a number, a flag or any value's text form. */
		public Builder set(final String key, final Object value) {
			return set(key, value instanceof Double ? Double.toString((Double) value) : String
				.valueOf(value));
		}

		/** Sets every entry of {@code keys} (key → text), in order. */
		public Builder setAll(final Map<String, String> keys) {
			keys.forEach((BiConsumer<String, String>) this::set);
			return this;
		}

		/**
		 * Settings a method does not use are ignored instead of refused: for dialogs, which
		 * always pass every field.
		 */
		public Builder lenient() {
			lenient = true;
			return this;
		}

		/** Whether the user gave {@code key}. */
		public boolean has(final String key) {
			return given.contains(key);
		}

		/**
		 * Checks the combination and makes the settings.
		 *
		 * @throws IllegalArgumentException naming the setting and what to do
		 */
		public Settings build() {
			final Choice alpha = Choice.parse(alphaMode, alphaText, Choice.Range.ALPHA, style
				.name("alpha_mode") + (style == Style.FLAG ? " " : ""), style.name("alpha") +
					(style == Style.FLAG ? " " : ""));
			final Choice beta = Choice.parse(betaMode, betaText, Choice.Range.BETA, style.name(
				"beta_mode") + (style == Style.FLAG ? " " : ""), style.name("beta") +
					(style == Style.FLAG ? " " : ""));
			onlyFor("retain", Method.PCA);
			onlyFor("stacked", Method.UCA, Method.RPCA);
			onlyFor("epsilon", Method.CPCAPP, Method.STAR);
			onlyFor("beta", Method.STAR, Method.ONLINE);
			onlyFor("beta_mode", Method.STAR, Method.ONLINE);
			onlyFor("beta_count", Method.STAR);
			onlyFor("variant", Method.GCPCA);
			onlyFor("orthogonal", Method.GCPCA);
			onlyFor("shuffles", Method.GCPCA);
			if (sparsity != null) onlyFor("sparsity", Method.CPCA, Method.GCPCA);
			onlyFor("betas_returned", Method.STAR);
			for (final String k : Arrays.asList("kernel", "gamma", "degree", "coef0",
				"landmarks"))
				onlyFor(k, Method.KERNEL);
			if (method == Method.KERNEL && alpha.isInfinite()) throw new IllegalArgumentException(
				style.name("alpha") + (style == Style.FLAG ? " " : "") + "inf is not defined " +
					"for kernel cPCA: give a finite α ≥ 0 or auto");
			if (method == Method.ONLINE && (retain != null || whiten))
				throw new IllegalArgumentException(style.name("retain") + " and " + style.name(
					"whiten") + " are not available for method online: leave them out");
			return new Settings(this, alpha, beta);
		}

		private void onlyFor(final String key, final Method... methods) {
			if (lenient || !given.contains(key)) return;
			for (final Method m : methods)
				if (m == method) return;
			final List<String> ids = new ArrayList<>();
			for (final Method m : methods)
				ids.add(m.id);
			throw new IllegalArgumentException(style.name(key).replace("=", "") + " applies to " +
				(style == Style.FLAG ? "--method " : "method=") + String.join(" and ", ids) +
				" only; for " + method.displayName + " leave it out");
		}
	}

	// -- parsers -----------------------------------------------------------------------

	/** The message for an unknown key: the nearest known key and the list of all. */
	public static String unknownKey(final String key, final Style style) {
		final String name = key.trim().replace('-', '_').toLowerCase(Locale.ROOT);
		String best = null;
		int bestDistance = Integer.MAX_VALUE;
		for (final String k : KEYS.keySet()) {
			final int d = distance(name, k);
			if (d < bestDistance) {
				bestDistance = d;
				best = k;
			}
		}
		final List<String> shown = new ArrayList<>();
		for (final String k : KEYS.keySet())
			shown.add(style.name(k).replace("=", ""));
		return style.name(name).replace("=", "") + " is not a setting" + (bestDistance <= 3
			? " (did you mean " + style.name(best).replace("=", "") + "?)" : "") +
			": the settings are " + String.join(", ", shown);
	}

	/** Levenshtein distance, for "did you mean". */
	static int distance(final String a, final String b) {
		final int[] prev = new int[b.length() + 1], cur = new int[b.length() + 1];
		for (int j = 0; j <= b.length(); j++)
			prev[j] = j;
		for (int i = 1; i <= a.length(); i++) {
			cur[0] = i;
			for (int j = 1; j <= b.length(); j++)
				cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + (a.charAt(
					i - 1) == b.charAt(j - 1) ? 0 : 1));
			System.arraycopy(cur, 0, prev, 0, cur.length);
		}
		return prev[b.length()];
	}

	private static Method parseMethod(final String text, final String shown) {
		try {
			return Method.parse(text);
		}
		catch (final IllegalArgumentException e) {
			throw new IllegalArgumentException(shown + text + " is not known: use one of " +
				Method.names());
		}
	}

	private static double number(final String text, final String shown) {
		try {
			return Double.parseDouble(text.trim());
		}
		catch (final NumberFormatException e) {
			throw new IllegalArgumentException(shown + text + " is not a number");
		}
	}

	private static int whole(final String text, final String shown, final int min) {
		final long v = longValue(text, shown);
		if (v < min || v > Integer.MAX_VALUE) throw new IllegalArgumentException(shown +
			text + " is out of range: use a whole number ≥ " + min);
		return (int) v;
	}

	private static long longValue(final String text, final String shown) {
		try {
			return Long.parseLong(text.trim());
		}
		catch (final NumberFormatException e) {
			throw new IllegalArgumentException(shown + text + " is not a whole number");
		}
	}

	private static boolean bool(final String text, final String shown) {
		final String s = text.trim().toLowerCase(Locale.ROOT);
		if (s.equals("true") || s.isEmpty()) return true;
		if (s.equals("false")) return false;
		throw new IllegalArgumentException(shown + text + " is not true or false");
	}
}
