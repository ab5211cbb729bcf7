package org.cpca.core;

import java.util.HashMap;
import java.util.Map;

import org.apache.commons.math3.analysis.solvers.BrentSolver;
import org.apache.commons.math3.exception.TooManyEvaluationsException;

/**
 * The dual function of UCA and its minimisation (ALGORITHMS.md §6):
 * {@code g(λ) = λ_max(A − Σ_j λ_j B_j) + Σ_j λ_j} over λ ≥ 0, with
 * {@code ∂g/∂λ_j = 1 − vᵀB_j v} (v the top eigenvector). g is convex; it is
 * <em>minimised</em> (the seed's "max" is a typo).
 * <p>
 * Each coordinate is a 1-D convex problem: from the current λ_j the minimiser is bracketed
 * (steps growing fourfold in the direction the derivative points), then the root of the
 * non-decreasing derivative is found by Brent's method (Commons Math). A coordinate whose
 * derivative is ≥ 0 at λ_j = 0 stays at 0 (its constraint is inactive). Several
 * coordinates are cycled until one sweep changes g by less than {@link #TOLERANCE}
 * (relative), or {@link #MAX_SWEEPS} sweeps.
 * <p>
 * <b>The space.</b> A and B_j are the fit's m × m matrices. In the reduced space (m = r &lt;
 * d) every feature-space direction outside the data's row space has zero target and zero
 * background variance, i.e. eigenvalue 0 of A − Σλ_jB_j; so the feature-space
 * {@code λ_max} is {@code max(λ_max in the row space, 0)} and the derivative is 1 when the
 * 0 wins. With that floor the reduced problem's g, λ and optimum equal the feature space's
 * exactly. Each λ_max comes from {@link TopEigen}, warm-started with the previous
 * evaluation's vectors (successive λ are close).
 * <p>
 * <b>Infeasibility.</b> A feasible primal has optimum ≥ 0 (A is positive semi-definite), so
 * by weak duality g(λ) &lt; 0 proves that no unit vector meets every constraint; that is
 * reported as an error rather than iterated on.
 */
final class UcaDual {

	/** Stop when one sweep changes g by less than this fraction of |g|. */
	static final double TOLERANCE = 1e-8;
	/** Cap on the sweeps of coordinate descent (several backgrounds). */
	static final int MAX_SWEEPS = 500;
	/** Relative accuracy of each λ_j (Brent's method). */
	static final double LAMBDA_ACCURACY = 1e-11;
	private static final int MAX_BRENT_EVALUATIONS = 200;
	private static final int MAX_STEPS = 120;

	/** g at one λ, with what the derivatives need. */
	static final class Point {

		final double[] lambda;
		/** λ_max(A − Σλ_jB_j) in the space (before the floor). */
		final double top;
		/** g(λ). */
		final double value;
		/** The top eigenvector (length m, unit), in the space's coordinates. */
		final double[] vector;
		/** vᵀB_jv for each background (0 when the floor is active). */
		final double[] constraint;
		/** Whether the floor (a direction outside the data's row space) gives λ_max. */
		final boolean floored;

		Point(final double[] lambda, final double top, final double value,
			final double[] vector, final double[] constraint, final boolean floored)
		{
			this.lambda = lambda;
			this.top = top;
			this.value = value;
			this.vector = vector;
			this.constraint = constraint;
			this.floored = floored;
		}

		double derivative(final int j) {
			return 1 - constraint[j];
		}
	}

	/** The minimiser found and how. */
	static final class Minimum {

		final Point point;
		/** Coordinate-descent sweeps. */
		final int sweeps;
		/** Projected Newton steps. */
		final int newtonSteps;
		final int evaluations;
		final boolean converged;
		/** Whether every constraint was inactive at λ = 0 (UCA is PCA). */
		final boolean inactive;
		/** The derivative of g at λ = 0 per background (1 − v₀ᵀB_jv₀, v₀ the target's PC 1). */
		final double[] derivativeAtZero;

