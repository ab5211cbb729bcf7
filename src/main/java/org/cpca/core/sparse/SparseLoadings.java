package org.cpca.core.sparse;

import org.cpca.core.linalg.SymmetricEigen;

/**
 * Sparse loadings by variable projection (docs/math/sparse.md, docs/math/sparse.md).
 * <p>
 * Given the contrast's positive part {@code Θ² = Q P Qᵀ} (P an m × m positive semidefinite
 * matrix in the space's coordinates, Q the d × m orthonormal basis of that space), solve
 * {@code min ½‖Θ − ΘBAᵀ‖²_F + λ₁‖B‖₁ + ½λ₂‖B‖²_F} subject to {@code AᵀA = I}:
 * alternately a proximal gradient step for B in feature space,
 * {@code B ← soft(B − η(Θ²(B − A) + λ₂B), ηλ₁)} with {@code η = 1/(λ_max(P) + λ₂)}, and
 * the orthogonal Procrustes step {@code A = Z(ZᵀZ)^{-1/2}}, {@code Z = Θ²B}. Every Θ²
 * product goes through the m-dimensional space ({@code Q P (QᵀY)}), so nothing d × d is
 * formed; A stays in the span of Q.
 * <p>
 * Scale: the user's {@code sparsity} is the soft threshold per step in loading units,
 * {@code λ₁ = sparsity · (λ_max(P) + λ₂)}, which makes it free of the data's units: a
 * loading j with contrast λ_j loses the entries below about {@code sparsity·λ_max/λ_j};
 * 0 gives the dense loadings (the top-k eigenvectors of Θ², which are a fixed point), and
 * values approaching 1 zero every loading. Loadings are
 * returned with unit length; their zeros are exact.
 */
public final class SparseLoadings {

	/** Iterations at most. */
	public static final int MAX_ITERATIONS = 500;
	/** Stop when ‖B_new − B‖_F ≤ TOLERANCE · ‖B‖_F. */
	public static final double TOLERANCE = 1e-6;

	/** k unit loadings (rows of length d; all-zero rows when λ₁ removed a whole one). */
	public final double[][] loadings;
	/** The loadings in the space's coordinates, QᵀB (m × k, row-major). */
	public final double[] coordinates;
	/** The fraction of zero entries over all k loadings. */
	public final double zeroFraction;
	/** λ₁ in the objective's units. */
	public final double lambda1;
	public final int iterations;
	/** Number of loadings that became entirely zero. */
	public final int emptyLoadings;

	private SparseLoadings(final double[][] loadings, final double[] coordinates,
		final double zeroFraction, final double lambda1, final int iterations,
		final int empty)
	{
		this.loadings = loadings;
		this.coordinates = coordinates;
		this.zeroFraction = zeroFraction;
		this.lambda1 = lambda1;
		this.iterations = iterations;
		this.emptyLoadings = empty;
	}

	/** Loadings assembled by the caller (e.g. gcPCA's two ends). */
	static SparseLoadings of(final double[][] loadings, final double[] coordinates,
		final double zeroFraction, final double lambda1, final int empty)
	{
		return new SparseLoadings(loadings, coordinates, zeroFraction, lambda1, 0, empty);
	}

	public static void checkSparsity(final double sparsity) {
		if (!(sparsity >= 0) || Double.isInfinite(sparsity)) throw new IllegalArgumentException(
			"the sparsity must be ≥ 0 (got " + sparsity + "): 0 is dense, larger values " +
				"give more zeros (about the smallest loading kept), or auto");
	}

	/**
	 * @param q the basis Q as m rows of length d (orthonormal)
	 * @param p Θ² in the space's coordinates, m × m row-major, positive semidefinite
	 * @param k number of loadings (P must have k positive eigenvalues)
	 * @param sparsity the soft threshold per step (see the class comment), ≥ 0
	 * @param ridge λ₂ relative to λ_max(P) (0 for none)
	 */
	public static SparseLoadings fit(final double[][] q, final double[] p, final int k,
		final double sparsity, final double ridge)
	{
		return fit(q, p, SymmetricEigen.of(p, q.length), k, sparsity, ridge);
	}

