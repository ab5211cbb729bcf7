package org.cpca.core.contrast;

import java.io.IOException;
import java.util.BitSet;

import org.cpca.core.Progress;
import org.cpca.core.data.Preprocessing;
import org.cpca.core.data.SampleSource;

/**
 * The passes of a fit from moments ({@link Cpca#fromMoments}) over datasets that are read,
 * not held ({@link SampleSource}): the streamed plan when there are no more features than
 * samples (docs/memory.md). Each dataset's count, mean and d × d scatter in one pass
 * ({@link Moments.Accumulator}: blocks of samples merged by Chan's formula); target
 * scores, cPCA++'s fourth moments and the moments of a subset (PCPCA's held-out split)
 * each one further pass.
 */
public final class StreamedMoments {

	private StreamedMoments() {}

	/**
	 * The moments of the samples of {@code s} (those in {@code rows}, or all when it is
	 * {@code null}), one pass in sample order.
	 */
	public static Moments of(final SampleSource s, final BitSet rows,
		final Progress progress) throws IOException
	{
		final int d = s.features();
		final Moments.Accumulator acc = new Moments.Accumulator(d);
		final float[] row = new float[d];
		final String stage = "moments of " + s.name();
		for (int i = 0; i < s.samples(); i++) {
			report(progress, stage, i, s.samples());
			s.read(i, row);
			if (rows == null || rows.get(i)) acc.add(row);
		}
		progress.stage(stage, 1);
		return acc.result();
	}

	/**
	 * The scores {@code X̃w} (n × k, row-major) of the samples of {@code s} preprocessed
	 * by {@code pre}, on the k columns of w (d × k, row-major): one pass
	 * ({@link TargetProjection}).
	 */
	public static double[] project(final SampleSource s, final Preprocessing pre,
		final double[] w, final int k, final Progress progress) throws IOException
	{
		final int d = s.features(), n = s.samples();
		final float[] row = new float[d];
		final double[] y = new double[d], out = new double[n * k];
		final String stage = "scores of " + s.name();
		for (int i = 0; i < n; i++) {
			report(progress, stage, i, n);
			s.read(i, row);
			pre.apply(row, 0, d, y, 0, 1);
			for (int f = 0; f < d; f++) {
				final double v = y[f];
				for (int c = 0; c < k; c++)
					out[i * k + c] += v * w[f * k + c];
			}
		}
		progress.stage(stage, 1);
		return out;
	}

	/**
	 * {@code Σ_i ‖y_i‖⁴} of the samples of {@code s} preprocessed by {@code pre}
	 * ({@link Cpca.FourthMoments}): one pass.
	 */
	public static double fourthMoment(final SampleSource s, final Preprocessing pre,
		final Progress progress) throws IOException
	{
		final int d = s.features();
		final float[] row = new float[d];
		double sum = 0;
		final String stage = "fourth moments of " + s.name();
		for (int i = 0; i < s.samples(); i++) {
			report(progress, stage, i, s.samples());
			s.read(i, row);
			double norm = 0;
			for (int f = 0; f < d; f++) {
				final double y = pre.apply(f, row[f]);
				norm += y * y;
			}
			sum += norm * norm;
		}
		progress.stage(stage, 1);
		return sum;
	}

	/**
	 * Every 256 samples of a pass: the fraction of its samples read (from 0; the pass
	 * reports 1 at its end), and a stop if the user asked for one.
	 */
	private static void report(final Progress progress, final String stage, final int i,
		final int n)
	{
		if ((i & 255) != 0) return;
		progress.checkCancelled();
		progress.stage(stage, (double) i / n);
	}
}
