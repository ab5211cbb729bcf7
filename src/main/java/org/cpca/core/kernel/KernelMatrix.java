package org.cpca.core.kernel;

import org.cpca.core.Progress;
import org.cpca.core.data.Dataset;
import org.cpca.core.data.Preprocessing;
import org.cpca.core.linalg.Products;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import java.util.Locale;

/**
 * The kernel computations of kernel cPCA over primitive arrays: the pooled input
 * preprocessing, the automatic γ, the full N × N kernel matrix of the training samples
 * and its block centring, and kernel rows of any samples against a fixed set of
 * {@link Support} samples (landmarks, or the training samples for out-of-sample scores).
 * <p>
 * Every kernel value comes from inner products of preprocessed samples (linear: xᵀy;
 * poly: (γxᵀy + c₀)^p; rbf: exp(−γ(‖x‖² + ‖y‖² − 2xᵀy))), so the expensive part is always
 * a matrix product: the N × N matrix by {@link Products#gram} (blocked, all cores, never a
 * d × d matrix), rows against a support set by {@link Products#times} (tiled, all cores)
 * over blocks of {@value #BLOCK} samples. The data are never copied whole.
 */
final class KernelMatrix {

	/** Largest subsample used for the automatic γ. */
	static final int GAMMA_SUBSAMPLE = 1000;
	/** Samples per block of {@link Support#rows}. */
	static final int BLOCK = 256;

	private KernelMatrix() {}

	/**
	 * The kernel input preprocessing shared by every dataset (a kernel needs one input
	 * space): minus the pooled mean of all samples and, if {@code standardize}, divided by
	 * the pooled population standard deviation per feature (1 for a constant feature).
	 */
	static Preprocessing pooledInput(final Dataset[] sets, final boolean standardize,
		final List<String> diagnostics)
	{
		return pooledInput(KernelInput.of(sets), standardize, diagnostics);
	}

	/**
	 * {@link #pooledInput(Dataset[], boolean, List)} of samples held or read in passes
	 * (one pass for the mean, one more for the standard deviation): the same sums in the
	 * same order.
	 */
	static Preprocessing pooledInput(final KernelInput sets, final boolean standardize,
		final List<String> diagnostics)
	{
		final int d = sets.features();
		final double[] sum = new double[d];
		final long n = sets.total();
		for (int s = 0; s < sets.sets(); s++)
			for (int from = 0; from < sets.samples(s); from += BLOCK) {
				final int count = Math.min(BLOCK, sets.samples(s) - from);
				for (final float[] r : sets.block(s, from, count))
					for (int j = 0; j < d; j++)
						sum[j] += r[j];
			}
		final double[] mean = new double[d];
		for (int j = 0; j < d; j++)
			mean[j] = sum[j] / n;
		if (!standardize) return Preprocessing.of(mean, null);
		final double[] ss = new double[d];
		for (int s = 0; s < sets.sets(); s++)
			for (int from = 0; from < sets.samples(s); from += BLOCK) {
				final int count = Math.min(BLOCK, sets.samples(s) - from);
				for (final float[] r : sets.block(s, from, count))
					for (int j = 0; j < d; j++) {
						final double c = r[j] - mean[j];
						ss[j] += c * c;
					}
			}
		final double[] scale = new double[d];
		int constant = 0;
		for (int j = 0; j < d; j++) {
			final double sd = Math.sqrt(ss[j] / n);
			scale[j] = sd > 0 ? sd : 1;
			if (!(sd > 0)) constant++;
		}
		if (constant > 0) diagnostics.add(constant + " feature(s) are constant over all " +
			"samples; they stay 0 in the kernel input");
		return Preprocessing.of(mean, scale);
	}

	/**
	 * {@code count} distinct indices out of {@code n}, a seeded uniform random choice
	 * (partial Fisher–Yates with {@link SplittableRandom}), ascending; all of them when
	 * {@code count ≥ n}.
	 */
	static int[] sample(final int n, final int count, final long seed) {
		final int[] all = new int[n];
		for (int i = 0; i < n; i++)
			all[i] = i;
		if (count >= n) return all;
		final SplittableRandom random = new SplittableRandom(seed);
		for (int i = 0; i < count; i++) {
			final int j = i + random.nextInt(n - i);
			final int t = all[i];
			all[i] = all[j];
			all[j] = t;
		}
		final int[] out = Arrays.copyOf(all, count);
		Arrays.sort(out);
		return out;
	}