		Minimum(final Point point, final int sweeps, final int newtonSteps,
			final int evaluations, final boolean converged, final boolean inactive,
			final double[] derivativeAtZero)
		{
			this.point = point;
			this.sweeps = sweeps;
			this.newtonSteps = newtonSteps;
			this.evaluations = evaluations;
			this.converged = converged;
			this.inactive = inactive;
			this.derivativeAtZero = derivativeAtZero;
		}
	}

	private final int m;
	private final double[] a;
	private final double[][] bs;
	private final boolean floor;
	private final long seed;
	private final Progress progress;
	private final double traceA;
	/** Natural unit of each λ_j: tr A / tr B_j (where B_j starts to matter). */
	private final double[] unit;
	private double[][] warm;
	private int evaluations;

	/**
	 * @param floor whether directions outside the space exist (reduced space, r &lt; d)
	 */
	UcaDual(final ContrastiveSpace space, final boolean floor, final long seed,
		final Progress progress)
	{
		this.m = space.dimension();
		this.a = space.a;
		this.bs = space.backgrounds;
		this.floor = floor;
		this.seed = seed;
		this.progress = progress;
		this.traceA = space.targetTotalVariance;
		this.unit = new double[bs.length];
		for (int j = 0; j < bs.length; j++) {
			double t = 0;
			for (int i = 0; i < m; i++)
				t += bs[j][i * m + i];
			unit[j] = t > 0 ? traceA / t : 1;
		}
	}

	/** {@code A − Σ_j λ_j B_j} (m × m, row-major; symmetric when A and B_j are). */
	double[] contrast(final double[] lambda) {
		final double[] c = a.clone();
		for (int j = 0; j < bs.length; j++) {
			final double l = lambda[j];
			if (l == 0) continue;
			final double[] b = bs[j];
			for (int i = 0; i < c.length; i++)
				c[i] -= l * b[i];
		}
		return c;
	}

	/** The warm-start block of the last evaluation (for the final top-k solve). */
	double[][] warmStart() {
		return warm;
	}

	/** g, λ_max and vᵀB_jv at λ. */
	Point at(final double[] lambda) {
		progress.checkCancelled();
		evaluations++;
		final TopEigen.Result r = TopEigen.solve(contrast(lambda), m, 1, warm, seed);
		warm = r.warmStart;
		final double top = r.values[0];
		double sum = 0;
		for (final double l : lambda)
			sum += l;
		final double[] constraint = new double[bs.length];
		final boolean floored = floor && top < 0;
		if (!floored) for (int j = 0; j < bs.length; j++)
			constraint[j] = quadratic(bs[j], r.vectors);
		final Point p = new Point(lambda.clone(), top, (floored ? 0 : top) + sum, r.vectors,
			constraint, floored);
		if (p.value < -1e-9 * traceA) throw new IllegalArgumentException(
			"UCA's constraints vᵀB_jv ≤ 1 cannot all be met: no direction has a variance of " +
				"at most 1 in every background (the dual falls to " + String.format("%.4g", p
					.value) + " < 0 at λ = " + java.util.Arrays.toString(lambda) + "). The " +
				"constraint is in the backgrounds' units: standardise the data, or rescale " +
				"the backgrounds");
		return p;
	}

	private double quadratic(final double[] s, final double[] v) {
		double q = 0;
		for (int i = 0; i < m; i++) {
			final int o = i * m;
			double row = 0;
			for (int j = 0; j < m; j++)
				row += s[o + j] * v[j];
			q += v[i] * row;
		}
		return q;
	}

