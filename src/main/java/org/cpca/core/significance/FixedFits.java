package org.cpca.core.significance;

import org.cpca.core.Progress;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import org.cpca.core.gcpca.Gcpca;
import org.cpca.core.kernel.KernelCpca;
import org.cpca.core.kernel.KernelOptions;
import org.cpca.core.linalg.TopEigen;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.model.FittedModel;
import org.cpca.core.pcpca.Pcpca;
import org.cpca.core.rpca.Rpca;
import org.cpca.core.sparse.Sparse;
import org.cpca.core.sparse.SparseLoadings;
import org.cpca.core.star.CpcaPlusPlus;
import org.cpca.core.star.CpcaStar;
import org.cpca.core.uca.Uca;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * One {@link Refit} per family, each through the family's public fit at fixed parameters
 * (the statistic of each: docs/math/significance.md#the-statistic-of-each-method). The
 * options fix k and the preprocessing; every automatic choice must be frozen to its chosen
 * value by the caller (α, β, rPCA's background components).
 */
public final class FixedFits {

	private FixedFits() {}

	/** PCA of the target; null: every feature shuffled on its own. */
	public static FixedFit pca(final CpcaOptions options) {
		return new Adapter("eigenvalue of C_t", options, Cpca::pca) {

			@Override
			public Refit.Null prepare(final Dataset target, final List<Dataset> backgrounds) {
				return new FeatureShuffle(this, target, List.of());
			}
		};
	}

	/** cPCA at a fixed α ≥ 0, or α = ∞ ({@link Double#POSITIVE_INFINITY}). */
	public static FixedFit cpca(final CpcaOptions options, final double alpha) {
		Cpca.checkAlpha(alpha);
		return new Adapter(alpha == Double.POSITIVE_INFINITY ? "eigenvalue of C_t in the " +
			"null space of C_b (α = ∞)" : "eigenvalue of C_t − αC_b (α = " + FittedModel
				.alphaText(alpha) + ")", options, f -> f.model(alpha));
	}

	/** cPCA* at a fixed β in [0, 1]. */
	public static FixedFit star(final CpcaOptions options, final double beta) {
		return new Adapter("generalized eigenvalue of C_t v = λ((1 − β)I + βC_b)v (β = " +
			String.format(Locale.ROOT, "%.6g", beta) + ")", options, f -> CpcaStar.of(f)
				.model(beta));
	}

	/** cPCA++ (the variance ratio, with its default regularisation). */
	public static FixedFit plusPlus(final CpcaOptions options) {
		return new Adapter("variance ratio r = vᵀC_t v / vᵀC_b v", options,
			f -> CpcaPlusPlus.of(f).model());
	}

	/**
	 * gcPCA: the k target-enriched components' values, then the k background-enriched
	 * ones' values negated (for v2, the logarithm of the ratio and its negation), so that
	 * larger is more contrast at either end.
	 *
	 * @param alpha finite α for v1, ignored otherwise
	 */
	public static FixedFit gcpca(final CpcaOptions options, final Gcpca.Variant variant,
		final boolean orthogonal, final double alpha)
	{
		return new FixedFit() {

			@Override
			public String statistic() {
				return gcpcaStatistic(variant);
			}

			@Override
			public double[] statistics(final Dataset target, final List<Dataset> backgrounds) {
				final Cpca f = Cpca.fit(target, backgrounds, options, Progress.NONE);
				return gcpcaStatistics(Gcpca.of(f, variant, orthogonal, alpha).spectrum().values,
					variant);
			}

			@Override
			public double[][] directions(final Dataset target, final List<Dataset> backgrounds) {
				return Gcpca.of(Cpca.fit(target, backgrounds, options, Progress.NONE), variant,
					orthogonal, alpha).model().components();
			}
		};
	}

	private static String gcpcaStatistic(final Gcpca.Variant variant) {
		return "gcPCA " + variant.id() + " value" + (variant == Gcpca.Variant.V2 ? " (log ratio)"
			: "") + ", negated for the background-enriched components";
	}

	/**
	 * gcPCA's values (k target-enriched, then k background-enriched) as statistics: the
	 * second half negated, for v2 the logarithm first (a value ≤ 0, which only a sparse
	 * loading thresholded to zero has, counts as the ratio 1: no contrast).
	 */
	private static double[] gcpcaStatistics(final double[] v, final Gcpca.Variant variant) {
		final boolean log = variant == Gcpca.Variant.V2;
		final double[] s = new double[v.length];
		for (int c = 0; c < v.length; c++) {
			final double x = !log ? v[c] : v[c] > 0 ? Math.log(v[c]) : 0;
			s[c] = c < v.length / 2 ? x : -x;
		}
		return s;
	}

	/**
	 * Sparse cPCA at a fixed finite α and a fixed sparsity (an automatic sparsity frozen to
	 * the value the fit chose): per sparse loading v, the contrast it achieves,
	 * {@code vᵀ(C_t − αC_b)v} (docs/math/significance.md#sparse-loadings); a split with
	 * fewer than k directions of positive contrast keeps the others dense, their statistic
	 * their eigenvalue of {@code C_t − αC_b} (≤ 0), as in the fit. Each refit
	 * starts, as the fit did, from its own data's dense loadings; refits that stop before
	 * converging are counted ({@link Unconverged#unconverged()}).
	 */
	public static FixedFit sparseCpca(final CpcaOptions options, final double alpha,
		final double sparsity)
	{
		return sparseCpca(options, alpha, sparsity, SparseLoadings.MAX_ITERATIONS);
	}

	/** {@link #sparseCpca(CpcaOptions, double, double)} with at most {@code cap} iterations. */
	static FixedFit sparseCpca(final CpcaOptions options, final double alpha,
		final double sparsity, final int cap)
	{
		Cpca.checkAlpha(alpha);
		if (alpha == Double.POSITIVE_INFINITY) throw new IllegalArgumentException("sparse " +
			"loadings need a finite α (α = ∞ has no contrast matrix to sparsify)");
		SparseLoadings.checkSparsity(sparsity);
		return new SparseFit("contrast vᵀ(C_t − αC_b)v of each sparse loading (α = " +
			FittedModel.alphaText(alpha) + ", " + sparsityText(sparsity) + ")", options,
			f -> Sparse.cpca(f, Sparse.basis(f), f.model(alpha), sparsity, cap), options
				.components(), v -> v);
	}

	/**
	 * Sparse gcPCA at a fixed sparsity: gcPCA's statistic ({@link #gcpca}) of the variant's
	 * value {@code vᵀNv / vᵀDv} of each sparse loading, both ends as one family.
	 *
	 * @param alpha finite α for v1, ignored otherwise
	 */
	public static FixedFit sparseGcpca(final CpcaOptions options, final Gcpca.Variant variant,
		final boolean orthogonal, final double alpha, final double sparsity)
	{
		SparseLoadings.checkSparsity(sparsity);
		return new SparseFit(gcpcaStatistic(variant) + ", of each sparse loading (" +
			sparsityText(sparsity) + ")", options, f -> {
				final Gcpca g = Gcpca.of(f, variant, orthogonal, alpha);
				return Sparse.gcpca(g, Sparse.basis(f), g.model(), sparsity);
			}, 2 * options.components(), v -> gcpcaStatistics(v, variant));
	}

	private static String sparsityText(final double sparsity) {
		return String.format(Locale.ROOT, "sparsity %.4g", sparsity);
	}

	/** UCA with every background treated separately (its dual refitted: UCA has no tuning). */
	public static FixedFit uca(final CpcaOptions options) {
		return new Adapter("target variance vᵀC_t v under UCA's background constraints",
			options, f -> Uca.fit(f, Progress.NONE)) {

			@Override
			double[] of(final FittedModel model) {
				return model.targetVariance();
			}
		};
	}

	/**
	 * rPCA with the background components frozen (one count for all backgrounds or one
	 * per background, as {@link Rpca#fit(Cpca, List, Progress)}; no {@code null} entries:
	 * freeze the elbow's choice).
	 */
	public static FixedFit rpca(final CpcaOptions options, final List<Integer> backgroundComponents) {
		if (backgroundComponents == null || backgroundComponents.stream().anyMatch(
			c -> c == null)) throw new IllegalArgumentException("rPCA's significance test refits at fixed " +
				"background components: give the counts the elbow chose");
		return new Adapter("eigenvalue of the target covariance after the background " +
			"components " + backgroundComponents + " are removed", options,
			f -> Rpca.fit(f, backgroundComponents, Progress.NONE));
	}

	/** PCPCA at a fixed α. */
	public static FixedFit pcpca(final CpcaOptions options, final double alpha) {
		return new Adapter("eigenvalue of C_t − γC_b (PCPCA, α = " + FittedModel.alphaText(
			alpha) + ")", options, f -> Pcpca.fit(f, alpha));
	}

	/**
	 * Kernel cPCA at a fixed α with a fixed kernel: the eigenvalues of its problem (its
	 * components live in the kernel's feature space; for the bootstrap see
	 * {@link #kernelScores}).
	 *
	 * @param kernelOptions with γ fixed (freeze an automatic γ to the fit's
	 *          {@link KernelCpca#kernel()})
	 */
	public static Refit kernelCpca(final CpcaOptions options, final KernelOptions kernelOptions,
		final double alpha)
	{
		requireFixedKernel(kernelOptions);
		return new Refit() {

			@Override
			public String statistic() {
				return "eigenvalue of kernel cPCA at α = " + FittedModel.alphaText(alpha) +
					" (" + kernelOptions.kernel() + ")";
			}

			@Override
			public double[] statistics(final Dataset target, final List<Dataset> backgrounds) {
				final double[] e = KernelCpca.fit(target, backgrounds, options, kernelOptions,
					Progress.NONE).model(alpha).eigenvalues();
				return Arrays.copyOf(e, Math.min(e.length, options.components()));
			}
		};
	}

	/**
	 * Kernel cPCA at a fixed α with a fixed kernel, for the bootstrap: a component is known
	 * by its scores on the samples {@code on} (the original target), so the "direction" of
	 * a fit is, per component, its scores on those samples, centred and scaled to unit
	 * length; the bootstrap's angle is then {@code acos |corr|} between the full fit's and
	 * a resample's scores of the same samples
	 * (docs/math/significance.md#kernel-cpca-stability). Its components live in each fit's
	 * own feature space, so no angle between them in the input space exists.
	 */
	public static Directions kernelScores(final CpcaOptions options,
		final KernelOptions kernelOptions, final double alpha, final Dataset on)
	{
		requireFixedKernel(kernelOptions);
		return new Directions() {

			@Override
			public double[][] directions(final Dataset target, final List<Dataset> backgrounds) {
				final double[][] scores = KernelCpca.fit(target, backgrounds, options,
					kernelOptions, Progress.NONE).model(alpha).transform(on);
				final int n = scores.length, k = Math.min(scores[0].length, options
					.components());
				final double[][] out = new double[k][n];
				for (int c = 0; c < k; c++) {
					double mean = 0;
					for (int i = 0; i < n; i++)
						mean += scores[i][c];
					mean /= n;
					for (int i = 0; i < n; i++)
						out[c][i] = scores[i][c] - mean;
					final double norm = Math.sqrt(TopEigen.dot(out[c], out[c]));
					if (norm > 0) for (int i = 0; i < n; i++)
						out[c][i] /= norm;
				}
				return out;
			}

			@Override
			public String measure() {
				return "centred scores of the " + on.samples() + " target samples (kernel " +
					"cPCA's components have no direction in the input space)";
			}
		};
	}

	private static void requireFixedKernel(final KernelOptions kernelOptions) {
		if (kernelOptions.kernel().gammaIsAutomatic()) throw new IllegalArgumentException(
			"kernel cPCA's significance test and bootstrap refit with a fixed kernel: give " +
				"the γ the fit chose");
	}

	/**
	 * A family whose statistics are its model's first k eigenvalues (or {@link #of}) and
	 * whose directions are its model's components.
	 */
	private static class Adapter implements FixedFit {

		private final String statistic;
		private final CpcaOptions options;
		private final Function<Cpca, CpcaModel> model;

		Adapter(final String statistic, final CpcaOptions options,
			final Function<Cpca, CpcaModel> model)
		{
			this.statistic = statistic;
			this.options = options;
			this.model = model;
		}

		@Override
		public String statistic() {
			return statistic;
		}

		@Override
		public double[] statistics(final Dataset target, final List<Dataset> backgrounds) {
			final Cpca f = Cpca.fit(target, backgrounds, options, Progress.NONE);
			final double[] e = of(model.apply(f));
			return Arrays.copyOf(e, Math.min(e.length, count()));
		}

		@Override
		public double[][] directions(final Dataset target, final List<Dataset> backgrounds) {
			final double[][] v = model.apply(Cpca.fit(target, backgrounds, options,
				Progress.NONE)).components();
			return Arrays.copyOf(v, Math.min(v.length, count()));
		}

		/** The number of components tested. */
		int count() {
			return options.components();
		}

		/** The per-component statistics of a model: its eigenvalues. */
		double[] of(final FittedModel fitted) {
			return fitted.eigenvalues();
		}
	}

	/**
	 * Sparse loadings refitted from scratch at a fixed sparsity: the statistics are a
	 * function of the model's values, and a refit whose iteration stopped before
	 * converging is counted.
	 */
	private static final class SparseFit extends Adapter {

		private final AtomicInteger unconverged;
		private final int count;
		private final UnaryOperator<double[]> statistics;

		SparseFit(final String statistic, final CpcaOptions options,
			final Function<Cpca, CpcaModel> sparse, final int count,
			final UnaryOperator<double[]> statistics)
		{
			this(statistic, options, sparse, count, statistics, new AtomicInteger());
		}

		private SparseFit(final String statistic, final CpcaOptions options,
			final Function<Cpca, CpcaModel> sparse, final int count,
			final UnaryOperator<double[]> statistics, final AtomicInteger unconverged)
		{
			super(statistic, options, f -> {
				final CpcaModel m = sparse.apply(f);
				if (!Sparse.converged(m)) unconverged.incrementAndGet();
				return m;
			});
			this.unconverged = unconverged;
			this.count = count;
			this.statistics = statistics;
		}

		@Override
		double[] of(final FittedModel model) {
			return statistics.apply(model.eigenvalues());
		}

		@Override
		int count() {
			return count;
		}

		@Override
		public int unconverged() {
			return unconverged.get();
		}
	}
}
