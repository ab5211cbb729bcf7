package org.cpca.core.significance;

import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.Progress;
import org.cpca.core.data.Dataset;
import org.cpca.core.data.Preprocessing;
import org.cpca.core.linalg.Products;
import org.cpca.core.linalg.SymmetricEigen;
import org.cpca.core.linalg.TopEigen;
import org.cpca.core.model.FittedModel;

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
 * permutation costs O(n_t r²) plus a top-k solve and never touches the d features again. Centring only:
 * standardised or whitened fits use {@link FixedFits#cpca}.
 */
public final class GramCpca implements Refit {

	/** Eigenvalues of G below this fraction of the largest are rounding (dropped). */
	static final double RANK_TOLERANCE = 1e-13;
	/** The seed of the top-k solver's start block (fixed: a permutation's result depends on its data only). */
	private static final long SEED = 0;

	private final double alpha;
	private final int k;

	/**
	 * @param options only k is used; standardising and whitening are refused
	 * @param alpha a finite α ≥ 0
	 */
	public GramCpca(final CpcaOptions options, final double alpha) {
		Cpca.checkAlpha(alpha);
		if (Double.isInfinite(alpha)) throw new IllegalArgumentException("the Gram " +
			"re-partition solves cPCA at a finite α; for α = ∞ use the refit of FixedFits.cpca");
		if (options.standardize() || options.whiten()) throw new IllegalArgumentException(
			"the Gram re-partition refits centred data only; for standardised or whitened " +
				"fits use the refit of FixedFits.cpca");
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
		private final double[] s; // its r non-zero eigenvalues: lᵀl = diag(s)

		Prepared(final Dataset target, final Dataset background) {
			if (target.features() != background.features()) throw new IllegalArgumentException(
				background.name() + " has " + background.features() + " features but " + target
					.name() + " has " + target.features() + ": both must have the same features");
			sizes = new int[] { target.samples(), background.samples() };
			if (sizes[0] < 2 || sizes[1] < 2) throw new IllegalArgumentException("cPCA needs " +
				"at least 2 target and 2 background samples");
			d = target.features();
			final int n = sizes[0] + sizes[1];
			final double[] mean = new double[d]; // the pooled mean, which no split changes
			for (final Dataset set : List.of(target, background))
				for (int i = 0; i < set.samples(); i++) {
					final float[] x = set.row(i);
					for (int j = 0; j < d; j++)
						mean[j] += x[j];
				}
			for (int j = 0; j < d; j++)
				mean[j] /= n;
			final Preprocessing centred = Preprocessing.of(mean, null);
			// the project's Gram (native dgemm or the Java kernels), summed in double
			final double[] g = Products.gram(new Dataset[] { target, background },
				new Preprocessing[] { centred, centred }, Progress.NONE, false);
			final SymmetricEigen e = SymmetricEigen.of(g, n);
			final double cut = RANK_TOLERANCE * Math.max(e.value(0), 0);
			int rank = 0;
			while (rank < n && e.value(rank) > cut)
				rank++;
			r = rank;
			l = new double[n][r];
			s = new double[r];
			for (int c = 0; c < r; c++) {
				s[c] = e.value(c);
				final double root = Math.sqrt(s[c]);
				final double[] u = e.vector(c);
				for (int i = 0; i < n; i++)
					l[i][c] = u[i] * root;
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

		/**
		 * The top k eigenvalues of C_t − αC_b for the split {@code p} (target, background).
		 * Only the target's rows are touched: the factor's rows sum to 0 and their cross
		 * product is the diagonal S, so the background's centred cross product is
		 * {@code S − T − n_t μ_t μ_tᵀ − n_b μ_b μ_bᵀ} with T the target's centred one and
		 * {@code μ_b = −(n_t/n_b) μ_t}.
		 */
		public double[] statistics(final Partition p) {
			final int[] rows = p.part(0);
			final int nt = rows.length, nb = sizes[0] + sizes[1] - nt;
			final double[] mt = new double[r];
			for (final int i : rows)
				for (int c = 0; c < r; c++)
					mt[c] += l[i][c];
			for (int c = 0; c < r; c++)
				mt[c] /= nt;
			final double[][] centred = new double[nt][r];
			for (int q = 0; q < nt; q++)
				for (int c = 0; c < r; c++)
					centred[q][c] = l[rows[q]][c] - mt[c];
			final double[] m = Products.crossProduct(centred, r, 1); // T
			final double ft = 1.0 / (nt - 1), fb = alpha / (nb - 1);
			final double means = nt + (double) nt * nt / nb; // n_t μ_tμ_tᵀ + n_b μ_bμ_bᵀ
			for (int c = 0; c < r; c++)
				for (int q = 0; q < r; q++) {
					final double t = m[c * r + q];
					final double b = (c == q ? s[c] : 0) - t - means * mt[c] * mt[q];
					m[c * r + q] = ft * t - fb * b;
				}
			final int kr = Math.min(k, r);
			final double[] values = kr == 0 ? new double[0]
				: TopEigen.solve(m, r, kr, null, SEED).values;
			// outside the span of the data C_t − αC_b is 0 (d − r times)
			final double[] top = new double[Math.min(k, d)];
			int next = 0, zeros = d - r;
			for (int c = 0; c < top.length; c++)
				if (next < kr && (values[next] >= 0 || zeros == 0)) top[c] = values[next++];
				else zeros--; // top[c] = 0

			return top;
		}
	}
}