	/**
	 * Minimises g from λ = 0. One background: one exact 1-D solve. Several: projected
	 * Newton steps while they decrease g enough, otherwise a coordinate-descent sweep
	 * followed by a line search along the sweep's displacement. When a sweep changes g by
	 * less than {@link #TOLERANCE} (relative), the point is checked on its top eigenvalue
	 * cluster ({@link #escape}): either it is optimal, or a descent direction across the
	 * kink is followed and the iteration goes on.
	 */
	Minimum minimise() {
		final int n = bs.length;
		Point p = at(new double[n]);
		final double[] atZero = new double[n];
		boolean inactive = true;
		for (int j = 0; j < n; j++) {
			atZero[j] = p.derivative(j);
			if (atZero[j] < 0) inactive = false;
		}
		if (inactive) return new Minimum(p, 0, 0, evaluations, true, true, atZero);
		if (n == 1) return new Minimum(coordinate(0, p, 0), 1, 0, evaluations, true, false,
			atZero);
		final double[] change = new double[n];
		boolean converged = false, ridge = false;
		int sweeps = 0, newtonSteps = 0, ridgeSteps = 0;
		Point ridgeStart = null;
		while (!converged && sweeps + newtonSteps + ridgeSteps < MAX_SWEEPS) {
			progress.stage("UCA: coordinate descent", Math.min(1, (sweeps + newtonSteps +
				ridgeSteps) / 20.0));
			final Point q = newton(p);
			if (q != null) {
				newtonSteps++;
				double moved = 0;
				for (int j = 0; j < n; j++)
					moved = Math.max(moved, Math.abs(q.lambda[j] - p.lambda[j]) / Math.max(
						q.lambda[j], unit[j]));
				p = q;
				ridge = false;
				converged = residual(p) <= 1e-10 || moved <= 1e-13;
				continue;
			}
			if (!ridge) {
				sweeps++;
				Point c = p;
				for (int j = 0; j < n; j++) {
					final Point next = coordinate(j, c, change[j]);
					change[j] = next.lambda[j] - c.lambda[j];
					c = next;
				}
				c = pattern(p, c);
				final boolean small = Math.abs(p.value - c.value) <= TOLERANCE * Math.max(Math
					.abs(c.value), Double.MIN_NORMAL);
				p = c;
				if (!small) continue;
				// coordinate descent has stopped: optimal, or stuck on a ridge
				ridge = true;
				ridgeStart = p;
			}
			ridgeSteps++;
			final Point e = escape(p);
			if (e == p || e == null) {
				converged = e == p;
				break;
			}
			p = ridgeSteps % 2 == 0 ? pattern(ridgeStart, e) : e;
			if (ridgeSteps % 2 == 0) ridgeStart = p;
		}
		return new Minimum(p, sweeps + ridgeSteps, newtonSteps, evaluations, converged,
			false, atZero);
	}

	/** Relative widths of the top eigenvalue cluster tried by {@link #escape}. */
	private static final double[] CLUSTER = { 1e-10, 1e-7, 1e-4 };