	/**
	 * The kernel with γ fixed by the rule of {@link KernelFunction} (unchanged if γ is
	 * given or the kernel is linear): on a seeded subsample of at most
	 * {@value #GAMMA_SUBSAMPLE} of the stacked samples, γ = 1/median of the pairwise squared
	 * distances (rbf) or 1/mean squared norm (poly), after the input preprocessing.
	 */
	static KernelFunction automaticGamma(final KernelFunction h, final Dataset[] sets,
		final Preprocessing input, final long seed, final List<String> diagnostics)
	{
		return automaticGamma(h, KernelInput.of(sets), input, seed, diagnostics);
	}

	/** {@link #automaticGamma(KernelFunction, Dataset[], Preprocessing, long, List)} of samples held or read in passes (the subsample read by its indices). */
	static KernelFunction automaticGamma(final KernelFunction h, final KernelInput sets,
		final Preprocessing input, final long seed, final List<String> diagnostics)
	{
		if (!h.gammaIsAutomatic()) return h;
		final int n = sets.total();
		final int[] idx = sample(n, GAMMA_SUBSAMPLE, seed);
		final Dataset sub = Dataset.wrap("subsample", sets.rows(idx));
		final double[] g = Products.gram(new Dataset[] { sub }, new Preprocessing[] { input },
			Progress.NONE);
		final int m = idx.length;
		final double gamma;
		final String rule;
		if (h.type() == KernelFunction.Type.RBF) {
			final double[] dist = new double[m * (m - 1) / 2];
			int q = 0;
			for (int i = 0; i < m; i++)
				for (int j = i + 1; j < m; j++)
					dist[q++] = Math.max(0, g[i * m + i] + g[j * m + j] - 2 * g[i * m + j]);
			Arrays.sort(dist);
			final double median = dist.length % 2 == 1 ? dist[dist.length / 2] : 0.5 *
				(dist[dist.length / 2 - 1] + dist[dist.length / 2]);
			if (!(median > 0)) throw new IllegalArgumentException("the automatic γ of the " +
				"rbf kernel is undefined: at least half of the sampled pairs of samples are " +
				"identical (median squared distance 0); give gamma explicitly");
			gamma = 1 / median;
			rule = "1/median squared distance";
		}
		else {
			double sum = 0;
			for (int i = 0; i < m; i++)
				sum += g[i * m + i];
			if (!(sum > 0)) throw new IllegalArgumentException("the automatic γ of the " +
				"polynomial kernel is undefined: every sampled sample equals the mean " +
				"(mean squared norm 0); give gamma explicitly");
			gamma = m / sum;
			rule = "1/mean squared norm";
		}
		diagnostics.add(String.format(Locale.ROOT,
			"automatic γ = %.6g (%s over %d of the %d samples, seed %d)", gamma, rule, m, n,
			seed));
		return h.withGamma(gamma);
	}

	/**
	 * The kernel matrix (N × N, row-major) of the stacked samples of {@code sets}, each
	 * preprocessed by {@code input}: the Gram matrix of inner products ({@link Products#gram})
	 * turned into kernel values row by row on all cores. Symmetric by construction.
	 */
	static double[] full(final Dataset[] sets, final Preprocessing input,
		final KernelFunction h, final Progress progress)
	{
		final Preprocessing[] pres = new Preprocessing[sets.length];
		Arrays.fill(pres, input);
		final double[] g = Products.gram(sets, pres, progress);
		final int n = (int) Math.round(Math.sqrt(g.length));
		final double[] norms = new double[n];
		for (int i = 0; i < n; i++)
			norms[i] = g[i * n + i];
		IntStream.range(0, n).parallel().forEach(i -> h.apply(g, i * n, norms[i], norms,
			n));
		return g;
	}

