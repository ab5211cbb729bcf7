package org.cpca.core.result;

import org.cpca.core.model.FittedModel;

import java.util.Locale;

/**
 * The methods of the suite, by the name used everywhere a user picks one ({@code cpca fit
 * --method NAME}, the Fiji command's {@code method} field, macros, model files).
 */
public enum Method {

	PCA("pca", "PCA", "PC"),
	CPCA("cpca", "cPCA", "cPC"),
	STAR("star", "cPCA*", "cPC"),
	CPCAPP("cpcapp", "cPCA++", "cPC"),
	UCA("uca", "UCA", "UC"),
	RPCA("rpca", "rPCA", "rPC"),
	KERNEL("kernel", "kernel cPCA", "kPC"),
	ONLINE("online", "online cPCA*", "cPC"),
	GCPCA("gcpca", "gcPCA", "gcPC"),
	PCPCA("pcpca", "PCPCA", "pcPC");

	/** The name users type. */
	public final String id;
	/** The name shown in titles. */
	public final String displayName;
	/** The component prefix in tables and plots ("cPC" → cPC1, cPC2, …). */
	public final String prefix;

	Method(final String id, final String displayName, final String prefix) {
		this.id = id;
		this.displayName = displayName;
		this.prefix = prefix;
	}

	/** The method named {@code text} (case-insensitive). */
	public static Method parse(final String text) {
		final String s = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
		for (final Method m : values())
			if (m.id.equals(s)) return m;
		throw new IllegalArgumentException("method '" + text + "' is not known: use one of " +
			names());
	}

	/** The method of a model's {@link FittedModel#method()}, or {@code null}. */
	public static Method of(final FittedModel model) {
		return ofId(model.method());
	}

	/** The method whose {@link #id} is exactly {@code id}, or {@code null}. */
	public static Method ofId(final String id) {
		for (final Method m : values())
			if (m.id.equals(id)) return m;
		return null;
	}

	/** "pca, cpca, …" */
	public static String names() {
		final StringBuilder sb = new StringBuilder();
		for (final Method m : values())
			sb.append(sb.length() == 0 ? "" : ", ").append(m.id);
		return sb.toString();
	}
}
