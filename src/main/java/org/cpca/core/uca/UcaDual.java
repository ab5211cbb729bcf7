package org.cpca.core.uca;

import org.cpca.core.Progress;
import org.cpca.core.contrast.ContrastiveSpace;
import org.cpca.core.linalg.SymmetricEigen;
import org.cpca.core.linalg.TopEigen;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import org.apache.commons.math3.analysis.solvers.BrentSolver;
import org.apache.commons.math3.exception.TooManyEvaluationsException;
import java.util.Locale;
import java.util.function.DoubleFunction;
import java.util.function.DoubleUnaryOperator;

/**
 * The dual function of UCA and its minimisation (docs/math/uca.md):
 * {@code g(λ) = λ_max(A − Σ_j λ_j B_j) + Σ_j λ_j} over λ ≥ 0, with
 * {@code ∂g/∂λ_j = 1 − vᵀB_j v} (v the top eigenvector). g is convex; it is
 * <em>minimised</em> (the seed's "max" is a typo).
 * <p>
 * <b>One background</b>: a 1-D convex problem. From λ = 0 (where a derivative ≥ 0 means
 * the constraint is inactive: λ = 0) the root of the non-decreasing derivative is bracketed
 * with steps growing fourfold, then found by Brent's method (Commons Math); this is exact
 * also at a kink of g (a jump of the derivative).
 * <p>
 * <b>Several backgrounds</b> ({@link UcaSmoothing}): coordinate descent, as the seed
 * proposes, is not used, because it fails on this function. g is not differentiable where
 * the top eigenvalue of {@code A − Σλ_jB_j} is repeated, and with two or more backgrounds
 * the minimum very often lies on such a ridge (the dual is a semidefinite programme whose
 * solution may have rank 2): there every coordinate direction goes uphill while a
 * diagonal one goes down, so coordinate descent stops short, or creeps along the ridge in
 * thousands of steps (measured on the benchmark of 3 backgrounds at d = 10,000; on a
 * seeded infeasible problem it even stopped at a finite "minimum" of a dual that decreases
 * without bound). Instead the top of the spectrum is smoothed
 * ({@code μ log Σ_i exp(θ_i/μ)} over the top few eigenvalues) and minimised by projected
 * Newton steps with its exact Hessian, μ decreasing hundredfold from 10⁻² to 10⁻¹⁰ of the
 * target's top variance; the result is then certified on the unsmoothed g (the
 * minimum-norm subgradient over the top eigenvalue cluster, {@link #optimality}).
 * <p>
 * <b>The space.</b> A and B_j are the fit's m × m matrices. In the reduced space (m = r &lt;
 * d) every feature-space direction outside the data's row space has zero target and zero
 * background variance, i.e. eigenvalue 0 of A − Σλ_jB_j; so the feature-space
 * {@code λ_max} is {@code max(λ_max in the row space, 0)} ("the floor"), whose derivative is
 * 1. With the floor the reduced problem's g, λ and optimum equal the feature space's
 * exactly. Top eigenpairs come from {@link TopEigen}, warm-started with the previous
 * evaluation's vectors.
 * <p>
 * <b>Infeasibility.</b> A feasible primal has optimum ≥ 0 (A is positive semi-definite), so
 * by weak duality g(λ) &lt; 0 proves that no unit vector meets every constraint; that is
 * reported as an error rather than iterated on.
 */
final class UcaDual {

	/** Relative accuracy of λ (Brent's method, one background). */
	static final double LAMBDA_ACCURACY = 1e-11;
	private static final int MAX_BRENT_EVALUATIONS = 200;
	/** Relative difference of g below which two evaluations count as equal (rounding). */
	private static final double ROUNDING = 1e-12;
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
		/** Newton steps (several backgrounds) or 1 (one background). */
		final int iterations;
		final int evaluations;
		/** Whether the optimality test passed. */
		final boolean converged;
		/** Whether every constraint was inactive at λ = 0 (UCA is PCA). */
		final boolean inactive;
		/** The derivative of g at λ = 0 per background (1 − v₀ᵀB_jv₀, v₀ the target's PC 1). */
		final double[] derivativeAtZero;
		/** The optimality residual (minimum-norm projected subgradient; 0 at the optimum). */
		final double residual;
		/** The residual (or, for one background, the accuracy in λ) asked for. */
		final double tolerance;
		/** The most iterations allowed. */
		final int cap;

