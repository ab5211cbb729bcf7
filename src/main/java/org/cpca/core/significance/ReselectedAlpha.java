package org.cpca.core.significance;

import org.cpca.core.Progress;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import org.cpca.core.model.FittedModel;

import java.util.Arrays;
import java.util.List;

/**
 * cPCA with automatic α chosen again inside every permutation
 * (docs/math/significance.md#re-selecting-automatic-choices): the statistic of the i-th α
 * that automatic α returns is the eigenvalues of C_t − αC_b at the i-th α it returns for
 * the same data (its last when it returns fewer), so each draw refits, repeats the α sweep
 * and its clustering on the permuted data, and measures at the α chosen there. The test
 * then accounts for α having been picked on the same data, at the cost of a sweep per
 * permutation.
 */
public final class ReselectedAlpha implements Refit {

	private final CpcaOptions options;
	private final int index;
	private final double alpha;

	/**
	 * @param options the fit's options (k and the α grid of the automatic choice)
	 * @param index the position of the tested result among the α's automatic α returned
	 * @param alpha that result's α (for the statistic's name)
	 */
	public ReselectedAlpha(final CpcaOptions options, final int index, final double alpha) {
		if (index < 0) throw new IllegalArgumentException("the result's position must be ≥ 0");
		this.options = options;
		this.index = index;
		this.alpha = alpha;
	}

	@Override
	public String statistic() {
		return "eigenvalue of C_t − αC_b at automatic α's choice " + (index + 1) + " (α = " +
			FittedModel.alphaText(alpha) + " on the data), α chosen again in each permutation";
	}

	@Override
	public double[] statistics(final Dataset target, final List<Dataset> backgrounds) {
		final List<? extends FittedModel> chosen = Cpca.fit(target, backgrounds, options,
			Progress.NONE).automatic(Progress.NONE).models();
		final double[] e = chosen.get(Math.min(index, chosen.size() - 1)).eigenvalues();
		return Arrays.copyOf(e, Math.min(e.length, options.components()));
	}
}
