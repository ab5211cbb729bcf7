package org.cpca.core.kernel;

/**
 * Kernel cPCA as linear cPCA (docs/math/kernel.md): feature vectors F of the training samples
 * (one float row per sample, a few hundred to a few thousand values) whose inner products
 * are the kernel's, target and background apart, so that linear cPCA on them ({@link Cpca},
 * each dataset centred on its own mean) is kernel cPCA. Two realisations:
 * {@link ExactFeatures} (F Fᵀ is the block-centred kernel matrix, exact) and
 * {@link Nystrom} (F Fᵀ ≈ K_NL K_LL⁻¹ K_LN, for large N).
 * <p>
 * A direction v in feature coordinates (unit, as {@link Cpca} returns it) is a unit
 * direction in the kernel's feature space: {@code Σ_s b_s Φ(z_s)} over {@link #support()}
 * samples z_s with coefficients {@code b = coefficients(v)}. The score of a sample x
 * centred on the target's feature-space mean is then
 * {@code Σ_s b_s h(x, z_s) − Σ_s b_s ρ_s − m_tᵀv}, with {@link #offsets() ρ} from this
 * class and m_t the mean of the target's feature rows.
 */
abstract class KernelFeatures {

	/** Feature rows of the target (n_t × r). */
	final float[][] target;
	/** Feature rows of the background (n_b × r). */
	final float[][] background;

	KernelFeatures(final float[][] target, final float[][] background) {
		this.target = target;
		this.background = background;
	}

	/** Feature dimension r. */
	final int dimension() {
		return target[0].length;
	}

	/** The raw samples the directions are expanded over. */
	abstract float[][] support();

	/**
	 * Coefficients over the support (S × k) of the k unit directions given as rows (each of
	 * length r) in feature coordinates.
	 */
	abstract double[][] coefficients(double[][] directions);

	/** ρ_s (length S): {@code ⟨Φ(z_s), μ_t⟩} when F is centred per dataset, else 0. */
	abstract double[] offsets();

	/** One line for diagnostics: which path ran, with its sizes. */
	abstract String description();
}
