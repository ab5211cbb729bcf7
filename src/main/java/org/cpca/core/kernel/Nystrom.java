package org.cpca.core.kernel;

import org.cpca.core.Progress;
import org.cpca.core.data.Preprocessing;
import org.cpca.core.linalg.Products;
import org.cpca.core.linalg.SymmetricEigen;

import java.util.Locale;

/**
 * Nyström kernel features (docs/math/kernel.md) for large N: l landmarks, a seeded uniform
 * random choice of the pooled training samples (target and background, without
 * replacement; {@link KernelMatrix#sample}), and the feature map
 * {@code f(x) = K_LL^{-1/2} k_L(x)} (the landmarks' kernel matrix to the power −½ on its
 * eigenvalues above {@value #TOLERANCE} of the largest, times the kernel values of x
 * against the landmarks). Then {@code F Fᵀ = K_NL K_LL⁺ K_LN ≈ K}, exact when every sample
 * is a landmark, and linear cPCA on F (each dataset centred on its own mean) is kernel
 * cPCA on the approximated kernel.
 * <p>
 * Cost O(N l d + N l²) in blocks of {@value KernelMatrix#BLOCK} samples on all cores;
 * memory O(N l) for F (floats) besides the data: never an N × N matrix. A direction v is
 * {@code Σ_j (K_LL^{-1/2} v)_j Φ(landmark_j)}.
 */
final class Nystrom extends KernelFeatures {

	/** Eigenvalues of K_LL below this fraction of the largest are dropped. */
	static final double TOLERANCE = 1e-10;

	private final float[][] landmarks;
	/** K_LL^{-1/2} on the kept eigenvalues, l × r (rows). */
	private final double[][] map;
	private final int total;

	private Nystrom(final float[][] target, final float[][] background,
		final float[][] landmarks, final double[][] map, final int total)
	{
		super(target, background);
		this.landmarks = landmarks;
		this.map = map;
		this.total = total;
	}

	/**
	 * The landmarks (read by their seeded indices: one pass, or reads of just them where
	 * the input allows) and every sample's features (one more pass, in blocks).
	 *
	 * @param sets the target, then the background (held, or read in passes)
	 * @param count number of landmarks, 1 ≤ count ≤ N
	 */
	static Nystrom build(final KernelInput sets, final Preprocessing input,
		final KernelFunction h, final int count, final long seed, final Progress progress)
	{
		final int n = sets.total();
		final float[][] landmarks = sets.rows(KernelMatrix.sample(n, count, seed));
		final KernelMatrix.Support support = new KernelMatrix.Support(landmarks, input, h);
		final int l = landmarks.length;
		final double[][] kll = support.rows(landmarks, 0, l);
		final double[] flat = new double[l * l];
		for (int i = 0; i < l; i++)
			System.arraycopy(kll[i], 0, flat, i * l, l);
		final SymmetricEigen e = SymmetricEigen.of(flat, l);
		final double cut = TOLERANCE * Math.max(e.value(0), 0);
		int r = 0;
		while (r < l && e.value(r) > cut)
			r++;
		if (r == 0) throw new IllegalArgumentException("the kernel matrix of the " + l +
			" landmarks is zero: the kernel sees no structure in these samples (check the " +
			"kernel and its parameters)");
		final double[][] map = new double[l][r];
		for (int c = 0; c < r; c++) {
			final double[] u = e.vector(c);
			final double f = 1 / Math.sqrt(e.value(c));
			for (int j = 0; j < l; j++)
				map[j][c] = u[j] * f;
		}
		final float[][] ft = features(sets, 0, support, map, r, progress, 0, n);
		final float[][] fb = features(sets, 1, support, map, r, progress, sets.samples(0), n);
		return new Nystrom(ft, fb, landmarks, map, n);
	}

	private static float[][] features(final KernelInput sets, final int set,
		final KernelMatrix.Support support, final double[][] map, final int r,
		final Progress progress, final int done, final int total)
	{
		final int n = sets.samples(set);
		final float[][] f = new float[n][];
		for (int from = 0; from < n; from += KernelMatrix.BLOCK) {
			progress.checkCancelled();
			final int count = Math.min(KernelMatrix.BLOCK, n - from);
			final double[][] block = Products.times(support.rows(sets.block(set, from, count),
				0, count), map);
			for (int i = 0; i < count; i++) {
				final float[] row = new float[r];
				for (int c = 0; c < r; c++)
					row[c] = (float) block[i][c];
				f[from + i] = row;
			}
			progress.stage("Nyström features", (double) (done + from + count) / total);
		}
		return f;
	}

	@Override
	float[][] support() {
		return landmarks;
	}

	@Override
	double[][] coefficients(final double[][] directions) {
		final int k = directions.length, l = map.length, r = map[0].length;
		final double[][] b = new double[l][k];
		for (int j = 0; j < l; j++)
			for (int c = 0; c < k; c++) {
				double s = 0;
				for (int q = 0; q < r; q++)
					s += map[j][q] * directions[c][q];
				b[j][c] = s;
			}
		return b;
	}

	@Override
	double[] offsets() {
		return new double[landmarks.length];
	}

	@Override
	String description() {
		return String.format(Locale.ROOT, "kernel cPCA, Nyström: %d landmarks (seeded " +
			"random sample of the N = %d samples), feature dimension %d; approximate, " +
			"memory O(N·landmarks)", landmarks.length, total, dimension());
	}
}
