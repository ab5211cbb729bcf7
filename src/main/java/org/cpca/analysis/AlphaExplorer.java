package org.cpca.analysis;

import java.util.List;

import ij.ImagePlus;

import org.cpca.core.contrast.AlphaTracker;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.model.CpcaModel;
import org.cpca.render.ModelViews;

/**
 * The state behind the interactive α explorer, free of any window: a slider position
 * maps to α (the first position is α = 0, the last α = ∞, the ones between are
 * log-spaced over [10^minLog, 10^maxLog]); each position is solved on the fitted
 * {@link Cpca} (one small re-solve, no refit) and rendered as a scatter plot and the
 * first eigen-images.
 */
public final class AlphaExplorer {

	/** Slider positions between α = 0 and α = ∞ (exclusive). */
	public static final int STEPS = 200;
	public static final double MIN_LOG = -2, MAX_LOG = 4;

	/** Most samples drawn while exploring (a regular subsample keeps updates fast). */
	static final int MAX_POINTS = 2500;

	private final Analysis analysis;
	private final double[] chosen;
	private final AlphaTracker tracker;

	public AlphaExplorer(final Analysis analysis) {
		if (!"cpca".equals(analysis.method())) throw new IllegalArgumentException(
			"the α explorer needs contrastive PCA with a background (method=cpca)");
		this.analysis = analysis;
		this.chosen = analysis.selection() == null ? new double[0] : analysis.selection()
			.alphas();
		this.tracker = new AlphaTracker(analysis.cpca());
	}

	/** The last slider position (α = ∞). */
	public static int lastPosition() {
		return STEPS + 1;
	}

	/** α at a slider position: 0 at 0, ∞ at {@link #lastPosition()}, log-spaced between. */
	public static double alphaAt(final int position) {
		if (position <= 0) return 0;
		if (position >= lastPosition()) return Double.POSITIVE_INFINITY;
		return Math.pow(10, MIN_LOG + (MAX_LOG - MIN_LOG) * (position - 1) / (STEPS - 1));
	}

	/** The slider position closest to α. */
	public static int positionOf(final double alpha) {
		if (alpha <= 0) return 0;
		if (alpha == Double.POSITIVE_INFINITY) return lastPosition();
		final double t = (Math.log10(alpha) - MIN_LOG) / (MAX_LOG - MIN_LOG);
		return 1 + (int) Math.round(Math.max(0, Math.min(1, t)) * (STEPS - 1));
	}

	/** The automatically chosen α values (α = 0 first), to mark and jump to. */
	public double[] chosenAlphas() {
		return chosen.clone();
	}

	/**
	 * The model at a slider position: a re-solve on the existing fit, warm-started from
	 * the previous position (equal to {@code cpca.model(α)} to solver precision).
	 */
	public CpcaModel model(final int position) {
		return tracker.model(alphaAt(position));
	}

	/**
	 * The scatter plot of a model, with the chosen α values listed in its title; at most
	 * {@value #MAX_POINTS} samples are drawn (every n-th), which the title says.
	 */
	public ImagePlus scatter(final CpcaModel m) {
		final int n = analysis.targetSamples();
		final int stride = Math.max(1, (n + MAX_POINTS - 1) / MAX_POINTS);
		return ModelViews.liveScatterPlot(m, analysis.targetLabels(),
			"automatic α: " + alphaList() + (stride > 1 ? "; every " + stride + "th sample"
				: ""), stride);
	}

	/** The model's eigen-images, or {@code null} with pixels as samples. */
	public ImagePlus eigenImages(final CpcaModel m) {
		return analysis.layout() == null ? null : ModelViews.eigenImages(
			"Contrastive eigen-images, " + ModelViews.title(m), List.of(m), analysis
				.layout());
	}

	String alphaList() {
		final StringBuilder sb = new StringBuilder();
		for (final double a : chosen)
			sb.append(sb.length() == 0 ? "" : ", ").append(ModelViews.alphaLabel(a));
		return sb.length() == 0 ? "none" : sb.toString();
	}
}
