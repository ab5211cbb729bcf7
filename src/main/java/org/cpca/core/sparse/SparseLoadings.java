package org.cpca.core.sparse;

import org.cpca.core.Progress;
import org.cpca.core.linalg.SymmetricEigen;
import org.cpca.core.linalg.TopEigen;

import java.util.function.DoubleConsumer;

/**
 * Sparse loadings by variable projection (docs/math/sparse.md).
 * <p>
 * Given the contrast's positive part {@code Θ² = Q P Qᵀ} (P an m × m positive semidefinite
 * matrix in the space's coordinates, Q the d × m orthonormal basis of that space), solve
 * {@code min ½‖Θ − ΘBAᵀ‖²_F + λ₁‖B‖₁ + ½λ₂‖B‖²_F} subject to {@code AᵀA = I}:
 * alternately a proximal gradient step for B in feature space,
 * {@code B ← soft(B − η(Θ²(B − A) + λ₂B), ηλ₁)} with {@code η = 1/(λ_max(P) + λ₂)}, and
 * the orthogonal Procrustes step {@code A = Z(ZᵀZ)^{-1/2}}, {@code Z = Θ²B}. Every Θ²
 * product goes through the m-dimensional space ({@code Q P (QᵀY)}), so nothing d × d is
 * formed; A stays in the span of Q. The B-steps are accelerated by Nesterov's momentum
 * with restart ({@link #iterate}); each loading reports the iterations it needed and its
 * last relative change, and whether all reached {@link #TOLERANCE} before the cap.
 * <p>
 * Scale: the user's {@code sparsity} is the soft threshold per step in loading units,
 * {@code λ₁ = sparsity · (λ_max(P) + λ₂)}, which makes it free of the data's units: a
 * loading j with contrast λ_j loses the entries below about {@code sparsity·λ_max/λ_j};
 * 0 gives the dense loadings (the top-k eigenvectors of Θ², which are a fixed point), and
 * values approaching 1 zero every loading. Loadings are
 * returned with unit length; their zeros are exact.
 * <p>
 * Length (about 370 lines of code): one iteration and its state (the Procrustes step, the
 * accelerated proximal step with its restart, the convergence bookkeeping, the mapped form for
 * gcPCA), kept together so the fixed point's invariants read in one place.
 */
public final class SparseLoadings {

	/** Iterations at most (the cap; a run that reaches it says so). */
	public static final int MAX_ITERATIONS = 20_000;
	/**
	 * Iterations without a new low of the objective after which a run stops (a stall or a
	 * cycle; a slow but steady descent goes on to the cap).
	 */
	public static final int NO_PROGRESS = 2000;
	/** Converged when every loading's relative change ‖b_new − b‖/‖b_new‖ ≤ TOLERANCE. */
	public static final double TOLERANCE = 1e-6;

	/** k unit loadings (rows of length d; all-zero rows when λ₁ removed a whole one). */
	public final double[][] loadings;
	/** The loadings in the space's coordinates, QᵀB (m × k, row-major). */
	public final double[] coordinates;
	/** The fraction of zero entries over all k loadings. */
	public final double zeroFraction;
	/** λ₁ in the objective's units. */
	public final double lambda1;
	/** Number of loadings that became entirely zero. */
	public final int emptyLoadings;
	/** Per loading: the iterations it needed (the last one that changed it by more than
	 * the tolerance; the cap when it did not converge). */
	public final int[] iterations;
	/** Per loading: its relative change in the last iteration. */
	public final double[] finalChange;
	/** Whether every loading reached {@link #TOLERANCE} within the cap of iterations. */
	public final boolean converged;
	/** The cap of iterations the run had. */
	public final int cap;

	private SparseLoadings(final double[][] loadings, final double[] coordinates,
		final double zeroFraction, final double lambda1, final int empty,
		final int[] iterations, final double[] finalChange, final boolean converged,
		final int cap)
	{
		this.loadings = loadings;
		this.coordinates = coordinates;
		this.zeroFraction = zeroFraction;
		this.lambda1 = lambda1;
		this.emptyLoadings = empty;
		this.iterations = iterations;
		this.finalChange = finalChange;
		this.converged = converged;
		this.cap = cap;
	}

