package org.cpca.core;

/**
 * Which method to run and its own settings, as the user gave them (command line, Fiji
 * dialog, macro). {@link MethodRunner} checks them. Settings a method does not use are
 * ignored.
 */
public final class MethodSettings {

	/** The method. */
	public Method method = Method.CPCA;
	/** cPCA (and kernel cPCA): α ≥ 0, {@code +∞}, or NaN for automatic α. */
	public double alpha = Double.NaN;

	/**
	 * UCA and rPCA with several backgrounds: pool them into one dataset ("stacked", for
	 * comparison) instead of treating each on its own ("split", the default).
	 */
	public boolean stacked;
	/**
	 * rPCA: k_b, the number of principal components removed from each background;
	 * {@code null} for the elbow rule on every background, otherwise one entry for all
	 * backgrounds or one per background, {@code null} entries for the elbow rule.
	 */
	public java.util.List<Integer> backgroundComponents;

	public MethodSettings stacked(final boolean on) {
		stacked = on;
		return this;
	}

	public MethodSettings backgroundComponents(final java.util.List<Integer> kb) {
		backgroundComponents = kb;
		return this;
	}

	/**
	 * k_b from text: "auto" (the elbow rule), a count ≥ 0 for every background, or
	 * comma-separated values, one per background, each a count or "auto" (e.g. "3,auto").
	 *
	 * @param option how the user gave it, for the message (e.g. "--background-components")
	 * @return {@code null} for "auto"
	 */
	public static java.util.List<Integer> parseBackgroundComponents(final String text,
		final String option)
	{
		final String s = text == null ? "" : text.trim().toLowerCase(java.util.Locale.ROOT);
		if (s.isEmpty() || s.equals("auto")) return null;
		final java.util.List<Integer> out = new java.util.ArrayList<>();
		for (final String part : s.split(",")) {
			final String v = part.trim();
			if (v.equals("auto")) {
				out.add(null);
				continue;
			}
			final int k;
			try {
				k = Integer.parseInt(v);
			}
			catch (final NumberFormatException e) {
				throw new IllegalArgumentException(option + " " + text + ": '" + v +
					"' is not a whole number: use auto (the elbow rule), a number of " +
					"background components ≥ 0, or one value per background, e.g. 3,auto");
			}
			if (k < 0) throw new IllegalArgumentException(option + " " + text + ": k_b = " +
				k + " is negative: the number of background components to remove must be ≥ " +
				"0 (0 is PCA), or auto");
			out.add(k);
		}
		return out;
	}

	public MethodSettings method(final Method m) {
		method = m;
		return this;
	}

	public MethodSettings alpha(final double a) {
		alpha = a;
		return this;
	}

	/**
	 * α from text: a number ≥ 0, "inf" (also "infinity", "∞") or "auto".
	 *
	 * @param option how the user gave it, for the message (e.g. "--alpha", "alpha=")
	 */
	public static double parseAlpha(final String text, final String option) {
		final String s = text == null ? "" : text.trim().toLowerCase(java.util.Locale.ROOT);
		if (s.equals("auto")) return Double.NaN;
		if (s.equals("inf") || s.equals("infinity") || s.equals("∞"))
			return Double.POSITIVE_INFINITY;
		final double v;
		try {
			v = Double.parseDouble(s);
		}
		catch (final NumberFormatException e) {
			throw new IllegalArgumentException(option + " " + text +
				" is not a number: use a value ≥ 0, inf or auto");
		}
		if (!(v >= 0) || Double.isInfinite(v)) throw new IllegalArgumentException(option +
			" must be ≥ 0 (got " + text + "): use 0 for PCA, a positive value, inf or auto");
		return v;
	}
}
