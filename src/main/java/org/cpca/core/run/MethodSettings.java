package org.cpca.core.run;

import org.cpca.core.result.Method;

import org.cpca.core.kernel.KernelCpca;
import org.cpca.core.kernel.KernelFunction;
import org.cpca.core.kernel.KernelOptions;
import org.cpca.core.online.OnlineOptions;
import org.cpca.core.star.CpcaStar;

/**
 * The method's own settings as {@link MethodRunner} takes them: made from the user's
 * {@link Settings} ({@link Settings#methodSettings()}), where every setting is parsed and
 * validated once; the core's own callers may also fill it directly. Settings a method
 * does not use are ignored.
 */
public final class MethodSettings {

	/** The method. */
	public Method method = Method.CPCA;
	/** cPCA (and kernel cPCA): α ≥ 0, {@code +∞}, or NaN for automatic α. */
	public double alpha = Double.NaN;
	/** Kernel cPCA: the kernel; γ NaN means automatic (see {@link KernelFunction}). */
	public KernelFunction kernel = KernelFunction.rbf(Double.NaN);
	/**
	 * Kernel cPCA: {@link KernelOptions#AUTOMATIC} (exact or Nyström by N),
	 * {@link KernelOptions#ALL} (exact) or a number of Nyström landmarks.
	 */
	public int landmarks = KernelOptions.AUTOMATIC;

	/** cPCA*: β ∈ [0, 1], or NaN for automatic β. */
	public double beta = Double.NaN;
	/** cPCA*'s automatic β: the number of grid values strictly between 0 and 1. */
	public int betaCount = 40;
	/** cPCA*'s automatic β: the number of β values returned, β = 0 included. */
	public int betasReturned = 4;
	/**
	 * cPCA* at β = 1 and cPCA++: ε of the regularisation δ = ε·trace(C_b)/d; NaN:
	 * automatic (cPCA++: the Ledoit–Wolf shrinkage of C_b; cPCA*: {@link
	 * CpcaStar#DEFAULT_REGULARIZATION} on a singular C_b).
	 */
	public double epsilon = Double.NaN;

	/** Online cPCA*: the dimensionless step size η (0 &lt; η &lt; τ). */
	public double eta = OnlineOptions.DEFAULT_ETA;
	/** Online cPCA*: the ratio τ of the W and M time scales. */
	public double tau = OnlineOptions.DEFAULT_TAU;
	/** Online cPCA*: passes over the data. */
	public int epochs = OnlineOptions.DEFAULT_EPOCHS;

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

	/** gcPCA: the variant, v1 … v4 (v4 by default). */
	public String variant = "v4";
	/** gcPCA: the orthogonal variants (loadings orthonormal in feature space). */
	public boolean orthogonal;
	/** gcPCA: number of seeded shuffles of the significance test (0: none). */
	public int shuffles;
	/**
	 * cPCA and gcPCA: λ₁ of sparse loadings; {@code null} for dense loadings (the default),
	 * NaN for automatic λ₁ (see {@link #parseSparsity}).
	 */
	public Double sparsity;

	/**
	 * Sparsity from text: a number ≥ 0 (λ₁; 0 gives the dense loadings) or "auto".
	 *
	 * @param option how the user gave it, for the message (e.g. "--sparsity")
	 * @return NaN for auto
	 */
	public static double parseSparsity(final String text, final String option) {
		final String s = text == null ? "" : text.trim().toLowerCase(java.util.Locale.ROOT);
		if (s.equals("auto")) return Double.NaN;
		final double v;
		try {
			v = Double.parseDouble(s);
		}
		catch (final NumberFormatException e) {
			throw new IllegalArgumentException(option + " " + text +
				" is not a number: use λ₁ ≥ 0 (0 is dense, larger values give more zeros) or auto");
		}
		if (!(v >= 0) || Double.isInfinite(v)) throw new IllegalArgumentException(option +
			" must be ≥ 0 (got " + text + "): 0 is dense, larger values give more zeros; or auto");
		return v + 0.0;
	}

	public MethodSettings stacked(final boolean on) {
		stacked = on;
		return this;
	}

	public MethodSettings backgroundComponents(final java.util.List<Integer> kb) {
		backgroundComponents = kb;
		return this;
	}

