package org.cpca.core.contrast;

import org.cpca.core.data.Preprocessing;

/**
 * Projects the target samples, wherever they are held, on directions in feature space:
 * for a fit from moments ({@link Cpca#fromMoments}) the samples are not in this process
 * (they may be spread over the machines of a cluster), so the scores take one more pass
 * over them that this callback performs.
 */
@FunctionalInterface
public interface TargetProjection {

	/**
	 * The scores {@code X̃_t w} (n_t × k, row-major, samples in their original order) of
	 * the preprocessed target on the k columns of w (d × k, row-major).
	 *
	 * @param pre the target's preprocessing (centring, and the scale when standardised)
	 */
	double[] project(Preprocessing pre, double[] w, int k);
}