	/**
	 * Loadings assembled by the caller (e.g. gcPCA's two ends), with the iteration report
	 * of each loading (0 iterations and change for loadings kept dense).
	 */
	static SparseLoadings of(final double[][] loadings, final double[] coordinates,
		final double zeroFraction, final double lambda1, final int empty,
		final int[] iterations, final double[] finalChange, final boolean converged,
		final int cap)
	{
		return new SparseLoadings(loadings, coordinates, zeroFraction, lambda1, empty,
			iterations, finalChange, converged, cap);
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
		return fit(q, p, e, k, sparsity, ridge, MAX_ITERATIONS, true);
	}

	/**
	 * The same, with at most {@code cap} iterations; without {@code momentum}, the plain
	 * variable projection (the reference the accelerated iteration is tested against).
	 */
	static SparseLoadings fit(final double[][] q, final double[] p, final SymmetricEigen e,
		final int k, final double sparsity, final double ridge, final int cap,
		final boolean momentum)
	{
		return fit(q, p, e, k, sparsity, ridge, cap, momentum, null);
	}

	/** The same, handing the objective after every iteration to {@code trace}. */
	static SparseLoadings fit(final double[][] q, final double[] p, final SymmetricEigen e,
		final int k, final double sparsity, final double ridge, final int cap,
		final boolean momentum, final DoubleConsumer trace)
	{
		checkSparsity(sparsity);
		final int m = q.length, d = q[0].length;
		if (!(e.value(Math.min(k, m) - 1) > 0)) throw new IllegalArgumentException(
			"sparse loadings need " + k + " directions with positive contrast, but only " +
				positives(e) + " have it: choose fewer components (or another α)");
		final double top = e.value(0), lambda2 = ridge * top, l = top + lambda2;
		final double eta = 1 / l, lambda1 = sparsity * l;
		// the gradient step in feature space, X − η(Θ²(X − A) + λ₂X), from X and QᵀX
		final Problem problem = new Problem(p, e.vectors(k), m, k, lambda2) {

			@Override
			double[][] step(final double[][] x, final double[] cx) {
				final double[][] g = lift(q, pTimesOffset(cx), k, d); // Θ²(X − A)
				for (int c = 0; c < k; c++)
					for (int j = 0; j < d; j++)
						g[c][j] = x[c][j] - eta * (g[c][j] + lambda2 * x[c][j]);
				return g;
			}

			@Override
			double[] project(final double[][] b) {
				return coordinates(q, b, k);
			}
		};
		return iterate(q, problem, lift(q, problem.a, k, d), eta * lambda1, lambda1, cap,
			momentum, trace);
	}

	/**
	 * Sparse loadings of a problem posed in other coordinates y (sparse gcPCA's whitened
	 * problem, docs/math/sparse.md#sparse-gcpca): P (r × r, positive semidefinite) is Θ² in
	 * y, a loading in the space's coordinates is {@code x = M y} ({@code map}, m × r, full
	 * column rank) and {@code inverse} (r × m) is its left inverse, so a loading v in
	 * feature space has the whitened coordinates {@code y = G v}, {@code G = M⁺Qᵀ}. The
	 * variable B lives in feature space and the objective is the one of {@link #fit} with
	 * Θ² replaced by {@code GᵀPG}: {@code ½ tr((GB)ᵀP(GB)) − tr(AᵀPGB) + λ₁‖B‖₁}. Its
	 * B-step is a true proximal gradient step, {@code B ← soft(B − ηGᵀP(GB − A), ηλ₁)}
	 * with {@code η = 1/λ_max(GᵀPG)}, and the Procrustes step is {@code A = polar(PGB)},
	 * so the objective never increases (an earlier version stepped in y and thresholded
	 * the step mapped to feature space, which is the prox of no penalty, and cycled). At
	 * sparsity 0 the start {@code Q M a} (a the top-k eigenvectors of P) is a fixed point:
	 * the dense loadings.
	 */
	public static SparseLoadings fitMapped(final double[][] q, final double[] p,
		final SymmetricEigen e, final int k, final double sparsity, final double[] map,
		final double[] inverse, final int cap)
	{
		return fitMapped(q, p, e, k, sparsity, map, inverse, cap, true, null);
	}