	/** {@link #fit(double[][], double[], int, double, double)} with P's eigenpairs given. */
	public static SparseLoadings fit(final double[][] q, final double[] p,
		final SymmetricEigen e, final int k, final double sparsity, final double ridge)
	{
		checkSparsity(sparsity);
		final int m = q.length, d = q[0].length;
		if (!(e.value(Math.min(k, m) - 1) > 0)) throw new IllegalArgumentException(
			"sparse loadings need " + k + " directions with positive contrast, but only " +
				positives(e) + " have it: choose fewer components (or another α)");
		final double top = e.value(0), lambda2 = ridge * top, l = top + lambda2;
		final double eta = 1 / l, lambda1 = sparsity * l, threshold = eta * lambda1;
		// start: A = B = Q V_k
		double[] a = e.vectors(k); // m × k
		double[][] b = lift(q, a, k, d);
		int it = 0;
		double[] cb = coordinates(q, b, k); // QᵀB, carried from one iteration to the next
		for (; it < MAX_ITERATIONS; it++) {
			final double[] diff = new double[m * k];
			for (int i = 0; i < m * k; i++)
				diff[i] = cb[i] - a[i];
			final double[][] g = lift(q, times(p, diff, m, k), k, d); // Θ²(B − A)
			final double[][] nb = new double[k][d];
			double change = 0, norm = 0;
			for (int c = 0; c < k; c++)
				for (int j = 0; j < d; j++) {
					final double v = b[c][j] - eta * (g[c][j] + lambda2 * b[c][j]);
					final double s = Math.abs(v) <= threshold ? 0 : v - Math.signum(v) * threshold;
					nb[c][j] = s;
					change += (s - b[c][j]) * (s - b[c][j]);
					norm += s * s;
				}
			b = nb;
			// Procrustes: A = Z (ZᵀZ)^{-1/2}, Z = Θ²B, in the space's coordinates
			cb = coordinates(q, b, k);
			final double[] z = times(p, cb, m, k);
			final double[] polar = polar(z, m, k);
			if (polar != null) a = polar;
			if (change <= TOLERANCE * TOLERANCE * Math.max(norm, 1e-300)) {
				it++;
				break;
			}
		}
		return finish(q, b, k, lambda1, it);
	}

	/**
	 * Sparse loadings of a problem posed in other coordinates y (sparse gcPCA's whitened
	 * problem, docs/math/sparse.md#sparse-gcpca): P (r × r, positive semidefinite) is Θ² in
	 * y, and a loading in the space's coordinates is {@code x = M y} ({@code map}, m × r,
	 * full column rank, {@code inverse} a left inverse r × m). The variable-projection
	 * steps run in y — the gradient step {@code Y − η(P(Y − A) + λ₂Y)} and the Procrustes
	 * step {@code A = polar(PY)} — and the sparsity acts on the loadings in feature space:
	 * the gradient step is mapped to feature space ({@code Q M}), soft-thresholded there,
	 * and its projection onto the space mapped back to y. At sparsity 0 nothing is lost
	 * and the fixed point is the top-k eigenvectors of P, mapped by M: the dense loadings.
	 */
	public static SparseLoadings fitMapped(final double[][] q, final double[] p,
		final SymmetricEigen e, final int k, final double sparsity, final double[] map,
		final double[] inverse)
	{
		checkSparsity(sparsity);
		final int m = q.length, d = q[0].length, r = e.size();
		if (!(e.value(Math.min(k, r) - 1) > 0)) throw new IllegalArgumentException(
			"sparse loadings need " + k + " directions with positive contrast, but only " +
				positives(e) + " have it: choose fewer components");
		final double l = e.value(0), eta = 1 / l, lambda1 = sparsity * l, threshold = eta *
			lambda1;
		double[] a = e.vectors(k), y = a.clone(); // r × k
		double[][] b = lift(q, multiply(map, y, m, r, k), k, d);
		int it = 0;
		for (; it < MAX_ITERATIONS; it++) {
			final double[] diff = new double[r * k];
			for (int i = 0; i < r * k; i++)
				diff[i] = y[i] - a[i];
			final double[] g = times(p, diff, r, k), step = new double[r * k];
			for (int i = 0; i < r * k; i++)
				step[i] = y[i] - eta * g[i];
			final double[][] v = lift(q, multiply(map, step, m, r, k), k, d);
			double change = 0, norm = 0;
			for (int c = 0; c < k; c++)
				for (int j = 0; j < d; j++) {
					final double x = v[c][j];
					final double t = Math.abs(x) <= threshold ? 0 : x - Math.signum(x) * threshold;
					change += (t - b[c][j]) * (t - b[c][j]);
					norm += t * t;
					v[c][j] = t;
				}
			b = v;
			y = multiply(inverse, coordinates(q, b, k), r, m, k);
			final double[] polar = polar(times(p, y, r, k), r, k);
			if (polar != null) a = polar;
			if (change <= TOLERANCE * TOLERANCE * Math.max(norm, 1e-300)) {
				it++;
				break;
			}
		}
		return finish(q, b, k, lambda1, it);
	}

