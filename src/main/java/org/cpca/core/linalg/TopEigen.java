package org.cpca.core.linalg;

import java.util.SplittableRandom;
import java.util.Arrays;
import org.cpca.core.Progress;

/**
 * The top-k eigenpairs (largest signed eigenvalues) of a dense symmetric matrix by a
 * restarted block Krylov (block Lanczos) method with full reorthogonalisation and
 * Rayleigh–Ritz extraction.
 * <p>
 * Each restart builds an orthonormal basis of {@code [X, SX, S²X, …]} for a block X of
 * {@code k + 3} vectors, solves the small projected problem and restarts from the best
 * Ritz vectors. It stops when every wanted Ritz pair has a residual
 * {@code ‖Sx − θx‖ ≤ tol · ‖S‖}. A warm start (the vectors of a nearby problem, e.g. the
 * previous α of a sweep) typically converges in one or two restarts. Small matrices, and
 * the rare problem that does not converge within the restart budget, are solved by a
 * full decomposition instead, so the result is always accurate; a {@link SolverLog}
 * records the restarts and any such fallback for the summary.
 */
public final class TopEigen {

	static final double TOLERANCE = 1e-10;
	private static final int MAX_RESTARTS = 30;
	/** Largest Krylov basis built before restarting. */
	private static final int MAX_BASIS = 320;

	/** The result: eigenvalues (descending) and eigenvectors as columns (m × k). */
	public static final class Result {

		public final double[] values;
		public final double[] vectors;
		/** The block of Ritz vectors to warm-start a nearby problem with (m × p). */
		public final double[][] warmStart;
		public final int restarts;
		public final boolean fullDecomposition;

		public Result(final double[] values, final double[] vectors, final double[][] warm,
			final int restarts, final boolean full)
		{
			this.values = values;
			this.vectors = vectors;
			this.warmStart = warm;
			this.restarts = restarts;
			this.fullDecomposition = full;
		}
	}

	private TopEigen() {}

	/**
	 * @param s symmetric m × m row-major matrix (not modified; its upper and lower
	 *          triangles must agree)
	 * @param k number of eigenpairs wanted, ≤ m
	 * @param warm start vectors (each of length m), or {@code null}
	 * @param seed for the random part of the start block
	 */
	public static Result solve(final double[] s, final int m, final int k,
		final double[][] warm, final long seed)
	{
		return solve(s, m, k, k, warm, seed);
	}

	/**
	 * The same, with only the first {@code accurate} pairs held to the residual test; the
	 * others are the best Ritz pairs of the final Krylov basis (for callers that weigh the
	 * lower pairs little, such as a soft maximum of the top eigenvalues).
	 *
	 * @param accurate 1 ≤ accurate ≤ k
	 */
	public static Result solve(final double[] s, final int m, final int k, final int accurate,
		final double[][] warm, final long seed)
	{
		final int p = Math.min(m, k + 3);
		int steps = Math.max(3, Math.min(12, 48 / p));
		final int maxSteps = Math.max(steps, Math.min(MAX_BASIS, m / 2) / p);
		if (m <= Math.max(64, 2 * p * steps)) return full(s, m, k, 0);
		final SplittableRandom random = new SplittableRandom(seed);
		final double[][] rows = new double[m][];
		for (int i = 0; i < m; i++)
			rows[i] = Arrays.copyOfRange(s, i * m, (i + 1) * m);
		double[][] x = new double[p][];
		for (int c = 0; c < p; c++)
			x[c] = warm != null && c < warm.length ? warm[c].clone() : gaussian(random, m);
		x = orthonormalize(x, new double[0][], random, m);
		final int restarts = SolverLog.lanczosCap(MAX_RESTARTS);
		for (int restart = 1; restart <= restarts; restart++) {
			final int cap = p * steps;
			final double[][] basis = new double[cap][];
			final double[][] image = new double[cap][];
			int size = 0;
			double[][] block = x;
			for (int step = 0; step < steps && block.length > 0; step++) {
				Progress.checkInterrupted(); // a cancelled worker stops here
				for (final double[] v : block)
					basis[size++] = v;
				final double[][] sb = Products.symmetricTimesRows(rows, block);
				System.arraycopy(sb, 0, image, size - block.length, block.length);
				if (step == steps - 1) break;
				final double[][] prior = Arrays.copyOf(basis, size);
				block = orthonormalize(copy(sb), prior, null, m);
			}
			// Rayleigh–Ritz on span(basis)
			final double[] h = new double[size * size];
			for (int i = 0; i < size; i++)
				for (int j = i; j < size; j++) {
					final double v = 0.5 * (dot(basis[i], image[j]) + dot(basis[j], image[i]));
					h[i * size + j] = v;
					h[j * size + i] = v;
				}
			final SymmetricEigen small = SymmetricEigen.of(h, size);
			final int keep = Math.min(p, size);
			final double[][] ritz = new double[keep][];
			final double[][] ritzImage = new double[keep][];
			final double[] u = small.vectors();
			for (int c = 0; c < keep; c++) {
				ritz[c] = new double[m];
				ritzImage[c] = new double[m];
				for (int i = 0; i < size; i++) {
					axpy(u[i * size + c], basis[i], ritz[c]);
					axpy(u[i * size + c], image[i], ritzImage[c]);
				}
			}
			double scale = 0;
			for (int c = 0; c < size; c++)
				scale = Math.max(scale, Math.abs(small.value(c)));
			boolean converged = size >= k;
			for (int c = 0; c < Math.min(accurate, keep) && converged; c++) {
				double r = 0;
				final double theta = small.value(c);
				for (int i = 0; i < m; i++) {
					final double e = ritzImage[c][i] - theta * ritz[c][i];
					r += e * e;
				}
				converged = Math.sqrt(r) <= TOLERANCE * Math.max(scale, Double.MIN_NORMAL);
			}
			if (converged || scale == 0) {
				final double[] values = new double[k];
				final double[] vectors = new double[m * k];
				for (int c = 0; c < k; c++) {
					values[c] = small.value(c);
					for (int i = 0; i < m; i++)
						vectors[i * k + c] = ritz[c][i];
				}
				SolverLog.lanczos(restart, restarts, true, false);
				return new Result(values, vectors, ritz, restart, false);
			}
			x = orthonormalize(ritz, new double[0][], random, m);
			// a hard problem (small gap relative to the spread): grow the Krylov space
			steps = Math.min(maxSteps, steps * 2);
		}
		// stopped at the cap: the full decomposition answers (exact), and the log says so
		SolverLog.lanczos(restarts, restarts, false, true);
		return full(s, m, k, restarts);
	}