	/**
	 * The optimality test at a kink of g, and the way out when it fails. At λ with top
	 * eigenvalue cluster spanned by U (eigenvalues within a relative width of the top;
	 * the floor counts as a member with zero variance), the subgradients of g are
	 * {@code s_j(Y) = 1 − ⟨UᵀB_jU, Y⟩} for Y ⪰ 0 of trace 1. λ is optimal iff some Y makes
	 * the projected subgradient ρ(Y) (s_j where λ_j &gt; 0, min(0, s_j) where λ_j = 0)
	 * vanish. The Y minimising ½‖ρ(Y)‖² is found by Frank–Wolfe (its linear step is the
	 * top eigenvector of Σρ_jUᵀB_jU); if ρ does not vanish, −ρ is a descent direction
	 * (ε-steepest descent), followed by a line search. Widths grow from 1e-10 to 1e-4 while
	 * the line search gains nothing.
	 *
	 * @return p itself when optimal, a better point, or {@code null} when neither is found
	 */
	private Point escape(final Point p) {
		final int n = bs.length, want = Math.min(m, n + 2);
		final TopEigen.Result top = TopEigen.solve(contrast(p.lambda), m, want, warm, seed);
		final double peak = p.floored ? 0 : Math.max(top.values[0], floor ? 0 : top.values[
			0]);
		for (final double width : CLUSTER) {
			final double delta = width * Math.max(Math.abs(peak), Math.abs(p.value));
			int r = 0;
			while (r < want && top.values[r] >= peak - delta)
				r++;
			final boolean withFloor = floor && 0 >= peak - delta;
			final int size = r + (withFloor ? 1 : 0);
			if (size == 0) continue;
			// M_j = UᵀB_jU (size × size; the floor's row and column are zero)
			final double[][] mj = new double[n][size * size];
			for (int j = 0; j < n; j++)
				for (int a = 0; a < r; a++) {
					final double[] bu = times(bs[j], top.vectors, want, a);
					for (int b = 0; b < r; b++) {
						double x = 0;
						for (int i = 0; i < m; i++)
							x += top.vectors[i * want + b] * bu[i];
						mj[j][a * size + b] = x;
					}
				}
			final double[] rho = minimumNorm(p.lambda, mj, size);
			double norm = 0;
			for (final double x : rho)
				norm = Math.max(norm, Math.abs(x));
			if (norm <= 1e-9) return p;
			final double[] d = new double[n];
			double tMin = Double.NEGATIVE_INFINITY, tMax = Double.POSITIVE_INFINITY;
			for (int j = 0; j < n; j++) {
				d[j] = -rho[j];
				if (d[j] > 0) tMin = Math.max(tMin, -p.lambda[j] / d[j]);
				if (d[j] < 0) tMax = Math.min(tMax, p.lambda[j] / -d[j]);
			}
			double scale = 0;
			for (int j = 0; j < n; j++)
				scale = Math.max(scale, Math.max(p.lambda[j], unit[j]));
			final Point q = line(p, d, tMin, tMax, delta > 0 ? scale * Math.max(width, 1e-6)
				: scale, 1e-14 * scale);
			if (q.value < p.value - 1e-14 * Math.abs(p.value)) return q;
		}
		return null;
	}

	/** Column c of the m × k block w, multiplied by the m × m matrix s. */
	private double[] times(final double[] s, final double[] w, final int k, final int c) {
		final double[] out = new double[m];
		for (int i = 0; i < m; i++) {
			double x = 0;
			for (int t = 0; t < m; t++)
				x += s[i * m + t] * w[t * k + c];
			out[i] = x;
		}
		return out;
	}

	/**
	 * ρ(Y) at the Y ⪰ 0, tr Y = 1 (size × size) minimising ½‖ρ(Y)‖², by Frank–Wolfe with
	 * exact steps, from Y = e₁e₁ᵀ (the top eigenvector alone, i.e. the gradient).
	 */
	private static double[] minimumNorm(final double[] lambda, final double[][] mj,
		final int size)
	{
		final int n = lambda.length;
		final double[] y = new double[size * size];
		y[0] = 1;
		final double[] rho = new double[n];
		for (int it = 0; it < 5000; it++) {
			double obj = 0;
			for (int j = 0; j < n; j++) {
				final double sj = 1 - inner(mj[j], y);
				rho[j] = lambda[j] > 0 ? sj : Math.min(0, sj);
				obj += rho[j] * rho[j];
			}
			if (size == 1 || obj == 0) break;
			// linear step: the spectraplex vertex zzᵀ with z the top eigenvector of Σρ_jM_j
			final double[] g = new double[size * size];
			for (int j = 0; j < n; j++)
				for (int i = 0; i < g.length; i++)
					g[i] += rho[j] * mj[j][i];
			final double[] z = SymmetricEigen.of(g, size).vectors(1);
			final double[] dy = new double[size * size];
			for (int a = 0; a < size; a++)
				for (int b = 0; b < size; b++)
					dy[a * size + b] = z[a] * z[b] - y[a * size + b];
			double num = 0, den = 0;
			for (int j = 0; j < n; j++) {
				final double ds = -inner(mj[j], dy);
				if (lambda[j] > 0 || rho[j] < 0) {
					num += rho[j] * ds;
					den += ds * ds;
				}
			}
			// Frank–Wolfe gap: −⟨∇F, Z − Y⟩ = −Σρ_j Δs_j
			if (!(den > 0) || -num <= 1e-20 + 1e-12 * obj) break;
			final double gamma = Math.min(1, Math.max(0, -num / den));
			if (gamma == 0) break;
			for (int i = 0; i < y.length; i++)
				y[i] += gamma * dy[i];
		}
		return rho;
	}