	/**
	 * The same, with or without momentum, handing the objective after every iteration to
	 * {@code trace}.
	 */
	static SparseLoadings fitMapped(final double[][] q, final double[] p,
		final SymmetricEigen e, final int k, final double sparsity, final double[] map,
		final double[] inverse, final int cap, final boolean momentum,
		final DoubleConsumer trace)
	{
		checkSparsity(sparsity);
		final int m = q.length, d = q[0].length, r = e.size();
		if (!(e.value(Math.min(k, r) - 1) > 0)) throw new IllegalArgumentException(
			"sparse loadings need " + k + " directions with positive contrast, but only " +
				positives(e) + " have it: choose fewer components");
		// the maps between y and feature space, formed once (r rows of length d each):
		// x = (QM) y and y = G x, G = M⁺Qᵀ, so an iteration costs O(rkd), not O(mkd)
		final double[][] fromY = lift(q, map, r, d);
		final double[] inverseT = new double[m * r];
		for (int j = 0; j < r; j++)
			for (int i = 0; i < m; i++)
				inverseT[i * r + j] = inverse[j * m + i];
		final double[][] toY = lift(q, inverseT, r, d);
		// as for cPCA the sparsity is the soft threshold per step, λ₁ = sparsity · L with L
		// the gradient's Lipschitz constant, λ_max(GᵀPG) (a smaller λ₁, sparsity·λ_max(P),
		// made the ill-conditioned iteration crawl: thousands of iterations to the cap)
		final double l = lipschitz(p, e, inverseT, m, r), eta = 1 / l, lambda1 = sparsity * l;
		final Problem problem = new Problem(p, e.vectors(k), r, k, 0) {

			@Override
			double[][] step(final double[][] x, final double[] y) {
				final double[][] g = lift(toY, pTimesOffset(y), k, d); // GᵀP(GX − A)
				for (int c = 0; c < k; c++)
					for (int j = 0; j < d; j++)
						g[c][j] = x[c][j] - eta * g[c][j];
				return g;
			}

			@Override
			double[] project(final double[][] b) {
				return coordinates(toY, b, k);
			}
		};
		return iterate(q, problem, lift(fromY, problem.a, k, d), eta * lambda1, lambda1, cap,
			momentum, trace);
	}

	/**
	 * λ_max(GᵀPG) = λ_max(P^{1/2} GGᵀ P^{1/2}), the Lipschitz constant of the mapped
	 * problem's gradient; {@code GGᵀ = M⁺M⁺ᵀ} because Q is orthonormal ({@code inverseT}
	 * is M⁺ transposed, m × r).
	 */
	private static double lipschitz(final double[] p, final SymmetricEigen e,
		final double[] inverseT, final int m, final int r)
	{
		final double[] h = new double[r * r]; // GGᵀ
		for (int i = 0; i < m; i++)
			for (int a = 0; a < r; a++) {
				final double f = inverseT[i * r + a];
				if (f == 0) continue;
				for (int b = 0; b < r; b++)
					h[a * r + b] += f * inverseT[i * r + b];
			}
		final double[] root = new double[r * r]; // P^{1/2}
		for (int c = 0; c < r && e.value(c) > 0; c++) {
			final double s = Math.sqrt(e.value(c));
			final double[] u = e.vector(c);
			for (int a = 0; a < r; a++)
				for (int b = 0; b < r; b++)
					root[a * r + b] += s * u[a] * u[b];
		}
		final double[] inner = times(h, root, r, r), outer = times(root, inner, r, r);
		return SymmetricEigen.of(outer, r).value(0);
	}

	/**
	 * One problem of the variable projection: its gradient step (in feature space, before
	 * the soft threshold) and its Procrustes step, in the problem's own coordinates (the
	 * space's for cPCA, gcPCA's whitened ones); A is the current orthonormal block.
	 */
	private abstract static class Problem {

