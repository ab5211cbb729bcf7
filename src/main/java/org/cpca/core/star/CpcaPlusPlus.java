package org.cpca.core.star;

import org.cpca.core.contrast.Cpca;
import org.cpca.core.model.CpcaModel;
import java.util.Locale;

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

	/**
	 * The default ridge (docs/math/star.md): C_b is replaced by the Ledoit–Wolf shrinkage
	 * estimate {@code (1 − ρ)S + ρ·(tr S/d)·I} of the background covariance, whose generalized
	 * eigenvectors are those of {@code C_b + δI} with {@code δ = ε·trace(C_b)/d}, {@code ε =
	 * ρ/(1 − ρ)} — applied whether or not C_b is singular, because a sample covariance with
	 * fewer samples than (or not many more than) features underestimates its small
	 * eigenvalues, and the variance ratio chases exactly those. ρ is estimated from the
	 * background's samples ({@link #shrinkageIntensity}); a fit from moments asks its
	 * {@link Cpca.FourthMoments} for them, and one that has none (the range path of
	 * docs/spark.md) keeps the fixed ε of {@link #withRegularization}.
	 */
	public CpcaPlusPlus withShrinkage() {
		final Cpca fit = star.fit();
		if (fit.backgroundCount() == 0) return new CpcaPlusPlus(star);
		final double rho = shrinkageIntensity(fit);
		if (!(rho > 0)) return new CpcaPlusPlus(star);
		final double r = Math.min(rho, 1 - 1e-12);
		final String reason = String.format(Locale.ROOT, "ε = ρ/(1 − ρ) from the " +
			"Ledoit–Wolf shrinkage intensity ρ = %.4g of the background covariance", rho);
		return new CpcaPlusPlus(star.withRidge(r / (1 - r), reason));
	}

	/**
	 * The Ledoit–Wolf (2004) shrinkage intensity ρ ∈ [0, 1] of the background covariance
	 * towards (tr S/d)·I, from the fit's background samples y_i (centred, and standardised
	 * if the fit is; S = Σ y_i y_iᵀ/n): with μ = tr S/d, δ² = ‖S − μI‖²/d and
	 * b² = min(δ², (Σ‖y_i‖⁴/n − ‖S‖²)/(n d)) (Frobenius norms), ρ = b²/δ². ‖S‖ comes from
	 * the fit's C_b (exact in the reduced space, which holds all of the background's
	 * variance); Σ‖y_i‖⁴ from {@link Cpca#backgroundFourthMoment} (one pass over the
	 * samples, wherever they are). NaN when the fit can give no fourth moments.
	 */
	static double shrinkageIntensity(final Cpca fit) {
		final long n = fit.backgroundSamples(0);
		final int d = fit.space().features(), m = fit.space().dimension();
		if (n < 2) return 0;
		final double fourth = fit.backgroundFourthMoment(0);
		if (Double.isNaN(fourth)) return Double.NaN;
		final double[] b = fit.space().b;
		double trace = 0, frobenius = 0;
		for (int i = 0; i < m; i++)
			trace += b[i * m + i];
		for (final double v : b)
			frobenius += v * v;
		final double f = (n - 1.0) / n; // C_b (n − 1) → S (n)
		final double mu = f * trace / d, s2 = f * f * frobenius;
		final double delta2 = (s2 - d * mu * mu) / d;
		if (!(delta2 > 0)) return 1; // C_b is already a multiple of I
		final double b2 = Math.min(delta2, Math.max(0, (fourth / n - s2) / ((double) n * d)));
		return b2 / delta2;
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
