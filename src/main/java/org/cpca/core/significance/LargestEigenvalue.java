package org.cpca.core.significance;

import org.cpca.core.linalg.TopEigen;

import java.util.Arrays;

/**
 * The largest eigenvalue of a symmetric operator known only by its products, by Lanczos
 * with full reorthogonalisation: what a permutation needs of cPCA, whose null maximum
 * over components is the top eigenvalue (docs/math/significance.md#reusing-the-joint-gram).
 * It stops when the top Ritz pair's residual {@code ‖Mx − θx‖} is at most
 * {@link #TOLERANCE} times the largest |Ritz value| (so θ is within that of an eigenvalue);
 * it answers NaN when it has not converged within its steps (it stopped at its cap), for
 * the caller to solve densely. Several problems of the same size can run in lockstep
 * ({@link #of(BlockOperator, int, int, double[], int)}), so that each step's products are
 * one matrix–matrix product; each problem's result is the same as when run alone with
 * the same products.
 */
final class LargestEigenvalue {

	/** The residual bound, relative to the spectrum's scale. */
	static final double TOLERANCE = 1e-10;

	/** A symmetric m × m operator: {@code out = M v}. */
	interface Operator {
		void apply(double[] v, double[] out);
	}

	/** Several symmetric m × m operators M_0, M_1, … applied together. */
	interface BlockOperator {
		/**
		 * Stores {@code M_{which[c]} v[c]} in {@code out[c]} (a new array of length m) for
		 * c &lt; count; v is not modified.
		 */
		void apply(int[] which, int count, double[][] v, double[][] out);
	}

	private LargestEigenvalue() {}

	/**
	 * @param start a non-zero start vector of length m (not modified)
	 * @param maxSteps the largest Krylov basis built
	 * @return the largest eigenvalue, or NaN when not converged
	 */
	static double of(final Operator op, final int m, final double[] start, final int maxSteps) {
		final Run run = new Run(m, start, maxSteps);
		while (true) {
			final double[] w = new double[m];
			op.apply(run.current(), w);
			if (run.step(w)) return run.value;
		}
	}

	/**
	 * The largest eigenvalues of {@code count} operators, all from the same start vector,
	 * in lockstep: each step applies the operators of the problems not yet converged
	 * together.
	 *
	 * @return one per operator, NaN where not converged within maxSteps
	 */
	static double[] of(final BlockOperator op, final int count, final int m,
		final double[] start, final int maxSteps)
	{
		final Run[] runs = new Run[count];
		for (int c = 0; c < count; c++)
			runs[c] = new Run(m, start, maxSteps);
		final int[] which = new int[count];
		final double[][] v = new double[count][], out = new double[count][];
		int active = count;
		for (int c = 0; c < count; c++)
			which[c] = c;
		while (active > 0) {
			for (int c = 0; c < active; c++)
				v[c] = runs[which[c]].current();
			op.apply(which, active, v, out);
			int next = 0;
			for (int c = 0; c < active; c++)
				if (!runs[which[c]].step(out[c])) which[next++] = which[c];
			active = next;
		}
		final double[] values = new double[count];
		for (int c = 0; c < count; c++)
			values[c] = runs[c].value;
		return values;
	}

	/** One problem's Lanczos state: the basis so far and the tridiagonal's entries. */
	private static final class Run {

		private final int m, steps;
		private final double[][] q;
		private final double[] alpha, beta;
		private int j, nextCheck = 4;
		/** The answer once {@link #step} returned true. */
		double value = Double.NaN;

		Run(final int m, final double[] start, final int maxSteps) {
			this.m = m;
			steps = Math.min(maxSteps, m);
			q = new double[steps + 1][];
			alpha = new double[steps];
			beta = new double[steps];
			q[0] = start.clone();
			scale(q[0], 1 / Math.sqrt(TopEigen.dot(q[0], q[0])));
		}

		/** The vector whose product the next step needs. */
		double[] current() {
			return q[j];
		}

		/**
		 * One step with {@code w = M q_j} (used as workspace).
		 *
		 * @return whether the run ended: converged, or at its cap ({@link #value} NaN)
		 */
		boolean step(final double[] w) {
			alpha[j] = TopEigen.dot(q[j], w);
			TopEigen.axpy(-alpha[j], q[j], w);
			if (j > 0) TopEigen.axpy(-beta[j - 1], q[j - 1], w);
			for (int i = 0; i <= j; i++) // full reorthogonalisation
				TopEigen.axpy(-TopEigen.dot(q[i], w), q[i], w);
			beta[j] = Math.sqrt(TopEigen.dot(w, w));
			if (j + 1 == nextCheck || j + 1 == steps || beta[j] == 0) {
				nextCheck += j < 16 ? 4 : 2;
				final int size = j + 1;
				final double top = topOfTridiagonal(alpha, beta, size);
				final double spread = spread(alpha, beta, size);
				final double residual = beta[j] * lastOfEigenvector(alpha, beta, size, top,
					spread);
				if (residual <= TOLERANCE * spread || spread == 0 || size == m) {
					value = top;
					return true;
				}
				if (size == steps) return true; // at the cap, not converged: NaN
			}
			scale(w, 1 / beta[j]);
			q[++j] = w;
			return false;
		}
	}

