package org.cpca.core.linalg;

import java.util.Arrays;

/**
 * The dense block work of one LOBPCG run ({@link ContrastSolver}): orthonormalising the new
 * directions, the Rayleigh–Ritz step on span{X, W, P} and the rotation of a block by its
 * own Ritz vectors. The iteration's control flow (restarts, the check with random
 * vectors, giving up, the convergence test) is written once, in {@link ContrastSolver};
 * only these steps differ by backend: {@link JavaBlockSteps} on the Java kernels, and on
 * the native backend for m up to {@link NativeMatrix#FITS} {@link NativeBlockSteps}, whose
 * steps are a few OpenBLAS and LAPACK calls each, fast from the first call of a fresh JVM
 * (docs/speed.md, the solvers' block steps). Either way a step's result depends only on
 * its operands. Blocks are arrays of vectors of length m; a step never changes its
 * operands except where it says so.
 */
interface BlockSteps extends AutoCloseable {

	/**
	 * The steps for vectors of length m and bases of at most {@code capacity} vectors:
	 * native where {@link Backend#keepsResident}, else Java.
	 */
	static BlockSteps of(final int m, final int capacity) {
		return Backend.keepsResident(m) ? new NativeBlockSteps(m, capacity)
			: JavaBlockSteps.INSTANCE;
	}

	/**
	 * The vectors w orthonormalised against the orthonormal x and each other by
	 * Gram–Schmidt, twice; a vector that (nearly) vanishes is dropped. The w may be
	 * overwritten.
	 */
	double[][] orthonormalize(double[][] w, double[][] x);

	/**
	 * Rayleigh–Ritz on the basis {@code [prior | P]}: the directions {@code p} are first
	 * orthonormalised against the orthonormal prior and each other (Gram–Schmidt, twice),
	 * carrying their images {@code sp} along, and nearly dependent ones dropped; then the
	 * projected matrix {@code H = VᵀSV} (symmetrised), its eigenpairs, and the first
	 * {@code min(p, nb)} Ritz vectors with their images and the update directions (the
	 * same combinations of the basis vectors from index {@code nx} on).
	 *
	 * @param p the block size: how many Ritz vectors are kept
	 */
	Ritz rayleighRitz(double[][] prior, double[][] priorImage, double[][] directions,
		double[][] directionImages, int nx, int p);

	/**
	 * Rotates the orthonormal block x and its image sx (in place: their vectors are
	 * replaced) by the eigenvectors of {@code xᵀ sx}; returns its eigenvalues, descending.
	 */
	double[] rotate(double[][] x, double[][] sx);

	/** Frees what the steps hold (native memory); nothing for the Java steps. */
	@Override
	void close();

	/** The result of {@link #rayleighRitz}. */
	final class Ritz {

		/** All nb Ritz values, descending. */
		final double[] values;
		/** The kept Ritz vectors, their images, the update directions and their images. */
		final double[][] x, sx, p, sp;

		Ritz(final double[] values, final double[][] x, final double[][] sx,
			final double[][] p, final double[][] sp)
		{
			this.values = values;
			this.x = x;
			this.sx = sx;
			this.p = p;
			this.sp = sp;
		}

		/** Vectors in the basis the values came from (nb). */
		int basisSize() {
			return values.length;
		}
	}

	/** The vectors of a followed by those of b (the same arrays). */
	static double[][] concat(final double[][] a, final double[][] b) {
		final double[][] out = Arrays.copyOf(a, a.length + b.length);
		System.arraycopy(b, 0, out, a.length, b.length);
		return out;
	}
}
