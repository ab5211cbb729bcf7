package org.cpca.core.contrast;

import java.io.Serializable;
import java.util.List;

import org.cpca.core.data.Dataset;
import org.cpca.core.data.Preprocessing;
import org.cpca.core.linalg.Products;
import java.util.Arrays;

/**
 * The first two moments of one dataset — the count n, the mean μ (d) and the scatter
 * {@code M2 = Σ (x − μ)(x − μ)ᵀ} (d × d) — which is all every linear method needs
 * (docs/math/spark.md). Moments of disjoint parts of a dataset merge exactly with Chan's
 * pairwise formula
 * <pre>
 * n = n_a + n_b,  δ = μ_b − μ_a,  μ = μ_a + δ·n_b/n,  M2 = M2_a + M2_b + δδᵀ·n_a·n_b/n
 * </pre>
 * (Chan, Golub &amp; LeVeque, "Updating formulae and a pairwise algorithm for computing
 * sample variances", Stanford CS report STAN-CS-79-773, 1979), never as
 * {@code E[xxᵀ] − μμᵀ}, which cancels catastrophically. Parts are therefore accumulated
 * anywhere (a partition of a distributed dataset, a block of rows) and merged in any
 * tree: the result equals the two-pass covariance to rounding.
 * <p>
 * Rows are added in blocks ({@link Accumulator}): each block is centred on its own mean
 * and its scatter is a rank-b update ({@link Products#addCrossProduct}); blocks are
 * merged with the formula above. Values are immutable and serializable (so a cluster
 * framework can ship them between machines).
 */
public final class Moments implements Serializable {

	private static final long serialVersionUID = 1L;

	private final long n;
	private final double[] mean;
	/** M2, d × d, row-major, both triangles. */
	private final double[] m2;

	private Moments(final long n, final double[] mean, final double[] m2) {
		this.n = n;
		this.mean = mean;
		this.m2 = m2;
	}

	/** The moments of no samples (the identity of {@link #merge}). */
	public static Moments empty(final int d) {
		return new Moments(0, new double[d], new double[d * d]);
	}

	/**
	 * @param n count ≥ 0
	 * @param mean length d (copied)
	 * @param scatter M2, d × d row-major (copied)
	 */
	public static Moments of(final long n, final double[] mean, final double[] scatter) {
		final int d = mean.length;
		if (scatter.length != d * d) throw new IllegalArgumentException("the scatter has " +
			scatter.length + " entries but the mean has " + d + " (need d × d = " + d * d +
			")");
		if (n < 0) throw new IllegalArgumentException("a count must be ≥ 0 (got " + n + ")");
		return new Moments(n, mean.clone(), scatter.clone());
	}

	/** The moments of an in-memory dataset, by blocks (the same path as a partition). */
	public static Moments of(final Dataset x) {
		final Accumulator acc = new Accumulator(x.features());
		for (int i = 0; i < x.samples(); i++)
			acc.add(x.row(i));
		return acc.result();
	}

	/** Number of samples n. */
	public long count() {
		return n;
	}

	/** Number of features d. */
	public int features() {
		return mean.length;
	}

	/** The mean (a copy). */
	public double[] mean() {
		return mean.clone();
	}

	/** The scatter M2 (a copy, d × d row-major). */
	public double[] scatter() {
		return m2.clone();
	}

	/** Chan's pairwise merge of the moments of two disjoint sets of samples. */
	public Moments merge(final Moments o) {
		final int d = mean.length;
		if (o.mean.length != d) throw new IllegalArgumentException("moments of " + d +
			" and of " + o.mean.length + " features cannot be merged: the samples must " +
			"have the same features");
		if (o.n == 0) return this;
		if (n == 0) return o;
		final long total = n + o.n;
		final double[] delta = new double[d], mu = new double[d];
		final double wb = (double) o.n / total;
		for (int j = 0; j < d; j++) {
			delta[j] = o.mean[j] - mean[j];
			mu[j] = mean[j] + delta[j] * wb;
		}
		final double f = (double) n * o.n / total;
		final double[] s = new double[d * d];
		for (int i = 0; i < d; i++) {
			final double di = delta[i] * f;
			final int r = i * d;
			for (int j = 0; j < d; j++)
				s[r + j] = m2[r + j] + o.m2[r + j] + di * delta[j];
		}
		return new Moments(total, mu, s);
	}

