package org.cpca.core.significance;

import org.cpca.core.linalg.SymmetricEigen;
import org.cpca.core.linalg.TopEigen;

/**
 * The largest eigenvalue of a symmetric operator known only by its products, by Lanczos
 * with full reorthogonalisation: what a permutation needs of cPCA, whose null maximum
 * over components is the top eigenvalue (docs/math/significance.md#reusing-the-joint-gram).
 * It stops when the top Ritz pair's residual {@code ‖Mx − θx‖} is at most
 * {@link #TOLERANCE} times the largest |Ritz value| (so θ is within that of an eigenvalue);
 * it answers NaN when it has not converged within its steps, for the caller to solve
 * densely.
 */
final class LargestEigenvalue {

	/** The residual bound, relative to the spectrum's scale. */
	static final double TOLERANCE = 1e-10;

	/** A symmetric m × m operator: {@code out = M v}. */
	interface Operator {
		void apply(double[] v, double[] out);
	}

	private LargestEigenvalue() {}

	/**
	 * @param start a non-zero start vector of length m (not modified)
	 * @param maxSteps the largest Krylov basis built
	 * @return the largest eigenvalue, or NaN when not converged
	 */
	static double of(final Operator op, final int m, final double[] start, final int maxSteps) {
		final int steps = Math.min(maxSteps, m);
		final double[][] q = new double[steps + 1][];
		final double[] alpha = new double[steps], beta = new double[steps];
		q[0] = start.clone();
		scale(q[0], 1 / Math.sqrt(TopEigen.dot(q[0], q[0])));
		int nextCheck = 4;
		for (int j = 0; j < steps; j++) {
			final double[] w = new double[m];
			op.apply(q[j], w);
			alpha[j] = TopEigen.dot(q[j], w);
			TopEigen.axpy(-alpha[j], q[j], w);
			if (j > 0) TopEigen.axpy(-beta[j - 1], q[j - 1], w);
			for (int i = 0; i <= j; i++) // full reorthogonalisation
				TopEigen.axpy(-TopEigen.dot(q[i], w), q[i], w);
			beta[j] = Math.sqrt(TopEigen.dot(w, w));
			if (j + 1 == nextCheck || j + 1 == steps || beta[j] == 0) {
				nextCheck += j < 16 ? 4 : 2;
				final int size = j + 1;
				final double[] t = new double[size * size];
				for (int i = 0; i < size; i++) {
					t[i * size + i] = alpha[i];
					if (i + 1 < size) {
						t[i * size + i + 1] = beta[i];
						t[(i + 1) * size + i] = beta[i];
					}
				}
				final SymmetricEigen e = SymmetricEigen.of(t, size);
				final double top = e.value(0);
				final double spread = Math.max(Math.abs(top), Math.abs(e.value(size - 1)));
				final double residual = beta[j] * Math.abs(e.vector(0)[size - 1]);
				if (residual <= TOLERANCE * spread || spread == 0 || size == m) return top;
			}
			scale(w, 1 / beta[j]);
			q[j + 1] = w;
		}
		return Double.NaN;
	}

	private static void scale(final double[] v, final double f) {
		for (int i = 0; i < v.length; i++)
			v[i] *= f;
	}
}
