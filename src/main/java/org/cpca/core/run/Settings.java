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
import org.cpca.core.family.Choice;
import org.cpca.core.family.Family;
import org.cpca.core.family.FamilySettings;
import org.cpca.core.family.Parse;
import org.cpca.core.online.OnlineFamily;
import org.cpca.core.online.OnlineOptions;

/**
 * Everything a user can set about a method, as one immutable, validated value: the
 * settings every family shares (the method, α and β as {@link Choice}s, the number of
 * components, the preprocessing, the automatic-α grid, the seed) and the chosen family's
 * own options, parsed by the family's declaration ({@link Family#keys()}, listed in {@link
 * Families}). Every front end fills it through one {@link Builder} by <b>key</b>: the keys
 * are the snake_case names that Fiji dialogs and macros use ({@code alpha},
 * {@code background_components}, …), and the command line's flags are their kebab-case
 * forms ({@code --alpha}, {@code --background-components}). One parser per key, one
 * validator for the combination ({@link Builder#build()}); a family's key given with
 * another method is refused, naming the methods it applies to.
 * <p>
 * Adding a setting every family shares: a field here and its key in {@link #KEYS}. A
 * family's own setting is added to its declaration in its package only (docs/architecture.md).
 * <p>
 * Length (about 380 lines of code): the shared keys' parsers (one entry each in {@link #KEYS}),
 * the builder's checks of the combination and the did-you-mean for unknown keys; no family's own
 * setting lives here.
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

		/** The key as a parser shows it before the value ({@code "--alpha "}, {@code "alpha="}). */
		String shown(final String key) {
			return this == FLAG ? name(key) + " " : name(key);
		}
	}

	/** One shared setting: what it accepts, and how it is parsed into a builder. */
	private static final class Key {

		final String accepts;
		final Parser parser;

		Key(final String accepts, final Parser parser) {
			this.accepts = accepts;
			this.parser = parser;
		}
	}

	@FunctionalInterface
	private interface Parser {

		void parse(Builder b, String text, String shown);
	}

	/** The shared keys, in the order help texts list them (the families' keys follow). */
	private static final Map<String, Key> KEYS = new LinkedHashMap<>();

	private static void key(final String name, final String accepts, final Parser p) {
		KEYS.put(name, new Key(accepts, p));
	}

	static {
		key("method", "one of " + Method.names(), (b, t, k) -> b.method = parseMethod(t, k));
		key("alpha", "a value ≥ 0, inf or auto", (b, t, k) -> b.alphaText = t);
		key("alpha_mode", "auto, fixed or inf", (b, t, k) -> b.alphaMode = t);
		key("beta", "a value in [0, 1] or auto", (b, t, k) -> b.betaText = t);
		key("beta_mode", "auto or fixed", (b, t, k) -> b.betaMode = t);
		key("components", "a whole number ≥ 1", (b, t, k) -> b.components = Parse.whole(t, k,
			1));
		key("retain", "a fraction in (0, 1]", (b, t, k) -> {
			final double v = Parse.number(t, k);
			if (!(v > 0 && v <= 1)) throw new IllegalArgumentException(k + t +
				" is not a fraction in (0, 1]: e.g. 0.95");
			b.retain = v;
		});
		key("standardize", "true or false", (b, t, k) -> b.standardize = Parse.bool(t, k));
		key("whiten", "true or false", (b, t, k) -> b.whiten = Parse.bool(t, k));
		key("seed", "a whole number", (b, t, k) -> b.seed = Parse.longValue(t, k));
		key("alpha_count", "a whole number ≥ 1", (b, t, k) -> b.alphaCount = Parse.whole(t, k,
			1));
		key("alpha_range", "MIN,MAX with 0 < MIN ≤ MAX", (b, t, k) -> {
			final String[] parts = t.split(",");
			final double lo = parts.length == 2 ? Parse.number(parts[0], k) : Double.NaN;
			final double hi = parts.length == 2 ? Parse.number(parts[1], k) : Double.NaN;
			if (!(lo > 0 && hi >= lo && hi < Double.POSITIVE_INFINITY))
				throw new IllegalArgumentException(k + t + " needs MIN,MAX with 0 < MIN ≤ MAX " +
					"(e.g. 0.1,1000)");
			b.alphaRange = new double[] { lo, hi };
		});
		key("alphas_returned", "a whole number ≥ 1", (b, t, k) -> b.alphasReturned = Parse
			.whole(t, k, 1));
		key("significance", "a whole number of permutations, 0 (none) to " +
			SignificanceRun.MAX_PERMUTATIONS, (b, t, k) -> b.significance = SignificanceRun
				.permutations(Parse.whole(t, k, 0), k));
		key("significance_reselect", "true or false", (b, t, k) -> b.significanceReselect =
			Parse.bool(t, k));
		key("bootstrap", "a whole number of resamples, 0 (none) or 2 to " +
			SignificanceRun.MAX_PERMUTATIONS, (b, t, k) -> b.bootstrap = BootstrapRun.resamples(
				Parse.whole(t, k, 0), k));
		for (final String k : Families.keys())
			if (KEYS.containsKey(k)) throw new IllegalStateException("a family declares " + k +
				", a shared setting");
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

	/**
	 * The key {@code name} stands for: snake_case of a flag or key, aliases resolved
	 * ({@code --background-components} → {@code k_b}).
	 */
	public static String canonical(final String name) {
		final String typed = name.trim().replaceFirst("^--", "").replace('-', '_').toLowerCase(
			Locale.ROOT);
		return ALIASES.getOrDefault(typed, typed);
	}

	/** Whether {@code name} (snake_case or kebab-case, or an alias) is a setting's key. */
	public static boolean isKey(final String name) {
		final String key = canonical(name);
		return KEYS.containsKey(key) || Families.keys().contains(key);
	}

	/** The keys, in order: the names Fiji and macros use (CLI: kebab-case). */
	public static List<String> keys() {
		final List<String> out = new ArrayList<>(KEYS.keySet());
		out.addAll(Families.keys());
		return Collections.unmodifiableList(out);
	}

	/**
	 * The methods a key applies to: every method for a shared setting, the methods whose
	 * family declares it otherwise.
	 */
	public static List<Method> methodsOf(final String key) {
		return KEYS.containsKey(key) ? Arrays.asList(Method.values()) : Families.declaring(
			key);
	}

	/**
	 * Whether a key needs the samples (a family's setting that a fit from moments alone
	 * cannot use, {@link org.cpca.core.family.OptionKeys#samplesOnly}).
	 */
	public static boolean needsSamples(final String key) {
		if (key.startsWith("significance") || key.equals("bootstrap")) return true; // resamples
		for (final Method m : methodsOf(key))
			if (Families.of(m).keys().names().contains(key) && Families.of(m).keys()
				.needsSamples(key)) return true;
		return false;
	}

	/** What a key accepts, for help texts and messages. */
	public static String accepts(final String key) {
		final Key k = KEYS.get(key);
		return k != null ? k.accepts : Families.accepts(key);
	}

	// -- the settings ------------------------------------------------------------------

	private final Method method;
	private final Choice alpha, beta;
	private final int components;
	private final Double retain;
	private final boolean standardize, whiten;
	private final long seed;
	private final int significance, bootstrap;
	private final boolean significanceReselect;
	private final int alphaCount, alphasReturned;
	private final double[] alphaRange;
	private final FamilySettings<?> family;
	/** The keys the user gave (for "applies to … only" checks and summaries). */
	private final Set<String> given;

	private Settings(final Builder b, final Choice alpha, final Choice beta,
		final FamilySettings<?> family)
	{
		method = b.method;
		this.alpha = alpha;
		this.beta = beta;
		components = b.components;
		retain = b.retain;
		standardize = b.standardize;
		whiten = b.whiten;
		seed = b.seed;
		significance = b.significance;
		bootstrap = b.bootstrap;
		// a dialog passes the box for every method: it means something for cPCA only (the
		// combination is checked by the builder)
		significanceReselect = b.significanceReselect && b.method == Method.CPCA;
		alphaCount = b.alphaCount;
		alphasReturned = b.alphasReturned;
		alphaRange = b.alphaRange.clone();
		this.family = family;
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

	/**
	 * The number of seeded permutations of the significance test (0: none;
	 * docs/math/significance.md).
	 */
	public int significance() {
		return significance;
	}

	/**
	 * Whether the permutation test chooses automatic α again inside each permutation
	 * (docs/math/significance.md#re-selecting-automatic-choices).
	 */
	public boolean significanceReselect() {
		return significanceReselect;
	}

	/**
	 * The number of seeded bootstrap resamples of the stability of the components (0:
	 * none; docs/math/significance.md#stability-bootstrap).
	 */
	public int bootstrap() {
		return bootstrap;
	}

	/** The chosen method's family with its own options, parsed and validated. */
	public FamilySettings<?> family() {
		return family;
	}

	/**
	 * The chosen family's options as {@code type} (e.g. {@code
	 * StarFamily.Options.class}).
	 *
	 * @throws IllegalStateException if the chosen family's options are of another type
	 */
	public <O> O options(final Class<O> type) {
		final Object o = family.options();
		if (!type.isInstance(o)) throw new IllegalStateException("the options of " + method
			.id + " are not " + type.getSimpleName());
		return type.cast(o);
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

	/**
	 * Online cPCA*'s options, for the inputs streamed from files (method online only). The
	 * network learns at one fixed β: automatic β is online cPCA*'s own rule (β = 1/(1 + s)
	 * from a streamed pass over the background, {@link
	 * org.cpca.core.online.OnlineRun#resolve}), not method star's sweep.
	 */
	public OnlineOptions onlineOptions() {
		return options(OnlineFamily.Options.class).online(beta.isAuto() ? Double.NaN : beta
			.value(), components, seed, standardize);
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
		if (significance > 0) m.put("significance", Integer.toString(significance));
		if (bootstrap > 0) m.put("bootstrap", Integer.toString(bootstrap));
		if (significanceReselect) m.put("significance_reselect", "true");
		return m;
	}

	// -- building ----------------------------------------------------------------------

	/** Collects settings by key (text, as the user gave them), then validates them. */
	public static final class Builder {

		private final Style style;
		private final Set<String> given = new LinkedHashSet<>();
		/** The families' keys as given (key → text), parsed by the chosen family at build. */
		private final Map<String, String> familyText = new LinkedHashMap<>();
		Method method = Method.CPCA;
		String alphaText = "auto", alphaMode;
		String betaText = "auto", betaMode;
		int components = 2;
		Double retain;
		boolean standardize, whiten;
		long seed;
		int significance, bootstrap;
		boolean significanceReselect;
		int alphaCount = 40, alphasReturned = 4;
		double[] alphaRange = { 0.1, 1000 };
		private boolean lenient;

		private Builder(final Style style) {
			this.style = style;
		}

		/**
		 * Sets {@code key} from text (a flag's kebab-case form is accepted too). A family's
		 * key is checked against every family that declares it now, and parsed by the
		 * chosen method's family when the settings are built.
		 *
		 * @throws IllegalArgumentException for an unknown key (with the nearest known one)
		 *           or a value the key does not accept
		 */
		public Builder set(final String key, final String text) {
			final String name = canonical(key.replaceFirst("^--", ""));
			final Key k = KEYS.get(name);
			final List<Method> families = Families.declaring(name);
			if (k == null && families.isEmpty()) throw new IllegalArgumentException(unknownKey(
				key, style));
			final String shown = style.name(name);
			if (text == null) throw new IllegalArgumentException(shown + " needs a value: " +
				accepts(name));
			if (k != null) k.parser.parse(this, text.trim(), style.shown(name));
			else {
				for (final Method m : families)
					Families.of(m).keys().check(name, text.trim(), style.shown(name));
				familyText.put(name, text.trim());
			}
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
				.shown("alpha_mode"), style.shown("alpha"));
			final Choice beta = Choice.parse(betaMode, betaText, Choice.Range.BETA, style.shown(
				"beta_mode"), style.shown("beta"));
			if (!lenient && given.contains("retain") && method != Method.PCA) throw notFor(
				"retain", List.of(Method.PCA));
			if (!lenient && significance > 0 && method == Method.ONLINE) throw new IllegalArgumentException(style.shown(
					"significance").trim() + " is not available for " + method.displayName +
					" yet (docs/math/significance.md lists the methods it covers): leave it out");
			// a dialog passes the box whatever the method: refused there only when a cPCA
			// significance test would run with it
			if (significanceReselect && !(method == Method.CPCA && alpha.isAuto() &&
				significance > 0 && !isSparse(familyText.get("sparsity"))) && (!lenient ||
					method == Method.CPCA && significance > 0))
				throw new IllegalArgumentException(style.shown("significance_reselect").trim() +
					" re-selects automatic α inside each permutation: it needs method cpca " +
					"with automatic α, dense loadings (no " + style.name("sparsity") + ") and " +
					"a significance test; leave it out otherwise");
			if (!lenient && bootstrap > 0 && method == Method.ONLINE) throw new IllegalArgumentException(style.shown(
					"bootstrap").trim() + " is not available for " + method.displayName +
					" yet (docs/math/significance.md lists the methods it covers): leave it out");
			for (final String k : List.of("beta", "beta_mode")) // β is shared, not any family's
				if (!lenient && given.contains(k) && method != Method.STAR &&
					method != Method.ONLINE) throw notFor(k, List.of(Method.STAR, Method.ONLINE));
			final Family<?> family = Families.of(method);
			final Map<String, String> own = new LinkedHashMap<>();
			for (final Map.Entry<String, String> e : familyText.entrySet()) {
				if (family.keys().names().contains(e.getKey())) own.put(e.getKey(), e.getValue());
				else if (!lenient && !isDefaultSparsity(e.getKey(), e.getValue())) throw notFor(e
					.getKey(), Families.declaring(e.getKey()));
			}
			if (method == Method.KERNEL && alpha.isInfinite()) throw new IllegalArgumentException(
				style.shown("alpha") + "inf is not defined for kernel cPCA: give a finite α ≥ 0 " +
					"or auto");
			if (method == Method.ONLINE && (retain != null || whiten))
				throw new IllegalArgumentException(style.name("retain") + " and " + style.name(
					"whiten") + " are not available for method online: leave them out");
			return new Settings(this, alpha, beta, FamilySettings.parse(family, own,
				style::shown));
		}

		/** Whether a given sparsity asks for sparse loadings (not absent, not none). */
		private static boolean isSparse(final String text) {
			return text != null && !isDefaultSparsity("sparsity", text);
		}

		/** {@code sparsity none} (dense) is accepted with every method. */
		private static boolean isDefaultSparsity(final String key, final String text) {
			return key.equals("sparsity") && text.trim().equalsIgnoreCase("none");
		}

		private IllegalArgumentException notFor(final String key, final List<Method> methods) {
			final List<String> ids = new ArrayList<>();
			for (final Method m : methods)
				ids.add(m.id);
			return new IllegalArgumentException(style.name(key).replace("=", "") + " applies to " +
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
		for (final String k : keys()) {
			final int d = distance(name, k);
			if (d < bestDistance) {
				bestDistance = d;
				best = k;
			}
		}
		final List<String> shown = new ArrayList<>();
		for (final String k : keys())
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
}
