package org.cpca.core.cpca;

import java.util.List;

import org.cpca.core.contrast.AlphaSelection;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.family.Choice;
import org.cpca.core.family.Family;
import org.cpca.core.family.FamilyInput;
import org.cpca.core.family.OptionKeys;
import org.cpca.core.family.Parse;
import org.cpca.core.family.SharedKeyFields;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.result.Method;
import org.cpca.core.result.Solution;
import org.cpca.core.sparse.SparseRun;

/**
 * cPCA: a fixed α, α = ∞ or automatic α (the shared α of the settings), optionally with
 * sparse loadings ({@code sparsity}, docs/methods.md).
 */
public final class CpcaFamily implements Family<CpcaFamily.Options> {

	/** cPCA's own settings. */
	public static final class Options {

		private final Double sparsity;

		private Options(final Builder b) {
			sparsity = b.sparsity;
		}

		/** λ₁ of sparse loadings; {@code null} for dense loadings, NaN for automatic. */
		public Double sparsity() {
			return sparsity;
		}
	}

	private static final class Builder {

		Double sparsity;
	}

	private static final OptionKeys<Builder, Options> KEYS = OptionKeys.of(Builder::new,
		Options::new).key("sparsity", "none, a value ≥ 0 or auto", SharedKeyFields.SPARSITY,
		(b, t, k) -> b.sparsity =
			Parse.sparsity(t, Choice.name(k))).samplesOnly("sparsity");

	@Override
	public Method method() {
		return Method.CPCA;
	}

	@Override
	public OptionKeys<?, Options> keys() {
		return KEYS;
	}

	@Override
	public Solution run(final Options options, final FamilyInput input) {
		final Cpca fit = input.fit(false);
		if (options.sparsity != null && fit.target() == null) throw Parse.needsSamples(
			"sparsity");
		final double alpha = input.alpha();
		// nothing is solved after these models unless sparse loadings follow
		if (options.sparsity == null) fit.lastSolves();
		final Solution dense;
		if (Double.isNaN(alpha)) {
			final AlphaSelection<CpcaModel> selection = fit.automatic(input.progress());
			dense = Solution.of(Method.CPCA, "auto", selection.models(), selection, fit);
		}
		else dense = Solution.of(Method.CPCA, alpha == Double.POSITIVE_INFINITY ? "inf"
			: "fixed", List.of(fit.model(alpha)), null, fit);
		return options.sparsity == null ? dense : SparseRun.cpca(dense, options.sparsity);
	}
}
