package org.cpca.core.model;

import org.cpca.core.data.Dataset;

import java.util.List;
import java.util.Map;
import java.math.BigDecimal;
import java.math.MathContext;

/**
 * What every fitted method offers the layers above the core (tables, plots, files): k
 * components with their eigenvalues and variances, scores of the training target, and a
 * projection of new samples. Linear methods ({@link CpcaModel}) also have components in
 * feature space (eigen-images) and reconstructions; kernel cPCA does not.
 * <p>
 * Implementations are immutable; array accessors return copies.
 */
public interface FittedModel {

	/** The method's name as in {@code cpca fit --method}: "pca", "cpca", "kernel", … */
	String method();

	/** α; {@code +∞} for α = ∞; NaN for methods without α. */
	double alpha();

	/**
	 * α (or any such setting: β, γ) as text, in every file and message: "0", "2.5",
	 * "18.0472", "inf", or "" for NaN (6 significant digits, no trailing zeros); below
	 * 10⁻⁴ and from 10⁹ on in exponent form ("1.06082e-9", "1e+12"), which file names
	 * (models/alpha_….json) can hold.
	 */
	static String alphaText(final double alpha) {
		if (Double.isNaN(alpha)) return "";
		if (alpha == Double.POSITIVE_INFINITY) return "inf";
		if (alpha == Double.NEGATIVE_INFINITY) return "-inf";
		if (alpha == 0) return "0";
		final BigDecimal v = new BigDecimal(alpha).round(
			new MathContext(6)).stripTrailingZeros();
		final double a = Math.abs(alpha);
		return a >= 1e-4 && a < 1e9 ? v.toPlainString() : v.toString().replace("E", "e");
	}

	/**
	 * The method's own settings besides α (e.g. "beta", "lambda", "k_b", "gamma"), in a
	 * fixed order; values are {@link Double}, {@code double[]} or (names, such as the
	 * kernel's) {@link String}.
	 */
	Map<String, Object> parameters();

	int numComponents();

	/** Number of features of the samples the model accepts. */
	int features();

	/** Per component, the eigenvalue of the method's problem. */
	double[] eigenvalues();

	/** Per component, the target variance along it. */
	double[] targetVariance();

	/** Per component, the (first) background's variance along it; NaN when unknown. */
	double[] backgroundVariance();

	/** Per component, its target variance as a fraction of the total target variance. */
	double[] fractionOfTargetVariance();

	/** Non-fatal numerical notes. */
	List<String> diagnostics();

	/** Free-form facts for other layers (e.g. how features map to pixels). */
	Map<String, String> attributes();

	/** The same model with extra attributes (merged, the new ones win). */
	FittedModel withAttributes(Map<String, String> extra);

	/** Scores (n_t × k) of the training target, or {@code null} for a model read from a file. */
	double[][] targetScores();

	/** Scores (n × k) of new samples, given in raw units. */
	double[][] transform(Dataset x);
}
