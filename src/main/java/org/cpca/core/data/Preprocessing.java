package org.cpca.core.data;

import org.cpca.core.Progress;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Per-dataset preprocessing: centring on the dataset's own mean and, optionally,
 * standardisation by its own standard deviation.
 * <p>
 * The mean and standard deviation are computed in double precision. The standard
 * deviation uses {@code n} (population), as scikit-learn's {@code StandardScaler} and the
 * reference cPCA package do. A feature with zero variance is left at 0 after centring
 * (its scale is 1) and reported as a diagnostic.
 */
public final class Preprocessing {

	private final double[] mean;
	private final double[] scale;

	private Preprocessing(final double[] mean, final double[] scale) {
		this.mean = mean;
		this.scale = scale;
	}

	/**
	 * @param mean per-feature mean, length d
	 * @param scale per-feature divisor, length d, or {@code null} for centring only
	 */
	public static Preprocessing of(final double[] mean, final double[] scale) {
		if (scale != null && scale.length != mean.length)
			throw new IllegalArgumentException("scale has " + scale.length +
				" entries but mean has " + mean.length);
		return new Preprocessing(mean.clone(), scale == null ? null : scale.clone());
	}

	/**
	 * Learns the preprocessing of a dataset.
	 *
	 * @param diagnostics receives a note for zero-variance features when standardising
	 */
	public static Preprocessing fit(final Dataset x, final boolean standardize,
		final List<String> diagnostics)
	{
		try {
			final int n = x.samples(), d = x.features();
			if ((long) n * d < PARALLEL_VALUES || d < 2 * STRIP) return fit(x.name(), n, d,
				x::row, standardize, diagnostics, Progress.NONE);
			// in memory and large: strips of features on all cores; each feature's sums
			// still run over the samples in order, so the result is the same
			final double[] mean = new double[d], ss = standardize ? new double[d] : null;
			IntStream.range(0, (d + STRIP - 1) / STRIP).parallel().forEach(
				b -> {
					try {
						sums(x.name(), n, x::row, b * STRIP, Math.min(d, (b + 1) * STRIP), mean,
							ss, Progress.NONE);
					}
					catch (final IOException e) {
						throw new UncheckedIOException(e); // a dataset in memory does no I/O
					}
				});
			return finish(x.name(), n, mean, ss, diagnostics);
		}
		catch (final IOException e) {
			throw new UncheckedIOException(e); // a dataset in memory does no I/O
		}
	}

	/**
	 * Learns the preprocessing of a source by sequential passes (so streamed data need
	 * not fit in memory): the mean, then, when standardising, the sums of squared
	 * deviations from it.
	 *
	 * @param row the caller's buffer for one sample (length d)
	 */
	public static Preprocessing fit(final SampleSource s, final float[] row,
		final boolean standardize, final List<String> diagnostics, final Progress progress)
		throws IOException
	{
		return fit(s.name(), s.samples(), s.features(), i -> {
			s.read(i, row);
			return row;
		}, standardize, diagnostics, progress);
	}

	/** Sample i's values: a dataset's own row, or a source's read into a buffer. */
	private interface Rows {

		float[] row(int i) throws IOException;
	}

	private static Preprocessing fit(final String name, final int n, final int d,
		final Rows rows, final boolean standardize, final List<String> diagnostics,
		final Progress progress) throws IOException
	{
		final double[] mean = new double[d], ss = standardize ? new double[d] : null;
		sums(name, n, rows, 0, d, mean, ss, progress);
		return finish(name, n, mean, ss, diagnostics);
	}

	/** Values above which an in-memory dataset's sums are spread over the cores. */
	private static final long PARALLEL_VALUES = 1 << 22;
	/**
	 * Features per strip of the parallel sums: wide enough that each visit of a sample
	 * reads a long run of it (narrow strips of wide rows made the sums slower than one
	 * thread).
	 */
	private static final int STRIP = 4096;

	/**
	 * For the features {@code j0 … j1 − 1}: the mean over the samples in order, then (when
	 * ss is given) the squared deviations from it, by sequential passes over the rows.
	 */
	private static void sums(final String name, final int n, final Rows rows, final int j0,
		final int j1, final double[] mean, final double[] ss, final Progress progress)
		throws IOException
	{
		for (int pass = 0; pass < (ss != null ? 2 : 1); pass++) {
			for (int i = 0; i < n; i++) {
				final float[] row = rows.row(i);
				if (pass == 0) for (int j = j0; j < j1; j++)
					mean[j] += row[j];
				else for (int j = j0; j < j1; j++) {
					final double c = row[j] - mean[j];
					ss[j] += c * c;
				}
				if ((i & 1023) == 1023) {
					progress.checkCancelled();
					progress.stage((pass == 0 ? "means" : "standard deviations") + " of " + name,
						(double) i / n);
				}
			}
			if (pass == 0) for (int j = j0; j < j1; j++)
				mean[j] /= n;
		}
	}

	/** The preprocessing from the mean and, when standardising, the squared deviations. */
	private static Preprocessing finish(final String name, final int n, final double[] mean,
		final double[] ss, final List<String> diagnostics)
	{
		if (ss == null) return new Preprocessing(mean, null);
		final int d = mean.length;
		int constant = 0;
		final double[] scale = new double[d];
		for (int j = 0; j < d; j++) {
			final double sd = Math.sqrt(ss[j] / n);
			if (sd > 0) scale[j] = sd;
			else {
				scale[j] = 1;
				constant++;
			}
		}
		if (constant > 0 && diagnostics != null) diagnostics.add(name + ": " +
			constant + " feature(s) have zero variance; they stay 0 after centring");
		return new Preprocessing(mean, scale);
	}

	/** The per-feature mean (a copy). */
	public double[] mean() {
		return mean.clone();
	}

	/** The per-feature divisor (a copy), or {@code null} when not standardised. */
	public double[] scale() {
		return scale == null ? null : scale.clone();
	}

	public boolean standardized() {
		return scale != null;
	}

	public int features() {
		return mean.length;
	}

	/** Preprocessed value of feature {@code j} for raw value {@code v}. */
	public double apply(final int j, final double v) {
		return scale == null ? v - mean[j] : (v - mean[j]) / scale[j];
	}

	/** Writes the preprocessed features {@code from … to-1} of {@code row} into out. */
	public void apply(final float[] row, final int from, final int to, final double[] out,
		final int outOffset, final int outStride)
	{
		int o = outOffset;
		if (scale == null) for (int j = from; j < to; j++, o += outStride)
			out[o] = row[j] - mean[j];
		else for (int j = from; j < to; j++, o += outStride)
			out[o] = (row[j] - mean[j]) / scale[j];
	}

	/** Maps a preprocessed vector back to raw units, in place. */
	public void invert(final double[] v) {
		for (int j = 0; j < v.length; j++)
			v[j] = scale == null ? v[j] + mean[j] : v[j] * scale[j] + mean[j];
	}
}
