package org.cpca.core.pcpca;

import org.cpca.core.contrast.Cpca;
import org.cpca.core.data.Dataset;
import org.cpca.core.model.FittedModel;
import org.cpca.core.result.Convergence;
import org.cpca.core.result.Method;
import org.cpca.core.result.Solution;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.SplittableRandom;
import org.cpca.core.Progress;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.contrast.Moments;

/**
 * PCPCA runs for {@link org.cpca.core.run.MethodRunner}: the model at the user's α plus the
 * summary's facts — γ, σ², the bound on α, the training log-likelihood per target sample and
 * a held-out one (the model refitted on a seeded 80 % of each dataset, scored on the other
 * 20 % of the target), for comparing α and k.
 */
public final class PcpcaRun {

	/** Share of the samples held out for the held-out log-likelihood, by default. */
	public static final double HELD_OUT = 0.2;

	private PcpcaRun() {}

	/** The note when the held-out log-likelihood was not computed for want of samples. */
	public static final String NO_HELD_OUT = "PCPCA: no held-out log-likelihood (it " +
		"refits on a seeded 80 % of the samples, and this fit can give no moments of parts " +
		"of its samples); log_likelihood is the training one";

	/**
	 * PCPCA at the user's α on a fit from samples or from moments (docs/spark.md): the
	 * training log-likelihood then comes from the moments
	 * ({@link PcpcaModel#trainingLogLikelihood}), and the held-out one from the moments of
	 * the split's parts when the fit can give them ({@link Cpca#subsetMoments}), else it
	 * is left out with a note.
	 */
	public static Solution run(final Cpca fit, final double alpha) {
		return run(fit, alpha, HELD_OUT);
	}

	/**
	 * As {@link #run(Cpca, double)}, holding out {@code heldOut} of the samples for the
	 * held-out log-likelihood (0: none, and no refit).
	 */
	public static Solution run(final Cpca fit, final double alpha, final double heldOut) {
		final int nt = fit.targetSamples(), nb = (int) fit.backgroundSamples(0);
		if (Double.isNaN(alpha)) throw new IllegalArgumentException("PCPCA needs a fixed " +
			"α: give --alpha VALUE (0 ≤ α < " + FittedModel.alphaText(
				Pcpca.alphaBound(nt, nb)) + "); automatic α is not defined for it");
		final PcpcaModel model = Pcpca.fit(fit, alpha);
		final boolean samples = fit.target() != null;
		final Map<String, Object> facts = new LinkedHashMap<>();
		facts.put("gamma", model.gamma());
		facts.put("noise_variance", model.noiseVariance());
		facts.put("alpha_bound", Pcpca.alphaBound(nt, nb));
		facts.put("log_likelihood", samples ? model.logLikelihood(fit.target()) : model
			.trainingLogLikelihood(nt));
		final Double scored = heldOut == 0 ? null : samples ? heldOut(fit, alpha, heldOut)
			: fit.subsetMoments() != null ? heldOutFromMoments(fit, alpha, heldOut) : null;
		if (heldOut != HELD_OUT) facts.put("held_out", heldOut);
		if (scored != null) facts.put("held_out_log_likelihood", scored);
		final List<String> notes = new ArrayList<>(fit.diagnostics());
		if (heldOut > 0 && !samples && fit.subsetMoments() == null) notes.add(NO_HELD_OUT);
		return new Solution(Method.PCPCA, "fixed", List.of(model), null, fit, List.of(),
			facts, notes);
	}

