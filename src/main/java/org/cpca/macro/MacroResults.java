package org.cpca.macro;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.cpca.analysis.Analysis;
import org.cpca.core.contrast.Measures;
import org.cpca.core.model.FittedModel;

/**
 * The macro functions that read numbers and text from the last fit ({@code Ext.get…});
 * see {@link CpcaMacroFunctions}. Output arguments are one-element arrays filled here.
 */
final class MacroResults {

	private MacroResults() {}

	/**
	 * Answers function {@code name} into its output arguments; false if it is not one of
	 * these.
	 *
	 * @param last the last fit
	 */
	static boolean answer(final String name, final Supplier<Analysis> last,
		final Object[] a)
	{
		if (!name.startsWith("get")) return false;
		final Analysis fit = last.get();
		switch (name) {
			case "getAlphaCount":
				put(a, 0, fit.models().size());
				return true;
			case "getAlphas": {
				final StringBuilder sb = new StringBuilder();
				for (final FittedModel m : fit.models())
					sb.append(sb.length() == 0 ? "" : ",").append(alpha(m));
				put(a, 0, sb.toString());
				return true;
			}
			case "getBetas": {
				final StringBuilder sb = new StringBuilder();
				for (final FittedModel m : fit.models()) {
					final Object b = m.parameters().get("beta");
					sb.append(sb.length() == 0 ? "" : ",").append(b instanceof Double ? Analysis
						.alphaText((Double) b) : "");
				}
				put(a, 0, sb.toString());
				return true;
			}
			case "getSeparationAlongBeta": {
				final Map<String, Object> facts = fit.solution().facts();
				@SuppressWarnings("unchecked")
				final Map<String, Object> curve = (Map<String, Object>) facts.get(
					"separation_vs_beta");
				if (curve == null) throw new IllegalArgumentException("there is no separation " +
					"along β: fit with method=star on a target whose slices have repeating " +
					"class labels");
				final Object values = curve.get((String) a[0]);
				if (!(values instanceof double[]) || "beta".equals(a[0]))
					throw new IllegalArgumentException("'" + a[0] + "' is not a separation " +
						"measure along β: use lda_accuracy or symmetrized_kl");
				put(a, 1, join((double[]) curve.get("beta")));
				put(a, 2, join((double[]) values));
				return true;
			}
			case "getEigenvalues":
				put(a, 1, join(model(fit, a[0]).eigenvalues()));
				return true;
			case "getTargetVariance":
				put(a, 1, join(model(fit, a[0]).targetVariance()));
				return true;
			case "getBackgroundVariance":
				put(a, 1, join(model(fit, a[0]).backgroundVariance()));
				return true;
			case "getNumSamples":
				put(a, 0, fit.targetSamples());
				return true;
			case "getNumComponents":
				put(a, 0, fit.primary().numComponents());
				return true;
			case "getScore": {
				final double[][] s = model(fit, a[0]).targetScores();
				final int i = index(a[1], s.length, "sample"), c = index(a[2], s[0].length,
					"component");
				put(a, 3, s[i][c]);
				return true;
			}
			case "getScores": {
				final double[][] s = model(fit, a[0]).targetScores();
				final int c = index(a[1], s[0].length, "component");
				final double[] col = new double[s.length];
				for (int i = 0; i < s.length; i++)
					col[i] = s[i][c];
				put(a, 2, join(col));
				return true;
			}
			case "getLabels": {
				final List<String> labels = fit.targetLabels();
				put(a, 0, labels == null ? "" : String.join(",", labels));
				return true;
			}
			case "getSeparation": {
				final List<String> labels = fit.targetLabels();
				if (labels == null) throw new IllegalArgumentException("the target has no " +
					"class labels: give its slices repeating labels (e.g. 0 and 1)");
				final Map<String, Double> sep = Measures.separation(model(fit, a[0]).targetScores(),
					labels);
				final Double v = sep.get((String) a[1]);
				if (v == null) throw new IllegalArgumentException("'" + a[1] +
					"' is not a separation measure: use one of " + sep.keySet());
				put(a, 2, v);
				return true;
			}
			case "getParameter": {
				final FittedModel m = model(fit, a[0]);
				final Object v = m.parameters().get((String) a[1]);
				if (v == null) throw new IllegalArgumentException("'" + a[1] + "' is not a " +
					"parameter of this " + m.method() + " model: it has " + (m.parameters()
						.isEmpty() ? "none" : String.join(", ", m.parameters().keySet())));
				put(a, 2, v instanceof double[] ? join((double[]) v) : Double.toString(
					(Double) v));
				return true;
			}
			case "getDiagnostics":
				put(a, 0, String.join("\n", fit.diagnostics()));
				return true;
			default:
				return false;
		}
	}

	/** The model at a macro's 0-based index (one per α, or per β for cPCA*). */
	static FittedModel model(final Analysis fit, final Object index) {
		final List<FittedModel> models = fit.models();
		return models.get(index(index, models.size(), "α index"));
	}

	private static int index(final Object value, final int size, final String what) {
		final double v = (Double) value;
		if (!(v >= 0 && v < size) || v != Math.rint(v)) throw new IllegalArgumentException(
			what + " " + (v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v)) +
				" is out of range: use 0 … " + (size - 1) + " (indices start at 0)");
		return (int) v;
	}

	private static String alpha(final FittedModel m) {
		return Double.isNaN(m.alpha()) ? "" : Analysis.alphaText(m.alpha());
	}

	private static String join(final double[] values) {
		final StringBuilder sb = new StringBuilder();
		for (final double v : values)
			sb.append(sb.length() == 0 ? "" : ",").append(Double.toString(v));
		return sb.toString();
	}

	private static void put(final Object[] args, final int i, final String value) {
		((String[]) args[i])[0] = value;
	}

	private static void put(final Object[] args, final int i, final double value) {
		((Double[]) args[i])[0] = value;
	}
}
