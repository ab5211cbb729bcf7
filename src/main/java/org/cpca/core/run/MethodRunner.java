package org.cpca.core.run;

import org.cpca.core.result.Method;
import org.cpca.core.result.Solution;

import org.cpca.core.online.OnlineRun;
import org.cpca.core.Progress;
import org.cpca.core.contrast.AlphaSelection;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import org.cpca.core.kernel.KernelCpca;
import org.cpca.core.kernel.KernelCpcaModel;
import org.cpca.core.online.OnlineCpcaStar;
import org.cpca.core.rpca.Rpca;
import org.cpca.core.star.StarRun;
import org.cpca.core.uca.Uca;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;

/**
 * Runs a method on in-memory data: the one place where a method name becomes a
 * computation, shared by the command line, the Fiji commands and the macro extension.
 */
public final class MethodRunner {

	private MethodRunner() {}

	/**
	 * Runs the method of {@code settings} (the front ends' entry).
	 *
	 * @param backgrounds none (PCA), one (cPCA and most methods) or several (UCA, rPCA)
	 * @throws IllegalArgumentException for settings or data that do not fit the method
	 */
	public static Solution run(final Settings settings, final Dataset target,
		final List<Dataset> backgrounds, final Progress progress)
	{
		return run(settings.methodSettings(), target, backgrounds, settings.cpcaOptions(),
			progress);
	}

	/**
	 * @param backgrounds none (PCA), one (cPCA and most methods) or several (UCA, rPCA)
	 * @throws IllegalArgumentException for settings or data that do not fit the method,
	 *           with a message saying what to do
	 */
	public static Solution run(final MethodSettings s, final Dataset target,
		final List<Dataset> backgrounds, final CpcaOptions options, final Progress progress)
	{
		requireDifferent(target, backgrounds);
		return PrimaryChoice.apply(dispatch(s, target, backgrounds, options, progress),
			target.labels());
	}

	/**
	 * Refuses a background that holds the target's own values (the same file or image
	 * given twice, or a table's rows selected twice alike): C_t − αC_b is then
	 * (1 − α)C_t, PCA or nothing, for every method of the family.
	 */
	static void requireDifferent(final Dataset target, final List<Dataset> backgrounds) {
		for (final Dataset b : backgrounds)
			if (b.sameValues(target)) throw sameAsTarget(b.name(), target.name());
	}

	/**
	 * Whether a streamed background is the target again, judged by where it comes from
	 * (its values are not read twice to compare them, as {@link #run} does): the same file
	 * or location, through links, with the same rows selected (table filters; empty for
	 * images and folders).
	 */
	public static boolean sameSource(final Path target, final List<String> targetRows,
		final Path background, final List<String> backgroundRows)
	{
		if (!new HashSet<>(targetRows).equals(new HashSet<>(backgroundRows))) return false;
		if (target.equals(background)) return true;
		try {
			return Files.isSameFile(target, background);
		}
		catch (final IOException | RuntimeException e) {
			return false; // not a local file, or missing: opening it says what is wrong
		}
	}

	/**
	 * The refusal of a background that holds the target's own values (see {@link #run}
	 * and {@link #sameSource}).
	 */
	public static IllegalArgumentException sameAsTarget(final String background,
		final String target)
	{
		return new IllegalArgumentException(background + " holds the same values as " +
			target + ", sample for sample: a contrast of the target with itself is empty " +
			"(C_t − αC_b = (1 − α)C_t); give a background that differs from the target, e.g. " +
			"the control images");
	}

	/**
	 * Runs the method of {@code settings} with missing values (NaN: empty table cells, NaN
	 * pixels) kept: PCPCA's EM over the observed values (docs/math/pcpca.md), the only
	 * method that models them.
	 *
	 * @param target the sample count, labels and names
	 * @param targetValues the target's values with their NaNs
	 * @param backgrounds each background's values with their NaNs (PCPCA takes one)
	 */
	public static Solution runMissing(final Settings settings, final Dataset target,
		final float[][] targetValues, final List<float[][]> backgrounds,
		final Progress progress)
	{
		if (settings.method() != Method.PCPCA) throw new IllegalArgumentException(
			"missing values are modelled by PCPCA only: use --method pcpca, or fill them " +
				"(--missing mean|zero)");
		return org.cpca.core.pcpca.PcpcaRun.runMissing(settings.methodSettings().alpha,
			target, targetValues, backgrounds, settings.cpcaOptions(), progress);
	}

