package org.cpca.core.run;

import java.util.ArrayList;
import java.util.List;

import org.cpca.core.Progress;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import org.cpca.core.model.FittedModel;
import org.cpca.core.result.Solution;
import org.cpca.core.result.Method;
import org.cpca.core.significance.Bootstrap;
import org.cpca.core.significance.Directions;
import org.cpca.core.significance.FixedFits;
import org.cpca.core.significance.PermutationTest;

/**
 * {@code bootstrap B}: the stability of each result's components
 * (docs/math/significance.md#stability-bootstrap), B seeded resamples within each dataset
 * refitted at the result's own parameters. Each result's summary entry gets
 * {@code "bootstrap"}, and the solution the per-feature spread of every component
 * ({@link #SPREAD}) for the eigen-image of the spread. Kernel cPCA's components are
 * compared by their scores on the target's samples instead (no spread image).
 */
final class BootstrapRun {

	/** The name of the per-result spread ({@link Solution#resultImages()}). */
	static final String SPREAD = "bootstrap_spread";

	private BootstrapRun() {}

	/** The number of resamples as given, checked: 0 (none) or 2 … the maximum. */
	static int resamples(final int n, final String shown) {
		if (n == 1 || n > PermutationTest.MAX_PERMUTATIONS) throw new IllegalArgumentException(
			shown + n + " is not a number of bootstrap resamples: give 0 (none) or 2 to " +
				PermutationTest.MAX_PERMUTATIONS + " (e.g. 200)");
		return n;
	}

	/** The solution with each result's bootstrap, or as it is without one. */
	static Solution apply(final Settings settings, final Dataset target,
		final List<Dataset> backgrounds, final CpcaOptions options, final Solution solution,
		final Progress progress)
	{
		final int n = settings.bootstrap();
		if (n == 0) return solution;
		final boolean kernel = settings.method() == Method.KERNEL;
		final List<Object> perModel = new ArrayList<>();
		final List<double[][]> spread = new ArrayList<>();
		final List<String> notes = new ArrayList<>();
		for (final FittedModel m : solution.models()) {
			progress.stage("bootstrap: " + n + " resamples", 0);
			final Directions family = kernel ? FixedFits.kernelScores(options, SignificanceRun
				.frozenKernel(settings, m), m.alpha(), target) : SignificanceRun.fixedFit(
					settings, options, m, backgrounds.size(), "bootstrap");
			final Bootstrap.Stability s = Bootstrap.run(target, backgrounds, family, n,
				settings.seed(), progress);
			perModel.add(s.toSummary());
			spread.add(s.spread());
			SignificanceRun.unconvergedNote("bootstrap", m, solution, s.unconverged(), n + 1,
				notes);
		}
		final Solution out = solution.withResultFact("bootstrap", perModel).withNotesFirst(
			notes);
		// kernel cPCA's spread is per target sample (of its scores), not an image
		return kernel ? out : out.withResultImages(SPREAD, spread);
	}
}
