package org.cpca.core.contrast;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import org.cpca.core.Progress;
import org.cpca.core.data.Dataset;
import org.cpca.core.data.Preprocessing;

/**
 * Prepares the shared contrastive problem ({@link Cpca}) from samples, from the Gram matrix
 * of the stacked samples, or from each dataset's moments (optionally in a shared subspace):
 * each dataset centred (and optionally standardised) on its own, the space the problem is
 * solved in built once, and the same checks and messages on every path (too few samples,
 * features that differ, a constant target, k above the data's rank). The public entry
 * points are {@link Cpca#fit}, {@link Cpca#fromGram}, {@link Cpca#fromMoments} and
 * {@link Cpca#fromRange}.
 */
final class Preparation {

	private Preparation() {}

	/** {@link Cpca#fromMoments}, or {@link Cpca#fromRange} when {@code basis} is given. */
	static Cpca moments(final String targetName, final Moments target,
		final List<String> targetLabels, final List<String> backgroundNames,
		final List<Moments> backgrounds, final CpcaOptions options,
		final TargetProjection projection, final Preprocessing rangePre,
		final double[] basis, final int features, final double total)
	{
		if (backgroundNames.size() != backgrounds.size()) throw new IllegalArgumentException(
			backgroundNames.size() + " background names for " + backgrounds.size() +
				" backgrounds: give one name per background");
		requireSamples(targetName, target.count());
		final int d = target.features();
		for (int j = 0; j < backgrounds.size(); j++) {
			final Moments b = backgrounds.get(j);
			requireSamples(backgroundNames.get(j), b.count());
			if (b.features() != d) throw new IllegalArgumentException(backgroundNames.get(j) +
				" has " + b.features() + " features but " + targetName + " has " + d +
				": both must have the same features (the same image " +
				"width × height, mask and binning, or the same table columns)");
		}
		if (target.count() > Integer.MAX_VALUE) throw new IllegalArgumentException(
			targetName + " has " + target.count() + " samples: at most " + Integer.MAX_VALUE +
			" target samples can be scored");
		if (targetLabels != null && targetLabels.size() != target.count())
			throw new IllegalArgumentException(targetName + " has " + target.count() +
				" samples but " + targetLabels.size() +
				" labels were given: give exactly one label per sample, in sample order");
		final List<String> diagnostics = new ArrayList<>();
		// in a range the samples were standardised before the projection: centre only
		final boolean standardize = basis == null && options.standardize();
		final Preprocessing tp = target.preprocessing(targetName, standardize, diagnostics);
		final double[][] b = new double[backgrounds.size()][];
		final long[] nb = new long[b.length];
		for (int j = 0; j < b.length; j++) {
			final Moments x = backgrounds.get(j);
			b[j] = x.covariance(x.preprocessing(backgroundNames.get(j), standardize,
				diagnostics));
			nb[j] = x.count();
		}
		final MomentSpace space = new MomentSpace(d, target.covariance(tp), b, basis == null
			? tp : rangePre, projection, basis, features, total);
		check(space, b, targetName, backgroundNames, options, diagnostics);
		return new Cpca(targetName, (int) target.count(), targetLabels, backgroundNames, nb,
			options, basis == null ? tp : rangePre, space, diagnostics);
	}

	/** {@link Cpca#fit(Dataset, List, CpcaOptions, Progress)}. */
	static Cpca samples(final Dataset target, final List<Dataset> backgrounds,
		final CpcaOptions options, final Progress progress)
	{
		requireSamples(target);
		for (final Dataset background : backgrounds) {
			requireSamples(background);
			if (background.features() != target.features())
				throw new IllegalArgumentException(background.name() + " has " + background
					.features() + " features but " + target.name() + " has " + target
						.features() + ": both must have the same features (the same image " +
						"width × height, mask and binning, or the same table columns)");
		}
		final List<String> diagnostics = new ArrayList<>();
		final Preprocessing tp = Preprocessing.fit(target, options.standardize(),
			diagnostics);
		final Dataset[] bs = backgrounds.toArray(new Dataset[0]);
		final Preprocessing[] bps = new Preprocessing[bs.length];
		for (int j = 0; j < bs.length; j++)
			bps[j] = Preprocessing.fit(bs[j], options.standardize(), diagnostics);
		progress.stage("preprocessing", 1);
		final ContrastiveSpace space = ContrastiveSpace.build(target, tp, bs, bps, options
			.space(), progress);
		check(space, space.backgrounds, target.name(), backgrounds.stream().map(Dataset::name)
			.collect(Collectors.toList()), options, diagnostics);
		return new Cpca(target, List.of(bs), options, tp, space, diagnostics);
	}