	/**
	 * The preprocessing of this dataset exactly as {@link Preprocessing#fit} learns it from
	 * the samples: the mean, and when standardising the population standard deviation
	 * √(M2_jj/n) (a zero-variance feature keeps scale 1, with a diagnostic).
	 *
	 * @param name the dataset's name, for the diagnostic
	 */
	public Preprocessing preprocessing(final String name, final boolean standardize,
		final List<String> diagnostics)
	{
		final int d = mean.length;
		if (!standardize) return Preprocessing.of(mean, null);
		final double[] scale = new double[d];
		int constant = 0;
		for (int j = 0; j < d; j++) {
			final double sd = Math.sqrt(m2[j * d + j] / n);
			if (sd > 0) scale[j] = sd;
			else {
				scale[j] = 1;
				constant++;
			}
		}
		if (constant > 0 && diagnostics != null) diagnostics.add(name + ": " + constant +
			" feature(s) have zero variance; they stay 0 after centring");
		return Preprocessing.of(mean, scale);
	}

	/**
	 * The covariance {@code X̃ᵀX̃/(n−1)} of the samples after a preprocessing learned from
	 * them ({@link #preprocessing}): M2/(n−1), divided entrywise by s_i·s_j when
	 * standardised.
	 */
	public double[] covariance(final Preprocessing pre) {
		final int d = mean.length;
		final double[] scale = pre.scale();
		final double[] c = new double[d * d];
		final double f = 1.0 / (n - 1);
		for (int i = 0; i < d; i++)
			for (int j = 0; j < d; j++)
				c[i * d + j] = scale == null ? m2[i * d + j] * f : m2[i * d + j] * f /
					(scale[i] * scale[j]);
		return c;
	}

	/**
	 * Accumulates samples one at a time into moments: samples are buffered in blocks of
	 * {@link #BLOCK}, each block is centred on its own mean, its scatter added as one
	 * rank-b update ({@link Products#addCrossProductSequential}: in the calling thread, as
	 * a cluster task runs one per core) and the block merged by Chan's formula into the
	 * running moments in place (upper triangle; no d × d allocation per block). A
	 * deterministic function of the samples in order. Not thread-safe.
	 */
	public static final class Accumulator {

		/** Samples per block. */
		public static final int BLOCK = 256;

		private final int d;
		private final double[][] block;
		/** The current block's scatter (upper triangle). */
		private final double[][] upper;
		/** The running scatter of the merged blocks (upper triangle). */
		private final double[][] total;
		private final double[] mean, blockMean;
		private long n;
		private int count;

		public Accumulator(final int d) {
			this.d = d;
			this.block = new double[BLOCK][d];
			this.upper = new double[d][d];
			this.total = new double[d][d];
			this.mean = new double[d];
			this.blockMean = new double[d];
		}

		/** Adds one sample (length d; the caller checks finiteness). */
		public void add(final float[] row) {
			if (row.length != d) throw new IllegalArgumentException("a sample has " +
				row.length + " features but the others have " + d);
			final double[] b = block[count++];
			for (int j = 0; j < d; j++)
				b[j] = row[j];
			if (count == BLOCK) flush();
		}

		/** Adds one sample given in double precision (length d). */
		public void add(final double[] row) {
			if (row.length != d) throw new IllegalArgumentException("a sample has " +
				row.length + " features but the others have " + d);
			System.arraycopy(row, 0, block[count++], 0, d);
			if (count == BLOCK) flush();
		}

		/** The moments of every sample added so far. */
		public Moments result() {
			flush();
			final double[] m2 = new double[d * d];
			for (int i = 0; i < d; i++)
				for (int j = i; j < d; j++)
					m2[i * d + j] = m2[j * d + i] = total[i][j];
			return new Moments(n, mean.clone(), m2);
		}

		private void flush() {
			if (count == 0) return;
			final double[] mu = blockMean;
			Arrays.fill(mu, 0);
			for (int s = 0; s < count; s++)
				for (int j = 0; j < d; j++)
					mu[j] += block[s][j];
			for (int j = 0; j < d; j++)
				mu[j] /= count;
			for (int s = 0; s < count; s++)
				for (int j = 0; j < d; j++)
					block[s][j] -= mu[j];
			for (final double[] r : upper)
				Arrays.fill(r, 0);
			Products.addCrossProductSequential(upper, block, count);
			// Chan's merge of (n, mean, total) with (count, mu, upper), as merge() does it
			if (n == 0) {
				for (int i = 0; i < d; i++)
					System.arraycopy(upper[i], i, total[i], i, d - i);
				System.arraycopy(mu, 0, mean, 0, d);
				n = count;
				count = 0;
				return;
			}
			final long all = n + count;
			final double wb = (double) count / all, f = (double) n * count / all;
			final double[] delta = new double[d];
			for (int j = 0; j < d; j++) {
				delta[j] = mu[j] - mean[j];
				mean[j] += delta[j] * wb;
			}
			for (int i = 0; i < d; i++) {
				final double di = delta[i] * f;
				final double[] t = total[i], u = upper[i];
				for (int j = i; j < d; j++)
					t[j] = t[j] + u[j] + di * delta[j];
			}
			n = all;
			count = 0;
		}
	}
}
