package org.cpca.core.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.cpca.core.Progress;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.Moments;
import org.cpca.core.contrast.StreamedGram;
import org.cpca.core.contrast.StreamedMoments;
import org.cpca.core.data.PooledSource;
import org.cpca.core.data.SampleSource;
import org.cpca.core.kernel.KernelCpca;
import org.cpca.core.kernel.KernelFamily;
import org.cpca.core.kernel.KernelOptions;
import org.cpca.core.result.Method;
import org.cpca.core.result.Solution;

/**
 * The streamed plan (docs/memory.md): a method run on datasets read in passes instead of
 * held — the Gram matrix of the stacked preprocessed samples summed over feature tiles
 * ({@link StreamedGram}), the fit {@link Cpca#fromGram}, and the family's own code on it
 * ({@link MethodRunner#fromFit}), as a cluster runs it (docs/spark.md). Every family whose
 * fit needs only moments runs: PCA, cPCA (fixed α, ∞, automatic α), cPCA*, cPCA++, UCA,
 * rPCA, gcPCA and PCPCA; kernel cPCA by Nyström landmarks ({@link KernelCpca}); the rest
 * (online cPCA*, sparse loadings, the
 * significance test, gcPCA's shuffle test, PCPCA's held-out likelihood) need the
 * samples and are refused or noted in one line.
 */
public final class StreamedRun {

	private StreamedRun() {}

	/**
	 * Whether the method runs on the streamed plan for data of these sizes: every family
	 * whose fit needs only moments (UCA too: the Gram pass keeps each background's feature
	 * variances for its constraint scale).
	 */
	public static boolean streams(final Method m, final long samples, final long features) {
		return MethodRunner.runsFromFit(m);
	}

	/**
	 * Whether these settings run on the streamed plan: {@link #streams(Method, long, long)},
	 * and kernel cPCA by Nyström landmarks at a fixed α or with γ given (not the exact
	 * path, which holds every sample, nor the automatic (γ, α), which refits on samples
	 * held); never with the significance test or the bootstrap.
	 */
	public static boolean streams(final Settings s, final long samples, final long features) {
		if (s.significance() > 0 || s.bootstrap() > 0) return false;
		if (s.method() != Method.KERNEL) return streams(s.method(), samples, features);
		final KernelOptions o = s.options(KernelOptions.class);
		return o.landmarks() != KernelOptions.ALL && !(Double.isNaN(s.alpha().value()) && o
			.kernel().gammaIsAutomatic());
	}

	/**
	 * Runs the method of {@code settings} on the sources, read in passes.
	 *
	 * @param targetLabels one class label per target sample, or {@code null}
	 * @param tileBytes the size of a feature tile ({@link StreamedGram#tileWidth})
	 * @throws IllegalArgumentException for a method or setting that needs the samples in
	 *           memory, or data that cannot be analysed, with a message saying what to do
	 */
	public static Solution run(final Settings settings, final SampleSource target,
		final List<SampleSource> backgrounds, final List<String> targetLabels,
		final long tileBytes, final Progress progress)
	{
		final Method m = settings.method();
		long n = target.samples();
		for (final SampleSource b : backgrounds)
			n += b.samples();
		if (m != Method.KERNEL && !streams(m, n, target.features()))
			throw new IllegalArgumentException(m
			.displayName + " (method " + m.id + ") needs its samples in memory, which the " +
			"streamed plan does not hold: run it without --stream (with more heap), or use " +
			"a method that streams (pca, cpca, star, cpcapp, uca, rpca, gcpca, pcpca, kernel)");
		if (settings.significance() > 0) throw new IllegalArgumentException("the " +
			"significance test permutes samples held in memory, which the streamed plan " +
			"does not hold: run it without --stream, or leave significance out");
		if (m == Method.KERNEL) return kernel(settings, target, backgrounds, targetLabels,
			progress);
		final Map<Boolean, Cpca> fits = new HashMap<>();
		// the pass's notes (features constant in a dataset), as the in-memory fit has them
		final List<String> notes = new ArrayList<>();
		final Solution solution = MethodRunner.fromFit(settings, backgrounds.size(), pool -> fits
			.computeIfAbsent(pool && backgrounds.size() > 1, p -> fit(settings, target, p ? List
				.of(PooledSource.of(backgrounds)) : backgrounds, targetLabels, tileBytes, notes,
				progress)), progress);
		return MethodRunner.choosePrimary(solution, targetLabels).withNotesFirst(notes);
	}