	/**
	 * Picks the main model of a solution made elsewhere (e.g. on Spark) by the same rule as
	 * {@link #run}: the best separation of the target's classes when {@code labels} has two
	 * or more, otherwise the largest contrast eigengap (docs/math/defaults.md).
	 */
	public static Solution choosePrimary(final Solution s, final List<String> labels) {
		return PrimaryChoice.apply(s, labels);
	}

	/**
	 * Builds the fit a method runs on: from every background as given, or (for UCA and
	 * rPCA with {@code --stacked}) from them pooled into one dataset. The in-memory
	 * runner fits the samples; a cluster front end fits merged moments or a Gram matrix
	 * (docs/spark.md), and both then run the same code ({@link #fromFit}).
	 */
	public interface Fitter {

		/** @param pool pool every background into one (the moments of their union) */
		Cpca fit(boolean pool);
	}

	/**
	 * The methods whose fit needs only each dataset's moments (or the Gram matrix of the
	 * stacked samples), run on fits built by {@code fitter}: PCA, cPCA (fixed α, ∞,
	 * automatic), cPCA*, cPCA++, gcPCA, PCPCA, UCA and rPCA. The one place these methods
	 * are dispatched, for samples in memory ({@link #run}) and for fits from moments
	 * (docs/spark.md) alike. Without the main-model choice ({@link #choosePrimary}).
	 *
	 * @param backgrounds the number of backgrounds given
	 * @throws IllegalArgumentException for settings or data that do not fit the method,
	 *           or a method that needs more than moments (online, kernel)
	 */
	public static Solution fromFit(final MethodSettings s, final int backgrounds,
		final Fitter fitter, final Progress progress)
	{
		switch (s.method) {
			case PCA: {
				final Cpca fit = fitter.fit(false);
				return Solution.of(Method.PCA, null, List.of(fit.pca()), null, fit);
			}
			case CPCA: {
				requireBackgrounds(s.method, backgrounds, 1, 1);
				final Cpca fit = fitter.fit(false);
				final Solution dense;
				if (Double.isNaN(s.alpha)) {
					final AlphaSelection selection = fit.automatic(progress);
					dense = Solution.of(Method.CPCA, "auto", selection.models(), selection, fit);
				}
				else dense = Solution.of(Method.CPCA, s.alpha == Double.POSITIVE_INFINITY ? "inf"
					: "fixed", List.of(fit.model(s.alpha)), null, fit);
				return s.sparsity == null ? dense : org.cpca.core.sparse.SparseRun.cpca(dense,
					s.sparsity);
			}
			case STAR:
			case CPCAPP: {
				requireBackgrounds(s.method, backgrounds, 1, 1);
				final Cpca fit = fitter.fit(false);
				return s.method == Method.STAR ? StarRun.star(fit, s.beta, s.epsilon,
					s.betaCount, s.betasReturned, progress) : StarRun.plusPlus(fit, s.epsilon);
			}
			case GCPCA: {
				requireBackgrounds(s.method, backgrounds, 1, 1);
				final Cpca fit = fitter.fit(false);
				final org.cpca.core.gcpca.Gcpca g = org.cpca.core.gcpca.GcpcaRun.gcpca(fit, s.variant,
					s.orthogonal, s.alpha);
				final Solution dense = org.cpca.core.gcpca.GcpcaRun.run(g, fit, s.shuffles,
					progress);
				return s.sparsity == null ? dense : org.cpca.core.sparse.SparseRun.gcpca(dense,
					g, s.sparsity);
			}
			case PCPCA:
				requireBackgrounds(s.method, backgrounds, 1, 1);
				return org.cpca.core.pcpca.PcpcaRun.run(fitter.fit(false), s.alpha);
			case UCA:
			case RPCA: {
				requireBackgrounds(s.method, backgrounds, 1, Integer.MAX_VALUE);
				final boolean pool = s.stacked && backgrounds > 1;
				final Cpca fit = fitter.fit(pool);
				final int stacked = pool ? backgrounds : 0;
				if (s.method == Method.UCA) return Uca.solution(fit, stacked, progress);
				return Solution.of(s.method, null, List.of(Rpca.fit(fit, s.backgroundComponents,
					stacked, progress)), null, fit);
			}
			default:
				throw new IllegalArgumentException(s.method.displayName + " (method " +
					s.method.id + ") needs more than each dataset's moments: run it on the " +
					"samples (cpca fit)");
		}
	}

