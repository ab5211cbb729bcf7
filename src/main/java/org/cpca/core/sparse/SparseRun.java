package org.cpca.core.sparse;

import org.cpca.core.gcpca.Gcpca;

import org.cpca.core.model.CpcaModel;
import org.cpca.core.model.FittedModel;
import org.cpca.core.result.Solution;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code --sparsity} on a cPCA solution for {@link org.cpca.core.run.MethodRunner}: every
 * model with a finite α gets sparse loadings (the basis of the space is formed once); the
 * summary reports each model's "sparsity", "lambda1" and "zero_fraction".
 */
public final class SparseRun {

	private SparseRun() {}

	/** @param sparsity ≥ 0, or NaN for automatic */
	public static Solution cpca(final Solution dense, final double sparsity) {
		final double[][] q = Sparse.basis(dense.fit());
		final List<FittedModel> models = new ArrayList<>();
		final List<Double> zeros = new ArrayList<>();
		for (final CpcaModel m : dense.linearModels()) {
			if (m.alpha() == Double.POSITIVE_INFINITY) throw new IllegalArgumentException(
				"--sparsity needs a finite α (α = ∞ has no contrast matrix to sparsify): " +
					"give a finite --alpha or auto");
			final CpcaModel s = Sparse.cpca(dense.fit(), q, m, sparsity);
			models.add(s);
			zeros.add((Double) s.parameters().get("zero_fraction"));
		}
		final Map<String, Object> facts = new LinkedHashMap<>(dense.facts());
		facts.put("sparsity_mode", Double.isNaN(sparsity) ? "auto" : "fixed");
		facts.put("zero_fraction", zeros);
		return new Solution(dense.method(), dense.alphaMode(), models, dense.selection(), dense
			.fit(), dense.curves(), facts, dense.fit().diagnostics());
	}

	/** Sparse loadings of a dense gcPCA run ({@code g} the problem it solved). */
	public static Solution gcpca(final Solution dense, final Gcpca g, final double sparsity) {
		final CpcaModel result = Sparse.gcpca(g, Sparse.basis(dense.fit()), dense
			.linearModels().get(0), sparsity);
		final Map<String, Object> facts = new LinkedHashMap<>(dense.facts());
		facts.put("sparsity_mode", Double.isNaN(sparsity) ? "auto" : "fixed");
		facts.put("zero_fraction", result.parameters().get("zero_fraction"));
		if (facts.containsKey("significant_components")) facts.put("significance_note",
			"significant_components refer to the dense gcPCA components");
		return new Solution(dense.method(), dense.alphaMode(), List.of(result), null, dense
			.fit(), dense.curves(), facts, dense.fit().diagnostics());
	}
}
