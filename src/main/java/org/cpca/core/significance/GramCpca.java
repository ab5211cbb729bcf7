package org.cpca.core.significance;

import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import org.cpca.core.linalg.Products;
import org.cpca.core.linalg.TopEigen;
import org.cpca.core.model.FittedModel;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * cPCA at one fixed α refitted by re-partitioning the joint moments of target ∪ background
 * (docs/math/significance.md#reusing-the-joint-gram). With the pooled, pooled-centred
 * samples factored as X = LQ ({@link JointMoments}: Q with orthonormal rows, S = LᵀL), any
 * split's covariances are {@code C = Qᵀ (L_cᵀL_c/(n − 1)) Q} with L_c the split's rows of L
 * centred on their own mean, so the non-zero spectrum of C_t − αC_b is that of the r × r
 * matrix {@code M = (f_t + f_b) L_tᵀL_t − f_b S + γ μ_tμ_tᵀ}. The moments are computed once
 * per run (and may be shared by several α); a permutation reads only the rows of its smaller
 * part and, for the null maximum, finds M's top eigenvalue by Lanczos from products with
 * those rows (never forming M when that part has fewer rows than r). Centring only:
 * standardised or whitened fits use {@link FixedFits#cpca}.
 */
public final class GramCpca implements Refit {

	/** The seed of the solvers' start vectors (fixed: a permutation's result depends on its data only). */
	private static final long SEED = 0;
	/** Below this r the top eigenvalue is taken from the dense top-k solve. */
	private static final int SMALL = 64;
	/** Most entries of a permutation's gathered columns (8 MB per worker thread). */
	private static final double GATHER_LIMIT = 1 << 20;
	/** The largest Lanczos basis before falling back to the dense solve. */
	private static final int MAX_STEPS = 300;
	/** The side of a tile of the transposition of a permutation's rows. */
	private static final int TILE = 32;

	private final double alpha;
	private final int k;
	private final JointMoments shared;

	/**
	 * @param options only k is used; standardising and whitening are refused
	 * @param alpha a finite α ≥ 0
	 */
	public GramCpca(final CpcaOptions options, final double alpha) {
		this(options, alpha, null);
	}

	/**
	 * @param joint the joint moments of the data this refit will be prepared on, computed
	 *          once and shared by the α's tested on them; {@code null} to compute them in
	 *          {@link #prepare}
	 */
	public GramCpca(final CpcaOptions options, final double alpha, final JointMoments joint) {
		Cpca.checkAlpha(alpha);
		if (Double.isInfinite(alpha)) throw new IllegalArgumentException("the Gram " +
			"re-partition solves cPCA at a finite α; for α = ∞ use the refit of FixedFits.cpca");
		if (options.standardize() || options.whiten()) throw new IllegalArgumentException(
			"the Gram re-partition refits centred data only; for standardised or whitened " +
				"fits use the refit of FixedFits.cpca");
		this.alpha = alpha;
		this.k = options.components();
		this.shared = joint;
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
		final Dataset b = backgrounds.get(0);
		return new Prepared(shared != null ? shared.check(target, b) : JointMoments.of(target,
			b));
	}

	/** The joint moments, ready to be re-partitioned. */
	public final class Prepared implements Refit.Null {

		private final JointMoments j;
		private final double[] start;

		Prepared(final JointMoments joint) {
			j = joint;
			start = TopEigen.gaussian(new SplittableRandom(SEED), Math.max(j.r, 1));
		}

		@Override
		public double[] observed() {
			return statistics(Partition.identity(j.sizes));
		}

		@Override
		public double[] permuted(final SplittableRandom random) {
			return statistics(Partition.random(j.sizes, random));
		}

		@Override
		public double maximum(final SplittableRandom random) {
			return maximum(Partition.random(j.sizes, random));
		}

		/** The top k eigenvalues of C_t − αC_b for the split {@code p} (target, background). */
		public double[] statistics(final Partition p) {
			final Split split = new Split(p);
			final int kr = Math.min(k, j.r);
			final double[] values = kr == 0 ? new double[0] : TopEigen.solve(split.dense(), j.r,
				kr, null, SEED).values;
			// outside the span of the data C_t − αC_b is 0 (d − r times)
			final double[] top = new double[Math.min(k, j.d)];
			int next = 0, zeros = j.d - j.r;
			for (int c = 0; c < top.length; c++)
				if (next < kr && (values[next] >= 0 || zeros == 0)) top[c] = values[next++];
				else zeros--; // top[c] = 0
			return top;
		}

		/**
		 * The largest eigenvalue of C_t − αC_b for the split {@code p}: the maximum of
		 * {@link #statistics} over components, without the other k − 1.
		 */
		public double maximum(final Partition p) {
			final double outside = j.d > j.r ? 0 : Double.NEGATIVE_INFINITY;
			if (j.r < SMALL) {
				double max = outside;
				for (final double v : statistics(p))
					max = Math.max(max, v);
				return max;
			}
			final Split split = new Split(p);
			final boolean matrixFree = j.diagonal && split.rows.length < j.r;
			final double[] m = matrixFree ? null : split.dense();
			final int r = j.r;
			double top = LargestEigenvalue.of(matrixFree ? split::apply : (v, out) -> {
				Arrays.fill(out, 0); // M symmetric: M v = Σ_q v_q (row q), vectorised
				for (int q = 0; q < r; q++)
					addScaledRow(v[q], m, q * r, out);
			}, r, start, MAX_STEPS);
			if (Double.isNaN(top)) // not converged: the dense solve
				top = TopEigen.solve(m != null ? m : split.dense(), j.r, 1, null, SEED).values[0];
			return Math.max(top, outside);
		}

		/**
		 * The n × r rows as r × n columns, by tiles of {@link #TILE} × {@link #TILE}, so that
		 * both the rows read and the columns written stay in the cache (a row at a time wrote
		 * to r columns per row: the images test took 8 % more CPU).
		 */
		private double[][] transpose(final double[][] rows, final int r) {
			final double[][] columns = new double[r][rows.length];
			for (int q0 = 0; q0 < rows.length; q0 += TILE) {
				final int q1 = Math.min(rows.length, q0 + TILE);
				for (int c0 = 0; c0 < r; c0 += TILE) {
					final int c1 = Math.min(r, c0 + TILE);
					for (int c = c0; c < c1; c++) {
						final double[] column = columns[c];
						for (int q = q0; q < q1; q++)
							column[q] = rows[q][c];
					}
				}
			}
			return columns;
		}

		/** {@code out += f · m[from … from + out.length)}. */
		private void addScaledRow(final double f, final double[] m, final int from,
			final double[] out)
		{
			for (int a = 0; a < out.length; a++)
				out[a] += f * m[from + a];
		}

		/**
		 * One split's M = a·P + b·S + γ μ_tμ_tᵀ with P the cross product of the rows of L of
		 * its smaller part (L_tᵀL_t = S − L_bᵀL_b, as the rows' full cross product is S; and
		 * μ_b = −(n_t/n_b)μ_t, as the rows sum to 0).
		 */
		private final class Split {

			final double[][] rows;
			final double a, b, gamma;
			final double[] mt;

			Split(final Partition p) {
				final int nt = j.sizes[0], nb = j.sizes[1];
				final boolean target = nt <= nb;
				final int[] index = p.part(target ? 0 : 1);
				rows = new double[index.length][];
				final double[] mean = new double[j.r];
				for (int q = 0; q < index.length; q++) {
					rows[q] = j.l[index[q]];
					TopEigen.axpy(1, rows[q], mean);
				}
				mt = mean;
				final double toTarget = target ? 1.0 / nt : -1.0 / nt; // μ_t = −(1/n_t) Σ_b rows
				for (int c = 0; c < j.r; c++)
					mt[c] *= toTarget;
				final double ft = 1.0 / (nt - 1), fb = alpha / (nb - 1);
				a = target ? ft + fb : -(ft + fb);
				b = target ? -fb : ft;
				gamma = fb * (nt + (double) nt * nt / nb) - (ft + fb) * nt;
			}

			/** M, r × r row-major. */
			double[] dense() {
				final int r = j.r;
				final double[] m = rows.length == 0 ? new double[r * r] : Products.crossProduct(
					rows, r, a);
				for (int c = 0; c < r; c++)
					for (int q = 0; q < r; q++)
						m[c * r + q] += b * j.s[c * r + q] + gamma * mt[c] * mt[q];
				return m;
			}

			/**
			 * The rows as columns (r × n_p), gathered once per permutation when small
			 * enough, so that {@code L_p v} is a sum of scaled columns (vectorised) rather
			 * than n_p dot products; null otherwise.
			 */
			private double[][] columns;
			private boolean gathered;

			/** out = M v, from the rows (S diagonal). */
			void apply(final double[] v, final double[] out) {
				final int r = j.r;
				if (!gathered) {
					gathered = true;
					if ((double) r * rows.length <= GATHER_LIMIT) {
						columns = transpose(rows, r);
					}
				}
				for (int c = 0; c < r; c++)
					out[c] = b * j.s[c * r + c] * v[c];
				if (columns != null) {
					final double[] u = new double[rows.length]; // L_p v
					for (int c = 0; c < r; c++)
						TopEigen.axpy(v[c], columns[c], u);
					for (int q = 0; q < rows.length; q++)
						TopEigen.axpy(a * u[q], rows[q], out);
				}
				else for (final double[] x : rows)
					TopEigen.axpy(a * TopEigen.dot(x, v), x, out);
				TopEigen.axpy(gamma * TopEigen.dot(mt, v), mt, out);
			}
		}
	}
}