		final double[] p;
		final int n, k;
		final double lambda2;
		double[] a;

		Problem(final double[] p, final double[] a, final int n, final int k,
			final double lambda2)
		{
			this.p = p;
			this.a = a;
			this.n = n;
			this.k = k;
			this.lambda2 = lambda2;
		}

		/**
		 * The gradient step from X (k rows of length d; {@code cx} its coordinates,
		 * {@link #project}), in feature space.
		 */
		abstract double[][] step(double[][] x, double[] cx);

		/** The problem's coordinates (n × k) of k rows in feature space. */
		abstract double[] project(double[][] b);

		/** {@code P(Y − A)} for a block Y in the problem's coordinates. */
		double[] pTimesOffset(final double[] y) {
			final double[] diff = new double[n * k];
			for (int i = 0; i < diff.length; i++)
				diff[i] = y[i] - a[i];
			return times(p, diff, n, k);
		}

		/**
		 * The objective at B (its coordinates {@code cb}, and {@code pc = P·cb}) and the
		 * current A, up to a constant: {@code ½ tr(cbᵀP cb) − tr(AᵀP cb) + ½λ₂‖B‖²_F +
		 * λ₁‖B‖₁}.
		 */
		double objective(final double[][] b, final double[] cb, final double[] pc,
			final double lambda1)
		{
			double f = 0;
			for (int i = 0; i < pc.length; i++)
				f += (0.5 * cb[i] - a[i]) * pc[i];
			double l1 = 0, l2 = 0;
			for (final double[] row : b)
				for (final double x : row) {
					l1 += Math.abs(x);
					l2 += x * x;
				}
			return f + 0.5 * lambda2 * l2 + lambda1 * l1;
		}

		/** Procrustes: {@code A = Z(ZᵀZ)^{-1/2}}, {@code Z = P·cb} (kept if Z is singular). */
		void procrustes(final double[] pc) {
			final double[] polar = polar(pc, n, k);
			if (polar != null) a = polar;
		}

		/** {@code P·cb}: the Procrustes step and the objective of one iteration share it. */
		double[] pTimes(final double[] cb) {
			return times(p, cb, n, k);
		}
	}

	/**
	 * The accelerated variable projection (docs/math/sparse.md#solver): each iteration
	 * takes the proximal gradient step for B from the extrapolated point
	 * {@code X = B + μ(B − B_prev)} (Nesterov's momentum {@code μ = (t − 1)/t'},
	 * {@code t' = (1 + √(1 + 4t²))/2}), soft-thresholds it, then the Procrustes step for
	 * A. The momentum restarts ({@code t = 1}) whenever the step points against the
	 * progress, {@code ⟨X − B_new, B_new − B⟩ > 0} (O'Donoghue &amp; Candès' gradient
	 * restart), and also whenever the objective went up (their function restart). Without
	 * momentum the objective never increases: the B-step is a proximal
	 * gradient step of step size 1/L (the descent lemma) and the Procrustes step minimises
	 * over A exactly; with it, the restart keeps it monotone in practice. A fixed point is
	 * the same with and without momentum. Stops when every loading's relative change is at
	 * most {@link #TOLERANCE}, at the cap, or when the objective has not reached a new
	 * low for {@value #NO_PROGRESS} iterations (not converged either, and reported so). {@code trace}, when given, receives the objective after every iteration.
	 */
	private static SparseLoadings iterate(final double[][] q, final Problem problem,
		final double[][] start, final double threshold, final double lambda1, final int cap,
		final boolean momentum, final DoubleConsumer trace)
	{
		final int k = problem.k;
		double[][] b = start, prev = start;
		double[] cb = problem.project(b), cprev = cb;
		double t = 1;
		final int[] needed = new int[k];
		final double[] change = new double[k];
		boolean converged = false;
		double last = problem.objective(b, cb, problem.pTimes(cb), lambda1);
		double best = last; // the lowest objective so far
		int since = 0; // iterations since it was reached
		for (int it = 1; it <= cap && !converged && since < NO_PROGRESS; it++) {
			if ((it & 63) == 0) Progress.checkInterrupted();
			final double tn = momentum ? (1 + Math.sqrt(1 + 4 * t * t)) / 2 : 1, mu = (t - 1) / tn;
			final double[][] x = mu == 0 ? b : extrapolate(b, prev, mu);
			final double[][] v = threshold(problem.step(x, mu == 0 ? cb : extrapolate(
				new double[][] { cb }, new double[][] { cprev }, mu)[0]), threshold);
			final double[] cv = problem.project(v);
			double against = 0;
			converged = true;
			for (int c = 0; c < k; c++) {
				final double[] vc = v[c], bc = b[c], xc = x[c];
				double diff = 0, norm = 0, was = 0;
				for (int j = 0; j < vc.length; j++) {
					final double delta = vc[j] - bc[j];
					diff += delta * delta;
					norm += vc[j] * vc[j];
					was += bc[j] * bc[j];
					against += (xc[j] - vc[j]) * delta;
				}
				final double scale = Math.max(norm, was);
				change[c] = scale == 0 ? 0 : Math.sqrt(diff / scale);
				if (change[c] > TOLERANCE) {
					needed[c] = it;
					converged = false;
				}
			}
			prev = b;
			cprev = cb;
			b = v;
			cb = cv;
			final double[] pc = problem.pTimes(cb);
			problem.procrustes(pc);
			final double objective = problem.objective(b, cb, pc, lambda1);
			if (trace != null) trace.accept(objective);
			// gradient restart, and function restart when the objective went up
			t = against > 0 || objective > last ? 1 : tn;
			last = objective;
			if (objective < best - 1e-13 * Math.abs(best)) {
				best = objective;
				since = 0;
			}
			else since++;
		}
		return finish(q, b, k, lambda1, needed, change, converged, cap);
	}

