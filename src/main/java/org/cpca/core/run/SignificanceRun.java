package org.cpca.core.run;

import java.util.ArrayList;
import java.util.List;

import org.cpca.core.Progress;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.cpca.CpcaFamily;
import org.cpca.core.data.Dataset;
import org.cpca.core.gcpca.GcpcaFamily;
import org.cpca.core.kernel.KernelOptions;
import org.cpca.core.model.FittedModel;
import org.cpca.core.result.Method;
import org.cpca.core.result.Solution;
import org.cpca.core.rpca.RpcaFamily;
import org.cpca.core.significance.FixedFit;
import org.cpca.core.significance.FixedFits;
import org.cpca.core.significance.GramCpca;
import org.cpca.core.significance.JointMoments;
import org.cpca.core.significance.PermutationTest;
import org.cpca.core.significance.Refit;
import org.cpca.core.significance.ReselectedAlpha;
import org.cpca.core.significance.Significance;
import org.cpca.core.sparse.SparseLoadings;
import org.cpca.core.uca.UcaFamily;

/**
 * {@code significance N}: the seeded permutation test of docs/math/significance.md, run
 * on each result of a solution at that result's own parameters (each chosen α of
 * automatic α, each β; rPCA's background components as chosen), with family-wise control
 * over the components. Each result's summary entry gets {@code "significance"}.
 */
final class SignificanceRun {

	/** The most permutations accepted. */
	static final int MAX_PERMUTATIONS = PermutationTest.MAX_PERMUTATIONS;

	private SignificanceRun() {}

	/** The number of permutations as given, checked. */
	static int permutations(final int n, final String shown) {
		if (n > MAX_PERMUTATIONS) throw new IllegalArgumentException(shown + n +
			" is more permutations than " + MAX_PERMUTATIONS + ": 1000 give p-values down to " +
			"0.001; give at most " + MAX_PERMUTATIONS);
		return n;
	}

	/** The solution with each result's permutation test, or as it is without one. */
	static Solution apply(final Settings settings, final Dataset target,
		final List<Dataset> backgrounds, final CpcaOptions options, final Solution solution,
		final Progress progress)
	{
		final int n = settings.significance();
		if (n == 0) return solution;
		int samples = target.samples(); // pooled (PCA has no background)
		for (final Dataset b : backgrounds)
			samples += b.samples();
		final List<Object> perModel = new ArrayList<>();
		final List<String> notes = new ArrayList<>();
		final JointMoments[] joint = { null }; // computed once, shared by the α's
		for (final FittedModel m : solution.models()) {
			progress.stage("significance: " + n + " permutations", 0);
			final Significance result = PermutationTest.run(target, backgrounds, refit(
				settings, options, m, perModel.size(), target, backgrounds, samples, joint), n,
				settings.seed(), progress);
			perModel.add(result.toSummary());
			unconvergedNote("significance test", m, solution, result.unconverged(), n + 1,
				notes);
		}
		return solution.withResultFact("significance", perModel).withNotesFirst(notes);
	}

	/**
	 * Adds to {@code notes}, when some of the refits of sparse loadings stopped before
	 * converging, one line saying how many (summary.json: "refits_not_converged").
	 *
	 * @param count those refits, −1 for a family that is not iterative
	 */
	static void unconvergedNote(final String test, final FittedModel m,
		final Solution solution, final int count, final int refits, final List<String> notes)
	{
		if (count <= 0) return;
		notes.add(test + (solution.models().size() > 1 ? " (α = " + FittedModel.alphaText(m
			.alpha()) + ")" : "") + ": " + count + " of its " + refits + " refits of the " +
			"sparse loadings stopped before converging (at the cap of " + SparseLoadings
				.MAX_ITERATIONS + " iterations, or for want of progress); their statistics " +
			"are the last iterate's");
	}

