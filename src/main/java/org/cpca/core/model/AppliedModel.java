package org.cpca.core.model;

import org.cpca.core.data.Dataset;

/**
 * A fitted model applied to new data: the one path by which a saved model is applied,
 * whatever read the data ({@code cpca apply} from files, Fiji's Apply Model… and the
 * macro extension from an open image). It gives the scores ({@link FittedModel#transform}),
 * and for a linear model the reconstruction {@code mean + scores · components}, its mean
 * squared error against the data, and the data with their projection on the components
 * removed, {@code x − (reconstruction − mean)}. Kernel cPCA models have no components in
 * input space: they give scores only ({@link #hasReconstruction()}).
 * <p>
 * The reconstruction is made on first use (a front end may first check that its memory
 * is available, {@link #reconstructed()}).
 */
public final class AppliedModel {

	private final FittedModel model;
	private final Dataset data;
	private final double[][] scores;
	private double[][] reconstruction;

	/**
	 * Projects {@code data} with {@code model}.
	 *
	 * @throws IllegalArgumentException if the data do not have the model's features
	 */
	public AppliedModel(final FittedModel model, final Dataset data) {
		this.model = model;
		this.data = data;
		this.scores = model.transform(data);
	}

	public FittedModel model() {
		return model;
	}

	/** The data the model was applied to. */
	public Dataset data() {
		return data;
	}

	/** Scores, one row per sample (shared: do not modify). */
	public double[][] scores() {
		return scores;
	}

	/** Whether the model reconstructs samples (every linear method, not kernel cPCA). */
	public boolean hasReconstruction() {
		return model instanceof CpcaModel;
	}

	/** Whether the reconstruction has been made. */
	public synchronized boolean reconstructed() {
		return reconstruction != null;
	}

	/**
	 * The reconstruction of each sample from its scores (shared: do not modify), made on
	 * first use; {@code null} for a model without reconstruction.
	 */
	public synchronized double[][] reconstruction() {
		if (!hasReconstruction()) return null;
		if (reconstruction == null) reconstruction = ((CpcaModel) model).inverseTransform(
			scores);
		return reconstruction;
	}

	/**
	 * The mean over samples and features of the squared difference between the data and
	 * their reconstruction; NaN for a model without reconstruction.
	 */
	public double meanSquaredError() {
		final double[][] recon = reconstruction();
		if (recon == null) return Double.NaN;
		double residual = 0;
		for (int i = 0; i < recon.length; i++)
			for (int j = 0; j < recon[i].length; j++) {
				final double e = data.value(i, j) - recon[i][j];
				residual += e * e;
			}
		return residual / Math.max(1, (double) data.samples() * data.features());
	}

	/**
	 * Each sample minus its projection on the components, {@code x − (reconstruction −
	 * mean)}; {@code null} for a model without reconstruction.
	 */
	public double[][] backgroundRemoved() {
		final double[][] recon = reconstruction();
		if (recon == null) return null;
		final double[] mean = ((CpcaModel) model).targetMean();
		final double[][] removed = new double[recon.length][];
		for (int i = 0; i < removed.length; i++) {
			removed[i] = new double[mean.length];
			for (int j = 0; j < mean.length; j++)
				removed[i][j] = data.value(i, j) - (recon[i][j] - mean[j]);
		}
		return removed;
	}
}
