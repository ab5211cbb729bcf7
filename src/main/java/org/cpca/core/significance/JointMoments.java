package org.cpca.core.significance;

import org.cpca.core.Progress;
import org.cpca.core.data.Dataset;
import org.cpca.core.data.Preprocessing;
import org.cpca.core.contrast.ReducedSpace;
import org.cpca.core.linalg.Products;
import org.cpca.core.linalg.TopEigen;

import java.util.Arrays;
import java.util.List;

/**
 * What no permutation of target ∪ background changes, computed once per run and shared by
 * every α tested on the same data (docs/math/significance.md#reusing-the-joint-gram): the
 * pooled samples centred on the pooled mean, as a factor L (n × r) with
 * {@code LLᵀ = XXᵀ}, {@code S = LᵀL} and the sum of its rows σ (0 up to rounding). With
 * more features than samples, L is the pivoted Cholesky factor of the joint Gram (r = its
 * rank), its rows stored in pivot order so that it is lower trapezoidal: row i &lt; r has
 * zeros beyond column i, which halves the products with it. Otherwise L is the centred
 * samples themselves (r = d, S their cross product).
 */
public final class JointMoments {

	/** Pivots of the Gram's Cholesky factor stop below this fraction of its largest diagonal. */
	static final double RANK_TOLERANCE = 1e-13;

	final int[] sizes;
	/** Features, and the columns of the factor. */
	final int d, r;
	/** n × r, one row per pooled sample (target first), in the order of {@link #row}. */
	final double[][] l;
	/** The row of l of each pooled sample. */
	final int[] row;
	/** r × r row-major, {@code lᵀl}. */
	final double[] s;
	/** The sum of the rows of l. */
	final double[] sum;
	/** Whether row i &lt; r of l has zeros beyond column i (the Gram's Cholesky factor). */
	final boolean lower;

	private JointMoments(final int[] sizes, final int d, final double[][] l, final int[] row,
		final boolean lower)
	{
		this.sizes = sizes;
		this.d = d;
		this.r = l.length == 0 ? 0 : l[0].length;
		this.l = l;
		this.row = row;
		this.lower = lower;
		s = Products.crossProduct(l, r, 1.0);
		sum = new double[r];
		for (final double[] x : l)
			TopEigen.axpy(1, x, sum);
	}

	/** The joint moments of a target and one background (centring only). */
	public static JointMoments of(final Dataset target, final Dataset background) {
		if (target.features() != background.features()) throw new IllegalArgumentException(
			background.name() + " has " + background.features() + " features but " + target
				.name() + " has " + target.features() + ": both must have the same features");
		final int[] sizes = { target.samples(), background.samples() };
		if (sizes[0] < 2 || sizes[1] < 2) throw new IllegalArgumentException("cPCA needs " +
			"at least 2 target and 2 background samples");
		final int d = target.features(), n = sizes[0] + sizes[1];
		final double[] mean = new double[d]; // the pooled mean, which no split changes
		for (final Dataset set : List.of(target, background))
			for (int i = 0; i < set.samples(); i++) {
				final float[] x = set.row(i);
				for (int j = 0; j < d; j++)
					mean[j] += x[j];
			}
		for (int j = 0; j < d; j++)
			mean[j] /= n;
		return d > n ? fromGram(target, background, mean, sizes) : fromSamples(target,
			background, mean, sizes);
	}

	private static JointMoments fromGram(final Dataset target, final Dataset background,
		final double[] mean, final int[] sizes)
	{
		final int n = sizes[0] + sizes[1];
		final Preprocessing centred = Preprocessing.of(mean, null);
		// the project's Gram (native dgemm or the Java kernels), summed in double
		final double[] g = Products.gram(new Dataset[] { target, background },
			new Preprocessing[] { centred, centred }, Progress.NONE, false);
		final int[] pivots = new int[n];
		final double[][] factor = ReducedSpace.pivotedCholesky(g, n, 0, pivots,
			RANK_TOLERANCE);
		final int r = n == 0 ? 0 : factor[0].length;
		// pivot order first, then the rows never pivoted (rank below n)
		final int[] row = new int[n];
		Arrays.fill(row, -1);
		for (int c = 0; c < r; c++)
			row[pivots[c]] = c;
		for (int i = 0, next = r; i < n; i++)
			if (row[i] < 0) row[i] = next++;
		final double[][] l = new double[n][];
		for (int i = 0; i < n; i++)
			l[row[i]] = factor[i];
		return new JointMoments(sizes, target.features(), l, row, true);
	}

	private static JointMoments fromSamples(final Dataset target, final Dataset background,
		final double[] mean, final int[] sizes)
	{
		final int d = target.features();
		final double[][] l = new double[sizes[0] + sizes[1]][d];
		int i = 0;
		for (final Dataset set : List.of(target, background))
			for (int q = 0; q < set.samples(); q++, i++) {
				final float[] x = set.row(q);
				for (int j = 0; j < d; j++)
					l[i][j] = x[j] - mean[j];
			}
		final int[] row = new int[l.length];
		for (int q = 0; q < row.length; q++)
			row[q] = q;
		return new JointMoments(sizes, d, l, row, false);
	}

	/**
	 * Whether the moments of n samples × d features fit comfortably in memory (the factor
	 * and its transpose, and two n × n or d × d matrices, in double, within a quarter of
	 * the heap); the permutation test otherwise refits from scratch, streaming.
	 */
	public static boolean fitInMemory(final long n, final long d) {
		final long m = Math.min(n, d);
		return 8.0 * (2 * n * m + 2 * m * m) <= Runtime.getRuntime().maxMemory() / 4.0;
	}

	/** Refuses data other than those these moments were computed from (by their shape). */
	JointMoments check(final Dataset target, final Dataset background) {
		if (target.samples() != sizes[0] || background.samples() != sizes[1] || target
			.features() != d) throw new IllegalArgumentException("the joint moments were " +
				"computed from " + sizes[0] + " + " + sizes[1] + " samples × " + d +
				" features, not from these data");
		return this;
	}

	/** The number of pooled samples. */
	int samples() {
		return sizes[0] + sizes[1];
	}
}
