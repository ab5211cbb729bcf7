package org.cpca.core.significance;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The result of a permutation test (docs/math/significance.md): per component a
 * family-wise p-value and the threshold its statistic must exceed to be significant at
 * {@link #LEVEL}.
 */
public final class Significance {

	/** The family-wise level the thresholds are given for. */
	public static final double LEVEL = 0.05;

	private final int permutations;
	private final long seed;
	private final String statistic;
	private final double[] observed, pValues, thresholds, nullMaxima;
	private final int unconverged;

	Significance(final int permutations, final long seed, final String statistic,
		final double[] observed, final double[] nullMaxima)
	{
		this(permutations, seed, statistic, observed, nullMaxima, -1);
	}

	/** @param unconverged refits that stopped before converging, −1 for a direct family */
	Significance(final int permutations, final long seed, final String statistic,
		final double[] observed, final double[] nullMaxima, final int unconverged)
	{
		this.permutations = permutations;
		this.unconverged = unconverged;
		this.seed = seed;
		this.statistic = statistic;
		this.observed = observed.clone();
		this.nullMaxima = nullMaxima.clone();
		pValues = new double[observed.length];
		for (int c = 0; c < observed.length; c++) {
			int atLeast = 0;
			for (final double m : nullMaxima)
				if (m >= observed[c]) atLeast++;
			pValues[c] = (1.0 + atLeast) / (permutations + 1.0);
		}
		thresholds = new double[observed.length];
		Arrays.fill(thresholds, threshold(nullMaxima, LEVEL));
	}

	/**
	 * The value a statistic must exceed to get p ≤ level: the j-th largest null maximum,
	 * j = ⌊level·(N + 1)⌋ (a statistic above it is exceeded by at most j − 1 of them, so
	 * p ≤ j/(N + 1)); +∞ when N is too small for that level.
	 */
	static double threshold(final double[] nullMaxima, final double level) {
		final int j = (int) Math.floor(level * (nullMaxima.length + 1) + 1e-9);
		if (j < 1) return Double.POSITIVE_INFINITY;
		final double[] sorted = nullMaxima.clone();
		Arrays.sort(sorted);
		return sorted[sorted.length - j];
	}

	public int permutations() {
		return permutations;
	}

	public long seed() {
		return seed;
	}

	public String statistic() {
		return statistic;
	}

	/** The observed statistic per component. */
	public double[] observed() {
		return observed.clone();
	}

	/** Per component, (1 + #{null maximum ≥ observed}) / (N + 1). */
	public double[] pValues() {
		return pValues.clone();
	}

	/** Per component, the value its statistic must exceed for p ≤ {@link #LEVEL}. */
	public double[] thresholds() {
		return thresholds.clone();
	}

	/** Per permutation, the maximum of its statistics over components. */
	public double[] nullMaxima() {
		return nullMaxima.clone();
	}

	/**
	 * Of the N + 1 refits (the data's own and the N permutations'), those that stopped
	 * before converging; −1 for a family that is not iterative.
	 */
	public int unconverged() {
		return unconverged;
	}

	/** The number of components with p ≤ level. */
	public int significant(final double level) {
		int s = 0;
		for (final double p : pValues)
			if (p <= level) s++;
		return s;
	}

	/**
	 * For summary.json: {"permutations": N, "seed": S, "statistic": "…", "p_values": […],
	 * "thresholds": […]} (an infinite threshold, when N is too small for the level, as
	 * {@code null}: JSON has no infinity), and for an iterative family
	 * "refits_not_converged" ({@link #unconverged()}).
	 */
	public Map<String, Object> toSummary() {
		final Map<String, Object> m = new LinkedHashMap<>();
		m.put("permutations", permutations);
		m.put("seed", seed);
		m.put("statistic", statistic);
		m.put("p_values", pValues.clone());
		final Double[] t = new Double[thresholds.length];
		for (int c = 0; c < t.length; c++)
			t[c] = Double.isFinite(thresholds[c]) ? thresholds[c] : null;
		m.put("thresholds", t);
		if (unconverged >= 0) m.put("refits_not_converged", unconverged);
		return m;
	}
}