	/** Whether {@link #fromFit} runs the method (its fit needs only moments). */
	public static boolean runsFromFit(final Method m) {
		return m != Method.ONLINE && m != Method.KERNEL;
	}

	private static Solution dispatch(final MethodSettings s, final Dataset target,
		final List<Dataset> backgrounds, final CpcaOptions options, final Progress progress)
	{
		switch (s.method) {
			case ONLINE:
				requireBackgrounds(s.method, backgrounds.size(), 1, 1);
				return OnlineRun.inMemory(s.beta, s.eta, s.tau, s.epochs, target,
					backgrounds.get(0), options, progress);
			case KERNEL:
				return kernel(s, target, backgrounds, options, progress);
			default:
				return fromFit(s, backgrounds.size(), pool -> Cpca.fit(target, pool ? List.of(
					Dataset.pool(backgrounds)) : backgrounds, options, progress), progress);
		}
	}

	/** Kernel cPCA: exact or Nyström by N, fixed or automatic α (not α = ∞). */
	private static Solution kernel(final MethodSettings s, final Dataset target,
		final List<Dataset> backgrounds, final CpcaOptions options, final Progress progress)
	{
		requireBackgrounds(s.method, backgrounds.size(), 1, 1);
		if (s.alpha == Double.POSITIVE_INFINITY) throw new IllegalArgumentException("α = ∞ " +
			"is not defined for kernel cPCA: use a finite α ≥ 0 or auto");
		if (Double.isNaN(s.alpha) && s.kernelOptions().kernel().gammaIsAutomatic()) {
			// the default for rbf and poly: automatic (γ, α), docs/math/kernel.md
			final org.cpca.core.kernel.KernelSelection selection = org.cpca.core.kernel
				.KernelSelection.select(target, backgrounds.get(0), options, s.kernelOptions(),
					progress);
			final java.util.Map<String, Object> kernel = new java.util.LinkedHashMap<>(s
				.kernelOptions().kernel().parameters());
			kernel.put("gamma", "auto (gamma, alpha)");
			kernel.putAll(selection.facts());
			final List<String> notes = new java.util.ArrayList<>(selection.diagnostics());
			notes.add(KernelCpcaModel.NO_COMPONENTS);
			return new Solution(Method.KERNEL, "auto", selection.models(), null, null, List
				.of(), java.util.Map.of("kernel", kernel, "standardize", options.standardize()),
				notes);
		}
		final KernelCpca fit = KernelCpca.fit(target, backgrounds, options, s
			.kernelOptions(), progress);
		final java.util.Map<String, Object> kernel = new java.util.LinkedHashMap<>(fit
			.kernel().parameters());
		kernel.put("path", fit.exact() ? "exact" : "nystrom");
		kernel.put("landmarks", fit.exact() ? null : fit.landmarks());
		kernel.put("rank", fit.rank());
		final java.util.Map<String, Object> facts = java.util.Map.of("kernel", kernel,
			"standardize", options.standardize());
		final List<String> notes = new java.util.ArrayList<>(fit.diagnostics());
		notes.add(KernelCpcaModel.NO_COMPONENTS);
		if (Double.isNaN(s.alpha)) {
			final AlphaSelection<KernelCpcaModel> selection = fit.automatic(progress);
			return new Solution(Method.KERNEL, "auto", selection.models(), selection, null,
				List.of(), facts, notes);
		}
		return new Solution(Method.KERNEL, "fixed", List.of(fit.model(s.alpha)), null, null,
			List.of(), facts, notes);
	}

	/** Checks the number of backgrounds a method takes. */
	static void requireBackgrounds(final Method method, final int n, final int min,
		final int max)
	{
		if (n < min) throw new IllegalArgumentException(method.displayName +
			" needs a background: give one (e.g. --background PATH, or a background image " +
			"in Fiji), or use method pca");
		if (n > max) throw new IllegalArgumentException(method.displayName + " takes " + (max ==
			1 ? "one background" : "at most " + max + " backgrounds") + " but " + n +
			" were given: use uca for several backgrounds, or pool them into one");
	}
}
