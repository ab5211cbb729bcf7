package org.cpca.core.linalg;

import java.util.Arrays;
import java.util.function.IntConsumer;
import java.util.stream.IntStream;

/**
 * {@link BlockSteps} on the Java kernels, the LOBPCG steps as they were written into
 * {@link ContrastSolver} before the native ones (the same operations in the same order,
 * so the same bits): Gram–Schmidt by {@link TopEigen#dot} and {@link TopEigen#axpy},
 * {@code H = VᵀSV} entry by entry, the small eigenproblem by {@link SymmetricEigen}, the
 * Ritz vectors by axpys; the steps with the most work split in two halves on two cores.
 */
final class JavaBlockSteps implements BlockSteps {

	static final JavaBlockSteps INSTANCE = new JavaBlockSteps();

	private JavaBlockSteps() {}

	@Override
	public double[][] orthonormalize(final double[][] w, final double[][] x) {
		return TopEigen.orthonormalize(w, x, null, x.length == 0 ? 0 : x[0].length);
	}

	@Override
	public Ritz rayleighRitz(final double[][] prior, final double[][] priorImage,
		final double[][] directions, final double[][] directionImages, final int nx,
		final int p)
	{
		final double[][] basis, image;
		if (directions.length == 0) {
			basis = prior;
			image = priorImage;
		}
		else {
			final double[][][] po = orthonormalizeWithImage(directions, directionImages, prior,
				priorImage);
			basis = BlockSteps.concat(prior, po[0]);
			image = BlockSteps.concat(priorImage, po[1]);
		}
		final int nb = basis.length;
		final SymmetricEigen e = SymmetricEigen.of(projected(basis, image), nb);
		final int keep = Math.min(p, nb);
		final double[][][] next = combine(e.vectors(keep), keep, basis, image, nx);
		return new Ritz(e.values(), next[0], next[1], next[2], next[3]);
	}

	@Override
	public double[] rotate(final double[][] x, final double[][] sx) {
		final SymmetricEigen e = SymmetricEigen.of(projected(x, sx), x.length);
		return rotate(e, x.length, x, sx);
	}

	@Override
	public void close() {}

	/**
	 * Multiply–adds from which the steps of an iteration below ({@link #projected},
	 * {@link #combine}) are split in two halves on two cores: the rest of an iteration runs
	 * in one thread, and these steps were a large part of a warm sweep's time
	 * (docs/speed.md). Each entry is computed as in one thread: the same bits.
	 */
	private static final long SPLIT_WORK = 1 << 16;

	/** Runs {@code half.accept(0)} and {@code half.accept(1)}, on two cores when worth it. */
	private static void halves(final long work, final IntConsumer half) {
		if (work < SPLIT_WORK) {
			half.accept(0);
			half.accept(1);
		}
		else IntStream.range(0, 2).parallel().forEach(half);
	}

	/**
	 * The projected matrix {@code H = Vᵀ S V} (row-major, nb × nb), symmetrised entry by
	 * entry from the basis V and its image S V: the rows i of the upper part in two halves
	 * of equal work.
	 */
	private static double[] projected(final double[][] basis, final double[][] image) {
		final int nb = basis.length, m = basis[0].length;
		final double[] h = new double[nb * nb];
		// the first `split` rows hold about half of the nb(nb+1)/2 pairs
		final int split = (int) Math.round(nb - nb / Math.sqrt(2));
		halves((long) nb * nb * m, half -> {
			for (int i = half == 0 ? 0 : split; i < (half == 0 ? split : nb); i++)
				for (int j = i; j < nb; j++)
					h[i * nb + j] = h[j * nb + i] = 0.5 * (TopEigen.dot(basis[i], image[j]) +
						TopEigen.dot(basis[j], image[i]));
		});
		return h;
	}

	/**
	 * The first {@code keep} Ritz vectors {@code V u_c} and their images, and the update
	 * directions: the same combinations of the basis vectors from index {@code nx} on
	 * (W and P). Returns {X, SX, P, SP}: X and P on one core, their images on the other.
	 */
	private static double[][][] combine(final double[] u, final int keep,
		final double[][] basis, final double[][] image, final int nx)
	{
		final int nb = basis.length, m = basis[0].length;
		final double[][] nxv = new double[keep][m], nsx = new double[keep][m];
		final double[][] np = new double[keep][m], nsp = new double[keep][m];
		halves(2L * nb * keep * m, half -> {
			final double[][] from = half == 0 ? basis : image;
			final double[][] all = half == 0 ? nxv : nsx, update = half == 0 ? np : nsp;
			for (int j = 0; j < nb; j++) {
				final double[] bj = from[j];
				for (int c = 0; c < keep; c++) {
					final double f = u[j * keep + c];
					if (f == 0) continue;
					TopEigen.axpy(f, bj, all[c]);
					if (j >= nx) TopEigen.axpy(f, bj, update[c]);
				}
			}
		});
		return new double[][][] { nxv, nsx, np, nsp };
	}

	/** Rotates x and sx by the eigenvectors of the small problem; returns the values. */
	private static double[] rotate(final SymmetricEigen e, final int n, final double[][] x,
		final double[][] sx)
	{
		final int m = x[0].length;
		final double[] u = e.vectors();
		final double[][] nx = new double[n][m], ns = new double[n][m];
		for (int j = 0; j < n; j++)
			for (int c = 0; c < n; c++) {
				TopEigen.axpy(u[j * n + c], x[j], nx[c]);
				TopEigen.axpy(u[j * n + c], sx[j], ns[c]);
			}
		for (int c = 0; c < n; c++) {
			x[c] = nx[c];
			sx[c] = ns[c];
		}
		return e.values();
	}

	/**
	 * Gram–Schmidt (twice) of the vectors v against the orthonormal prior and each other,
	 * applying the same combinations to their images; nearly dependent vectors are
	 * dropped. Returns {vectors, images}.
	 */
	private static double[][][] orthonormalizeWithImage(final double[][] v,
		final double[][] sv, final double[][] prior, final double[][] priorImage)
	{
		final int n = v.length;
		final double[][] out = new double[n][], outImage = new double[n][];
		int kept = 0;
		for (int c = 0; c < n; c++) {
			final double[] x = v[c].clone(), sx = sv[c].clone();
			final double before = Math.sqrt(TopEigen.dot(x, x));
			if (!(before > 0)) continue;
			for (int pass = 0; pass < 2; pass++) {
				for (int j = 0; j < prior.length; j++) {
					final double f = TopEigen.dot(prior[j], x);
					TopEigen.axpy(-f, prior[j], x);
					TopEigen.axpy(-f, priorImage[j], sx);
				}
				for (int j = 0; j < kept; j++) {
					final double f = TopEigen.dot(out[j], x);
					TopEigen.axpy(-f, out[j], x);
					TopEigen.axpy(-f, outImage[j], sx);
				}
			}
			final double after = Math.sqrt(TopEigen.dot(x, x));
			// a direction that is mostly already in the basis: its image would be inaccurate
			if (!(after > 1e-6 * before)) continue;
			TopEigen.divide(x, after);
			TopEigen.divide(sx, after);
			out[kept] = x;
			outImage[kept++] = sx;
		}
		return new double[][][] { Arrays.copyOf(out, kept), Arrays.copyOf(outImage,
			kept) };
	}

}
