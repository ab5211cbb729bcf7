package org.cpca.core.star;

import org.cpca.core.contrast.Cpca;
import org.cpca.core.model.CpcaModel;

/**
 * cPCA++ (the comparator named by Tu, Foss &amp; Zhao, "Unique Component Analysis";
 * docs/math/star.md): the top-k eigenvectors of the generalized problem
 * {@code C_t v = λ C_b v}, i.e. the directions of largest target-to-background variance
 * ratio.
 * <p>
 * This is cPCA* ({@link CpcaStar}) at its endpoint β = 1, where
 * {@code B_β = C_b}; the solve, the exact reduced space and the regularisation are
 * cPCA*'s. When C_b is singular (d larger than the background's samples, or images in the
 * reduced space) it is regularised as {@code C_b + δI}, {@code δ = ε·trace(C_b)/d}
 * (ε = {@value CpcaStar#DEFAULT_REGULARIZATION} by default), recorded in the model's
 * diagnostics and its "regularization" parameter (0 when C_b is invertible). Directions
 * in the background's null space then have ratios of order 1/δ and come first: cPCA++ of
 * a singular background is close to cPCA at α = ∞.
 * <p>
 * Components are unit vectors (as cPCA*'s; C_b-orthogonal, not mutually orthogonal);
 * eigenvalues are the variance ratios {@code vᵀC_tv / vᵀC_bv} (with δ when regularised).
 */
public final class CpcaPlusPlus {

	private final CpcaStar star;

	private CpcaPlusPlus(final CpcaStar star) {
		this.star = star;
	}

	/** cPCA++ on a fit with exactly one background. */
	public static CpcaPlusPlus of(final Cpca fit) {
		try {
			return new CpcaPlusPlus(CpcaStar.of(fit));
		}
		catch (final IllegalArgumentException e) {
			throw new IllegalArgumentException(e.getMessage().replace("cPCA*", "cPCA++"));
		}
	}

	/** ε of the regularisation δ = ε·trace(C_b)/d (used only if C_b is singular). */
	public CpcaPlusPlus withRegularization(final double epsilon) {
		return new CpcaPlusPlus(star.withRegularization(epsilon));
	}

	/** The δ that {@link #model} adds to C_b: 0 when C_b is invertible. */
	public double regularization() {
		return star.regularization();
	}

	/** The model: method "cpcapp", parameters {"regularization": δ}. */
	public CpcaModel model() {
		return star.build("cpcapp", 1, star.solve(1));
	}
}