	/**
	 * Block centring of a kernel matrix in place (docs/math/kernel.md): the samples of block s
	 * ({@code [starts[s], starts[s+1])}) are centred on their own feature-space mean μ_s:
	 * {@code K_c[i][j] = K[i][j] − m_{s(j)}(i) − m_{s(i)}(j) + M[s(i)][s(j)]} with
	 * {@code m_u(i)} the mean of row i over block u and {@code M[s][u]} the mean over block
	 * s × u. Returns the block row means {@code m_u(i)} ({@code [u][i]}, of the matrix
	 * before centring: {@code m_u(i) = ⟨Φ(x_i), μ_u⟩}). The result is exactly symmetric.
	 */
	static double[][] centre(final double[] k, final int n, final int[] starts) {
		final int blocks = starts.length - 1;
		final int[] block = new int[n];
		for (int s = 0; s < blocks; s++)
			for (int i = starts[s]; i < starts[s + 1]; i++)
				block[i] = s;
		final double[][] rowMean = new double[blocks][n];
		IntStream.range(0, n).parallel().forEach(i -> {
			for (int s = 0; s < blocks; s++) {
				double sum = 0;
				for (int j = starts[s]; j < starts[s + 1]; j++)
					sum += k[i * n + j];
				rowMean[s][i] = sum / (starts[s + 1] - starts[s]);
			}
		});
		final double[][] total = new double[blocks][blocks];
		for (int s = 0; s < blocks; s++)
			for (int u = 0; u <= s; u++) {
				double sum = 0;
				for (int i = starts[s]; i < starts[s + 1]; i++)
					sum += rowMean[u][i];
				// the same number both ways, so that K_c is exactly symmetric
				total[s][u] = total[u][s] = sum / (starts[s + 1] - starts[s]);
			}
		IntStream.range(0, n).parallel().forEach(i -> {
			final int si = block[i];
			for (int j = i; j < n; j++) {
				final int sj = block[j];
				final double v = k[i * n + j] - rowMean[sj][i] - rowMean[si][j] + total[si][sj];
				k[i * n + j] = v;
			}
		});
		// mirror the upper triangle (row blocks, so that writes stay near each other)
		IntStream.range(0, (n + 63) / 64).parallel().forEach(b -> {
			for (int j = b * 64; j < Math.min(n, (b + 1) * 64); j++)
				for (int i = j + 1; i < n; i++)
					k[i * n + j] = k[j * n + i];
		});
		return rowMean;
	}

	/**
	 * A fixed set of samples against which kernel rows are evaluated: preprocessed, held
	 * transposed (d rows of length S) for {@link Products#times}, with their squared norms.
	 */
	static final class Support {

		final KernelFunction kernel;
		final Preprocessing input;
		final int size;
		private final double[][] transposed;
		private final double[] norms;

		Support(final float[][] rows, final Preprocessing input, final KernelFunction kernel) {
			this.kernel = kernel;
			this.input = input;
			this.size = rows.length;
			final int d = input.features();
			transposed = new double[d][size];
			norms = new double[size];
			final double[] z = new double[d];
			for (int s = 0; s < size; s++) {
				input.apply(rows[s], 0, d, z, 0, 1);
				double sq = 0;
				for (int j = 0; j < d; j++) {
					transposed[j][s] = z[j];
					sq += z[j] * z[j];
				}
				norms[s] = sq;
			}
		}

		/**
		 * Kernel values (count × S) of the raw rows {@code from … from+count−1} of x (at most
		 * {@value KernelMatrix#BLOCK} at a time is a good size) against the support.
		 */
		double[][] rows(final float[][] x, final int from, final int count) {
			final int d = input.features();
			final double[][] z = new double[count][d];
			final double[] sq = new double[count];
			IntStream.range(0, count).parallel().forEach(i -> {
				input.apply(x[from + i], 0, d, z[i], 0, 1);
				double s = 0;
				for (final double v : z[i])
					s += v * v;
				sq[i] = s;
			});
			final double[][] k = Products.times(z, transposed);
			if (kernel.type() != KernelFunction.Type.LINEAR) IntStream.range(0, count)
				.parallel().forEach(i -> kernel.apply(k[i], 0, sq[i], norms, size));
			return k;
		}
	}
}
