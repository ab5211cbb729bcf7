package org.cpca.core.uca;

import org.cpca.core.linalg.Products;
import org.cpca.core.linalg.TopEigen;

import org.apache.commons.math3.exception.MathIllegalArgumentException;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.CholeskyDecomposition;

/**
 * Minimises UCA's dual g with several backgrounds (see {@link UcaDual}) through the
 * smoothed dual
 * <pre>
 * F_μ(λ) = μ log Σ_{i ≤ p} exp(θ_i/μ) + Σ_j λ_j
 * </pre>
 * over the top p eigenvalues θ_i of {@code C = A − Σ_jλ_jB_j} (the floor, when present, is
 * one more member with θ = 0), p = r + 2 where r is the largest rank a solution of the
 * semidefinite dual can have (r(r+1)/2 ≤ J + 1 for J backgrounds). {@code g ≤ F_μ ≤ g +
 * μ log(p + 1)}; F_μ is smooth where g has kinks.
 * <p>
 * With softmax weights w_i and {@code G_j = UᵀB_jU} (U the top p eigenvectors):
 * {@code ∂F/∂λ_j = 1 − Σ_i w_i (G_j)_ii} and
 * <pre>
 * ∂²F/∂λ_j∂λ_k = (1/μ)(Σ_i w_i b_ij b_ik − b̄_j b̄_k)
 *              + 2 Σ_{i&lt;l} (G_j)_il (G_k)_il (w_i − w_l)/(θ_i − θ_l)
 *              + 2 Σ_i w_i y_ijᵀ (θ_iI − C)⁺ y_ik,   y_ij = (I − UUᵀ)B_j u_i
 * </pre>
 * (b_ij = (G_j)_ii, b̄ = Σ_i w_i b_i; the second line is the rotation within the top p, the
 * third the coupling to the rest of the spectrum, with (θ_iI − C)⁺ restricted to the
 * complement of U and approximated by (θ₁I − C)⁺ for every i, exact for the top cluster;
 * it is applied through one Cholesky factorisation of {@code θ₁I − C + τUUᵀ}).
 * <p>
 * Projected Newton steps (coordinates at λ_j = 0 whose derivative is ≥ 0 are held) with
 * Armijo backtracking minimise F_μ for μ = 10⁻², 10⁻⁴, …, 10⁻¹⁰ times the target's top
 * variance, each level starting from the previous one's minimiser (and going to the last
 * at once when the smoothing no longer reaches the second eigenvalue); a step that is not a
 * descent direction (Hessian not positive definite) is replaced by the projected gradient.
 */
final class UcaSmoothing {

	private static final double FIRST_MU = 1e-2, LAST_MU = 1e-10, MU_STEP = 0.01;
	private static final int MAX_NEWTON = 60;
	/** The smoothing levels μ from FIRST_MU to LAST_MU (factor MU_STEP): 5. */
	private static final int LEVELS = (int) Math.round(Math.log(LAST_MU / FIRST_MU) / Math
		.log(MU_STEP)) + 1;
	/** The optimality residual below which the minimum is accepted. */
	static final double OPTIMALITY = 1e-6;

	private final UcaDual dual;
	private final int m, n, p;
	private int newtonSteps;
	/** How many top pairs carried weight at the last evaluation (see {@link Spectrum}). */
	private int accurate = 1;

	UcaSmoothing(final UcaDual dual) {
		this.dual = dual;
		this.m = dual.m;
		this.n = dual.bs.length;
		int r = 1;
		while ((r + 1) * (r + 2) / 2 <= n + 1)
			r++;
		this.p = Math.min(m, r + 2);
	}

	/** The top of the spectrum of A − Σλ_jB_j at one λ, whatever μ. */
	private final class Spectrum {

		final double[] lambda;
		final double[] theta;
		/** Top eigenvectors, m × p row-major. */
		final double[] u;
		/** B_jU (m × p) per background. */
		final double[][] bu;
		/** UᵀB_jU (p × p) per background. */
		final double[][] g;
		/** The top of the spectrum, with the floor. */
		final double peak;

		/**
		 * @param mu the smoothing the pairs are needed for: only eigenvalues within 40μ of
		 *          the top carry weight (e⁻⁴⁰ ≈ 4·10⁻¹⁸), so only they are converged to
		 *          tolerance (the others are Ritz approximations)
		 */
		Spectrum(final double[] lambda, final double mu) {
			this.lambda = lambda;
			TopEigen.Result r = dual.top(lambda, p, Math.min(p, accurate));
			int weighty = 1;
			while (weighty < p && r.values[weighty] >= r.values[0] - 40 * mu)
				weighty++;
			if (weighty > accurate) r = dual.top(lambda, p, weighty);
			accurate = Math.max(1, weighty);
			this.theta = r.values;
			this.u = r.vectors;
			this.peak = dual.floor ? Math.max(theta[0], 0) : theta[0];
			dual.checkDual(peak + UcaDual.sum(lambda), lambda);
			bu = new double[n][];
			g = new double[n][p * p];
			for (int j = 0; j < n; j++) {
				bu[j] = new double[m * p];
				for (int c = 0; c < p; c++) {
					final double[] col = dual.column(dual.bs[j], u, p, c);
					for (int i = 0; i < m; i++)
						bu[j][i * p + c] = col[i];
				}
				for (int c = 0; c < p; c++)
					for (int e = 0; e < p; e++) {
						double x = 0;
						for (int i = 0; i < m; i++)
							x += u[i * p + c] * bu[j][i * p + e];
						g[j][c * p + e] = x;
					}
			}
		}
	}

