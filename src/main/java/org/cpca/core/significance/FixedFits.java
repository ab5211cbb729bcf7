package org.cpca.core.significance;

import org.cpca.core.Progress;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import org.cpca.core.gcpca.Gcpca;
import org.cpca.core.kernel.KernelCpca;
import org.cpca.core.kernel.KernelOptions;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.model.FittedModel;
import org.cpca.core.pcpca.Pcpca;
import org.cpca.core.rpca.Rpca;
import org.cpca.core.star.CpcaPlusPlus;
import org.cpca.core.star.CpcaStar;
import org.cpca.core.uca.Uca;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

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
		final boolean log = variant == Gcpca.Variant.V2;
		return new FixedFit() {

			@Override
			public String statistic() {
				return "gcPCA " + variant.id() + " value" + (log ? " (log ratio)" : "") +
					", negated for the background-enriched components";
			}

			@Override
			public double[] statistics(final Dataset target, final List<Dataset> backgrounds) {
				final Cpca f = Cpca.fit(target, backgrounds, options, Progress.NONE);
				final double[] v = Gcpca.of(f, variant, orthogonal, alpha).spectrum().values;
				final double[] s = new double[v.length];
				for (int c = 0; c < v.length; c++) {
					final double x = log ? Math.log(v[c]) : v[c];
					s[c] = c < v.length / 2 ? x : -x;
				}
				return s;
			}

			@Override
			public double[][] directions(final Dataset target, final List<Dataset> backgrounds) {
				return Gcpca.of(Cpca.fit(target, backgrounds, options, Progress.NONE), variant,
					orthogonal, alpha).model().components();
			}
		};
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
	 * Kernel cPCA at a fixed α with a fixed kernel (statistics only: its components live
	 * in the kernel's feature space, so there is no bootstrap angle in the input space).
	 *
	 * @param kernelOptions with γ fixed (freeze an automatic γ to the fit's
	 *          {@link KernelCpca#kernel()})
	 */
	public static Refit kernelCpca(final CpcaOptions options, final KernelOptions kernelOptions,
		final double alpha)
	{
		if (kernelOptions.kernel().gammaIsAutomatic()) throw new IllegalArgumentException(
			"kernel cPCA's significance test refits with a fixed kernel: give the γ the fit " +
				"chose");
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
			return Arrays.copyOf(e, Math.min(e.length, options.components()));
		}

		@Override
		public double[][] directions(final Dataset target, final List<Dataset> backgrounds) {
			final double[][] v = model.apply(Cpca.fit(target, backgrounds, options,
				Progress.NONE)).components();
			return Arrays.copyOf(v, Math.min(v.length, options.components()));
		}

		/** The per-component statistics of a model: its eigenvalues. */
		double[] of(final FittedModel fitted) {
			return fitted.eigenvalues();
		}
	}
}
