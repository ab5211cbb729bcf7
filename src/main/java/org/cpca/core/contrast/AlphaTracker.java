package org.cpca.core.contrast;

import org.cpca.core.linalg.TopEigen;
import org.cpca.core.model.CpcaModel;

/**
 * Models at a sequence of nearby α values, each solve warm-started from the previous one:
 * the interactive case (a slider moving over α), where consecutive α are close and a warm
 * start converges in a few iterations.
 * <p>
 * Every model meets the same residual test as {@link Cpca#model(double)}
 * ({@code ‖Cv − λv‖ ≤ 10⁻¹²‖C‖}), so it agrees with it to solver precision, but not
 * necessarily bit for bit: the bits depend on the α visited before. Use
 * {@link Cpca#model(double)} for results that must not depend on history. Not
 * thread-safe: one tracker per slider.
 */
public final class AlphaTracker {

	private final Cpca cpca;
	private double[][] warm;

	public AlphaTracker(final Cpca cpca) {
		this.cpca = cpca;
	}

	/**
	 * The model at α (≥ 0, or {@link Double#POSITIVE_INFINITY}).
	 *
	 * @throws IllegalArgumentException for α &lt; 0, or α = ∞ without a background null
	 *           space
	 */
	public CpcaModel model(final double alpha) {
		Cpca.checkAlpha(alpha);
		if (alpha == Double.POSITIVE_INFINITY) return cpca.model(alpha);
		final TopEigen.Result r = cpca.solve(alpha, warm);
		warm = r.warmStart;
		return cpca.build(alpha, r);
	}
}