	/**
	 * The largest eigenvalue of the symmetric tridiagonal matrix with diagonal a and
	 * off-diagonal b (first n, n − 1 entries), by bisection on Sturm counts: in Java, as the
	 * permutations call it concurrently and often (a native call per check cost more than
	 * the Lanczos steps on two cores).
	 */
	static double topOfTridiagonal(final double[] a, final double[] b, final int n) {
		double lo = Double.POSITIVE_INFINITY, hi = Double.NEGATIVE_INFINITY;
		for (int i = 0; i < n; i++) {
			final double radius = (i > 0 ? Math.abs(b[i - 1]) : 0) + (i < n - 1 ? Math.abs(
				b[i]) : 0);
			lo = Math.min(lo, a[i] - radius);
			hi = Math.max(hi, a[i] + radius);
		}
		final double tiny = Math.ulp(Math.max(Math.abs(lo), Math.abs(hi))) + Double.MIN_NORMAL;
		for (int iteration = 0; iteration < 200 && hi - lo > 2 * tiny; iteration++) {
			final double mid = 0.5 * (lo + hi);
			if (mid <= lo || mid >= hi) break;
			if (below(a, b, n, mid, tiny) == n) hi = mid;
			else lo = mid;
		}
		return 0.5 * (lo + hi);
	}

	/** The number of eigenvalues below x (Sturm sequence of the LDLᵀ pivots). */
	private static int below(final double[] a, final double[] b, final int n, final double x,
		final double tiny)
	{
		int count = 0;
		double q = 1;
		for (int i = 0; i < n; i++) {
			q = a[i] - x - (i > 0 ? b[i - 1] * b[i - 1] / q : 0);
			if (q == 0) q = -tiny;
			if (q < 0) count++;
		}
		return count;
	}

	/** The largest |eigenvalue| bound (Gershgorin) of the tridiagonal: the scale. */
	private static double spread(final double[] a, final double[] b, final int n) {
		double max = 0;
		for (int i = 0; i < n; i++)
			max = Math.max(max, Math.abs(a[i]) + (i > 0 ? Math.abs(b[i - 1]) : 0) + (i < n - 1
				? Math.abs(b[i]) : 0));
		return max;
	}

	/**
	 * |last entry| of the unit eigenvector of the tridiagonal for its eigenvalue θ, by two
	 * steps of inverse iteration (Gaussian elimination with row interchanges, zero pivots
	 * replaced by a tiny one): the Ritz pair's residual is β_j times it.
	 */
	static double lastOfEigenvector(final double[] a, final double[] b, final int n,
		final double theta, final double scale)
	{
		if (n == 1) return 1;
		double[] y = new double[n];
		Arrays.fill(y, 1 / Math.sqrt(n));
		for (int step = 0; step < 2; step++) {
			y = solveShifted(a, b, n, theta, Math.max(scale, Double.MIN_NORMAL) * 1e-15 + Double.MIN_NORMAL, y);
			final double norm = Math.sqrt(TopEigen.dot(y, y));
			if (!(norm > 0) || Double.isInfinite(norm)) return 1; // no answer: not converged
			for (int i = 0; i < n; i++)
				y[i] /= norm;
		}
		return Math.abs(y[n - 1]);
	}

	/** (T − θI)⁻¹ rhs, as LAPACK's dgtsv does it. */
	private static double[] solveShifted(final double[] a, final double[] b, final int n,
		final double theta, final double tiny, final double[] rhs)
	{
		final double[] d = new double[n], dl = new double[n], du = new double[n];
		final double[] x = rhs.clone();
		for (int i = 0; i < n; i++)
			d[i] = a[i] - theta;
		for (int i = 0; i < n - 1; i++) {
			dl[i] = b[i];
			du[i] = b[i];
		}
		for (int i = 0; i < n - 1; i++) {
			if (Math.abs(d[i]) >= Math.abs(dl[i])) {
				if (d[i] == 0) d[i] = tiny;
				final double f = dl[i] / d[i];
				d[i + 1] -= f * du[i];
				x[i + 1] -= f * x[i];
				dl[i] = 0;
			}
			else {
				final double f = d[i] / dl[i];
				d[i] = dl[i];
				final double t = d[i + 1];
				d[i + 1] = du[i] - f * t;
				if (i < n - 2) {
					dl[i] = du[i + 1];
					du[i + 1] = -f * dl[i];
				}
				else dl[i] = 0;
				du[i] = t;
				final double xt = x[i];
				x[i] = x[i + 1];
				x[i + 1] = xt - f * x[i + 1];
			}
		}
		if (d[n - 1] == 0) d[n - 1] = tiny;
		x[n - 1] /= d[n - 1];
		x[n - 2] = (x[n - 2] - du[n - 2] * x[n - 1]) / d[n - 2];
		for (int i = n - 3; i >= 0; i--)
			x[i] = (x[i] - du[i] * x[i + 1] - dl[i] * x[i + 2]) / d[i];
		return x;
	}

	private static void scale(final double[] v, final double f) {
		for (int i = 0; i < v.length; i++)
			v[i] *= f;
	}
}