		Minimum(final Point point, final int iterations, final int evaluations,
			final boolean converged, final boolean inactive, final double[] derivativeAtZero,
			final double residual, final double tolerance, final int cap)
		{
			this.tolerance = tolerance;
			this.cap = cap;
			this.point = point;
			this.iterations = iterations;
			this.evaluations = evaluations;
			this.converged = converged;
			this.inactive = inactive;
			this.derivativeAtZero = derivativeAtZero;
			this.residual = residual;
		}
	}

	final int m;
	final double[] a;
	final double[][] bs;
	final boolean floor;
	/** Whether the constraints are the literal vᵀB_jv ≤ 1 (in the data's units). */
	final boolean literal;
	final long seed;
	final Progress progress;
	final double traceA;
	/** Natural unit of each λ_j: tr A / tr B_j (where B_j starts to matter). */
	final double[] unit;
	private double[][] warm;
	private int evaluations;

	/**
	 * @param floor whether directions outside the space exist (reduced space, r &lt; d)
	 */
	UcaDual(final ContrastiveSpace space, final boolean floor, final long seed,
		final Progress progress)
	{
		this(space, space.backgrounds, true, floor, seed, progress);
	}

	/**
	 * @param bs the constraint matrices B_j (m × m, in the space's coordinates): the space's
	 *          background covariances, or those divided by their constraint scales
	 * @param literal whether the bound is the literal 1 in the data's units (for messages)
	 */
	UcaDual(final ContrastiveSpace space, final double[][] bs, final boolean literal,
		final boolean floor, final long seed, final Progress progress)
	{
		this.literal = literal;
		this.m = space.dimension();
		this.a = space.a;
		this.bs = bs;
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

	/** The top k eigenpairs of A − Σλ_jB_j, warm-started; counts as an evaluation. */
	TopEigen.Result top(final double[] lambda, final int k) {
		return top(lambda, k, k);
	}

	/** The same, with only the first {@code accurate} pairs converged to tolerance. */
	TopEigen.Result top(final double[] lambda, final int k, final int accurate) {
		progress.checkCancelled();
		evaluations++;
		final TopEigen.Result r = TopEigen.solve(contrast(lambda), m, k, accurate, warm,
			seed);
		warm = r.warmStart;
		return r;
	}

	/** g, λ_max and vᵀB_jv at λ. */
	Point at(final double[] lambda) {
		final TopEigen.Result r = top(lambda, 1);
		final double top = r.values[0];
		final double[] constraint = new double[bs.length];
		final boolean floored = floor && top < 0;
		if (!floored) for (int j = 0; j < bs.length; j++)
			constraint[j] = quadratic(bs[j], r.vectors);
		return checked(new Point(lambda.clone(), top, (floored ? 0 : top) + sum(lambda),
			r.vectors, constraint, floored));
	}

	static double sum(final double[] x) {
		double s = 0;
		for (final double v : x)
			s += v;
		return s;
	}

	/** Throws when g(λ) &lt; 0, which proves the primal infeasible. */
	Point checked(final Point p) {
		checkDual(p.value, p.lambda);
		return p;
	}

	void checkDual(final double value, final double[] lambda) {
		if (value < -1e-9 * traceA) throw new IllegalArgumentException(
			"UCA's constraints vᵀB_jv ≤ " + (literal ? "1" : "s_j") + " cannot all be met: " +
				"no direction has at most that background variance in every background (the " +
				"dual falls to " + String.format(Locale.ROOT, "%.4g", value) +
				" < 0 at λ = " + Arrays.toString(lambda) + "). " + (literal ? "The constraint " +
					"is in the backgrounds' units: standardise the data, or rescale the " +
					"backgrounds" : "The bound s_j is each background's median feature " +
						"variance: use fewer backgrounds, or pool them (--stacked)"));
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

	int evaluations() {
		return evaluations;
	}

	/** Minimises g from λ = 0 (see the class comment). */
	Minimum minimise() {
		final int n = bs.length;
		final Point p = at(new double[n]);
		final double[] atZero = new double[n];
		boolean inactive = true;
		for (int j = 0; j < n; j++) {
			atZero[j] = p.derivative(j);
			if (atZero[j] < 0) inactive = false;
		}
		if (inactive) return new Minimum(p, 0, evaluations, true, true, atZero, 0, 0, 0);
		if (n == 1) {
			final Point q = coordinate(0, p);
			return new Minimum(q, 1, evaluations, true, false, atZero, 0, LAMBDA_ACCURACY,
				MAX_BRENT_EVALUATIONS);
		}
		return new UcaSmoothing(this).minimise(p, atZero);
	}

	/**
	 * The optimality test at λ (several backgrounds), on the unsmoothed g. With U the
	 * eigenvectors of the top eigenvalue cluster of A − Σλ_jB_j (eigenvalues within
	 * {@code width} of the top; the floor counts as a member with zero variance), the
	 * subgradients of g are {@code s_j(Y) = 1 − ⟨UᵀB_jU, Y⟩} for Y ⪰ 0 of trace 1; λ is
	 * optimal iff some Y makes the projected subgradient (s_j where λ_j &gt; 0, min(0, s_j)
	 * where λ_j = 0) vanish. The Y minimising its norm is found by Frank–Wolfe (whose linear
	 * step is the top eigenvector of Σρ_jUᵀB_jU). Returns that norm (max entry).
	 */
	double optimality(final double[] lambda, final double width) {
		final int n = bs.length, want = Math.min(m, n + 2);
		final TopEigen.Result top = top(lambda, want);
		final double peak = floor ? Math.max(top.values[0], 0) : top.values[0];
		final double delta = width * Math.max(Math.abs(peak), Math.abs(peak + sum(lambda)));
		int r = 0;
		while (r < want && top.values[r] >= peak - delta)
			r++;
		final int size = r + (floor && 0 >= peak - delta ? 1 : 0);
		// M_j = UᵀB_jU (size × size; the floor's row and column are zero)
		final double[][] mj = new double[n][size * size];
		for (int j = 0; j < n; j++)
			for (int c = 0; c < r; c++) {
				final double[] bu = column(bs[j], top.vectors, want, c);
				for (int e = 0; e < r; e++) {
					double x = 0;
					for (int i = 0; i < m; i++)
						x += top.vectors[i * want + e] * bu[i];
					mj[j][c * size + e] = x;
				}
			}
		final double[] rho = minimumNorm(lambda, mj, size);
		double norm = 0;
		for (final double x : rho)
			norm = Math.max(norm, Math.abs(x));
		return norm;
	}

	/** Column c of the m × k block w, multiplied by the m × m matrix s. */
	double[] column(final double[] s, final double[] w, final int k, final int c) {
		final double[] out = new double[m];
		for (int i = 0; i < m; i++) {
			double x = 0;
			final int o = i * m;
			for (int t = 0; t < m; t++)
				x += s[o + t] * w[t * k + c];
			out[i] = x;
		}
		return out;
	}

	/**
	 * The projected subgradient ρ(Y) at the Y ⪰ 0, tr Y = 1 (size × size) minimising
	 * ½‖ρ(Y)‖², by Frank–Wolfe with exact steps from Y = e₁e₁ᵀ.
	 */
	static double[] minimumNorm(final double[] lambda, final double[][] mj, final int size) {
		final int n = lambda.length;
		final double[] y = new double[size * size];
		if (size > 0) y[0] = 1;
		final double[] rho = new double[n];
		for (int it = 0; it < 20000; it++) {
			double obj = 0;
			for (int j = 0; j < n; j++) {
				final double sj = 1 - inner(mj[j], y);
				rho[j] = lambda[j] > 0 ? sj : Math.min(0, sj);
				obj += rho[j] * rho[j];
			}
			if (size <= 1 || obj == 0) break;
			final double[] g = new double[size * size];
			for (int j = 0; j < n; j++)
				for (int i = 0; i < g.length; i++)
					g[i] += rho[j] * mj[j][i];
			final double[] z = SymmetricEigen.of(g, size).vectors(1);
			final double[] dy = new double[size * size];
			for (int c = 0; c < size; c++)
				for (int e = 0; e < size; e++)
					dy[c * size + e] = z[c] * z[e] - y[c * size + e];
			double num = 0, den = 0;
			for (int j = 0; j < n; j++) {
				final double ds = -inner(mj[j], dy);
				if (lambda[j] > 0 || rho[j] < 0) {
					num += rho[j] * ds;
					den += ds * ds;
				}
			}
			// −num is the Frank–Wolfe gap
			if (!(den > 0) || -num <= 1e-24 + 1e-14 * obj) break;
			final double gamma = Math.min(1, Math.max(0, -num / den));
			if (gamma == 0) break;
			for (int i = 0; i < y.length; i++)
				y[i] += gamma * dy[i];
		}
		return rho;
	}

	private static double inner(final double[] x, final double[] y) {
		double s = 0;
		for (int i = 0; i < x.length; i++)
			s += x[i] * y[i];
		return s;
	}

	/** Minimises g over λ_j alone (the others fixed), from p. */
	Point coordinate(final int j, final Point p) {
		final double[] direction = new double[bs.length];
		direction[j] = 1;
		final double t0 = p.lambda[j];
		// first step: where the current top direction's contrast vanishes, else the unit
		double step = t0 > 0 ? t0 / 2 : p.top > 0 && p.constraint[j] > 0 ? p.top / p
			.constraint[j] : unit[j];
		return line(p, direction, -t0, Double.POSITIVE_INFINITY, Math.max(step, 1e-12 * Math
			.max(t0, unit[j])), 1e-14 * Math.max(t0, unit[j]));
	}

	/**
	 * Minimises {@code φ(t) = g(p.λ + t·d)} over t ∈ [tMin, tMax] (tMin ≤ 0 ≤ tMax, the
	 * range where λ ≥ 0): φ is convex with the non-decreasing derivative
	 * {@code φ′(t) = Σ_j d_j (1 − vᵀB_jv)}. The root of φ′ is bracketed from t = 0 with
	 * steps growing fourfold in the direction φ′ points (stopping at a bound, where the
	 * minimum then lies), then found by Brent's method (Commons Math). Evaluations are
	 * remembered, so Brent does not recompute the bracket's ends.
	 */
	Point line(final Point p, final double[] d, final double tMin, final double tMax,
		final double firstStep, final double accuracy)
	{
		final Map<Double, Point> seen = new HashMap<>();
		seen.put(0.0, p);
		final DoubleFunction<Point> point = t -> seen.computeIfAbsent(t,
			x -> {
				final double[] l = p.lambda.clone();
				for (int j = 0; j < l.length; j++)
					if (d[j] != 0) l[j] = x == tMin && d[j] > 0 && -p.lambda[j] / d[j] == tMin ||
						x == tMax && d[j] < 0 && p.lambda[j] / -d[j] == tMax ? 0 : Math.max(0,
							p.lambda[j] + x * d[j]);
				return at(l);
			});
		final DoubleUnaryOperator slope = t -> {
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
					"keeps decreasing as λ grows (λ = " + Arrays.toString(point.apply(hi)
						.lambda) + "): no direction has a variance of at most 1 in every " +
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
		// neighbouring evaluation may be better: keep the lowest g seen, if lower than the
		// root's beyond rounding (near the minimum g is flat, so a point lower only by
		// rounding may lie ~√ε from it, and which one it is depends on the last bits of A)
		final Point atRoot = point.apply(root);
		final double margin = ROUNDING * (Math.abs(atRoot.top) + Math.abs(atRoot.value));
		Point best = atRoot;
		for (final Point q : seen.values())
			if (q.value < best.value && q.value < atRoot.value - margin) best = q;
		return best;
	}
}
