package org.cpca.core.star;

import org.cpca.core.Curve;
import org.cpca.core.Progress;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.result.Method;
import org.cpca.core.result.Solution;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * cPCA* and cPCA++ runs for {@link MethodRunner}: the models plus what the summary and the
 * plots show besides them.
 * <p>
 * For cPCA*, when the target has two or more classes, the separation of the classes
 * along the whole β grid (LDA accuracy and symmetrised KL per β, Golkar et al. Figs. 2–3) is
 * a fact ("separation_vs_beta") and two curves; the sweep then runs for a fixed β too.
 * Automatic β also reports its grid, clusters and chosen β ("beta_selection").
 */
public final class StarRun {

	/** log10 of the odds range of the β grid, in units of the background's mean variance. */
	static final double MIN_LOG_ODDS = -2, MAX_LOG_ODDS = 4;

	private StarRun() {}

	/**
	 * cPCA* on a fit.
	 *
	 * @param beta β in [0, 1], or NaN for automatic β
	 * @param epsilon the regularisation at β = 1 (δ = ε·trace(C_b)/d), or NaN for the default
	 * @param betaCount β values swept strictly between 0 and 1 (automatic β, and the
	 *          separation curves when the target has classes)
	 * @param betasReturned β values returned by automatic β, β = 0 included
	 */
	public static Solution star(final Cpca fit, final double beta, final double epsilon,
		final int betaCount, final int betasReturned, final Progress progress)
	{
		final boolean auto = Double.isNaN(beta);
		if (!auto) CpcaStar.checkBeta(beta);
		final CpcaStar star = CpcaStar.of(fit).withRegularization(Double.isNaN(epsilon)
			? CpcaStar.DEFAULT_REGULARIZATION : epsilon).withBetaGrid(betaCount, MIN_LOG_ODDS,
				MAX_LOG_ODDS).withBetasReturned(betasReturned);
		final List<String> labels = fit.targetLabels();
		final boolean classes = labels != null && new HashSet<>(labels).size() >= 2;
		final BetaSelection sweep = auto || classes ? star.automatic(progress) : null;
		final List<CpcaModel> models = auto ? sweep.models() : List.of(star.model(beta));
		final Map<String, Object> facts = new LinkedHashMap<>();
		facts.put("beta_mode", auto ? "auto" : "fixed");
		if (auto) {
			final Map<String, Object> selection = new LinkedHashMap<>();
			selection.put("grid", sweep.grid());
			selection.put("clusters", sweep.clusters());
			selection.put("betas", sweep.betas());
			facts.put("beta_selection", selection);
		}
		final List<Curve> curves = new ArrayList<>();
		if (classes) {
			final double[] grid = sweep.grid();
			final List<Map<String, Double>> sep = sweep.separation(labels);
			final double[] lda = new double[grid.length], kl = new double[grid.length];
			for (int i = 0; i < grid.length; i++) {
				lda[i] = sep.get(i).get("lda_accuracy");
				kl[i] = sep.get(i).get("symmetrized_kl");
			}
			final Map<String, Object> curve = new LinkedHashMap<>();
			curve.put("beta", grid);
			curve.put("lda_accuracy", lda);
			curve.put("symmetrized_kl", kl);
			facts.put("separation_vs_beta", curve);
			curves.add(new Curve("separation_vs_beta_lda", "LDA accuracy of the classes " +
				"against β (cPCA*)", "beta", "LDA accuracy", true, grid, Map.of(
					"lda_accuracy", lda)));
			curves.add(new Curve("separation_vs_beta_kl", "symmetrised KL divergence of the " +
				"classes against β (cPCA*)", "beta", "symmetrised KL", true, grid, Map.of(
					"symmetrized_kl", kl)));
		}
		return new Solution(Method.STAR, null, models, null, fit, curves, facts, fit
			.diagnostics());
	}

	/** cPCA++ on a fit; {@code epsilon} NaN: the Ledoit–Wolf ridge (the default). */
	public static Solution plusPlus(final Cpca fit, final double epsilon) {
		// automatic ε (the default): the Ledoit–Wolf shrinkage of C_b (docs/math/star.md)
		final CpcaPlusPlus pp = Double.isNaN(epsilon) ? CpcaPlusPlus.of(fit).withShrinkage()
			: CpcaPlusPlus.of(fit).withRegularization(epsilon);
		final CpcaModel model = pp.model();
		return new Solution(Method.CPCAPP, null, List.of(model), null, fit, List.of(), Map.of(
			"regularization", model.parameters().get("regularization")), fit.diagnostics());
	}
}
