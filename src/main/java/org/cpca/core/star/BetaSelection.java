package org.cpca.core.star;

import org.cpca.core.selection.SpectralChoice;
import org.cpca.core.Progress;
import org.cpca.core.contrast.AlphaSelection;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.contrast.Measures;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.result.Solution;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;
import java.util.Map;
import java.util.LinkedHashMap;

/**
 * Automatic β selection for cPCA* ({@link CpcaStar#automatic}): the α procedure of
 * docs/math/cpca.md applied to β.
 * <ol>
 * <li>The grid of {@link CpcaStar#betaGrid()}: β = 0, values approaching 1 (log-spaced
 * odds relative to the background's scale), β = 1.</li>
 * <li>For each β the top-k cPCA* subspace, solved in the tridiagonal basis of C_b prepared
 * once per fit ({@link BetaSolver}) and warm-started from the previous β.</li>
 * <li>Affinity, spectral clustering and medoids exactly as for α
 * ({@link AlphaSelection#affinities}, {@link AlphaSelection#choose}): β = 0 is always
 * returned first, the cluster containing it is dropped, one medoid per other
 * cluster.</li>
 * </ol>
 * Every grid solution is kept (k coefficient columns each), so the separation of labelled
 * classes along the whole grid ({@link #separation}) needs no further solve.
 */
public final class BetaSelection {

	private final CpcaStar star;
	private final double[] grid;
	private final double[][] affinity;
	private final int[] clusters;
	private final List<CpcaModel> models;
	/** Unit coefficient columns (m × k) of every grid β. */
	private final double[][] vectors;

	private BetaSelection(final CpcaStar star, final double[] grid,
		final double[][] affinity, final int[] clusters, final List<CpcaModel> models,
		final double[][] vectors)
	{
		this.star = star;
		this.grid = grid;
		this.affinity = affinity;
		this.clusters = clusters;
		this.models = Collections.unmodifiableList(models);
		this.vectors = vectors;
	}

	static BetaSelection select(final CpcaStar star, final Progress progress) {
		final Cpca fit = star.fit();
		final CpcaOptions o = fit.options();
		final int k = o.components();
		final double[] grid = star.betaGrid();
		final int g = grid.length;
		final CpcaStar.Solution[] solutions = new CpcaStar.Solution[g];
		final double[][] vectors = new double[g][];
		double[][] warm = null;
		for (int i = 0; i < g; i++) {
			progress.checkCancelled();
			solutions[i] = star.sweep(grid[i], warm);
			warm = solutions[i].warmStart;
			vectors[i] = solutions[i].w.clone();
			progress.stage("β sweep", (i + 1.0) / g);
		}
		final double[][] affinity = AlphaSelection.affinities(fit, vectors, k);
		final SpectralChoice.Result choice = SpectralChoice.choose(affinity, star
			.betasReturned(), o.seed(), o.kmeansRestarts());
		final List<CpcaModel> models = new ArrayList<>();
		fit.componentsAhead(choice.chosen.stream().map(i -> solutions[i].w).collect(Collectors
			.toList()), k);
		for (final int i : choice.chosen)
			models.add(star.build("star", grid[i], solutions[i]));
		return new BetaSelection(star, grid, affinity, choice.clusters, models, vectors);
	}

	/** The β grid that was swept (0 first, 1 last). */
	public double[] grid() {
		return grid.clone();
	}

	/** Affinity between every pair of grid values. */
	public double[][] affinity() {
		final double[][] out = new double[affinity.length][];
		for (int i = 0; i < out.length; i++)
			out[i] = affinity[i].clone();
		return out;
	}

	/** Cluster index of every grid value. */
	public int[] clusters() {
		return clusters.clone();
	}

	/** The chosen β values: 0 first, then ascending. */
	public double[] betas() {
		final double[] b = new double[models.size()];
		for (int i = 0; i < b.length; i++)
			b[i] = (Double) models.get(i).parameters().get("beta");
		return b;
	}

	/** One model per chosen β, in the order of {@link #betas()}. */
	public List<CpcaModel> models() {
		return models;
	}

	/**
	 * Separation of two or more labelled classes of the training target along the whole
	 * grid: per grid β, the LDA accuracy ("lda_accuracy") and the symmetrised KL divergence
	 * ("symmetrized_kl") of the k-D target scores (Golkar et al., Figs. 2–3; the O(n²) measures
	 * of {@link Measures#separation} are left out to keep this linear in n).
	 *
	 * @param labels one per target sample
	 */
	public List<Map<String, Double>> separation(final List<String> labels) {
		final Cpca fit = star.fit();
		final int k = fit.options().components();
		if (labels == null || labels.size() != fit.targetSamples())
			throw new IllegalArgumentException("the separation along β needs one label per " +
				"target sample (" + fit.targetSamples() + "), got " + (labels == null ? 0
					: labels.size()));
		final List<Map<String, Double>> out = new ArrayList<>();
		for (final double[] w : vectors) {
			final double[] flat = fit.targetScores(w, k);
			final double[][] scores = new double[flat.length / k][k];
			for (int i = 0; i < scores.length; i++)
				System.arraycopy(flat, i * k, scores[i], 0, k);
			final Map<String, Double> m = new LinkedHashMap<>();
			m.put("lda_accuracy", Measures.ldaAccuracy(scores, labels));
			m.put("symmetrized_kl", Measures.symmetrizedKl(scores, labels));
			out.add(m);
		}
		return out;
	}
}
