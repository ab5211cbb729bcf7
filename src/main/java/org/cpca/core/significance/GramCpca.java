package org.cpca.core.significance;

import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import org.cpca.core.linalg.SymmetricEigen;
import org.cpca.core.model.FittedModel;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * cPCA at one fixed α refitted by re-partitioning the joint Gram of target ∪ background
 * (docs/math/significance.md#reusing-the-joint-gram). The pooled samples, centred on the
 * pooled mean (which no permutation changes), have Gram {@code G = XXᵀ = LLᵀ} with
 * {@code L = U S^{1/2}} (n × r, r the rank): X = LQ for a Q with orthonormal rows, so for
 * any split the covariances are {@code C = Qᵀ (L_cᵀL_c/(n − 1)) Q} with L_c the split's rows
 * of L centred on their own mean, and the non-zero spectrum of C_t − αC_b is that of the
 * r × r matrix of the L blocks. G and its factor are computed once (O(n²d + n³)); a
 * permutation costs O(n r² + r³) and never touches the d features again. Centring only:
 * standardised or whitened fits use {@link Families#cpca}.
 */
public final class GramCpca implements Refit {

	/** Eigenvalues of G below this fraction of the largest are rounding (dropped). */
	static final double RANK_TOLERANCE = 1e-13;

	private final double alpha;
	private final int k;

	/**
	 * @param options only k is used; standardising and whitening are refused
	 * @param alpha a finite α ≥ 0
	 */
	public GramCpca(final CpcaOptions options, final double alpha) {
		Cpca.checkAlpha(alpha);
		if (Double.isInfinite(alpha)) throw new IllegalArgumentException("the Gram " +
			"re-partition solves cPCA at a finite α; for α = ∞ use the refit of Families.cpca");
		if (options.standardize() || options.whiten()) throw new IllegalArgumentException(
			"the Gram re-partition refits centred data only; for standardised or whitened " +
				"fits use the refit of Families.cpca");
		this.alpha = alpha;
		this.k = options.components();
	}

	@Override
	public String statistic() {
		return "eigenvalue of C_t − αC_b (α = " + FittedModel.alphaText(alpha) + ")";
	}

	@Override
	public double[] statistics(final Dataset target, final List<Dataset> backgrounds) {
		return prepare(target, backgrounds).observed();
	}

	@Override
	public Prepared prepare(final Dataset target, final List<Dataset> backgrounds) {
		if (backgrounds.size() != 1) throw new IllegalArgumentException("cPCA at α needs " +
			"exactly one background (got " + backgrounds.size() + ")");
		return new Prepared(target, backgrounds.get(0));
	}

	/** The joint Gram's factor, ready to be re-partitioned. */
	public final class Prepared implements Refit.Null {

		private final int[] sizes;
		private final int d, r;
		private final double[][] l; // n × r, the factor of the centred joint Gram

		Prepared(final Dataset target, final Dataset background) {
			if (target.features() != background.features()) throw new IllegalArgumentException(
				background.name() + " has " + background.features() + " features but " + target
					.name() + " has " + target.features() + ": both must have the same features");
			sizes = new int[] { target.samples(), background.samples() };
			if (sizes[0] < 2 || sizes[1] < 2) throw new IllegalArgumentException("cPCA needs " +
				"at least 2 target and 2 background samples");
			d = target.features();
			final Dataset pooled = Dataset.stack(target.name(), List.of(target, background));
			final int n = pooled.samples();
			final double[] mean = new double[d];
			for (int i = 0; i < n; i++) {
				final float[] x = pooled.row(i);
				for (int j = 0; j < d; j++)
					mean[j] += x[j];
			}
			for (int j = 0; j < d; j++)
				mean[j] /= n;
			final double[][] x = new double[n][d];
			for (int i = 0; i < n; i++) {
				final float[] row = pooled.row(i);
				for (int j = 0; j < d; j++)
					x[i][j] = row[j] - mean[j];
			}
			final double[] g = new double[n * n];
			for (int i = 0; i < n; i++)
				for (int q = 0; q <= i; q++) {
					double s = 0;
					for (int j = 0; j < d; j++)
						s += x[i][j] * x[q][j];
					g[i * n + q] = s;
					g[q * n + i] = s;
				}
			final SymmetricEigen e = SymmetricEigen.of(g, n);
			final double cut = RANK_TOLERANCE * Math.max(e.value(0), 0);
			int rank = 0;
			while (rank < n && e.value(rank) > cut)
				rank++;
			r = rank;
			l = new double[n][r];
			for (int c = 0; c < r; c++) {
				final double s = Math.sqrt(e.value(c));
				final double[] u = e.vector(c);
				for (int i = 0; i < n; i++)
					l[i][c] = u[i] * s;
			}
		}

		@Override
		public double[] observed() {
			return statistics(Partition.identity(sizes));
		}

		@Override
		public double[] permuted(final SplittableRandom random) {
			return statistics(Partition.random(sizes, random));
		}

		/** The top k eigenvalues of C_t − αC_b for the split {@code p} (target, background). */
		public double[] statistics(final Partition p) {
			final double[] a = covariance(p.part(0)), b = covariance(p.part(1));
			for (int i = 0; i < a.length; i++)
				a[i] -= alpha * b[i];
			final double[] values = SymmetricEigen.of(a, r).values();
			// outside the span of the data C_t − αC_b is 0 (d − r times)
			final double[] all = Arrays.copyOf(values, r + Math.max(0, d - r));
			Arrays.sort(all);
			final double[] top = new double[Math.min(k, all.length)];
			for (int c = 0; c < top.length; c++)
				top[c] = all[all.length - 1 - c];
			return top;
		}

		/** The r × r covariance (divisor n − 1) of the factor's rows {@code rows}. */
		private double[] covariance(final int[] rows) {
			final double[] mean = new double[r];
			for (final int i : rows)
				for (int c = 0; c < r; c++)
					mean[c] += l[i][c];
			for (int c = 0; c < r; c++)
				mean[c] /= rows.length;
			final double[] cov = new double[r * r];
			final double[] y = new double[r];
			for (final int i : rows) {
				for (int c = 0; c < r; c++)
					y[c] = l[i][c] - mean[c];
				for (int c = 0; c < r; c++) {
					final double yc = y[c];
					for (int q = 0; q <= c; q++)
						cov[c * r + q] += yc * y[q];
				}
			}
			final double f = 1.0 / (rows.length - 1);
			for (int c = 0; c < r; c++)
				for (int q = 0; q <= c; q++) {
					cov[c * r + q] *= f;
					cov[q * r + c] = cov[c * r + q];
				}
			return cov;
		}
	}
}