	/**
	 * PCPCA at α with missing values (NaN: empty table cells, NaN pixels) kept in either
	 * dataset: EM over the observed values ({@link Pcpca#fitMissing}). {@code target}
	 * supplies the sample count, labels and names; {@code targetValues} and the one
	 * background's values hold the NaNs.
	 */
	public static Solution runMissing(final double alpha, final Dataset target,
		final float[][] targetValues, final List<float[][]> backgrounds,
		final CpcaOptions options,
		final Progress progress)
	{
		if (backgrounds.size() != 1) throw new IllegalArgumentException("PCPCA with " +
			"missing values needs exactly one background (got " + backgrounds.size() + ")");
		final float[][] backgroundValues = backgrounds.get(0);
		if (targetValues == null || backgroundValues == null) throw new IllegalArgumentException(
			"missing values can be modelled for tables and image stacks (slices as samples) " +
			"only: give the target and the background as tables or as stacks");
		if (Double.isNaN(alpha)) throw new IllegalArgumentException("PCPCA needs a fixed " +
			"α: give --alpha VALUE (0 ≤ α < " + FittedModel.alphaText(Pcpca.alphaBound(
				targetValues.length, backgroundValues.length)) + ")");
		if (options.standardize()) throw new IllegalArgumentException("--standardize cannot " +
			"be combined with modelled missing values (the scale would be estimated from " +
			"filled values): standardise the data first, or use --missing mean");
		final Convergence[] em = new Convergence[1];
		final PcpcaModel model = Pcpca.fitMissing(targetValues, backgroundValues, alpha,
			options.components(), options.seed(), progress, em);
		final Map<String, Object> facts = new LinkedHashMap<>();
		facts.put("gamma", model.gamma());
		facts.put("noise_variance", model.noiseVariance());
		facts.put("alpha_bound", Pcpca.alphaBound(targetValues.length,
			backgroundValues.length));
		facts.put("missing", "model (EM over the observed values)");
		return new Solution(Method.PCPCA, "fixed", List.of(model), null, null, List.of(),
			em[0].addTo(facts, "em"), model.diagnostics());
	}

	/**
	 * Mean log-likelihood per sample of a seeded share {@code fraction} of the target (20 %
	 * by default) under the model refitted on the rest of target and background;
	 * {@code null} when too few samples.
	 */
	static Double heldOut(final Cpca fit, final double alpha, final double fraction) {
		final Dataset t = fit.target(), b = fit.backgrounds().get(0);
		final int nt = t.samples(), nb = b.samples();
		final int ht = (int) Math.round(fraction * nt), hb = (int) Math.round(fraction * nb);
		if (ht < 1 || nt - ht < 3 || nb - hb < 3) return null;
		final int[] pt = permutation(nt, fit.options().seed()), pb = permutation(nb, fit
			.options().seed() + 1);
		final Dataset train = t.select(Arrays.copyOfRange(pt, ht, nt)), test = t
			.select(Arrays.copyOf(pt, ht)), back = b.select(Arrays
				.copyOfRange(pb, hb, nb));
		try {
			final Cpca f = Cpca.fit(train, back, fit.options(), Progress.NONE);
			return Pcpca.fit(f, alpha).logLikelihood(test);
		}
		catch (final IllegalArgumentException e) {
			return null; // e.g. α above the bound of the smaller split
		}
	}

	/**
	 * {@link #heldOut} for a fit without samples: the same seeded split, the moments of its
	 * parts asked of the fit ({@link Cpca#subsetMoments}), the model refitted from the
	 * training moments and scored on the held-out target's moments
	 * ({@link PcpcaModel#logLikelihood(org.cpca.core.contrast.Moments)}).
	 */
	static Double heldOutFromMoments(final Cpca fit, final double alpha,
		final double fraction)
	{
		final int nt = fit.targetSamples(), nb = (int) fit.backgroundSamples(0);
		final int ht = (int) Math.round(fraction * nt), hb = (int) Math.round(fraction * nb);
		if (ht < 1 || nt - ht < 3 || nb - hb < 3) return null;
		final int[] pt = permutation(nt, fit.options().seed()), pb = permutation(nb, fit
			.options().seed() + 1);
		final BitSet test = new BitSet(nt), train = new BitSet(
			nt), back = new BitSet(nb);
		for (int i = 0; i < nt; i++)
			(i < ht ? test : train).set(pt[i]);
		for (int i = hb; i < nb; i++)
			back.set(pb[i]);
		final Cpca.SubsetMoments parts = fit.subsetMoments();
		final Moments trainMoments = parts.of(0, train);
		try {
			// the refit's own target scores are not needed: none are computed
			final Cpca f = Cpca.fromMoments(fit.targetName(), trainMoments, null, List.of(fit
				.backgroundNames().get(0)), List.of(parts.of(1, back)), fit.options(), (pre, w,
					k) -> new double[(int) trainMoments.count() * k]);
			return Pcpca.fit(f, alpha).logLikelihood(parts.of(0, test));
		}
		catch (final IllegalArgumentException e) {
			return null; // e.g. α above the bound of the smaller split
		}
	}

	private static int[] permutation(final int n, final long seed) {
		final SplittableRandom r = new SplittableRandom(seed);
		final int[] p = new int[n];
		for (int i = 0; i < n; i++)
			p[i] = i;
		for (int i = n - 1; i > 0; i--) {
			final int j = r.nextInt(i + 1), tmp = p[i];
			p[i] = p[j];
			p[j] = tmp;
		}
		return p;
	}
}
