package org.cpca.core.sparse;

import org.cpca.core.gcpca.Gcpca;

import org.cpca.core.model.CpcaModel;
import org.cpca.core.model.FittedModel;
import org.cpca.core.result.Convergence;
import org.cpca.core.result.Solution;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code --sparsity} on a cPCA solution for {@link org.cpca.core.run.MethodRunner}: every
 * model with a finite α gets sparse loadings (the basis of the space is formed once); the
 * summary reports each model's "sparsity", "lambda1" and "zero_fraction", and the
 * iterations under "convergence" → "sparse" (docs/math/sparse.md#convergence).
 */
public final class SparseRun {

	private SparseRun() {}

	/** @param sparsity ≥ 0, or NaN for automatic */
	public static Solution cpca(final Solution dense, final double sparsity) {
		return cpca(dense, sparsity, SparseLoadings.MAX_ITERATIONS);
	}

	/** {@link #cpca(Solution, double)} with at most {@code cap} iterations per fit. */
	static Solution cpca(final Solution dense, final double sparsity, final int cap) {
		final double[][] q = Sparse.basis(dense.fit());
		final List<CpcaModel> models = new ArrayList<>();
		final List<Double> zeros = new ArrayList<>();
		for (final CpcaModel m : dense.linearModels()) {
			if (m.alpha() == Double.POSITIVE_INFINITY) throw new IllegalArgumentException(
				"--sparsity needs a finite α (α = ∞ has no contrast matrix to sparsify): " +
					"give a finite --alpha or auto");
			final CpcaModel s = Sparse.cpca(dense.fit(), q, m, sparsity, cap, true);
			models.add(s);
			zeros.add((Double) s.parameters().get("zero_fraction"));
		}
		final Map<String, Object> facts = new LinkedHashMap<>(dense.facts());
		facts.put("sparsity_mode", Double.isNaN(sparsity) ? "auto" : "fixed");
		facts.put("zero_fraction", zeros);
		final List<String> notes = new ArrayList<>(dense.fit().diagnostics());
		report(models, cap, facts, notes, models.size() > 1);
		return new Solution(dense.method(), dense.alphaMode(), models, dense.selection(), dense
			.fit(), dense.curves(), facts, notes);
	}

	/** Sparse loadings of a dense gcPCA run ({@code g} the problem it solved). */
	public static Solution gcpca(final Solution dense, final Gcpca g, final double sparsity) {
		return gcpca(dense, g, sparsity, SparseLoadings.MAX_ITERATIONS);
	}

	/** {@link #gcpca(Solution, Gcpca, double)} with at most {@code cap} iterations per end. */
	static Solution gcpca(final Solution dense, final Gcpca g, final double sparsity,
		final int cap)
	{
		final CpcaModel result = Sparse.gcpca(g, Sparse.basis(dense.fit()), dense
			.linearModels().get(0), sparsity, cap);
		final Map<String, Object> facts = new LinkedHashMap<>(dense.facts());
		facts.put("sparsity_mode", Double.isNaN(sparsity) ? "auto" : "fixed");
		facts.put("zero_fraction", result.parameters().get("zero_fraction"));
		if (facts.containsKey("significant_components")) facts.put("significance_note",
			"significant_components refer to the dense gcPCA components");
		final List<String> notes = new ArrayList<>(dense.fit().diagnostics());
		report(List.of(result), cap, facts, notes, false);
		return new Solution(dense.method(), dense.alphaMode(), List.of(result), null, dense
			.fit(), dense.curves(), facts, notes);
	}

	/**
	 * The iteration report of the sparse models (their parameters "iterations" and
	 * "final_change") as the summary's {@code convergence.sparse}: per component the most
	 * iterations and the largest final relative change over the models, whether every
	 * model converged, the tolerance and the cap; a model that stopped at the cap adds a
	 * note (the console shows it).
	 */
	static void report(final List<CpcaModel> models, final int cap,
		final Map<String, Object> facts, final List<String> notes, final boolean perAlpha)
	{
		final int k = models.get(0).numComponents();
		final double[] iterations = new double[k], change = new double[k];
		boolean converged = true;
		for (final CpcaModel m : models) {
			final double[] it = (double[]) m.parameters().get("iterations");
			final double[] ch = (double[]) m.parameters().get("final_change");
			boolean ok = true;
			for (int c = 0; c < k; c++) {
				iterations[c] = Math.max(iterations[c], it[c]);
				change[c] = Math.max(change[c], ch[c]);
				ok &= ch[c] <= SparseLoadings.TOLERANCE;
			}
			if (!ok) notes.add((perAlpha ? "α = " + FittedModel.alphaText(m.alpha()) + ": " : "") +
				Sparse.capNote(cap, it, ch));
			converged &= ok;
		}
		final Map<String, Object> withReport = Convergence.perComponent(Arrays.stream(
			iterations).mapToInt(v -> (int) v).toArray(), converged, SparseLoadings.TOLERANCE,
			change, cap).addTo(facts, "sparse");
		facts.clear();
		facts.putAll(withReport);
	}
}
