package org.cpca.core.family;

import java.util.Locale;

/**
 * The parsers of plain values that settings share: numbers, whole numbers, flags and
 * sparsity. Each message names the key as the user wrote it ({@code shown}: {@code
 * "--epochs "} or {@code "epochs="}) and what it accepts.
 */
public final class Parse {

	private Parse() {}

	public static double number(final String text, final String shown) {
		try {
			return Double.parseDouble(text.trim());
		}
		catch (final NumberFormatException e) {
			throw new IllegalArgumentException(shown + text + " is not a number");
		}
	}

	public static int whole(final String text, final String shown, final int min) {
		final long v = longValue(text, shown);
		if (v < min || v > Integer.MAX_VALUE) throw new IllegalArgumentException(shown +
			text + " is out of range: use a whole number ≥ " + min);
		return (int) v;
	}

	public static long longValue(final String text, final String shown) {
		try {
			return Long.parseLong(text.trim());
		}
		catch (final NumberFormatException e) {
			throw new IllegalArgumentException(shown + text + " is not a whole number");
		}
	}

	public static boolean bool(final String text, final String shown) {
		final String s = text.trim().toLowerCase(Locale.ROOT);
		if (s.equals("true") || s.isEmpty()) return true;
		if (s.equals("false")) return false;
		throw new IllegalArgumentException(shown + text + " is not true or false");
	}

	/**
	 * Sparse loadings' sparsity (cPCA and gcPCA), the soft threshold per step of the
	 * solver (docs/math/sparse.md): "none" (dense, {@code null}), a number ≥ 0 (0 gives
	 * the dense loadings) or "auto" (NaN).
	 *
	 * @param option how the user gave it, for the message (e.g. "--sparsity")
	 */
	public static Double sparsity(final String text, final String option) {
		final String s = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
		if (s.equals("none")) return null;
		if (s.equals("auto")) return Double.NaN;
		final double v;
		try {
			v = Double.parseDouble(s);
		}
		catch (final NumberFormatException e) {
			throw new IllegalArgumentException(option + " " + text +
				" is not a number: use a soft threshold ≥ 0 (0 is dense, larger values give more zeros) or auto");
		}
		if (!(v >= 0) || Double.isInfinite(v)) throw new IllegalArgumentException(option +
			" must be ≥ 0 (got " + text + "): 0 is dense, larger values give more zeros; or auto");
		return v + 0.0;
	}

	/** The refusal of a setting that needs the samples on a fit from moments alone. */
	public static IllegalArgumentException needsSamples(final String key) {
		return new IllegalArgumentException(key + " (--" + key.replace('_', '-') + ") needs " +
			"the samples, not only each dataset's moments: leave it out here, or run cpca fit " +
			"on one machine");
	}
}