	/**
	 * Kernel cPCA read in passes: Nyström landmarks chosen by their seeded indices, the
	 * kernel features of every sample in one more pass ({@link KernelCpca#fit(SampleSource,
	 * SampleSource, List, org.cpca.core.contrast.CpcaOptions, KernelOptions, Progress)}).
	 */
	private static Solution kernel(final Settings settings, final SampleSource target,
		final List<SampleSource> backgrounds, final List<String> targetLabels,
		final Progress progress)
	{
		final double alpha = settings.alpha().value();
		final KernelOptions o = settings.options(KernelOptions.class);
		if (settings.bootstrap() > 0) throw new IllegalArgumentException("the bootstrap " +
			"resamples samples held in memory, which the streamed plan does not hold: run it " +
			"without --stream, or leave bootstrap out");
		if (backgrounds.size() != 1) throw new IllegalArgumentException("kernel cPCA " +
			"takes exactly one background (got " + backgrounds.size() + ")");
		KernelFamily.checkAlpha(alpha);
		if (Double.isNaN(alpha) && o.kernel().gammaIsAutomatic()) throw
			new IllegalArgumentException("automatic (γ, α) of kernel cPCA refits the kernel " +
				"for every γ on samples held in memory, which the streamed plan does not hold: " +
				"give gamma (--gamma VALUE) or a fixed α, or run it without --stream");
		try {
			final KernelCpca fit = KernelCpca.fit(target, backgrounds.get(0), targetLabels,
				settings.cpcaOptions(), o, progress);
			return MethodRunner.choosePrimary(KernelFamily.solution(fit, alpha, settings
				.cpcaOptions(), progress), targetLabels);
		}
		catch (final IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	/**
	 * The fit: from the Gram matrix of one pass by feature tiles when features outnumber
	 * the samples, else from each dataset's moments (one pass each).
	 */
	private static Cpca fit(final Settings settings, final SampleSource target,
		final List<SampleSource> backgrounds, final List<String> targetLabels,
		final long tileBytes, final List<String> notes, final Progress progress)
	{
		long n = target.samples();
		for (final SampleSource b : backgrounds)
			n += b.samples();
		try {
			return target.features() > n ? fromGram(settings, target, backgrounds,
				targetLabels, tileBytes, notes, progress) : fromMoments(settings, target,
					backgrounds, targetLabels, progress);
		}
		catch (final IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	/** The fit from the moments of each dataset; scores and the rest by further passes. */
	private static Cpca fromMoments(final Settings settings, final SampleSource target,
		final List<SampleSource> backgrounds, final List<String> targetLabels,
		final Progress progress) throws IOException
	{
		final List<SampleSource> sets = new ArrayList<>();
		sets.add(target);
		sets.addAll(backgrounds);
		final List<String> names = new ArrayList<>();
		final List<Moments> moments = new ArrayList<>();
		for (final SampleSource s : backgrounds) {
			names.add(s.name());
			moments.add(StreamedMoments.of(s, null, progress));
		}
		final boolean standardize = settings.cpcaOptions().standardize();
		return Cpca.fromMoments(target.name(), StreamedMoments.of(target, null, progress),
			targetLabels, names, moments, settings.cpcaOptions(), (pre, w, k) -> unchecked(
				() -> StreamedMoments.project(target, pre, w, k, progress))).withFourthMoments(
					j -> unchecked(() -> StreamedMoments.fourthMoment(backgrounds.get(j), moments
						.get(j).preprocessing(names.get(j), standardize, null), progress)))
			.withSubsetMoments((set, rows) -> unchecked(() -> StreamedMoments.of(sets.get(set),
				rows, progress)));
	}

	/** A pass whose I/O failure is rethrown unchecked (the fit's callbacks declare none). */
	private interface Pass<T> {

		T run() throws IOException;
	}

	private static <T> T unchecked(final Pass<T> pass) {
		try {
			return pass.run();
		}
		catch (final IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	/** The fit from the Gram matrix of one pass by feature tiles. */
	private static Cpca fromGram(final Settings settings, final SampleSource target,
		final List<SampleSource> backgrounds, final List<String> targetLabels,
		final long tileBytes, final List<String> notes, final Progress progress)
		throws IOException
	{
		final List<SampleSource> sets = new ArrayList<>();
		sets.add(target);
		sets.addAll(backgrounds);
		final List<String> names = new ArrayList<>();
		final long[] counts = new long[backgrounds.size()];
		for (int j = 0; j < counts.length; j++) {
			names.add(backgrounds.get(j).name());
			counts[j] = backgrounds.get(j).samples();
		}
		final StreamedGram g = StreamedGram.build(sets, settings.cpcaOptions().standardize(),
			tileBytes, notes, settings.method() == Method.UCA, progress);
		return Cpca.fromGram(target.name(), g.preprocessing(0), target.samples(),
			targetLabels, names, counts, g.takeGram(), target.features(), settings
				.cpcaOptions(), g.lift(progress)).withFourthMoments(j -> g.fourthMoment(j + 1))
			.withFeatureVariances(g.featureVariances());
	}
}
