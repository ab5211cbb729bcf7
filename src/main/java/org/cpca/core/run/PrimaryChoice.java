package org.cpca.core.run;

import org.cpca.core.result.Solution;

import org.cpca.core.contrast.AlphaSelection;
import org.cpca.core.contrast.Measures;
import org.cpca.core.model.FittedModel;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;

/**
 * Which of several models (automatic α, (γ, α) or β) a run saves as its main model
 * ({@code model.json}) and shows first. All models are always kept and saved; this only
 * picks the default, for the user's benefit:
 * <ol>
 * <li>when the target's samples carry class labels (two or more classes), the model whose
 * components separate them best (Fisher LDA accuracy, then the symmetrised KL divergence;
 * ties go to the earlier model);</li>
 * <li>otherwise, with an automatic α selection, the chosen α with the largest relative
 * contrast eigengap {@code (λ_k − λ_{k+1})/λ_1} of C(α): the α whose top-k subspace is
 * most sharply defined (α without positive contrast are never picked);</li>
 * <li>otherwise the first model after the α = 0 / β = 0 baseline.</li>
 * </ol>
 * The baseline (α = 0, β = 0: PCA) is never the default when another model exists. The
 * reason is recorded in the run's diagnostics.
 */
final class PrimaryChoice {

	private PrimaryChoice() {}

	static Solution apply(final Solution s, final List<String> labels) {
		final List<FittedModel> models = s.models();
		if (models.size() < 2) return s;
		final boolean classes = labels != null && labels.size() == models.get(0)
			.targetScores().length && new HashSet<>(labels).size() >= 2;
		if (classes) {
			int best = 1;
			double bestLda = Double.NEGATIVE_INFINITY, bestKl = Double.NEGATIVE_INFINITY;
			for (int i = 1; i < models.size(); i++) {
				// the two measures that decide, not the pairwise ones (O(n²) per model)
				final double[][] scores = models.get(i).targetScores();
				final double lda = Measures.ldaAccuracy(scores, labels);
				final double kl = Measures.symmetrizedKl(scores, labels);
				if (lda > bestLda + 1e-12 || (Math.abs(lda - bestLda) <= 1e-12 && kl > bestKl)) {
					best = i;
					bestLda = lda;
					bestKl = kl;
				}
			}
			if (bestLda > Double.NEGATIVE_INFINITY) {
				return s.withPrimary(best, String.format(Locale.ROOT, "default model (model.json): " +
					"%s, the best separation of the target's classes (LDA accuracy %.1f %%); " +
					"all models are saved in models/", setting(s, models.get(best)), 100 *
						bestLda));
			}
		}
		final AlphaSelection<?> selection = s.selection();
		double[] gaps = selection != null && selection.contrastGaps().length == models.size()
			? selection.contrastGaps() : null;
		if (gaps == null) { // models that carry their own gap (automatic (γ, α))
			gaps = new double[models.size()];
			for (int i = 0; i < gaps.length; i++) {
				final Object g = models.get(i).parameters().get("contrast_eigengap");
				gaps[i] = g instanceof Double ? (Double) g : Double.NEGATIVE_INFINITY;
			}
		}
		{
			int best = -1;
			for (int i = 1; i < gaps.length; i++)
				if (gaps[i] > Double.NEGATIVE_INFINITY && (best < 0 || gaps[i] > gaps[best]))
					best = i;
			if (best > 0) {
				return s.withPrimary(best, String.format(Locale.ROOT, "default model (model.json): " +
					"%s, the largest contrast eigengap (λ_k − λ_{k+1})/λ_1 = %.3g among the " +
					"chosen values (no class labels to measure separation); all models are " +
					"saved in models/", setting(s, models.get(best)), gaps[best]));
			}
		}
		return s.withPrimary(1, "default model (model.json): " + setting(s, models.get(1)) +
			", the first after the baseline; all models are saved in models/");
	}

	private static String setting(final Solution s, final FittedModel m) {
		final Object beta = m.parameters().get("beta");
		if (beta == null && m.parameters().get("k_b") != null) return "k_b";
		if (beta instanceof Double) return "β = " + FittedModel.alphaText((Double) beta);
		final Object gamma = m.parameters().get("gamma");
		final String a = "α = " + FittedModel.alphaText(m.alpha());
		return gamma instanceof Double ? a + ", γ = " + FittedModel.alphaText((Double) gamma)
			: a;
	}
}