	private static double inner(final double[] a, final double[] b) {
		double s = 0;
		for (int i = 0; i < a.length; i++)
			s += a[i] * b[i];
		return s;
	}

	/**
	 * How far p is from the optimality conditions: max over j of |∂g/∂λ_j| where λ_j &gt;
	 * 0, and of the negative part of ∂g/∂λ_j where λ_j = 0.
	 */
	static double residual(final Point p) {
		double r = 0;
		for (int j = 0; j < p.lambda.length; j++) {
			final double g = p.derivative(j);
			r = Math.max(r, p.lambda[j] > 0 ? Math.abs(g) : Math.max(0, -g));
		}
		return r;
	}

	/**
	 * One projected Newton step (Bertsekas): coordinates at λ_j = 0 with ∂g/∂λ_j ≥ 0 stay
	 * fixed; on the others d = −H⁻¹∇g with the exact Hessian {@link #hessian}; then
	 * backtracking (Armijo) from the full step, cut at the bound λ ≥ 0. Returns
	 * {@code null} when the step is not possible (a repeated top eigenvalue, the floor) or
	 * does not decrease g enough, so that the caller falls back to coordinate descent.
	 */
	private Point newton(final Point p) {
		if (p.floored) return null;
		final int n = bs.length;
		final int[] free = new int[n];
		int f = 0;
		for (int j = 0; j < n; j++)
			if (p.lambda[j] > 0 || p.derivative(j) < 0) free[f++] = j;
		if (f == 0) return null;
		final double[][] h = hessian(p);
		if (h == null) return null;
		final double[][] hf = new double[f][f];
		final double[] gf = new double[f];
		for (int a = 0; a < f; a++) {
			gf[a] = -p.derivative(free[a]);
			for (int b = 0; b < f; b++)
				hf[a][b] = h[free[a]][free[b]];
		}
		final double[] step;
		try {
			step = new org.apache.commons.math3.linear.CholeskyDecomposition(
				new org.apache.commons.math3.linear.Array2DRowRealMatrix(hf, false), 1e-12,
				1e-14).getSolver().solve(new org.apache.commons.math3.linear.ArrayRealVector(gf,
					false)).toArray();
		}
		catch (final org.apache.commons.math3.exception.MathIllegalArgumentException e) {
			return null;
		}
		final double[] d = new double[n];
		double slope = 0, tMax = 1;
		for (int a = 0; a < f; a++) {
			final int j = free[a];
			d[j] = step[a];
			slope += d[j] * p.derivative(j);
			if (d[j] < 0) tMax = Math.min(tMax, p.lambda[j] / -d[j]);
		}
		if (!(slope < 0) || !(tMax > 0)) return null;
		for (double t = tMax; t > 1e-6 * tMax; t *= 0.5) {
			final double[] l = p.lambda.clone();
			for (int j = 0; j < n; j++)
				if (d[j] != 0) l[j] = t == tMax && d[j] < 0 && p.lambda[j] / -d[j] == tMax ? 0
					: Math.max(0, p.lambda[j] + t * d[j]);
			final Point q = at(l);
			// sufficient decrease, or (near the optimum) a full step whose predicted
			// decrease is below the rounding of g and that does not increase it
			if (q.value <= p.value + 1e-4 * t * slope || t == tMax && -slope <= 1e-12 * Math
				.abs(p.value) && q.value <= p.value + 1e-14 * Math.abs(p.value)) return q;
		}
		return null;
	}