	private static Result full(final double[] s, final int m, final int k,
		final int restarts)
	{
		if (Backend.isNative()) { // the top pairs only, by LAPACK's dsyevr (NativeLapack)
			final int p = Math.min(m, k + 3);
			final double[] values = new double[p];
			final double[][] rows = NativeLapack.top(s, m, p, values);
			if (rows != null) return ofRows(Arrays.copyOf(values, k), rows, m,
				restarts);
		}
		final SymmetricEigen e = SymmetricEigen.of(s, m);
		final double[] values = Arrays.copyOf(e.values(), k);
		final double[] vectors = e.vectors(k);
		final int p = Math.min(m, k + 3);
		final double[][] warm = new double[p][m];
		final double[] all = e.vectors();
		for (int c = 0; c < p; c++)
			for (int i = 0; i < m; i++)
				warm[c][i] = all[i * m + c];
		return new Result(values, vectors, warm, restarts, true);
	}

	/**
	 * A full decomposition's result from the first values.length pairs of the given
	 * vectors (rows, at least as many as values), which also serve as the warm start.
	 */
	static Result ofRows(final double[] values, final double[][] rows, final int m,
		final int restarts)
	{
		final int k = values.length;
		final double[] vectors = new double[m * k];
		for (int c = 0; c < k; c++)
			for (int i = 0; i < m; i++)
				vectors[i * k + c] = rows[c][i];
		return new Result(values, vectors, rows, restarts, true);
	}

	/**
	 * Orthonormalises the vectors against {@code prior} (orthonormal) and each other by
	 * Gram–Schmidt, twice. Vectors that vanish are dropped, or replaced by random ones when
	 * {@code random} is given.
	 */
	public static double[][] orthonormalize(final double[][] vs, final double[][] prior,
		final SplittableRandom random, final int m)
	{
		final double[][] out = new double[vs.length][];
		int n = 0;
		for (double[] v : vs) {
			for (int attempt = 0; attempt < 3; attempt++) {
				final double before = Math.sqrt(dot(v, v));
				for (int pass = 0; pass < 2; pass++) {
					for (final double[] q : prior)
						axpy(-dot(q, v), q, v);
					for (int j = 0; j < n; j++)
						axpy(-dot(out[j], v), out[j], v);
				}
				final double after = Math.sqrt(dot(v, v));
				if (after > 1e-10 * before && after > 0) {
					divide(v, after);
					out[n++] = v;
					break;
				}
				if (random == null) break;
				v = gaussian(random, m);
			}
		}
		return Arrays.copyOf(out, n);
	}

	private static double[][] copy(final double[][] a) {
		final double[][] out = new double[a.length][];
		for (int i = 0; i < a.length; i++)
			out[i] = a[i].clone();
		return out;
	}

	public static double[] gaussian(final SplittableRandom random, final int m) {
		final double[] v = new double[m];
		for (int i = 0; i < m; i++) {
			// Box–Muller from the seeded stream: deterministic across platforms
			final double u1 = 1 - random.nextDouble(), u2 = random.nextDouble();
			v[i] = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
		}
		return v;
	}

	/**
	 * The dot product with eight independent partial sums (fused multiply–adds), so that
	 * the additions are not one serial chain: about twice the throughput of a single sum.
	 * The order of the operations is fixed, so the result is deterministic.
	 */
	public static double dot(final double[] a, final double[] b) {
		double s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
		int i = 0;
		for (; i + 7 < a.length; i += 8) {
			s0 = Math.fma(a[i], b[i], s0);
			s1 = Math.fma(a[i + 1], b[i + 1], s1);
			s2 = Math.fma(a[i + 2], b[i + 2], s2);
			s3 = Math.fma(a[i + 3], b[i + 3], s3);
			s4 = Math.fma(a[i + 4], b[i + 4], s4);
			s5 = Math.fma(a[i + 5], b[i + 5], s5);
			s6 = Math.fma(a[i + 6], b[i + 6], s6);
			s7 = Math.fma(a[i + 7], b[i + 7], s7);
		}
		for (; i < a.length; i++)
			s0 = Math.fma(a[i], b[i], s0);
		return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
	}

	/**
	 * {@code x[i] /= d} for every entry; a method of its own, like {@link #axpy}, so that
	 * the loops calling it stay small for the JIT (docs/speed.md).
	 */
	static void divide(final double[] x, final double d) {
		for (int i = 0; i < x.length; i++)
			x[i] /= d;
	}

	public static void axpy(final double a, final double[] x, final double[] y) {
		for (int i = 0; i < y.length; i++)
			y[i] += a * x[i];
	}
}