	/** X M for the rows × inner matrix X and the inner × k block M (row-major). */
	static double[] multiply(final double[] x, final double[] y, final int rows,
		final int inner, final int k)
	{
		final double[] out = new double[rows * k];
		for (int i = 0; i < rows; i++)
			for (int t = 0; t < inner; t++) {
				final double v = x[i * inner + t];
				if (v == 0) continue;
				for (int c = 0; c < k; c++)
					out[i * k + c] += v * y[t * k + c];
			}
		return out;
	}

	/** Unit length, the sign rule, the count of zeros. */
	private static SparseLoadings finish(final double[][] q, final double[][] b, final int k,
		final double lambda1, final int it)
	{
		final int d = q[0].length;
		int zeros = 0, empty = 0;
		for (int c = 0; c < k; c++) {
			double s = 0;
			for (int j = 0; j < d; j++) {
				if (b[c][j] == 0) zeros++;
				s += b[c][j] * b[c][j];
			}
			if (s == 0) {
				empty++;
				continue;
			}
			s = Math.sqrt(s);
			int arg = 0;
			for (int j = 1; j < d; j++)
				if (Math.abs(b[c][j]) > Math.abs(b[c][arg])) arg = j;
			if (b[c][arg] < 0) s = -s;
			for (int j = 0; j < d; j++)
				b[c][j] = b[c][j] / s + 0.0;
		}
		return new SparseLoadings(b, coordinates(q, b, k), (double) zeros / ((double) k * d),
			lambda1, it, empty);
	}

	private static int positives(final SymmetricEigen e) {
		int n = 0;
		while (n < e.size() && e.value(n) > 0)
			n++;
		return n;
	}

	/** Q a: k rows of length d from the m × k block a. */
	static double[][] lift(final double[][] q, final double[] a, final int k, final int d) {
		final int m = q.length;
		final double[][] out = new double[k][d];
		for (int i = 0; i < m; i++) {
			final double[] qi = q[i];
			for (int c = 0; c < k; c++) {
				final double f = a[i * k + c];
				if (f == 0) continue;
				final double[] o = out[c];
				for (int j = 0; j < d; j++)
					o[j] += f * qi[j];
			}
		}
		return out;
	}

	/** QᵀB: m × k row-major from k rows of length d. */
	static double[] coordinates(final double[][] q, final double[][] b, final int k) {
		final int m = q.length;
		final double[] out = new double[m * k];
		for (int i = 0; i < m; i++)
			for (int c = 0; c < k; c++) {
				double s = 0;
				final double[] qi = q[i], bc = b[c];
				for (int j = 0; j < qi.length; j++)
					s += qi[j] * bc[j];
				out[i * k + c] = s;
			}
		return out;
	}

	/** P x for the m × k block x. */
	static double[] times(final double[] p, final double[] x, final int m, final int k) {
		final double[] out = new double[m * k];
		for (int i = 0; i < m; i++)
			for (int t = 0; t < m; t++) {
				final double v = p[i * m + t];
				if (v == 0) continue;
				for (int c = 0; c < k; c++)
					out[i * k + c] += v * x[t * k + c];
			}
		return out;
	}

	/** Z(ZᵀZ)^{-1/2} (m × k), or null when Z is rank deficient. */
	static double[] polar(final double[] z, final int m, final int k) {
		final double[] g = new double[k * k];
		for (int i = 0; i < m; i++)
			for (int a = 0; a < k; a++)
				for (int c = 0; c < k; c++)
					g[a * k + c] += z[i * k + a] * z[i * k + c];
		final SymmetricEigen e = SymmetricEigen.of(g, k);
		if (!(e.value(k - 1) > 1e-14 * e.value(0))) return null;
		final double[] h = new double[k * k];
		for (int c = 0; c < k; c++) {
			final double f = 1 / Math.sqrt(e.value(c));
			final double[] u = e.vector(c);
			for (int a = 0; a < k; a++)
				for (int b = 0; b < k; b++)
					h[a * k + b] += f * u[a] * u[b];
		}
		final double[] out = new double[m * k];
		for (int i = 0; i < m; i++)
			for (int a = 0; a < k; a++) {
				double s = 0;
				for (int b = 0; b < k; b++)
					s += z[i * k + b] * h[b * k + a];
				out[i * k + a] = s;
			}
		return out;
	}
}
