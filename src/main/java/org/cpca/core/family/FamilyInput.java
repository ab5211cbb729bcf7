package org.cpca.core.family;

import java.util.List;

import org.cpca.core.Progress;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import org.cpca.core.result.Method;

/**
 * What a family runs on: the settings every family shares (α, β, the linear fit's options)
 * and the data, either as samples in memory or only as a {@link Fitter} of their moments
 * (docs/spark.md).
 */
public final class FamilyInput {

	private final double alpha, beta;
	private final CpcaOptions options;
	private final Dataset target;
	private final List<Dataset> backgrounds;
	private final int backgroundCount;
	private final Fitter fitter;
	private final Progress progress;

	private FamilyInput(final double alpha, final double beta, final CpcaOptions options,
		final Dataset target, final List<Dataset> backgrounds, final int backgroundCount,
		final Fitter fitter, final Progress progress)
	{
		this.alpha = alpha;
		this.beta = beta;
		this.options = options;
		this.target = target;
		this.backgrounds = backgrounds;
		this.backgroundCount = backgroundCount;
		this.fitter = fitter;
		this.progress = progress;
	}

	/**
	 * Samples in memory, fitted as they are or with the backgrounds pooled.
	 *
	 * @param alpha α ≥ 0, +∞, or NaN for automatic α
	 * @param beta β ∈ [0, 1], or NaN for automatic β
	 */
	public static FamilyInput samples(final double alpha, final double beta,
		final CpcaOptions options, final Dataset target, final List<Dataset> backgrounds,
		final Progress progress)
	{
		return new FamilyInput(alpha, beta, options, target, backgrounds,
			backgrounds.size(), pool -> Cpca.fit(target, pool ? List.of(Dataset.pool(
				backgrounds)) : backgrounds, options, progress), progress);
	}

	/** Only the fit of each dataset's moments (a cluster front end, docs/spark.md). */
	public static FamilyInput moments(final double alpha, final double beta,
		final CpcaOptions options, final int backgroundCount, final Fitter fitter,
		final Progress progress)
	{
		return new FamilyInput(alpha, beta, options, null, null, backgroundCount, fitter,
			progress);
	}

	/** α ≥ 0, +∞, or NaN for automatic α. */
	public double alpha() {
		return alpha;
	}

	/** β ∈ [0, 1], or NaN for automatic β. */
	public double beta() {
		return beta;
	}

	/** The options of the linear fit (components, preprocessing, α grid, seed). */
	public CpcaOptions options() {
		return options;
	}

	/** The number of backgrounds given. */
	public int backgroundCount() {
		return backgroundCount;
	}

	/**
	 * UCA and rPCA with {@code stacked}: how many backgrounds are pooled into one (all of
	 * them when there are several), 0 when each stays on its own.
	 */
	public int pooled(final boolean stacked) {
		return stacked && backgroundCount > 1 ? backgroundCount : 0;
	}

	/** The fit of the data (see {@link Fitter}). */
	public Cpca fit(final boolean pool) {
		return fitter.fit(pool);
	}

	public Progress progress() {
		return progress;
	}

	/**
	 * The target's samples, for a family that needs more than moments.
	 *
	 * @throws IllegalArgumentException if only moments were given
	 */
	public Dataset target(final Method method) {
		requireSamples(method);
		return target;
	}

	/** The backgrounds' samples (see {@link #target}). */
	public List<Dataset> backgrounds(final Method method) {
		requireSamples(method);
		return backgrounds;
	}

	private void requireSamples(final Method m) {
		if (target == null) throw new IllegalArgumentException(m.displayName + " (method " +
			m.id + ") needs more than each dataset's moments: run it on the samples (cpca fit)");
	}
}
