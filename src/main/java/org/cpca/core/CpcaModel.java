package org.cpca.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A fitted PCA or cPCA model: immutable, with no unfitted state.
 * <p>
 * Holds k unit components (k × d), per component the eigenvalue of {@code C_t − αC_b},
 * the target variance {@code vᵀC_tv} and the background variance {@code vᵀC_bv}, and the
 * target's preprocessing. {@link #transform} centres new samples on the <em>target</em>
 * mean (and scales them if the fit was standardised) before projecting;
 * {@link #inverseTransform} maps scores back: reconstruction = mean + scores ·
 * components (in raw units). Components follow the sign rule: the entry of largest
 * magnitude is positive. Accessors return copies.
 * <p>
 * {@link #attributes()} carries free-form facts for other layers, such as how features map
 * to pixels; {@link #diagnostics()} carries non-fatal numerical notes.
 */
public final class CpcaModel implements FittedModel {

	private final String method;
	private final double alpha;
	private final Map<String, Object> parameters;
	private final double[][] components;
	private final double[] eigenvalues;
	private final double[] targetVariance;
	private final double[] backgroundVariance;
	private final double targetTotalVariance;
	private final Preprocessing preprocessing;
	private final boolean whiten;
	private final List<String> diagnostics;
	private final Map<String, String> attributes;
	private final double[][] targetScores;

	CpcaModel(final String method, final double alpha,
		final Map<String, Object> parameters, final double[][] components,
		final double[] eigenvalues, final double[] targetVariance,
		final double[] backgroundVariance, final double targetTotalVariance,
		final Preprocessing preprocessing, final boolean whiten,
		final List<String> diagnostics, final Map<String, String> attributes,
		final double[][] targetScores)
	{
		this.method = method;
		this.alpha = alpha;
		this.parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
		this.components = components;
		this.eigenvalues = eigenvalues;
		this.targetVariance = targetVariance;
		this.backgroundVariance = backgroundVariance;
		this.targetTotalVariance = targetTotalVariance;
		this.preprocessing = preprocessing;
		this.whiten = whiten;
		this.diagnostics = Collections.unmodifiableList(new ArrayList<>(diagnostics));
		this.attributes = Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
		this.targetScores = targetScores;
	}

	/** The method's name as in {@code cpca fit --method}: "pca", "cpca", … */
	@Override
	public String method() {
		return method;
	}

	/**
	 * The method's own settings besides α (e.g. "beta", "lambda", "k_b"), in a fixed
	 * order; values are {@link Double} or {@code double[]} (do not modify). Empty for PCA
	 * and cPCA.
	 */
	@Override
	public Map<String, Object> parameters() {
		return parameters;
	}

	/** α; {@code +∞} for α = ∞; NaN for methods without α (PCA). */
	@Override
	public double alpha() {
		return alpha;
	}

	@Override
	public int numComponents() {
		return components.length;
	}

	@Override
	public int features() {
		return preprocessing.features();
	}

	/** The components, one unit vector of length d per row (a copy). */
	public double[][] components() {
		final double[][] out = new double[components.length][];
		for (int i = 0; i < out.length; i++)
			out[i] = components[i].clone();
		return out;
	}

	/**
	 * Eigenvalues of {@code C_t − αC_b} (α = ∞: of the target in the background's null
	 * space); for cPCA* and cPCA++ the generalized ones, {@code vᵀC_tv / vᵀB_βv}.
	 */
	@Override
	public double[] eigenvalues() {
		return eigenvalues.clone();
	}

	/** {@code vᵀC_tv} per component. */
	@Override
	public double[] targetVariance() {
		return targetVariance.clone();
	}

	/** {@code vᵀC_bv} per component; NaN when fitted without a background. */
	@Override
	public double[] backgroundVariance() {
		return backgroundVariance.clone();
	}

	/** Total target variance, {@code trace(C_t)}. */
	public double targetTotalVariance() {
		return targetTotalVariance;
	}

	/** Fraction of the total target variance along each component. */
	@Override
	public double[] fractionOfTargetVariance() {
		final double[] f = new double[targetVariance.length];
		for (int i = 0; i < f.length; i++)
			f[i] = targetTotalVariance > 0 ? targetVariance[i] / targetTotalVariance : 0;
		return f;
	}

	/** The target mean (a copy). */
	public double[] targetMean() {
		return preprocessing.mean();
	}

	/** The target's preprocessing. */
	public Preprocessing preprocessing() {
		return preprocessing;
	}

	public boolean whiten() {
		return whiten;
	}

	@Override
	public List<String> diagnostics() {
		return diagnostics;
	}

	@Override
	public Map<String, String> attributes() {
		return attributes;
	}

	/**
	 * Scores of the training target samples (n_t × k), computed during the fit, or
	 * {@code null} for a model read from a file.
	 */
	@Override
	public double[][] targetScores() {
		if (targetScores == null) return null;
		final double[][] out = new double[targetScores.length][];
		for (int i = 0; i < out.length; i++)
			out[i] = targetScores[i].clone();
		return out;
	}

	/** The same model with extra attributes (merged, the new ones win). */
	@Override
	public CpcaModel withAttributes(final Map<String, String> extra) {
		final Map<String, String> merged = new LinkedHashMap<>(attributes);
		merged.putAll(extra);
		return new CpcaModel(method, alpha, parameters, components, eigenvalues, targetVariance,
			backgroundVariance, targetTotalVariance, preprocessing, whiten, diagnostics,
			merged, targetScores);
	}

	/** Scores (n × k) of new samples, preprocessed as the target was. */
	@Override
	public double[][] transform(final Dataset x) {
		checkFeatures(x.features(), x.name());
		final double[][] out = new double[x.samples()][];
		for (int i = 0; i < out.length; i++)
			out[i] = project(x.row(i));
		return out;
	}

	/** Scores (length k) of one sample given in raw units. */
	public double[] transform(final double[] sample) {
		checkFeatures(sample.length, "the sample");
		final float[] f = new float[sample.length];
		for (int j = 0; j < f.length; j++)
			f[j] = (float) sample[j];
		return project(f);
	}

	private double[] project(final float[] row) {
		final int k = components.length, d = row.length;
		final double[] s = new double[k];
		for (int j = 0; j < d; j++) {
			final double z = preprocessing.apply(j, row[j]);
			for (int c = 0; c < k; c++)
				s[c] += z * components[c][j];
		}
		if (whiten) for (int c = 0; c < k; c++)
			s[c] /= whitening(c);
		return s;
	}

	private double whitening(final int c) {
		return targetVariance[c] > 0 ? Math.sqrt(targetVariance[c]) : 1;
	}

	/** Reconstructions in raw units (n × d): mean + scores · components. */
	public double[][] inverseTransform(final double[][] scores) {
		final int k = components.length, d = features();
		final double[][] out = new double[scores.length][];
		for (int i = 0; i < scores.length; i++) {
			if (scores[i].length != k) throw new IllegalArgumentException("score row " +
				(i + 1) + " has " + scores[i].length + " values but the model has " + k +
				" components");
			final double[] x = new double[d];
			for (int c = 0; c < k; c++) {
				final double s = whiten ? scores[i][c] * whitening(c) : scores[i][c];
				for (int j = 0; j < d; j++)
					x[j] += s * components[c][j];
			}
			preprocessing.invert(x);
			out[i] = x;
		}
		return out;
	}

	private void checkFeatures(final int d, final String what) {
		if (d != features()) throw new IllegalArgumentException(what + " has " + d +
			" features but the model was fitted on " + features() +
			": use data of the same shape (same image size, mask and binning, or the same" +
			" table columns)");
	}
}