	/** {@link Cpca#fromGram}. */
	static Cpca gram(final String targetName, final Preprocessing targetPre,
		final int targetSamples, final List<String> targetLabels,
		final List<String> backgroundNames, final long[] backgroundSamples,
		final double[] gram, final int features, final CpcaOptions options,
		final GramLift lift)
	{
		if (backgroundNames.size() != backgroundSamples.length)
			throw new IllegalArgumentException(backgroundNames.size() + " background names " +
				"for " + backgroundSamples.length + " backgrounds: give one name per background");
		requireSamples(targetName, targetSamples);
		long n = targetSamples;
		for (int j = 0; j < backgroundSamples.length; j++) {
			requireSamples(backgroundNames.get(j), backgroundSamples[j]);
			n += backgroundSamples[j];
		}
		if (gram.length != n * n) throw new IllegalArgumentException("the Gram matrix has " +
			gram.length + " entries but the datasets have " + n + " samples in all (need " +
			n + " × " + n + ")");
		if (targetLabels != null && targetLabels.size() != targetSamples)
			throw new IllegalArgumentException(targetName + " has " + targetSamples +
				" samples but " + targetLabels.size() +
				" labels were given: give exactly one label per sample, in sample order");
		final List<String> diagnostics = new ArrayList<>();
		final GramSpace space = GramSpace.build(gram, targetSamples, backgroundSamples,
			features, lift);
		check(space, space.backgrounds, targetName, backgroundNames, options, diagnostics);
		return new Cpca(targetName, targetSamples, targetLabels, backgroundNames,
			backgroundSamples, options, targetPre, space, diagnostics);
	}

	/**
	 * The notes and checks every path makes on the space it built: which space, a
	 * constant target refused, a constant background noted, k above the space's dimension
	 * refused.
	 *
	 * @param backgrounds each background's covariance in the space
	 */
	private static void check(final ContrastiveSpace space, final double[][] backgrounds,
		final String targetName, final List<String> backgroundNames,
		final CpcaOptions options, final List<String> diagnostics)
	{
		diagnostics.add(space.description());
		if (!(space.targetTotalVariance > 0)) throw new IllegalArgumentException(
			targetName + " is constant: all its samples are identical" + (options
				.standardize() ? "" : " after centring") +
				", so there is no variation to analyse; check that the right images or " +
				"columns were given");
		for (int j = 0; j < backgrounds.length; j++)
			if (isZero(backgrounds[j])) diagnostics.add(backgroundNames.get(j) +
				" is constant (zero variance): it removes nothing (cPCA equals PCA for " +
				"every α)");
		final int k = options.components();
		if (k > space.dimension()) throw new IllegalArgumentException("k = " + k +
			" components were requested but the data allow at most " + space.dimension() +
			" (the rank of the centred " + (backgrounds.length == 0 ? "target" : "target and " +
				"background") + "): choose k ≤ " + space.dimension() + " or add samples");
	}

	private static void requireSamples(final Dataset x) {
		requireSamples(x.name(), x.samples());
	}

	private static void requireSamples(final String name, final long samples) {
		if (samples < 2) throw new IllegalArgumentException(name + " has only " + samples +
			" sample: a covariance needs at least 2 samples (slices or rows)");
	}

	private static boolean isZero(final double[] m) {
		for (final double v : m)
			if (v != 0) return false;
		return true;
	}
}
