package org.cpca.core.pcpca;

import org.cpca.core.Progress;
import org.cpca.core.contrast.ContrastiveSpace;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import org.cpca.core.data.Preprocessing;
import org.cpca.core.linalg.SymmetricEigen;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.model.FittedModel;
import org.cpca.core.result.Convergence;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * PCPCA (docs/math/pcpca.md). Target and background share the model
 * x ~ N(μ, WWᵀ + σ²I), each with its own mean; the fit maximises log p(X) − γ log p(Y).
 * With the scatter matrices S_t, S_b of the centred data, {@code C = S_t − γS_b} with
 * eigenpairs (λ_j, u_j) descending:
 * {@code σ² = Σ_{j>k} λ_j / ((d − k)(n_t − γn_b))},
 * {@code W = U_k(Λ_k/(n_t − γn_b) − σ²I)^{1/2}}. The directions are cPCA's at
 * {@code α = γ(n_b − 1)/(n_t − 1)}: the user gives α, and the model records γ and σ².
 * <p>
 * Complete data ({@link #fit}): solved on the fit's contrastive space (the exact reduced
 * space for images); since C vanishes outside the data's span,
 * {@code Σ_{j>k} λ_j = trace(C) − Σ_{j≤k} λ_j}. Valid only when {@code n_t − γn_b > 0}
 * (α below {@link #alphaBound}) and σ² &gt; 0; refused otherwise.
 * <p>
 * Missing values ({@link #fitMissing}, NaN entries): EM over the observed coordinates. The
 * E-step takes, per sample with observed set o, {@code M_o = W_oᵀW_o + σ²I} (k × k, the
 * Woodbury form of the observed covariance's inverse), the posterior mean of z and the
 * conditional mean and covariance of the missing entries
 * ({@code W_m σ²M_o⁻¹W_mᵀ + σ²I}); the M-step updates each dataset's mean and solves the
 * closed form above on the expected scatter matrices, whose products with a block of
 * vectors are formed sample by sample (a block Krylov Rayleigh–Ritz step warm-started
 * from the current loadings). Memory: the imputed data plus O(k²) per sample and O(d·k);
 * no d × d matrix.
 * <p>
 * Length (about 510 lines of code): two fits, complete data in closed form and EM for missing
 * values with its block Krylov step ({@code Set}, {@code Operator}), that share the model's closed
 * form and its checks.
 */
public final class Pcpca {

	/** Iterations of EM at most. */
	public static final int MAX_ITERATIONS = 500;
	/** EM stops when σ² and every loading scale change by less than this (relative). */
	public static final double TOLERANCE = 1e-7;

	private Pcpca() {}

	/** γ for α: {@code α(n_t − 1)/(n_b − 1)} (so that C = (n_t − 1)(C_t − αC_b)). */
	public static double gamma(final double alpha, final int nt, final int nb) {
		return alpha * (nt - 1) / (nb - 1);
	}

	/** The largest α allowed: n_t − γn_b > 0 ⇔ α < n_t(n_b − 1)/(n_b(n_t − 1)). */
	public static double alphaBound(final int nt, final int nb) {
		return (double) nt * (nb - 1) / ((double) nb * (nt - 1));
	}

	static void checkAlpha(final double alpha, final int nt, final int nb) {
		if (!(alpha >= 0) || Double.isInfinite(alpha)) throw new IllegalArgumentException(
			"PCPCA needs a finite α ≥ 0 (got " + alpha + "): give --alpha VALUE below " +
				FittedModel.alphaText(alphaBound(nt, nb)));
		final double g = gamma(alpha, nt, nb);
		if (!(nt - g * nb > 0)) throw new IllegalArgumentException(String.format(Locale.ROOT,
			"PCPCA is not defined at α = %s: it gives γ = %.6g and n_t − γ·n_b = %.6g ≤ 0 " +
				"(n_t = %d target, n_b = %d background samples); the model needs " +
				"γ < n_t/n_b, i.e. α < %.6g: choose a smaller α (or use cPCA for larger α)",
			alpha, g, nt - g * nb, nt, nb, alphaBound(nt, nb)));
	}

	/** PCPCA at α on a prepared fit (one background). */
	public static PcpcaModel fit(final Cpca fit, final double alpha) {
		if (fit.backgroundCount() != 1) throw new IllegalArgumentException(
			"PCPCA needs exactly one background (got " + fit.backgroundCount() + ")");
		final int nt = fit.targetSamples(), nb = (int) fit.backgroundSamples(0);
		checkAlpha(alpha, nt, nb);
		if (fit.options().whiten()) throw new IllegalArgumentException("PCPCA's scores " +
			"are posterior means E[z|x]: leave out whitening");
		final CpcaModel base = fit.model(alpha);
		final ContrastiveSpace space = fit.space();
		final int m = space.dimension();
		double trA = 0, trB = 0;
		for (int i = 0; i < m; i++) {
			trA += space.a[i * m + i];
			trB += space.b[i * m + i];
		}
		// C = S_t − γS_b = (n_t − 1)(A − αB)
		final double[] lambda = base.eigenvalues();
		for (int c = 0; c < lambda.length; c++)
			lambda[c] *= nt - 1;
		return finish(base, alpha, (nt - 1) * (trA - alpha * trB), lambda, nt, nb, space
			.features(), new ArrayList<>(base.diagnostics()), true);
	}

	/**
	 * σ² and the loading scales from the top-k eigenvalues λ and trace(C) of
	 * C = S_t − γS_b, around a model holding the unit directions.
	 */
	static PcpcaModel finish(final CpcaModel base, final double alpha, final double trace,
		final double[] lambda, final int nt, final int nb, final int d,
		final List<String> notes, final boolean scoresAreProjections)
	{
		final int k = lambda.length;
		final double gamma = gamma(alpha, nt, nb), denom = nt - gamma * nb;
		if (k >= d) throw new IllegalArgumentException("PCPCA needs k < d to leave " +
			"directions for the noise (k = " + k + ", d = " + d + ")");
		double top = 0;
		for (final double l : lambda)
			top += l;
		final double sigma2 = (trace - top) / ((d - k) * denom);
		if (!(sigma2 > 0)) throw new IllegalArgumentException(String.format(Locale.ROOT,
			"PCPCA has no valid noise variance at α = %s: σ² = %.4g ≤ 0 (the background " +
				"outweighs the target outside the top %d directions); choose a smaller α or " +
				"fewer components", alpha, sigma2, k));
		final double[] s = new double[k];
		int clamped = 0;
		for (int c = 0; c < k; c++) {
			final double v = lambda[c] / denom - sigma2;
			if (v > 0) s[c] = Math.sqrt(v);
			else clamped++;
		}
		if (clamped > 0) notes.add("PCPCA: " + clamped + " of " + k + " components have no " +
			"more contrastive variance than the noise (λ_j/(n_t − γn_b) ≤ σ²): their " +
			"loadings are zero");
		notes.add("PCPCA: α = " + FittedModel.alphaText(alpha) + ", γ = " + FittedModel
			.alphaText(gamma) + ", σ² = " + FittedModel.alphaText(sigma2) + " (noise_variance), " +
			"n_t − γn_b = " + FittedModel.alphaText(denom));
		return new PcpcaModel(base, gamma, s, sigma2, notes, scoresAreProjections);
	}

	/**
	 * PCPCA at α with missing values (NaN) in either dataset, by EM over the observed
	 * coordinates.
	 *
	 * @param target n_t × d, NaN where a value is missing (not modified)
	 * @param background n_b × d, NaN where missing
	 */
	public static PcpcaModel fitMissing(final float[][] target, final float[][] background,
		final double alpha, final int k, final long seed, final Progress progress)
	{
		return fitMissing(target, background, alpha, k, seed, progress, new Convergence[1]);
	}

	/** {@link #fitMissing}; {@code em[0]} receives how the EM ended. */
	static PcpcaModel fitMissing(final float[][] target, final float[][] background,
		final double alpha, final int k, final long seed, final Progress progress,
		final Convergence[] em)
	{
		final int nt = target.length, nb = background.length;
		if (nt < 2 || nb < 2) throw new IllegalArgumentException("PCPCA needs at least 2 " +
			"target and 2 background samples");
		checkAlpha(alpha, nt, nb);
		final int d = target[0].length;
		final Set t = new Set("target", target, d), b = new Set("background", background, d);
		final double gamma = gamma(alpha, nt, nb), denom = nt - gamma * nb;
		// start: each dataset's observed column means filled in, the complete-data fit
		final CpcaOptions options = CpcaOptions.defaults().withComponents(k).withSeed(seed);
		final Cpca start = Cpca.fit(Dataset.wrap("target", t.imputedFloats()), Dataset.wrap(
			"background", b.imputedFloats()), options, Progress.NONE);
		final PcpcaModel init = fit(start, alpha);
		double[][] u = init.components();
		double[] s = init.loadingScales();
		double sigma2 = init.noiseVariance();
		int iterations = 0;
		boolean converged = false;
		double lastChange = Double.NaN;
		double[] lambda = new double[k];
		double trace = 0;
		while (iterations < MAX_ITERATIONS && !converged) {
			progress.checkCancelled();
			iterations++;
			final double[][] w = scaled(u, s);
			t.expect(w, sigma2);
			b.expect(w, sigma2);
			final Operator c = new Operator(t, b, gamma, w, sigma2);
			trace = c.trace();
			final double[][] top = c.top(u, k, lambda);
			final double newSigma2 = (trace - sum(lambda)) / ((d - k) * denom);
			if (!(newSigma2 > 0)) throw new IllegalArgumentException(String.format(Locale.ROOT,
				"PCPCA with missing values: σ² = %.4g ≤ 0 during EM at α = %s; choose a " +
					"smaller α or fewer components", newSigma2, alpha));
			final double[] newS = new double[k];
			double change = Math.abs(newSigma2 - sigma2) / newSigma2;
			for (int c2 = 0; c2 < k; c2++) {
				final double v = lambda[c2] / denom - newSigma2;
				newS[c2] = v > 0 ? Math.sqrt(v) : 0;
				change = Math.max(change, Math.abs(newS[c2] - s[c2]) / Math.max(newS[c2], Math
					.sqrt(newSigma2)));
			}
			converged = change < TOLERANCE && iterations > 1;
			lastChange = change;
			u = top;
			s = newS;
			sigma2 = newSigma2;
			progress.stage("PCPCA EM", (double) iterations / MAX_ITERATIONS);
		}
		em[0] = Convergence.of(iterations, converged, TOLERANCE, lastChange, MAX_ITERATIONS);
		// the model: directions u (sign rule), the target's EM mean, scores of the imputed target
		u = signRule(u);
		final double[][] w = scaled(u, s);
		t.expect(w, sigma2);
		b.expect(w, sigma2);
		final Operator c = new Operator(t, b, gamma, w, sigma2);
		final double[] tv = c.quadratic(u, t, 1), bv = c.quadratic(u, b, 1);
		final double[] eig = lambda.clone();
		for (int j = 0; j < k; j++)
			eig[j] /= nt - 1; // the eigenvalue of C_t − αC_b, as cPCA reports it
		final double[][] scores = new double[nt][k];
		for (int i = 0; i < nt; i++)
			for (int j = 0; j < k; j++) {
				double p = 0;
				for (int f = 0; f < d; f++)
					p += u[j][f] * (t.x[i][f] - t.mean[f]);
				scores[i][j] = p;
			}
		final List<String> notes = new ArrayList<>();
		notes.add(String.format(Locale.ROOT, "PCPCA with missing values: EM over the " +
			"observed coordinates, %d iteration(s)%s; %d of %d target and %d of %d " +
			"background values missing", iterations, converged ? "" : " (not converged to " +
				TOLERANCE + ")", t.missing, nt * d, b.missing, nb * d));
		final CpcaModel signed = new CpcaModel("pcpca", alpha, Map.of(), u, eig, tv, bv, t
			.scatterTrace() / (nt - 1), Preprocessing.of(t.mean, null), false, List.of(), Map
				.of(), scores);
		return finish(signed, alpha, trace, lambda, nt, nb, d, notes, true);
	}

	private static double[][] signRule(final double[][] u) {
		final double[][] out = new double[u.length][];
		for (int c = 0; c < u.length; c++) {
			out[c] = u[c].clone();
			int arg = 0;
			for (int j = 1; j < out[c].length; j++)
				if (Math.abs(out[c][j]) > Math.abs(out[c][arg])) arg = j;
			if (out[c][arg] < 0) for (int j = 0; j < out[c].length; j++)
				out[c][j] = -out[c][j];
		}
		return out;
	}

	private static double sum(final double[] v) {
		double s = 0;
		for (final double x : v)
			s += x;
		return s;
	}

	static double dot(final double[] a, final double[] b) {
		double s = 0;
		for (int i = 0; i < a.length; i++)
			s += a[i] * b[i];
		return s;
	}

	private static double[][] scaled(final double[][] u, final double[] s) {
		final double[][] w = new double[u.length][];
		for (int c = 0; c < u.length; c++) {
			w[c] = u[c].clone();
			for (int j = 0; j < w[c].length; j++)
				w[c][j] *= s[c];
		}
		return w;
	}

	/**
	 * One dataset with missing values: the raw values, which are missing, and the E-step's
	 * state (imputed values x̂, mean, per sample σ²M⁻¹ (k × k)).
	 */
	static final class Set {

		final float[][] raw;
		final int n, d;
		/** Per sample the missing feature indices (empty when complete). */
		final int[][] missingIndex;
		final int missing;
		/** Imputed values (n × d): observed as given, missing by their conditional mean. */
		final double[][] x;
		final double[] mean;
		/** Per sample σ²M_o⁻¹ (k × k, row-major), or null when no value is missing. */
		double[][] posteriorCov;
		/** Σ_i trace of the missing entries' conditional covariance. */
		double covarianceTrace;

		Set(final String name, final float[][] raw, final int d) {
			this.raw = raw;
			this.n = raw.length;
			this.d = d;
			this.missingIndex = new int[n][];
			this.x = new double[n][d];
			this.mean = new double[d];
			final double[] count = new double[d];
			int total = 0;
			for (int i = 0; i < n; i++) {
				if (raw[i].length != d) throw new IllegalArgumentException(name + ": sample " +
					(i + 1) + " has " + raw[i].length + " features but " + d + " are expected");
				int q = 0;
				for (int j = 0; j < d; j++) {
					final float v = raw[i][j];
					if (Float.isNaN(v)) q++;
					else if (Float.isInfinite(v)) throw new IllegalArgumentException(name +
						" has an infinite value at sample " + (i + 1) + ", feature " + (j + 1) +
						": only missing values (NaN, empty cells) are modelled");
					else {
						mean[j] += v;
						count[j]++;
					}
				}
				missingIndex[i] = new int[q];
				q = 0;
				for (int j = 0; j < d; j++)
					if (Float.isNaN(raw[i][j])) missingIndex[i][q++] = j;
				total += missingIndex[i].length;
			}
			this.missing = total;
			for (int j = 0; j < d; j++) {
				if (count[j] == 0) throw new IllegalArgumentException(name + ": feature " +
					(j + 1) + " is missing in every sample; remove it (or give a mask that " +
					"excludes it)");
				mean[j] /= count[j];
			}
			for (int i = 0; i < n; i++)
				for (int j = 0; j < d; j++)
					x[i][j] = Float.isNaN(raw[i][j]) ? mean[j] : raw[i][j];
		}

		float[][] imputedFloats() {
			final float[][] f = new float[n][d];
			for (int i = 0; i < n; i++)
				for (int j = 0; j < d; j++)
					f[i][j] = (float) x[i][j];
			return f;
		}

		/**
		 * The E-step at loadings w (k × d) and σ², then the mean update: x̂ (missing entries
		 * μ_m + W_m E[z|x_o]), σ²M_o⁻¹ per incomplete sample, the trace of the missing
		 * entries' conditional covariances, and the mean of x̂.
		 */
		void expect(final double[][] w, final double sigma2) {
			final int k = w.length;
			posteriorCov = new double[n][];
			covarianceTrace = 0;
			for (int i = 0; i < n; i++) {
				final int[] mi = missingIndex[i];
				if (mi.length == 0) continue;
				final boolean[] isMissing = new boolean[d];
				for (final int j : mi)
					isMissing[j] = true;
				// M_o = W_oᵀW_o + σ²I and W_oᵀ(x_o − μ_o)
				final double[][] mo = new double[k][k];
				final double[] rhs = new double[k];
				for (int j = 0; j < d; j++) {
					if (isMissing[j]) continue;
					final double r = raw[i][j] - mean[j];
					for (int a = 0; a < k; a++) {
						final double wa = w[a][j];
						rhs[a] += wa * r;
						for (int c = 0; c <= a; c++)
							mo[a][c] += wa * w[c][j];
					}
				}
				for (int a = 0; a < k; a++) {
					mo[a][a] += sigma2;
					for (int c = 0; c < a; c++)
						mo[c][a] = mo[a][c];
				}
				final double[][] inv = invert(mo);
				final double[] ez = new double[k];
				final double[] cov = new double[k * k];
				for (int a = 0; a < k; a++) {
					for (int c = 0; c < k; c++) {
						ez[a] += inv[a][c] * rhs[c];
						cov[a * k + c] = sigma2 * inv[a][c];
					}
				}
				posteriorCov[i] = cov;
				for (final int j : mi) {
					double v = mean[j];
					for (int a = 0; a < k; a++)
						v += w[a][j] * ez[a];
					x[i][j] = v;
					// trace of W_m σ²M⁻¹ W_mᵀ + σ²I at entry j
					double q = sigma2;
					for (int a = 0; a < k; a++)
						for (int c = 0; c < k; c++)
							q += w[a][j] * cov[a * k + c] * w[c][j];
					covarianceTrace += q;
				}
			}
			Arrays.fill(mean, 0);
			for (int i = 0; i < n; i++)
				for (int j = 0; j < d; j++)
					mean[j] += x[i][j] / n;
		}

		/**
		 * Adds {@code f · S̃ v} for each vector v of the block (rows, length d) into out, with
		 * the expected scatter {@code S̃ = Σ_i (x̂_i − μ)(x̂_i − μ)ᵀ + Σ_i [P_i W σ²M_i⁻¹ Wᵀ P_i + σ²P_i]}.
		 */
		void scatterTimes(final double[][] v, final double f, final double[][] w,
			final double sigma2, final double[][] out)
		{
			final int p = v.length, k = w.length;
			final double[] r = new double[d];
			for (int i = 0; i < n; i++) {
				for (int j = 0; j < d; j++)
					r[j] = x[i][j] - mean[j];
				for (int c = 0; c < p; c++) {
					final double a = f * dot(r, v[c]);
					final double[] o = out[c];
					for (int j = 0; j < d; j++)
						o[j] += a * r[j];
				}
				final int[] mi = missingIndex[i];
				if (mi.length == 0) continue;
				final double[] cov = posteriorCov[i];
				for (int c = 0; c < p; c++) {
					// y = Wᵀ P_i v (k), then P_i W cov y + σ² P_i v
					final double[] y = new double[k];
					for (final int j : mi)
						for (int a = 0; a < k; a++)
							y[a] += w[a][j] * v[c][j];
					final double[] z = new double[k];
					for (int a = 0; a < k; a++)
						for (int b = 0; b < k; b++)
							z[a] += cov[a * k + b] * y[b];
					final double[] o = out[c];
					for (final int j : mi) {
						double q = sigma2 * v[c][j];
						for (int a = 0; a < k; a++)
							q += w[a][j] * z[a];
						o[j] += f * q;
					}
				}
			}
		}

		/** trace(S̃). */
		double scatterTrace() {
			double s = covarianceTrace;
			for (int i = 0; i < n; i++)
				for (int j = 0; j < d; j++) {
					final double r = x[i][j] - mean[j];
					s += r * r;
				}
			return s;
		}
	}

	/** Inverse of a small symmetric positive definite matrix (Gauss–Jordan). */
	static double[][] invert(final double[][] m) {
		final int k = m.length;
		final double[][] a = new double[k][2 * k];
		for (int i = 0; i < k; i++) {
			System.arraycopy(m[i], 0, a[i], 0, k);
			a[i][k + i] = 1;
		}
		for (int c = 0; c < k; c++) {
			int p = c;
			for (int r = c + 1; r < k; r++)
				if (Math.abs(a[r][c]) > Math.abs(a[p][c])) p = r;
			final double[] tmp = a[c];
			a[c] = a[p];
			a[p] = tmp;
			final double piv = a[c][c];
			for (int j = 0; j < 2 * k; j++)
				a[c][j] /= piv;
			for (int r = 0; r < k; r++) {
				if (r == c) continue;
				final double f = a[r][c];
				if (f != 0) for (int j = 0; j < 2 * k; j++)
					a[r][j] -= f * a[c][j];
			}
		}
		final double[][] inv = new double[k][k];
		for (int i = 0; i < k; i++)
			System.arraycopy(a[i], k, inv[i], 0, k);
		return inv;
	}

	/** The expected contrast {@code C̃ = S̃_t − γS̃_b} as an operator on blocks of vectors. */
	static final class Operator {

		private final Set t, b;
		private final double gamma, sigma2;
		private final double[][] w;

		Operator(final Set t, final Set b, final double gamma, final double[][] w,
			final double sigma2)
		{
			this.t = t;
			this.b = b;
			this.gamma = gamma;
			this.w = w;
			this.sigma2 = sigma2;
		}

		double[][] times(final double[][] v) {
			final double[][] out = new double[v.length][v[0].length];
			t.scatterTimes(v, 1, w, sigma2, out);
			b.scatterTimes(v, -gamma, w, sigma2, out);
			return out;
		}

		double trace() {
			return t.scatterTrace() - gamma * b.scatterTrace();
		}

		/** Per vector u_c, {@code u_cᵀ S̃ u_c/(n − 1)} of one dataset. */
		double[] quadratic(final double[][] u, final Set set, final double f) {
			final double[][] out = new double[u.length][u[0].length];
			set.scatterTimes(u, f, w, sigma2, out);
			final double[] q = new double[u.length];
			for (int c = 0; c < u.length; c++)
				q[c] = dot(u[c], out[c]) / (set.n - 1);
			return q;
		}

		/**
		 * Top-k eigenpairs of the operator by restarted block Krylov Rayleigh–Ritz: from the
		 * warm start (k vectors, plus {@value #EXTRA} seeded ones), the space
		 * {@code [V, CV, …, C^q V]} (each block orthonormalised against the previous ones
		 * before it is multiplied), the Ritz pairs of C on it, restarted from the top k +
		 * {@value #EXTRA} Ritz vectors until every top-k residual ‖Cu − λu‖ is below
		 * 1e-10 of the largest Ritz value's magnitude. The Ritz values go to
		 * {@code values}.
		 */
		double[][] top(final double[][] start, final int k, final double[] values) {
			final int d = start[0].length;
			final SplittableRandom random = new SplittableRandom(17);
			final List<double[]> init = new ArrayList<>();
			for (final double[] v : start)
				init.add(v.clone());
			for (int e = 0; e < EXTRA; e++) {
				final double[] g = new double[d];
				for (int j = 0; j < d; j++)
					g[j] = random.nextDouble() - 0.5;
				init.add(g);
			}
			double[][] v = orthonormal(init, d);
			double[][] out = null;
			for (int restart = 0; restart < 200; restart++) {
				final List<double[]> basis = new ArrayList<>();
				double[][] block = v;
				for (int step = 0; step <= BLOCKS && basis.size() < d; step++) {
					final List<double[]> all = new ArrayList<>(basis);
					for (final double[] b2 : block)
						all.add(b2);
					final double[][] q = orthonormal(all, d);
					final int added = q.length - basis.size();
					if (added <= 0) break;
					final double[][] fresh = Arrays.copyOfRange(q, basis.size(), q.length);
					for (final double[] f : fresh)
						basis.add(f);
					block = times(fresh);
				}
				final double[][] q = basis.toArray(new double[0][]);
				final double[][] cq = times(q);
				final int p = q.length;
				final double[] h = new double[p * p];
				for (int i = 0; i < p; i++)
					for (int j = 0; j < p; j++)
						h[i * p + j] = 0.5 * (dot(q[i], cq[j]) + dot(q[j], cq[i]));
				final SymmetricEigen e = SymmetricEigen.of(h, p);
				final int keep = Math.min(p, k + EXTRA);
				final double[][] ritz = new double[keep][d], cr = new double[keep][d];
				for (int c = 0; c < keep; c++) {
					final double[] y = e.vector(c);
					for (int i = 0; i < p; i++)
						for (int j = 0; j < d; j++) {
							ritz[c][j] += y[i] * q[i][j];
							cr[c][j] += y[i] * cq[i][j];
						}
				}
				double scale = 0;
				for (int c = 0; c < p; c++)
					scale = Math.max(scale, Math.abs(e.value(c)));
				double worst = 0;
				for (int c = 0; c < k; c++) {
					double r = 0;
					for (int j = 0; j < d; j++) {
						final double x = cr[c][j] - e.value(c) * ritz[c][j];
						r += x * x;
					}
					worst = Math.max(worst, Math.sqrt(r));
				}
				out = Arrays.copyOf(ritz, k);
				for (int c = 0; c < k; c++)
					values[c] = e.value(c);
				if (worst <= 1e-10 * scale || p >= d) break;
				v = ritz;
			}
			return out;
		}

		/** Seeded vectors added to the warm start. */
		static final int EXTRA = 4;
		/** Krylov blocks per restart. */
		static final int BLOCKS = 6;
	}

	/** Modified Gram–Schmidt (twice) of the vectors, dropping those numerically dependent. */
	static double[][] orthonormal(final List<double[]> vectors, final int d) {
		final List<double[]> q = new ArrayList<>();
		for (final double[] v0 : vectors) {
			final double[] v = v0.clone();
			final double before = Math.sqrt(dot(v, v));
			if (!(before > 0)) continue;
			for (int pass = 0; pass < 2; pass++)
				for (final double[] u : q) {
					final double a = dot(u, v);
					for (int j = 0; j < d; j++)
						v[j] -= a * u[j];
				}
			final double norm = Math.sqrt(dot(v, v));
			if (norm > 1e-10 * before) {
				for (int j = 0; j < d; j++)
					v[j] /= norm;
				q.add(v);
			}
		}
		return q.toArray(new double[0][]);
	}
}
