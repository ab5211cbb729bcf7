package org.cpca.core.contrast;

/**
 * {@code Zᵀy} for a fit from a Gram matrix ({@link Cpca#fromGram}): one pass over the
 * stacked preprocessed samples {@code z_s} (target first, then each background, each
 * centred on its own mean), wherever they are held.
 */
@FunctionalInterface
public interface GramLift {

	/**
	 * @param y N × k, row-major, rows in stacked order
	 * @return k rows of length d: {@code v_c = Σ_s y_sc z_s}
	 */
	double[][] lift(double[] y, int k);
}
