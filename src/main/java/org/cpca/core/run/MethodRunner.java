package org.cpca.core.run;

import org.cpca.core.result.Convergence;
import org.cpca.core.result.Method;
import org.cpca.core.result.Solution;

import org.cpca.core.Progress;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import org.cpca.core.family.Family;
import org.cpca.core.family.FamilyInput;
import org.cpca.core.family.FamilySettings;
import org.cpca.core.family.Fitter;
import org.cpca.core.linalg.SolverLog;
import org.cpca.core.pcpca.PcpcaRun;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;

/**
 * Runs a method on in-memory data: the one place where a method name becomes a
 * computation, shared by the command line, the Fiji commands and the macro extension.
 */
public final class MethodRunner {

	private MethodRunner() {}

	/**
	 * Runs the family of the chosen method on samples in memory (the front ends' entry),
	 * through the registry ({@link Families}).
	 *
	 * @param backgrounds none (PCA), one (cPCA and most methods) or several (UCA, rPCA)
	 * @throws IllegalArgumentException for settings or data that do not fit the method,
	 *           with a message saying what to do
	 */
	public static Solution run(final Settings settings, final Dataset target,
		final List<Dataset> backgrounds, final Progress progress)
	{
		return run(settings, target, backgrounds, settings.cpcaOptions(), progress);
	}

	/**
	 * As {@link #run(Settings, Dataset, List, Progress)}, with the linear fit's options
	 * given by the core's own callers (e.g. the feature space forced) instead of made from
	 * the settings.
	 */
	public static Solution run(final Settings settings, final Dataset target,
		final List<Dataset> backgrounds, final CpcaOptions options, final Progress progress)
	{
		requireDifferent(target, backgrounds);
		final Solution solution = PrimaryChoice.apply(run(settings, FamilyInput.samples(settings
			.alpha().value(), settings.beta().value(), options, target, backgrounds, progress)),
			target.labels());
		return BootstrapRun.apply(settings, target, backgrounds, options, SignificanceRun
			.apply(settings, target, backgrounds, options, solution, progress), progress);
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
		if (settings.significance() > 0) throw new IllegalArgumentException("the " +
			"significance test is not available with missing values modelled (--missing " +
			"model) yet: fill them (--missing mean|zero), or leave significance out");
		if (settings.bootstrap() > 0) throw new IllegalArgumentException("the bootstrap is " +
			"not available with missing values modelled (--missing model) yet: fill them " +
			"(--missing mean|zero), or leave bootstrap out");
		return PcpcaRun.runMissing(settings.alpha().value(),
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
	 * The methods whose fit needs only each dataset's moments (or the Gram matrix of the
	 * stacked samples), run on fits built by {@code fitter}: every family whose {@link
	 * Family#runsFromFit()} holds. The same family code as {@link #run} on samples, for
	 * fits from moments (docs/spark.md). Without the main-model choice ({@link
	 * #choosePrimary}).
	 *
	 * @param backgrounds the number of backgrounds given
	 * @throws IllegalArgumentException for settings or data that do not fit the method,
	 *           or a method that needs more than moments (online, kernel)
	 */
	public static Solution fromFit(final Settings settings, final int backgrounds,
		final Fitter fitter, final Progress progress)
	{
		if (settings.significance() > 0) throw new IllegalArgumentException("the " +
			"significance test permutes samples, which a fit from moments (cpca-spark) does " +
			"not have: run it with cpca fit, or leave significance out");
		if (settings.bootstrap() > 0) throw new IllegalArgumentException("the bootstrap " +
			"resamples samples, which a fit from moments (cpca-spark) does not have: run it " +
			"with cpca fit, or leave bootstrap out");
		return run(settings, FamilyInput.moments(settings.alpha().value(), settings.beta()
			.value(), settings.cpcaOptions(), backgrounds, fitter, progress));
	}

	/** Whether {@link #fromFit} runs the method (its fit needs only moments). */
	public static boolean runsFromFit(final Method m) {
		return Families.of(m).runsFromFit();
	}

	private static Solution run(final Settings settings, final FamilyInput input) {
		final FamilySettings<?> family = settings.family();
		final Family<?> f = family.family();
		requireBackgrounds(f.method(), input.backgroundCount(), f.minBackgrounds(), f
			.maxBackgrounds());
		final SolverLog log = SolverLog.create();
		return withSolves(log.during(() -> family.run(input)), log);
	}

	/**
	 * The solution with the eigensolvers' convergence entries ("lobpcg", "lanczos";
	 * docs/math/conventions.md#convergence) for those the run used.
	 */
	static Solution withSolves(final Solution s, final SolverLog log) {
		Solution out = s;
		final String[] names = { "lobpcg", "lanczos" };
		final SolverLog.Tally[] tallies = { log.lobpcg(), log.lanczos() };
		final double[] tolerances = { SolverLog.LOBPCG_TOLERANCE, SolverLog.LANCZOS_TOLERANCE };
		for (int i = 0; i < names.length; i++) {
			final SolverLog.Tally t = tallies[i];
			if (t.solves() == 0) continue;
			out = out.withConvergence(names[i], Convergence.ofSolves(t.solves(), t
				.maxIterations(), t.capped() == 0, tolerances[i], t.cap(), t.fallbacks() ==
					0 ? null : String.format(Locale.ROOT, "a full eigen-decomposition (exact) " +
						"answered %d of %d solves", t.fallbacks(), t.solves())));
		}
		return out;
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
