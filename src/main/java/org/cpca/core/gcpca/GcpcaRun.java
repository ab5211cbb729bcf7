package org.cpca.core.gcpca;

import org.cpca.core.Progress;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.result.Convergence;
import org.cpca.core.result.Method;
import org.cpca.core.result.Solution;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * gcPCA runs for {@link org.cpca.core.run.MethodRunner}: the model (2k components, the
 * target-enriched end first) plus the summary's facts: the variant, what the sign of a
 * value means, which components belong to which end, and the shuffle test's thresholds.
 */
public final class GcpcaRun {

	/** The note when the shuffle test was asked of a fit without samples. */
	public static final String NO_SHUFFLES = "gcPCA shuffle test: not run (--shuffles " +
		"permutes each feature's samples, and this fit has only each dataset's moments); " +
		"run cpca fit on one machine for it";

	private GcpcaRun() {}

	/**
	 * The dense gcPCA model of {@code g} with the summary's facts.
	 *
	 * @param shuffles seeded shuffles of the shuffle test (0: none)
	 */
	public static Solution run(final Gcpca g, final Cpca fit, final int shuffles,
		final Progress progress)
	{
		// the shuffle test refits shuffled samples: a fit from moments (Spark) has none
		final boolean samples = fit.target() != null;
		final CpcaModel model = g.run(samples ? shuffles : 0, fit.options().seed(),
			progress);
		final List<String> notes = new ArrayList<>(fit.diagnostics());
		if (!samples && shuffles > 0) notes.add(NO_SHUFFLES);
		return new Solution(Method.GCPCA, g.variant() == Gcpca.Variant.V1 ? "fixed" : null,
			List.of(model), null, fit, List.of(), facts(g, model), notes);
	}

	/** The summary's facts of a gcPCA model. */
	public static Map<String, Object> facts(final Gcpca g, final CpcaModel model) {
		final int k = model.numComponents() / 2;
		final Map<String, Object> facts = new LinkedHashMap<>();
		facts.put("variant", g.variant().id());
		facts.put("orthogonal", g.orthogonal());
		facts.put("value_meaning", g.variant().meaning());
		final List<String> ends = new ArrayList<>();
		for (int c = 0; c < 2 * k; c++)
			ends.add(c < k ? "target-enriched" : "background-enriched");
		facts.put("component_ends", ends);
		facts.put("ridge", model.parameters().get("ridge"));
		if (model.parameters().containsKey("significant")) {
			final double[] sig = (double[]) model.parameters().get("significant");
			final List<Integer> which = new ArrayList<>();
			for (int c = 0; c < sig.length; c++)
				if (sig[c] > 0) which.add(c + 1);
			facts.put("significant_components", which);
			facts.put("shuffles", model.parameters().get("shuffles"));
			// a fixed number of refits: it always completes (no tolerance, no change)
			final long n = Math.round((Double) model.parameters().get("shuffles"));
			return Convergence.of(n, true, Double.NaN, Double.NaN, n).addTo(facts, "shuffles");
		}
		return facts;
	}
}