	/** F_μ at λ with what its derivatives need. */
	private final class State {

		final Spectrum spectrum;
		final double[] lambda;
		final double mu;
		final double value;
		final double[] gradient;
		final double[] theta;
		/** Softmax weights of the p eigenvalues and (last, if any) the floor. */
		final double[] w;
		final double[] u;
		final double[][] bu;
		final double[][] g;

		State(final double[] lambda, final double mu) {
			this(new Spectrum(lambda, mu), mu);
		}

		State(final Spectrum spectrum, final double mu) {
			this.spectrum = spectrum;
			this.lambda = spectrum.lambda;
			this.mu = mu;
			this.theta = spectrum.theta;
			this.u = spectrum.u;
			this.bu = spectrum.bu;
			this.g = spectrum.g;
			final int members = p + (dual.floor ? 1 : 0);
			w = new double[members];
			double z = 0;
			for (int i = 0; i < members; i++) {
				w[i] = Math.exp(((i < p ? theta[i] : 0) - spectrum.peak) / mu);
				z += w[i];
			}
			for (int i = 0; i < members; i++)
				w[i] /= z;
			this.value = spectrum.peak + mu * Math.log(z) + UcaDual.sum(lambda);
			gradient = new double[n];
			for (int j = 0; j < n; j++) {
				double s = 0;
				for (int i = 0; i < p; i++)
					s += w[i] * g[j][i * p + i];
				gradient[j] = 1 - s;
			}
		}

		/** Whether only the top member has weight: F_μ is g near λ. */
		boolean concentrated() {
			double rest = 0;
			for (int i = 1; i < w.length; i++)
				rest += w[i];
			return rest <= 1e-15;
		}

		/** The Hessian (n × n), or {@code null} if θ₁I − C + τUUᵀ is not positive definite. */
		double[][] hessian() {
			final double[][] h = new double[n][n];
			// softmax covariance of the diagonal entries
			final double[] mean = new double[n];
			for (int j = 0; j < n; j++)
				for (int i = 0; i < p; i++)
					mean[j] += w[i] * g[j][i * p + i];
			for (int j = 0; j < n; j++)
				for (int k = 0; k < n; k++) {
					double s = -mean[j] * mean[k];
					for (int i = 0; i < p; i++)
						s += w[i] * g[j][i * p + i] * g[k][i * p + i];
					h[j][k] = s / mu;
				}
			// rotation within the top p: divided differences of the weights
			for (int i = 0; i < p; i++)
				for (int l = i + 1; l < p; l++) {
					final double gap = theta[i] - theta[l];
					final double dd = Math.abs(gap) < 1e-9 * mu ? w[i] / mu : (w[i] - w[l]) / gap;
					if (dd == 0) continue;
					for (int j = 0; j < n; j++)
						for (int k = 0; k < n; k++)
							h[j][k] += 2 * dd * g[j][i * p + l] * g[k][i * p + l];
				}
			// coupling to the rest of the spectrum, through θ₁I − C + τUUᵀ
			final double[] c = dual.contrast(lambda);
			double norm = 0;
			for (final double x : c)
				norm += x * x;
			final double tau = Math.max(Math.sqrt(norm / m), Double.MIN_NORMAL);
			final double[][] mm = new double[m][m];
			for (int i = 0; i < m; i++)
				for (int t = 0; t < m; t++) {
					double x = (i == t ? theta[0] : 0) - c[i * m + t];
					for (int e = 0; e < p; e++)
						x += tau * u[i * p + e] * u[t * p + e];
					mm[i][t] = x;
				}
			final double[][] factor;
			try {
				factor = Products.cholesky(mm);
			}
			catch (final ArithmeticException e) {
				return null;
			}
			// y_ij = B_ju_i − U G_j e_i, for the members with weight
			final int cols = n * p;
			final double[] y = new double[m * cols];
			for (int j = 0; j < n; j++)
				for (int i = 0; i < p; i++)
					for (int r = 0; r < m; r++) {
						double x = bu[j][r * p + i];
						for (int e = 0; e < p; e++)
							x -= u[r * p + e] * g[j][e * p + i];
						y[r * cols + j * p + i] = x;
					}
			final double[] zz = Products.choleskySolve(factor, y, cols);
			for (int i = 0; i < p; i++) {
				if (w[i] < 1e-300) continue;
				for (int j = 0; j < n; j++)
					for (int k = j; k < n; k++) {
						double s = 0;
						for (int r = 0; r < m; r++)
							s += y[r * cols + j * p + i] * zz[r * cols + k * p + i];
						h[j][k] += 2 * w[i] * s;
						if (k != j) h[k][j] += 2 * w[i] * s;
					}
			}
			for (int j = 0; j < n; j++)
				for (int k = j + 1; k < n; k++)
					h[j][k] = h[k][j] = 0.5 * (h[j][k] + h[k][j]);
			return h;
		}
	}

