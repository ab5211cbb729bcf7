package org.cpca.core;

/**
 * cPCA* for many β on one space: the background covariance is decomposed once,
 * {@code B = UΛUᵀ}, and the target carried into its eigenbasis, {@code Ã = UᵀAU}. Then
 * {@code B_β = (1−β)I + βB = U D_β Uᵀ} with the diagonal
 * {@code D_β = (1−β)I + βΛ (+ δI)}, so {@code A v = λ B_β v} becomes the ordinary
 * symmetric problem {@code D_β^{-1/2} Ã D_β^{-1/2} z = λ z} with
 * {@code v = U D_β^{-1/2} z}: every β after the one-time preparation costs O(m²) to form
 * the matrix plus a top-k solve, warm-started from the neighbouring β in a sweep.
 * <p>
 * The same generalized problem as {@link GeneralizedEigen} (a different square root of
 * B_β: the symmetric one instead of the Cholesky factor), so the eigenvalues and the
 * subspaces agree. Background eigenvalues below zero (round-off of a singular covariance)
 * are clipped to 0, which keeps D_β positive for every β &lt; 1 however close to 1.
 */
final class BetaSolver {

	private final int m;
	/** Eigenvalues of B, descending, clipped at 0. */
	private final double[] lambda;
	/** Eigenvector c of B is u[c]. */
	private final double[][] u;
	private final double[] aTilde;

	private BetaSolver(final int m, final double[] lambda, final double[][] u,
		final double[] aTilde)
	{
		this.m = m;
		this.lambda = lambda;
		this.u = u;
		this.aTilde = aTilde;
	}

	static BetaSolver build(final double[] a, final double[] b, final int m) {
		final SymmetricEigen e = SymmetricEigen.of(b, m);
		final double[] lambda = e.values();
		for (int i = 0; i < m; i++)
			lambda[i] = Math.max(0, lambda[i]);
		final double[] all = e.vectors(); // m × m, column c = eigenvector c
		final double[][] u = new double[m][m];
		for (int i = 0; i < m; i++)
			for (int c = 0; c < m; c++)
				u[c][i] = all[i * m + c];
		final double[][] aRows = new double[m][];
		for (int i = 0; i < m; i++)
			aRows[i] = java.util.Arrays.copyOfRange(a, i * m, (i + 1) * m);
		// Ã = U A Uᵀ in rows-of-U form: (UᵀAU)_cd = u_c · (A u_d)
		final double[][] au = Kernels.times(u, aRows); // row c: (A u_c)ᵀ (A symmetric)
		final double[][] t = Kernels.times(au, GeneralizedEigen.transpose(u));
		final double[] aTilde = new double[m * m];
		for (int i = 0; i < m; i++)
			for (int j = i; j < m; j++) {
				final double v = 0.5 * (t[i][j] + t[j][i]);
				aTilde[i * m + j] = v;
				aTilde[j * m + i] = v;
			}
		return new BetaSolver(m, lambda, u, aTilde);
	}

	/**
	 * @param delta added to B's eigenvalues (the regularisation at β = 1; 0 otherwise)
	 * @param warm the previous β's {@link TopEigen.Result#warmStart}, or {@code null}
	 * @return eigenvalues, B_β-orthonormal vectors v (m × k) and a warm start for the next β
	 */
	TopEigen.Result solve(final double beta, final double delta, final int k,
		final double[][] warm, final long seed)
	{
		final double[] s = new double[m];
		for (int c = 0; c < m; c++)
			s[c] = 1 / Math.sqrt((1 - beta) + beta * (lambda[c] + delta));
		final double[] scaled = new double[m * m];
		for (int i = 0; i < m; i++)
			for (int j = 0; j < m; j++)
				scaled[i * m + j] = s[i] * aTilde[i * m + j] * s[j];
		final TopEigen.Result top = TopEigen.solve(scaled, m, k, warm, seed);
		// v = U D^{-1/2} z
		final double[] v = new double[m * k];
		for (int c = 0; c < m; c++) {
			final double[] uc = u[c];
			for (int col = 0; col < k; col++) {
				final double f = s[c] * top.vectors[c * k + col];
				if (f == 0) continue;
				for (int i = 0; i < m; i++)
					v[i * k + col] += f * uc[i];
			}
		}
		return new TopEigen.Result(top.values, v, top.warmStart, top.restarts,
			top.fullDecomposition);
	}
}
