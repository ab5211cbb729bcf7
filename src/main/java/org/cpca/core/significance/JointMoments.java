package org.cpca.core.significance;

import org.cpca.core.Progress;
import org.cpca.core.data.Dataset;
import org.cpca.core.data.Preprocessing;
import org.cpca.core.linalg.Products;
import org.cpca.core.linalg.SymmetricEigen;

import java.util.List;

/**
 * What no permutation of target ∪ background changes, computed once per run and shared by
 * every α tested on the same data (docs/math/significance.md#reusing-the-joint-gram): the
 * pooled samples centred on the pooled mean, as a factor L (n × r) with
 * {@code LLᵀ = XXᵀ} and {@code S = LᵀL}. With more features than samples, L = U S^{1/2}
 * from the joint Gram (r = its rank, S diagonal); otherwise L is the centred samples
 * themselves (r = d, S their cross product). The rows of L sum to 0 in both.
 */
public final class JointMoments {

	/** Eigenvalues of G below this fraction of the largest are rounding (dropped). */
	static final double RANK_TOLERANCE = 1e-13;

	final int[] sizes;
	/** Features, and the columns of the factor. */
	final int d, r;
	/** n × r, target rows first. */
	final double[][] l;
	/** r × r row-major, {@code lᵀl}. */
	final double[] s;
	/** Whether s is diagonal (the Gram factor), so a product with it is O(r). */
	final boolean diagonal;

	private JointMoments(final int[] sizes, final int d, final double[][] l, final double[] s,
		final boolean diagonal)
	{
		this.sizes = sizes;
		this.d = d;
		this.r = l.length == 0 ? 0 : l[0].length;
		this.l = l;
		this.s = s;
		this.diagonal = diagonal;
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
		final SymmetricEigen e = SymmetricEigen.of(g, n);
		final double cut = RANK_TOLERANCE * Math.max(e.value(0), 0);
		int r = 0;
		while (r < n && e.value(r) > cut)
			r++;
		final double[][] l = new double[n][r];
		final double[] s = new double[r * r];
		for (int c = 0; c < r; c++) {
			s[c * r + c] = e.value(c);
			final double root = Math.sqrt(e.value(c));
			final double[] u = e.vector(c);
			for (int i = 0; i < n; i++)
				l[i][c] = u[i] * root;
		}
		return new JointMoments(sizes, target.features(), l, s, true);
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
		return new JointMoments(sizes, d, l, Products.crossProduct(l, d, 1.0), false);
	}

	/**
	 * Whether the moments of n samples × d features fit comfortably in memory (the factor
	 * and an n × n or d × d matrix, in double, within a quarter of the heap); the
	 * permutation test otherwise refits from scratch, streaming.
	 */
	public static boolean fitInMemory(final long n, final long d) {
		return 8.0 * (n * Math.min(n, d) + Math.min(n, d) * Math.min(n, d)) <= Runtime
			.getRuntime().maxMemory() / 4.0;
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
