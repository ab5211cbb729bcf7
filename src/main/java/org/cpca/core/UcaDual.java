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
		final int sweeps;
		final int evaluations;
		final boolean converged;
		/** Whether every constraint was inactive at λ = 0 (UCA is PCA). */
		final boolean inactive;
		/** The derivative of g at λ = 0 per background (1 − v₀ᵀB_jv₀, v₀ the target's PC 1). */
		final double[] derivativeAtZero;

		Minimum(final Point point, final int sweeps, final int evaluations,
			final boolean converged, final boolean inactive, final double[] derivativeAtZero)
		{
			this.point = point;
			this.sweeps = sweeps;
			this.evaluations = evaluations;
			this.converged = converged;
			this.inactive = inactive;
			this.derivativeAtZero = derivativeAtZero;
		}
	}

	private final int m;
	private final double[] a;
	private final double[][] bs;
	private final String[] names;
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
	 * @param names the backgrounds' names, for messages
	 */
	UcaDual(final ContrastiveSpace space, final boolean floor, final String[] names,
		final long seed, final Progress progress)
	{
		this.m = space.dimension();
		this.a = space.a;
		this.bs = space.backgrounds;
		this.names = names;
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

	/** Coordinate descent from λ = 0 (one exact 1-D solve for one background). */
	Minimum minimise() {
		final int n = bs.length;
		Point p = at(new double[n]);
		final double[] atZero = new double[n];
		boolean inactive = true;
		for (int j = 0; j < n; j++) {
			atZero[j] = p.derivative(j);
			if (atZero[j] < 0) inactive = false;
		}
		if (inactive) return new Minimum(p, 0, evaluations, true, true, atZero);
		final double[] change = new double[n];
		boolean converged = false;
		int sweep = 0;
		while (!converged && sweep < MAX_SWEEPS) {
			sweep++;
			final double before = p.value;
			for (int j = 0; j < n; j++) {
				final Point q = coordinate(j, p, change[j]);
				change[j] = q.lambda[j] - p.lambda[j];
				p = q;
			}
			progress.stage("UCA: coordinate descent", Math.min(1, sweep / 20.0));
			converged = n == 1 || Math.abs(before - p.value) <= TOLERANCE * Math.max(Math.abs(
				p.value), Double.MIN_NORMAL);
		}
		return new Minimum(p, sweep, evaluations, converged, false, atZero);
	}

	/**
	 * Minimises g over λ_j alone from the point p (the other λ fixed): bracket the root of
	 * the non-decreasing derivative, then Brent. Every evaluation is remembered, so the
	 * bracket's ends are not recomputed by the solver.
	 *
	 * @param lastChange the change of λ_j in the previous sweep (0 if none): the first step
	 */
	private Point coordinate(final int j, final Point p, final double lastChange) {
		final Map<Double, Point> seen = new HashMap<>();
		seen.put(p.lambda[j], p);
		final java.util.function.DoubleFunction<Point> point = t -> seen.computeIfAbsent(t,
			x -> {
				final double[] l = p.lambda.clone();
				l[j] = x;
				return at(l);
			});
		final double t0 = p.lambda[j], d0 = p.derivative(j);
		if (d0 == 0 || t0 == 0 && d0 > 0) return p;
		// first step: last sweep's change, else where the current top direction's
		// contrast vanishes, else the natural unit
		double step = Math.abs(lastChange);
		if (!(step > 0)) step = t0 > 0 ? t0 / 2 : p.top > 0 && p.constraint[j] > 0 ? p.top /
			p.constraint[j] : unit[j];
		step = Math.max(step, 1e-12 * Math.max(t0, unit[j]));
		double lo, hi;
		int steps = 0;
		if (d0 < 0) {
			lo = t0;
			hi = t0 + step;
			while (point.apply(hi).derivative(j) < 0) {
				if (++steps > MAX_STEPS) throw new IllegalArgumentException("UCA: the dual " +
					"keeps decreasing along λ for " + names[j] + " (λ = " + hi + "): every " +
					"direction has a background variance above 1 there; standardise or " +
					"rescale the data");
				lo = hi;
				step *= 4;
				hi = t0 + step;
			}
		}
		else {
			hi = t0;
			lo = Math.max(0, t0 - step);
			while (point.apply(lo).derivative(j) > 0) {
				if (lo == 0) return point.apply(0);
				hi = lo;
				step *= 4;
				lo = Math.max(0, t0 - step);
			}
		}
		if (point.apply(lo).derivative(j) == 0) return point.apply(lo);
		if (point.apply(hi).derivative(j) == 0) return point.apply(hi);
		final double scale = Math.max(hi, unit[j]);
		final BrentSolver brent = new BrentSolver(LAMBDA_ACCURACY, 1e-14 * scale, 0);
		double root;
		try {
			root = brent.solve(MAX_BRENT_EVALUATIONS, t -> point.apply(t).derivative(j), lo,
				hi, lo);
		}
		catch (final TooManyEvaluationsException e) {
			root = 0.5 * (lo + hi);
		}
		// g is convex along λ_j, so the root of its derivative is the minimiser; at a jump
		// of the derivative (a kink of g) a neighbouring evaluation may be as good: keep the
		// lowest g seen
		Point best = point.apply(root);
		for (final Point q : seen.values())
			if (q.value < best.value) best = q;
		return best;
	}
}
