package org.cpca.render;

import org.cpca.core.contrast.ContrastiveSpace;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.linalg.SymmetricEigen;
import org.cpca.core.model.FittedModel;

/**
 * The full eigenvalue spectrum of a PCA or cPCA model, for the scree plot: every
 * eigenvalue of C_t − αC_b (of C_t for PCA) in the fit's contrastive space, largest
 * first, of which the model kept the first k (docs/math/cpca.md). In the exact reduced
 * space (more features than samples) these are all the eigenvalues that can be nonzero.
 */
public final class Spectrum {

	/** Largest space whose full spectrum is computed (all eigenvalues, O(m³)). */
	static final int MAX_DIMENSION = 800;

	private Spectrum() {}

	/**
	 * The spectrum of {@code model}, or {@code null} when there is none to draw: not a
	 * PCA or finite-α cPCA model of one background, or a space larger than
	 * {@value #MAX_DIMENSION}.
	 */
	public static double[] of(final FittedModel model, final Cpca fit) {
		if (fit == null || fit.backgroundCount() > 1) return null;
		final boolean pca = "pca".equals(model.method());
		if (!pca && !("cpca".equals(model.method()) && Double.isFinite(model.alpha()) &&
			model.alpha() >= 0)) return null;
		final ContrastiveSpace space = fit.space();
		final int m = space.dimension();
		if (m > MAX_DIMENSION || m <= model.numComponents()) return null;
		final double alpha = pca ? 0 : model.alpha();
		final double[] c = new double[m * m];
		for (int i = 0; i < c.length; i++)
			c[i] = space.a[i] - alpha * space.b[i];
		return SymmetricEigen.values(c, m);
	}
}