	/** The method's refit at the parameters of model {@code m}. */
	private static Refit refit(final Settings s, final CpcaOptions options,
		final FittedModel m, final int index, final Dataset target, final List<Dataset> sets,
		final int samples, final JointMoments[] joint)
	{
		if (s.method() == Method.KERNEL) return FixedFits.kernelCpca(options, frozenKernel(s, m),
			m.alpha());
		final FixedFit fit = fixedFit(s, options, m, sets.size(), "significance");
		if (s.significanceReselect()) { // Settings admits it only for dense cPCA, automatic α
			if (s.method() != Method.CPCA || !s.alpha().isAuto() || sparsity(s) != null)
				throw new IllegalStateException("re-selection of α with " + s.method().id);
			return new ReselectedAlpha(options, index, m.alpha());
		}
		// cPCA: the joint moments once per run, re-partitioned by every permutation of every α
		if (s.method() != Method.CPCA || sparsity(s) != null || !Double.isFinite(m.alpha()) ||
			options.standardize() ||
			options.whiten() || sets.size() != 1 || !JointMoments.fitInMemory(samples, m
				.features())) return fit;
		if (joint[0] == null) joint[0] = JointMoments.of(target, sets.get(0));
		return new GramCpca(options, m.alpha(), joint[0]);
	}

	/**
	 * Kernel cPCA's options at model {@code m} with its kernel frozen: an automatic γ
	 * (chosen with α, or by the heuristic) is fixed to the value the fit used.
	 */
	static KernelOptions frozenKernel(final Settings s, final FittedModel m) {
		final KernelOptions kernel = s.options(KernelOptions.class);
		final Object gamma = m.parameters().get("gamma");
		return gamma instanceof Double ? kernel.withKernel(kernel.kernel().withGamma(
			(Double) gamma)) : kernel;
	}

	/**
	 * The sparse loadings' sparsity as given (a value, or NaN for automatic), or
	 * {@code null} for dense loadings (and for the methods without sparse loadings).
	 */
	private static Double sparsity(final Settings s) {
		if (s.method() == Method.CPCA) return s.options(CpcaFamily.Options.class).sparsity();
		if (s.method() == Method.GCPCA) return s.options(GcpcaFamily.Options.class).sparsity();
		return null;
	}

	/**
	 * The method at the parameters of model {@code m}, refitted from scratch (for the
	 * permutation test and the bootstrap).
	 *
	 * @throws IllegalArgumentException naming what the tests do not cover and what to do
	 */
	static FixedFit fixedFit(final Settings s, final CpcaOptions options, final FittedModel m,
		final int backgrounds, final String key)
	{
		final Method method = s.method();
		switch (method) {
			case PCA:
				return FixedFits.pca(options);
			case CPCA:
				// sparse loadings at the value the fit used (an automatic choice frozen)
				return sparsity(s) == null ? FixedFits.cpca(options, m.alpha()) : FixedFits
					.sparseCpca(options, m.alpha(), number(m, "sparsity"));
			case STAR:
				return FixedFits.star(options, number(m, "beta"));
			case CPCAPP:
				if (s.given().contains("epsilon")) throw notAvailable(key, method,
					"with a given epsilon (the test refits with the default regularisation): " +
						"leave epsilon out");
				return FixedFits.plusPlus(options);
			case GCPCA: {
				final GcpcaFamily.Options o = s.options(GcpcaFamily.Options.class);
				return o.sparsity() == null ? FixedFits.gcpca(options, o.variant(), o
					.orthogonal(), m.alpha()) : FixedFits.sparseGcpca(options, o.variant(), o
						.orthogonal(), m.alpha(), number(m, "sparsity"));
			}
			case UCA:
				if (s.options(UcaFamily.Options.class).stacked() && backgrounds > 1)
					throw notAvailable(key, method, "with stacked backgrounds: leave stacked out");
				return FixedFits.uca(options);
			case RPCA: {
				if (s.options(RpcaFamily.Options.class).stacked() && backgrounds > 1)
					throw notAvailable(key, method, "with stacked backgrounds: leave stacked out");
				final Object kb = m.parameters().get("k_b");
				final List<Integer> counts = new ArrayList<>();
				if (kb instanceof double[]) for (final double c : (double[]) kb)
					counts.add((int) c);
				return FixedFits.rpca(options, counts);
			}
			case PCPCA:
				return FixedFits.pcpca(options, m.alpha());
			default:
				throw notAvailable(key, method, "yet (docs/math/significance.md lists the methods " +
					"it covers): leave " + key + " out");
		}
	}

	private static double number(final FittedModel m, final String key) {
		final Object v = m.parameters().get(key);
		if (!(v instanceof Double)) throw new IllegalStateException("the model has no " + key);
		return (Double) v;
	}

	private static IllegalArgumentException notAvailable(final String key, final Method m,
		final String how)
	{
		return new IllegalArgumentException((key.equals("significance") ? "the significance " +
			"test" : "the " + key) + " is not available for " + m.displayName + " " + how);
	}
}