	UcaDual.Minimum minimise(final UcaDual.Point start, final double[] atZero) {
		final double scale = Math.max(Math.abs(start.top), 1e-300);
		Spectrum spectrum = new Spectrum(start.lambda.clone(), FIRST_MU * scale);
		for (double mu = FIRST_MU * scale; mu >= LAST_MU * scale * 0.999; mu *= MU_STEP) {
			final boolean last = mu < LAST_MU * scale * 1.001;
			State s = new State(spectrum, mu);
			for (int it = 0; it < MAX_NEWTON; it++) {
				dual.progress.stage("UCA: Newton", Math.min(1, newtonSteps / 40.0));
				final State next = step(s, last);
				if (next == null) break;
				newtonSteps++;
				double moved = 0;
				for (int j = 0; j < n; j++)
					moved = Math.max(moved, Math.abs(next.lambda[j] - s.lambda[j]) / Math.max(
						next.lambda[j], dual.unit[j]));
				final double drop = s.value - next.value;
				s = next;
				if (moved <= 1e-14 || drop <= (last ? 1e-15 : 1e-3) * mu) break;
			}
			spectrum = s.spectrum;
			// the smoothing no longer reaches the second eigenvalue: the remaining levels
			// would all be plain Newton on g; go to the last at once
			if (!last && s.concentrated()) mu = LAST_MU * scale / MU_STEP;
		}
		final double[] lambda = spectrum.lambda;
		final UcaDual.Point point = dual.at(lambda);
		final double residual = dual.optimality(lambda, OPTIMALITY);
		return new UcaDual.Minimum(point, newtonSteps, dual.evaluations(), residual <=
			OPTIMALITY, false, atZero, residual, OPTIMALITY, MAX_NEWTON * LEVELS);
	}

	/**
	 * One projected Newton step with Armijo backtracking; {@code null} when no step
	 * decreases F_μ (converged to rounding).
	 */
	private State step(final State s, final boolean last) {
		// Bertsekas' projected Newton: coordinates at (or within ε of) the bound whose
		// derivative pushes them out are held; Newton on the rest
		final int[] free = new int[n];
		int f = 0;
		for (int j = 0; j < n; j++)
			if (s.lambda[j] > 1e-12 * dual.unit[j] || s.gradient[j] < 0) free[f++] = j;
		if (f == 0) return null;
		final double[][] h = s.hessian();
		if (h != null) {
			final double[][] hf = new double[f][f];
			final double[] gf = new double[f];
			for (int q = 0; q < f; q++) {
				gf[q] = -s.gradient[free[q]];
				for (int r = 0; r < f; r++)
					hf[q][r] = h[free[q]][free[r]];
			}
			double[] x = null;
			try {
				x = new CholeskyDecomposition(new Array2DRowRealMatrix(hf, false), 1e-14, 1e-300)
					.getSolver().solve(new ArrayRealVector(gf, false)).toArray();
			}
			catch (final MathIllegalArgumentException e) {
				// not positive definite: the gradient below
			}
			if (x != null) {
				final double[] d = new double[n];
				for (int q = 0; q < f; q++)
					d[free[q]] = x[q];
				final State q = arc(s, d, last);
				if (q != null) return q;
			}
		}
		// the projected gradient, scaled to about one λ unit (or the current λ)
		double size = 0;
		for (int q = 0; q < f; q++)
			size = Math.max(size, Math.abs(s.gradient[free[q]]));
		final double[] d = new double[n];
		for (int q = 0; q < f; q++) {
			final int j = free[q];
			d[j] = -s.gradient[j] / size * Math.max(s.lambda[j], dual.unit[j]);
		}
		return arc(s, d, false);
	}

	/**
	 * Armijo backtracking along the projected arc λ(t) = max(0, λ + t·d) from t = 1;
	 * {@code null} when no t decreases F_μ enough.
	 *
	 * @param newton whether d is a Newton step at the last level: near the optimum, a full
	 *          step whose predicted decrease is below the rounding of F is then accepted if
	 *          it does not increase F
	 */
	private State arc(final State s, final double[] d, final boolean newton) {
		for (double t = 1; t > 1e-12; t *= 0.5) {
			final double[] l = new double[n];
			double predicted = 0, moved = 0;
			for (int j = 0; j < n; j++) {
				l[j] = Math.max(0, s.lambda[j] + t * d[j]);
				predicted += s.gradient[j] * (l[j] - s.lambda[j]);
				moved = Math.max(moved, Math.abs(l[j] - s.lambda[j]));
			}
			if (moved == 0) return null;
			if (!(predicted < 0)) continue;
			final State q = new State(l, s.mu);
			if (q.value <= s.value + 1e-4 * predicted || newton && t == 1 && -predicted <=
				1e-13 * Math.abs(s.value) && q.value <= s.value + 1e-14 * Math.abs(s.value))
				return q;
		}
		return null;
	}
}