	/**
	 * The Hessian of g at p (n × n): {@code ∂²g/∂λ_j∂λ_k = 2 y_jᵀ(θ₁I − C)⁺y_k} with
	 * {@code y_j = B_jv − (vᵀB_jv)v} (second-order perturbation of a simple top eigenpair
	 * (θ₁, v) of C = A − Σλ_jB_j). The pseudo-inverse acts on v's complement, so it is
	 * applied as the inverse of the positive definite {@code θ₁I − C + τvvᵀ} (Cholesky).
	 * {@code null} when that factorisation fails: the top eigenvalue is repeated (g has a
	 * kink there and no Hessian).
	 */
	private double[][] hessian(final Point p) {
		final int n = bs.length;
		final double[] c = contrast(p.lambda);
		final double[] v = p.vector;
		double norm = 0;
		for (final double x : c)
			norm += x * x;
		final double tau = Math.max(Math.sqrt(norm / m), Double.MIN_NORMAL);
		final double[][] mm = new double[m][m];
		for (int i = 0; i < m; i++)
			for (int j = 0; j < m; j++)
				mm[i][j] = (i == j ? p.top : 0) - c[i * m + j] + tau * v[i] * v[j];
		final double[][] r;
		try {
			r = Kernels.cholesky(mm);
		}
		catch (final ArithmeticException e) {
			return null;
		}
		// relative size of the smallest pivot: a near-singular factor means a (nearly)
		// repeated top eigenvalue
		double minPivot = Double.POSITIVE_INFINITY;
		for (int i = 0; i < m; i++)
			minPivot = Math.min(minPivot, r[i][i] * r[i][i]);
		if (minPivot < 1e-12 * tau) return null;
		final double[] y = new double[m * n];
		for (int j = 0; j < n; j++) {
			final double[] b = bs[j];
			for (int i = 0; i < m; i++) {
				double s = 0;
				for (int t = 0; t < m; t++)
					s += b[i * m + t] * v[t];
				y[i * n + j] = s - p.constraint[j] * v[i];
			}
		}
		final double[] z = Kernels.choleskySolve(r, y, n);
		final double[][] h = new double[n][n];
		for (int j = 0; j < n; j++)
			for (int k = 0; k < n; k++) {
				double s = 0;
				for (int i = 0; i < m; i++)
					s += y[i * n + j] * z[i * n + k];
				h[j][k] = 2 * s;
			}
		for (int j = 0; j < n; j++)
			for (int k = j + 1; k < n; k++)
				h[j][k] = h[k][j] = 0.5 * (h[j][k] + h[k][j]);
		return h;
	}

	/** Minimises g over λ_j alone (the others fixed), from p. */
	private Point coordinate(final int j, final Point p, final double lastChange) {
		final double[] direction = new double[bs.length];
		direction[j] = 1;
		final double t0 = p.lambda[j];
		// first step: last sweep's change, else where the current top direction's contrast
		// vanishes, else the natural unit
		double step = Math.abs(lastChange);
		if (!(step > 0)) step = t0 > 0 ? t0 / 2 : p.top > 0 && p.constraint[j] > 0 ? p.top /
			p.constraint[j] : unit[j];
		return line(p, direction, -t0, Double.POSITIVE_INFINITY, Math.max(step, 1e-12 * Math
			.max(t0, unit[j])), 1e-14 * Math.max(t0, unit[j]));
	}

	/**
	 * Powell's pattern move: a line search along the displacement of the last sweep, which
	 * plain coordinate descent follows only in small zigzag steps when the coordinates are
	 * coupled (a curved valley of g, or a ridge where the top eigenvalue is repeated).
	 */
	private Point pattern(final Point from, final Point to) {
		final int n = bs.length;
		final double[] d = new double[n];
		double tMin = Double.NEGATIVE_INFINITY, tMax = Double.POSITIVE_INFINITY, size = 0;
		for (int j = 0; j < n; j++) {
			d[j] = to.lambda[j] - from.lambda[j];
			if (d[j] > 0) tMin = Math.max(tMin, -to.lambda[j] / d[j]);
			if (d[j] < 0) tMax = Math.min(tMax, to.lambda[j] / -d[j]);
			size = Math.max(size, Math.abs(d[j]) / Math.max(to.lambda[j], unit[j]));
		}
		if (size <= 1e-12) return to;
		return line(to, d, tMin, tMax, 1, 1e-14);
	}

