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