	/** The soft threshold {@code S_τ}, entry by entry, in place. */
	private static double[][] threshold(final double[][] v, final double tau) {
		for (final double[] row : v)
			for (int j = 0; j < row.length; j++) {
				final double y = row[j];
				row[j] = Math.abs(y) <= tau ? 0 : y - Math.signum(y) * tau;
			}
		return v;
	}

	/** {@code B + μ(B − P)}, row by row. */
	private static double[][] extrapolate(final double[][] b, final double[][] p,
		final double mu)
	{
		final double[][] out = new double[b.length][];
		for (int c = 0; c < b.length; c++) {
			final double[] bc = b[c], pc = p[c], o = new double[bc.length];
			for (int j = 0; j < o.length; j++)
				o[j] = bc[j] + mu * (bc[j] - pc[j]);
			out[c] = o;
		}
		return out;
	}

	/** Unit length, the sign rule, the count of zeros. */
	private static SparseLoadings finish(final double[][] q, final double[][] b, final int k,
		final double lambda1, final int[] iterations, final double[] change,
		final boolean converged, final int cap)
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
			lambda1, empty, iterations, change, converged, cap);
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

	/**
	 * QᵀB: m × k row-major from k rows of length d (dot products with independent sums,
	 * {@link TopEigen#dot}: a plain running sum is one dependent chain the compiler may not
	 * reorder, and this product is half of every iteration's work).
	 */
	static double[] coordinates(final double[][] q, final double[][] b, final int k) {
		final int m = q.length;
		final double[] out = new double[m * k];
		for (int i = 0; i < m; i++)
			for (int c = 0; c < k; c++)
				out[i * k + c] = TopEigen.dot(q[i], b[c]);
		return out;
	}

	/** P x for the m × k block x (by rows of P against the columns of x). */
	static double[] times(final double[] p, final double[] x, final int m, final int k) {
		final double[][] columns = new double[k][m];
		for (int t = 0; t < m; t++)
			for (int c = 0; c < k; c++)
				columns[c][t] = x[t * k + c];
		final double[] out = new double[m * k];
		final double[] row = new double[m];
		for (int i = 0; i < m; i++) {
			System.arraycopy(p, i * m, row, 0, m);
			for (int c = 0; c < k; c++)
				out[i * k + c] = TopEigen.dot(row, columns[c]);
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