	/**
	 * Minimises {@code φ(t) = g(p.λ + t·d)} over t ∈ [tMin, tMax] (tMin ≤ 0 ≤ tMax, the
	 * range where λ ≥ 0): φ is convex with the non-decreasing derivative
	 * {@code φ′(t) = Σ_j d_j (1 − vᵀB_jv)}. The root of φ′ is bracketed from t = 0 with
	 * steps growing fourfold in the direction φ′ points (stopping at a bound, where the
	 * minimum then lies), then found by Brent's method (Commons Math). Evaluations are
	 * remembered, so Brent does not recompute the bracket's ends.
	 */
	private Point line(final Point p, final double[] d, final double tMin,
		final double tMax, final double firstStep, final double accuracy)
	{
		final Map<Double, Point> seen = new HashMap<>();
		seen.put(0.0, p);
		final java.util.function.DoubleFunction<Point> point = t -> seen.computeIfAbsent(t,
			x -> {
				final double[] l = p.lambda.clone();
				for (int j = 0; j < l.length; j++)
					if (d[j] != 0) l[j] = x == tMin && d[j] > 0 && -p.lambda[j] / d[j] == tMin ||
						x == tMax && d[j] < 0 && p.lambda[j] / -d[j] == tMax ? 0 : Math.max(0,
							p.lambda[j] + x * d[j]);
				return at(l);
			});
		final java.util.function.DoubleUnaryOperator slope = t -> {
			final Point q = point.apply(t);
			double s = 0;
			for (int j = 0; j < d.length; j++)
				if (d[j] != 0) s += d[j] * q.derivative(j);
			return s;
		};
		final double s0 = slope.applyAsDouble(0);
		if (s0 == 0) return p;
		double lo, hi, step = firstStep;
		int steps = 0;
		if (s0 < 0) {
			if (tMax == 0) return p;
			lo = 0;
			while (true) {
				hi = Math.min(step, tMax);
				if (slope.applyAsDouble(hi) >= 0) break;
				if (hi == tMax) return point.apply(hi);
				if (++steps > MAX_STEPS) throw new IllegalArgumentException("UCA: the dual " +
					"keeps decreasing as λ grows (λ = " + java.util.Arrays.toString(point.apply(
						hi).lambda) + "): no direction has a variance of at most 1 in every " +
					"background; standardise or rescale the data");
				lo = hi;
				step *= 4;
			}
		}
		else {
			if (tMin == 0) return p;
			hi = 0;
			while (true) {
				lo = Math.max(-step, tMin);
				if (slope.applyAsDouble(lo) <= 0) break;
				if (lo == tMin) return point.apply(lo);
				hi = lo;
				step *= 4;
			}
		}
		final double sl = slope.applyAsDouble(lo), sh = slope.applyAsDouble(hi);
		if (sl == 0) return point.apply(lo);
		if (sh == 0) return point.apply(hi);
		// start at the secant estimate (Brent then keeps the part that brackets the root)
		double start = lo - sl * (hi - lo) / (sh - sl);
		if (!(start > lo && start < hi)) start = 0.5 * (lo + hi);
		double root = lo;
		if (start > lo && start < hi) try {
			root = new BrentSolver(LAMBDA_ACCURACY, accuracy, 0).solve(MAX_BRENT_EVALUATIONS,
				slope::applyAsDouble, lo, hi, start);
		}
		catch (final TooManyEvaluationsException e) {
			root = 0.5 * (lo + hi);
		}
		// φ is convex, so the root of φ′ is its minimiser; at a jump of φ′ (a kink of g) a
		// neighbouring evaluation may be as good: keep the lowest g seen
		Point best = point.apply(root);
		for (final Point q : seen.values())
			if (q.value < best.value) best = q;
		return best;
	}
}
