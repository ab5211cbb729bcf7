package org.cpca.core.model;

import org.cpca.core.data.Dataset;
import org.cpca.core.data.Preprocessing;

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
public class CpcaModel extends ModelBase {

	private final double[][] components;
	private final Preprocessing preprocessing;
	private final boolean whiten;

	public CpcaModel(final String method, final double alpha,
		final Map<String, Object> parameters, final double[][] components,
		final double[] eigenvalues, final double[] targetVariance,
		final double[] backgroundVariance, final double targetTotalVariance,
		final Preprocessing preprocessing, final boolean whiten,
		final List<String> diagnostics, final Map<String, String> attributes,
		final double[][] targetScores)
	{
		super(method, alpha, parameters, eigenvalues, targetVariance, backgroundVariance,
			targetTotalVariance, diagnostics, attributes, targetScores);
		this.components = components;
		this.preprocessing = preprocessing;
		this.whiten = whiten;
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

	/** The same model with extra attributes (merged, the new ones win). */
	@Override
	public CpcaModel withAttributes(final Map<String, String> extra) {
		return new CpcaModel(method(), alpha(), parameters(), components, eigenvalues(),
			targetVariance, backgroundVariance(), targetTotalVariance(), preprocessing, whiten,
			diagnostics(), merged(extra), heldScores());
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
