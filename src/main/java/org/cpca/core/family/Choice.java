package org.cpca.core.family;

import java.util.Locale;

/**
 * A parameter the user may fix or leave to the method: α and β (and the kernel's γ) are
 * each <b>automatic</b>, <b>a value</b>, or (α only) <b>∞</b>. One parser and one
 * validator for every front end: the text forms are {@code auto}, a number, and
 * {@code inf} (also {@code infinity}, {@code ∞}); a Fiji dialog's mode choice
 * ({@code auto}, {@code fixed}, {@code inf}) combines with a number through
 * {@link #parse(String, String, Range, String)}.
 */
public final class Choice {

	/** What kind of choice. */
	public enum Kind {
			/** Chosen by the method (automatic α, β or γ). */
			AUTO,
			/** A given value. */
			VALUE,
			/** α = ∞: the background's null space. */
			INFINITE
	}

	/** The values a parameter accepts, for parsing and for messages. */
	public enum Range {
			/** α: a value ≥ 0, inf or auto. */
			ALPHA(0, Double.POSITIVE_INFINITY, true, true, "≥ 0",
				"a value ≥ 0 (0 is PCA), inf (the background's null space) or auto"),
			/** β: a value in [0, 1] or auto. */
			BETA(0, 1, true, false, "in [0, 1]",
				"a value in [0, 1] (0 is PCA, values towards 1 weight the background more, 1 " +
					"is cPCA++) or auto"),
			/** γ of a kernel: a value &gt; 0 or auto. */
			POSITIVE(0, Double.POSITIVE_INFINITY, false, false, "> 0", "a value > 0 or auto");

		final double min, max;
		final boolean minIncluded, infinityAllowed, maxIncluded;
		final String constraint, accepted;

		Range(final double min, final double max, final boolean minIncluded,
			final boolean infinityAllowed, final String constraint, final String accepted)
		{
			this.constraint = constraint;
			this.min = min;
			this.max = max;
			this.minIncluded = minIncluded;
			this.maxIncluded = !Double.isInfinite(max);
			this.infinityAllowed = infinityAllowed;
			this.accepted = accepted;
		}

		boolean contains(final double v) {
			return (minIncluded ? v >= min : v > min) && (maxIncluded ? v <= max : v < max);
		}
	}

	private static final Choice AUTO = new Choice(Kind.AUTO, Double.NaN);
	private static final Choice INFINITE = new Choice(Kind.INFINITE,
		Double.POSITIVE_INFINITY);

	private final Kind kind;
	private final double value;

	private Choice(final Kind kind, final double value) {
		this.kind = kind;
		this.value = value;
	}

	/** Left to the method. */
	public static Choice auto() {
		return AUTO;
	}

	/** α = ∞. */
	public static Choice infinite() {
		return INFINITE;
	}

	/** A given value (not checked against a range: see {@link #parse}). */
	public static Choice of(final double v) {
		if (Double.isNaN(v)) return AUTO;
		if (v == Double.POSITIVE_INFINITY) return INFINITE;
		return new Choice(Kind.VALUE, v + 0.0); // −0 → 0
	}

	public Kind kind() {
		return kind;
	}

	public boolean isAuto() {
		return kind == Kind.AUTO;
	}

	public boolean isInfinite() {
		return kind == Kind.INFINITE;
	}

	/** The value; NaN when automatic, {@code +∞} for ∞ (the core's encoding). */
	public double value() {
		return value;
	}

	/**
	 * From text: "auto", a number, or "inf" where the range allows it.
	 *
	 * @param key how the user gave it, for the message (e.g. "--alpha", "alpha=")
	 * @throws IllegalArgumentException naming the key, the text and what is accepted
	 */
	public static Choice parse(final String text, final Range range, final String key) {
		final String s = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
		if (s.equals("auto")) return AUTO;
		if (s.equals("inf") || s.equals("infinity") || s.equals("∞") || s.equals("+inf")) {
			if (range.infinityAllowed) return INFINITE;
			throw new IllegalArgumentException(key + text + " is not allowed: use " +
				range.accepted);
		}
		final double v;
		try {
			v = s.equals("nan") ? Double.NaN : Double.parseDouble(s);
		}
		catch (final NumberFormatException e) {
			throw new IllegalArgumentException(key + text + " is not a number: use " +
				range.accepted);
		}
		if (Double.isNaN(v)) throw new IllegalArgumentException(name(key) + " must be " +
			range.constraint + " (got " + text + ", which is not a number): use " +
			range.accepted);
		if (!range.contains(v) && !(v == Double.POSITIVE_INFINITY && range.infinityAllowed))
			throw new IllegalArgumentException(name(key) + " must be " + range.constraint +
				" (got " + text + "): use " + range.accepted);
		return of(v);
	}

	/**
	 * From a dialog's mode choice and a number: {@code auto}, {@code fixed} (then
	 * {@code value}) or {@code inf}. A {@code null} mode means the value text alone decides.
	 *
	 * @param modeKey how the user gave the mode (e.g. "alpha_mode=")
	 * @param key how the user gave the value (e.g. "alpha=")
	 */
	public static Choice parse(final String mode, final String value, final Range range,
		final String modeKey, final String key)
	{
		if (mode == null) return parse(value, range, key);
		final String m = mode.trim().toLowerCase(Locale.ROOT);
		switch (m) {
			case "auto":
				return AUTO;
			case "inf":
			case "infinity":
				if (range.infinityAllowed) return INFINITE;
				break;
			case "fixed":
				final Choice c = parse(value, range, key);
				if (c.isAuto()) throw new IllegalArgumentException(modeKey + "fixed needs a " +
					"number for " + key + ": use " + range.accepted);
				return c;
			default:
		}
		throw new IllegalArgumentException(modeKey + mode + " is not known: use auto, fixed" +
			(range.infinityAllowed ? " or inf" : ""));
	}

	/** Shorthand of {@link #parse(String, String, Range, String, String)} for key names. */
	public static Choice parse(final String mode, final String value, final Range range,
		final String key)
	{
		return parse(mode, value, range, key + "_mode=", key + "=");
	}

	/** "--alpha " or "alpha=" → "--alpha" or "alpha", for messages. */
	public static String name(final String key) {
		final String k = key.trim();
		return k.endsWith("=") ? k.substring(0, k.length() - 1) : k;
	}

	/** The mode a dialog shows: auto, fixed or inf. */
	public String mode() {
		return kind == Kind.AUTO ? "auto" : kind == Kind.INFINITE ? "inf" : "fixed";
	}

	/** "auto", "inf", or the number as Java prints it. */
	@Override
	public String toString() {
		return kind == Kind.AUTO ? "auto" : kind == Kind.INFINITE ? "inf" : Double.toString(
			value);
	}

	@Override
	public boolean equals(final Object o) {
		return o instanceof Choice && ((Choice) o).kind == kind && Double.compare(
			((Choice) o).value, value) == 0;
	}

	@Override
	public int hashCode() {
		return kind.hashCode() * 31 + Double.hashCode(value);
	}
}
