package org.cpca.core.kernel;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;

import org.cpca.core.data.Dataset;
import org.cpca.core.data.Preprocessing;
import org.cpca.core.data.SampleSource;

/**
 * The training samples of kernel cPCA, dataset by dataset (the target, then the
 * background in the target's input coordinates): held in memory ({@link #of}) or read in
 * passes from {@link SampleSource}s ({@link #streamed}; docs/memory.md). The Nyström path
 * needs nothing else: the input preprocessing and the automatic γ from sums and a seeded
 * subsample, the landmarks by their seeded indices ({@link KernelMatrix#sample}), and
 * each sample's features from blocks read in order ({@link #block}). A streamed input
 * wraps the sources' I/O failures in {@link UncheckedIOException}.
 */
abstract class KernelInput {

	private final int[] counts;
	private final int features;

	private KernelInput(final int[] counts, final int features) {
		this.counts = counts;
		this.features = features;
	}

	/** Number of datasets (2: the target, then the background). */
	final int sets() {
		return counts.length;
	}

	/** Samples of dataset {@code set}. */
	final int samples(final int set) {
		return counts[set];
	}

	/** Samples of all datasets, N. */
	final int total() {
		int n = 0;
		for (final int c : counts)
			n += c;
		return n;
	}

	/** Features d of every sample. */
	final int features() {
		return features;
	}

	/**
	 * Rows {@code from … from + count − 1} of dataset {@code set}, raw (before the input
	 * preprocessing); a streamed input reuses them at its next call. Blocks of a dataset
	 * are asked for in order from its first sample.
	 */
	abstract float[][] block(int set, int from, int count);

	/** Copies of the rows at the given ascending indices of the datasets stacked in order. */
	abstract float[][] rows(int[] indices);

	/** Datasets held in memory: nothing is copied but the landmarks' references. */
	static KernelInput of(final Dataset... sets) {
		final int[] counts = new int[sets.length];
		for (int s = 0; s < sets.length; s++)
			counts[s] = sets[s].samples();
		return new KernelInput(counts, sets[0].features()) {

			@Override
			float[][] block(final int set, final int from, final int count) {
				return Arrays.copyOfRange(sets[set].rows(), from, from + count);
			}

			@Override
			float[][] rows(final int[] indices) {
				final float[][] out = new float[indices.length][];
				int set = 0, base = 0;
				for (int q = 0; q < indices.length; q++) {
					while (indices[q] >= base + sets[set].samples()) {
						base += sets[set].samples();
						set++;
					}
					out[q] = sets[set].row(indices[q] - base);
				}
				return out;
			}
		};
	}

	/**
	 * The target and the background read from their sources; the background's samples
	 * standardised by {@code own} and carried into the target's coordinates
	 * {@code coordinates} ({@link KernelCpca#carry}) as they are read, or taken as they
	 * are when {@code own} is {@code null}.
	 */
	static KernelInput streamed(final SampleSource target, final SampleSource background,
		final Preprocessing own, final Preprocessing coordinates)
	{
		final SampleSource[] sources = { target, background };
		final int d = target.features();
		return new KernelInput(new int[] { target.samples(), background.samples() }, d) {

			private float[][] buffer = new float[0][];
			private final double[] z = new double[d];

			@Override
			float[][] block(final int set, final int from, final int count) {
				if (buffer.length < count) buffer = new float[count][d];
				final float[][] out = buffer.length == count ? buffer : Arrays.copyOf(buffer,
					count);
				for (int i = 0; i < count; i++)
					read(set, from + i, out[i]);
				return out;
			}

			@Override
			float[][] rows(final int[] indices) {
				final float[][] out = new float[indices.length][d];
				int q = 0;
				for (int set = 0, base = 0; set < sources.length; base += sources[set]
					.samples(), set++)
				{
					final SampleSource s = sources[set];
					// a source read in order is read up to its last wanted sample
					final float[] skip = new float[d];
					for (int i = 0; q < indices.length && indices[q] < base + s.samples(); i++) {
						final boolean wanted = indices[q] == base + i;
						if (wanted || !s.randomAccess()) read(set, i, wanted ? out[q] : skip);
						if (wanted) q++;
						else if (s.randomAccess()) i = indices[q] - base - 1;
					}
				}
				return out;
			}

			private void read(final int set, final int index, final float[] row) {
				try {
					sources[set].read(index, row);
				}
				catch (final IOException e) {
					throw new UncheckedIOException(e);
				}
				if (set == 1 && own != null) KernelCpca.carry(row, own, coordinates, z);
			}
		};
	}
}