	/**
	 * k_b from text: "auto" (the log-elbow rule, the default), "elbow" (the original elbow
	 * rule on λ_i), a count ≥ 0 for every background, or comma-separated values, one per
	 * background, each a count, "auto" or "elbow" (e.g. "3,auto").
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
			if (v.equals("elbow")) { // the original elbow rule on λ_i (auto: on log λ_i)
				out.add(org.cpca.core.rpca.Rpca.SEED_ELBOW);
				continue;
			}
			final int k;
			try {
				k = Integer.parseInt(v);
			}
			catch (final NumberFormatException e) {
				throw new IllegalArgumentException(option + " " + text + ": '" + v +
					"' is not a whole number: use auto (the log-elbow rule), elbow, a number of " +
					"background components ≥ 0, or one value per background, e.g. 3,auto");
			}
			if (k < 0) throw new IllegalArgumentException(option + " " + text + ": k_b = " +
				k + " is negative: the number of background components to remove must be ≥ " +
				"0 (0 is PCA), or auto");
			out.add(k);
		}
		return out;
	}

	/** ε of the β = 1 regularisation (used only when C_b is singular); must be &gt; 0. */
	public MethodSettings epsilon(final double e) {
		epsilon = e;
		return this;
	}

	public MethodSettings method(final Method m) {
		method = m;
		return this;
	}

	public MethodSettings alpha(final double a) {
		alpha = a;
		return this;
	}

	public MethodSettings kernel(final KernelFunction h) {
		kernel = h;
		return this;
	}

	public MethodSettings landmarks(final int count) {
		landmarks = count;
		return this;
	}

	/** Kernel cPCA's options from these settings. */
	public KernelOptions kernelOptions() {
		return KernelOptions.defaults().withKernel(kernel).withLandmarks(landmarks);
	}

	/**
	 * The kernel from text as the user gives it: {@code name} linear, poly or rbf;
	 * {@code gamma} a number &gt; 0 or "auto"; degree and coef0 for poly.
	 *
	 * @param prefix how options are written, for messages ("--" or "")
	 */
	public static KernelFunction parseKernel(final String name, final String gamma,
		final double degree, final double coef0, final String prefix)
	{
		return KernelFunction.of(KernelFunction.Type.parse(name), parseGamma(gamma, prefix +
			"gamma"), degree, coef0);
	}

	/** γ from text: a number &gt; 0, or "auto" (NaN). */
	public static double parseGamma(final String text, final String option) {
		final String s = text == null ? "auto" : text.trim().toLowerCase(java.util.Locale.ROOT);
		if (s.equals("auto") || s.isEmpty()) return Double.NaN;
		final double v;
		try {
			v = Double.parseDouble(s);
		}
		catch (final NumberFormatException e) {
			throw new IllegalArgumentException(option + " " + text +
				" is not a number: use a value > 0 or auto");
		}
		if (!(v > 0) || Double.isInfinite(v)) throw new IllegalArgumentException(option +
			" must be > 0 (got " + text + "): use a positive value or auto");
		return v;
	}

	/**
	 * Landmarks from text: "auto" (exact up to {@value KernelCpca#EXACT_LIMIT} samples,
	 * else Nyström), "all" (exact) or a whole number ≥ 1.
	 */
	public static int parseLandmarks(final String text, final String option) {
		final String s = text == null ? "auto" : text.trim().toLowerCase(java.util.Locale.ROOT);
		if (s.equals("auto") || s.isEmpty()) return KernelOptions.AUTOMATIC;
		if (s.equals("all") || s.equals("exact")) return KernelOptions.ALL;
		try {
			final int v = Integer.parseInt(s);
			if (v >= 1) return v;
		}
		catch (final NumberFormatException e) {
			// below
		}
		throw new IllegalArgumentException(option + " " + text + " is not known: use a " +
			"number of landmarks ≥ 1, auto (exact up to " + KernelCpca.EXACT_LIMIT +
			" samples, else " + KernelCpca.DEFAULT_LANDMARKS + " landmarks) or all (exact)");
	}

	/** Online cPCA*: η, τ and the number of epochs (checked when the method runs). */
	public MethodSettings online(final double eta, final double tau, final int epochs) {
		this.eta = eta;
		this.tau = tau;
		this.epochs = epochs;
		return this;
	}

	/** β ∈ [0, 1], or NaN for automatic β. */
	public MethodSettings beta(final double b) {
		beta = b;
		return this;
	}

	/**
	 * β from text: a number in [0, 1] or "auto".
	 *
	 * @param option how the user gave it, for the message (e.g. "--beta", "beta=")
	 */
	public static double parseBeta(final String text, final String option) {
		final String s = text == null ? "" : text.trim().toLowerCase(java.util.Locale.ROOT);
		if (s.equals("auto")) return Double.NaN;
		final double v;
		try {
			v = Double.parseDouble(s);
		}
		catch (final NumberFormatException e) {
			throw new IllegalArgumentException(option + " " + text +
				" is not a number: use a value in [0, 1] or auto");
		}
		if (!(v >= 0 && v <= 1)) throw new IllegalArgumentException(option +
			" must be in [0, 1] (got " + text + "): 0 is PCA, values towards 1 weight the " +
			"background more, 1 is cPCA++; or auto");
		return v + 0.0; // −0 → 0
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
