package org.cpca;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.cpca.core.model.FittedModel;
import org.cpca.core.result.Solution;
import org.cpca.core.run.Settings;

/**
 * For every setting's key, a run where a value other than the default must change the
 * result: the key's family and the other keys it needs ({@link Scenario#base}), and the
 * value. The front ends' key tests run each key they accept through their own path with
 * and without the value and require the results to differ, so a key that a front end
 * accepts and then drops fails its test. A new key without a scenario fails {@link
 * #requireAll}.
 */
public final class KeyScenarios {

	private KeyScenarios() {}

	/** A run that the key's value must change. */
	public static final class Scenario {

		/** The other keys of the run (the method first). */
		public final Map<String, String> base;
		/** The key's value, not its default. */
		public final String value;
		/** The number of backgrounds the run needs. */
		public final int backgrounds;

		Scenario(final Map<String, String> base, final String value, final int backgrounds) {
			this.base = base;
			this.value = value;
			this.backgrounds = backgrounds;
		}

		/** The base keys with the key at its value. */
		public Map<String, String> with(final String key) {
			final Map<String, String> m = new LinkedHashMap<>(base);
			m.put(key, value);
			return m;
		}
	}

	private static final Map<String, Scenario> ALL = new LinkedHashMap<>();

	private static void add(final String key, final String value, final String... base) {
		add(key, value, 1, base);
	}

	private static void add(final String key, final String value, final int backgrounds,
		final String... base)
	{
		final Map<String, String> m = new LinkedHashMap<>();
		for (int i = 0; i < base.length; i += 2)
			m.put(base[i], base[i + 1]);
		ALL.put(key, new Scenario(m, value, backgrounds));
	}

	private static final String[] ONLINE = { "method", "online", "beta", "0.5", "epochs",
		"4", "eta", "0.3", "tau", "3" };
	private static final String[] KERNEL = { "method", "kernel", "alpha", "1", "gamma",
		"0.05" };

	static {
		add("method", "pca", "method", "cpca", "alpha", "2");
		add("alpha", "2.5", "method", "cpca");
		add("alpha_mode", "auto", "method", "cpca", "alpha", "2.5");
		add("beta", "0.3", "method", "star");
		add("beta_mode", "auto", "method", "star", "beta", "0.3");
		add("components", "3", "method", "cpca", "alpha", "2");
		add("retain", "0.5", "method", "pca");
		add("standardize", "true", "method", "cpca", "alpha", "2");
		add("whiten", "true", "method", "pca");
		add("seed", "7", "method", "gcpca", "shuffles", "5");
		add("alpha_count", "10", "method", "cpca");
		add("alpha_range", "1,10", "method", "cpca");
		add("alphas_returned", "2", "method", "cpca");
		add("significance", "19", "method", "cpca", "alpha", "2");
		add("significance_reselect", "true", "method", "cpca", "significance", "9");
		add("bootstrap", "5", "method", "cpca", "alpha", "2");
		add("sparsity", "0.1", "method", "cpca", "alpha", "2");
		add("beta_count", "10", "method", "star");
		add("betas_returned", "3", "method", "star");
		add("epsilon", "0.1", "method", "cpcapp");
		add("stacked", "true", 2, "method", "uca");
		add("k_b", "1", "method", "rpca");
		add("kernel", "poly", KERNEL);
		add("gamma", "0.5", KERNEL);
		add("degree", "2", "method", "kernel", "alpha", "1", "gamma", "0.05", "kernel", "poly");
		add("coef0", "3", "method", "kernel", "alpha", "1", "gamma", "0.05", "kernel", "poly");
		add("landmarks", "20", KERNEL);
		add("eta", "0.1", ONLINE);
		add("tau", "5", ONLINE);
		add("epochs", "2", ONLINE);
		add("order", "sequential", ONLINE);
		add("centring", "pass", ONLINE);
		add("checkpoints", "7", ONLINE);
		add("reference", "none", ONLINE);
		add("variant", "v2", "method", "gcpca");
		add("orthogonal", "true", "method", "gcpca");
		add("shuffles", "5", "method", "gcpca");
		add("held_out", "0.4", "method", "pcpca", "alpha", "0.3");
	}

	/** The scenario of {@code key}. */
	public static Scenario of(final String key) {
		final Scenario s = ALL.get(key);
		assertTrue(s != null, "no scenario for the key " + key + ": add one to KeyScenarios");
		return s;
	}

	/** Fails for a key of {@link Settings} without a scenario. */
	public static void requireAll() {
		final List<String> missing = new ArrayList<>();
		for (final String k : Settings.keys())
			if (!ALL.containsKey(k)) missing.add(k);
		assertTrue(missing.isEmpty(), "keys without a scenario in KeyScenarios: " + missing);
	}

	/** Fails unless every key in {@code keys} is a key of {@link Settings}. */
	public static void requireKeys(final Collection<String> keys) {
		for (final String k : keys)
			assertTrue(Settings.isKey(k), k + " is not a setting's key");
	}

	/**
	 * What a run gave, as text: the facts, the diagnostics, and each model's parameters,
	 * eigenvalues and scores.
	 */
	public static String fingerprint(final Solution s) {
		final StringBuilder sb = new StringBuilder();
		sb.append(s.method()).append(deep(s.facts())).append(deep(s.resultFacts())).append(s
			.diagnostics());
		for (final FittedModel m : s.models())
			sb.append(deep(m.parameters())).append(Arrays.toString(m.eigenvalues())).append(
				Arrays.deepToString(m.targetScores()));
		return sb.toString();
	}

	/** Maps, lists and arrays by their contents (never by identity). */
	private static String deep(final Object o) {
		if (o instanceof Map) {
			final StringBuilder sb = new StringBuilder("{");
			for (final Map.Entry<?, ?> e : ((Map<?, ?>) o).entrySet())
				sb.append(e.getKey()).append('=').append(deep(e.getValue())).append(", ");
			return sb.append('}').toString();
		}
		if (o instanceof Collection) {
			final StringBuilder sb = new StringBuilder("[");
			for (final Object x : (Collection<?>) o)
				sb.append(deep(x)).append(", ");
			return sb.append(']').toString();
		}
		if (o instanceof Object[]) return deep(Arrays.asList((Object[]) o));
		if (o instanceof double[]) return Arrays.toString((double[]) o);
		if (o instanceof double[][]) return Arrays.deepToString((double[][]) o);
		if (o instanceof int[]) return Arrays.toString((int[]) o);
		if (o instanceof float[]) return Arrays.toString((float[]) o);
		if (o instanceof long[]) return Arrays.toString((long[]) o);
		return String.valueOf(o);
	}
}
