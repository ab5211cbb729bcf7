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
 * matrix {@code M = (f_t + f_b) L_tᵀL_t − f_b S + (mean terms) = LᵀWL + (mean terms)} (W
 * diagonal: f_t on the target's rows, −f_b on the background's). The moments are computed
 * once per run (and may be shared by several α). For the null maximum, M's top eigenvalue,
 * a block of {@link #BLOCK} permutations runs Lanczos in lockstep: each step is two
 * matrix–matrix products with the shared factor, {@code Lᵀ(W_c ∘ (L V))} for the block's
 * vectors V, instead of one matrix–vector product per permutation and step (with the
 * Gram's triangular factor, each costs what the smaller part's rows alone did). With
 * fewer features than samples, or where forming M from the smaller part's rows is
 * cheaper, M is formed per permutation.
 * Centring only: standardised or whitened fits use {@link FixedFits#cpca}.
 */
public final class GramCpca implements Refit {

	/** The seed of the solvers' start vectors (fixed: a permutation's result depends on its data only). */
	private static final long SEED = 0;
	/** Below this r the top eigenvalue is taken from the dense top-k solve. */
	private static final int SMALL = 64;
	/** The largest Lanczos basis before falling back to the dense solve. */
	private static final int MAX_STEPS = 300;
	/** The side of a tile of the transposition of the factor. */
	private static final int TILE = 32;
	/**
	 * Permutations whose Lanczos runs share their products. At most 32, so that the
	 * products stay on the Java kernels ({@link Products#multiplyAdd} sends a product to
	 * the native dgemm only when its block has more than 32 rows), whose every entry is the
	 * same whatever the block holds: a permutation's maximum does not depend on its block.
	 */
	static final int BLOCK = 16;
	/** Output columns per strip of a block product (two tiles of the 512-bit kernels). */
	private static final int STRIP = 48;
	/**
	 * Terms per call of a block product: the vector kernels leave longer sums to the scalar
	 * kernel ({@link Products#multiplyAdd}).
	 */
	private static final int TERMS = 1024;
	/**
	 * The Lanczos steps a permutation typically takes (33 on the bundled images), for the
	 * choice between products with the Gram's factor and forming M.
	 */
	private static final int TYPICAL_STEPS = 32;

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
		/** Lᵀ (r × n), for the block products; null where M is formed per permutation. */
		private final double[][] lt;

		Prepared(final JointMoments joint) {
			j = joint;
			start = TopEigen.gaussian(new SplittableRandom(SEED), Math.max(j.r, 1));
			final int n = j.samples(), smaller = Math.min(j.sizes[0], j.sizes[1]);
			// multiply–adds per permutation: nr per Lanczos step with the triangular factor
			// against forming M (half of n_p r², a symmetric update) and an r² product per
			// step. The centred samples (features < samples) have no zeros to skip: there
			// 2nr per step and about 70 steps (the digits) did not beat forming M
			// (docs/math/significance.md#reusing-the-joint-gram)
			lt = j.lower && j.r >= SMALL && (double) TYPICAL_STEPS * n * j.r < 0.5 * smaller *
				j.r * j.r + (double) TYPICAL_STEPS * j.r * j.r ? transpose(j.l, j.r) : null;
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

		@Override
		public int block() {
			return BLOCK;
		}

		@Override
		public double[] maxima(final SplittableRandom[] randoms) {
			final Partition[] splits = new Partition[randoms.length];
			for (int c = 0; c < splits.length; c++)
				splits[c] = Partition.random(j.sizes, randoms[c]);
			return maxima(splits);
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
			return maxima(p)[0];
		}

		/**
		 * {@link #maximum} for several splits, their Lanczos runs in lockstep where the
		 * products with the factor are used: each value is the one the split gives alone.
		 */
		public double[] maxima(final Partition... splits) {
			final double outside = j.d > j.r ? 0 : Double.NEGATIVE_INFINITY;
			final double[] max = new double[splits.length];
			if (j.r < SMALL) {
				for (int c = 0; c < splits.length; c++) {
					max[c] = outside;
					for (final double v : statistics(splits[c]))
						max[c] = Math.max(max[c], v);
				}
				return max;
			}
			final Split[] parts = new Split[splits.length];
			for (int c = 0; c < splits.length; c++)
				parts[c] = new Split(splits[c]);
			final double[] top = lt != null ? LargestEigenvalue.of(new Block(parts),
				parts.length, j.r, start, MAX_STEPS) : formed(parts);
			for (int c = 0; c < splits.length; c++) {
				if (Double.isNaN(top[c])) // Lanczos stopped at its cap: the dense solve
					top[c] = TopEigen.solve(parts[c].dense(), j.r, 1, null, SEED).values[0];
				max[c] = Math.max(top[c], outside);
			}
			return max;
		}

		/** The top eigenvalues by Lanczos on M formed per split (NaN where not converged). */
		private double[] formed(final Split[] parts) {
			final int r = j.r;
			final double[] top = new double[parts.length];
			for (int c = 0; c < parts.length; c++) {
				final double[] m = parts[c].dense();
				top[c] = LargestEigenvalue.of((v, out) -> {
					Arrays.fill(out, 0); // M symmetric: M v = Σ_q v_q (row q), vectorised
					for (int q = 0; q < r; q++)
						addScaledRow(v[q], m, q * r, out);
				}, r, start, MAX_STEPS);
			}
			return top;
		}

		/**
		 * The n × r rows as r × n columns, by tiles of {@link #TILE} × {@link #TILE}, so that
		 * both the rows read and the columns written stay in the cache.
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
		 * {@code out += x · m}, m being Lᵀ ({@code upper}) or L (lower trapezoidal), by strips
		 * of {@link #STRIP} output columns, each strip's sum skipping the rows of m that are
		 * zero in it (column i of L is zero above row i, column i of Lᵀ below row i): half
		 * the work of the full product. Each entry is summed over ascending rows of m in runs
		 * of at most {@link #TERMS} ({@link Products#multiplyAdd}: the same bits however
		 * cut).
		 */
		private void product(final double[][] x, final double[][] m, final double[][] out,
			final boolean upper)
		{
			final int terms = m.length, columns = m[0].length;
			for (int i0 = 0; i0 < columns; i0 += STRIP) {
				final int i1 = Math.min(columns, i0 + STRIP);
				final int t0 = upper ? 0 : i0;
				final int t1 = upper ? Math.min(terms, i1) : terms;
				for (int t = t0; t < t1; t += TERMS)
					Products.multiplyAdd(x, m, out, 0, x.length, t, Math.min(t1, t + TERMS), i0,
						i1);
			}
		}

		/**
		 * The M of several splits applied together: {@code M_c v_c = Lᵀ(w_c ∘ (L v_c)) +
		 * (rank-two mean term)_c v_c}, the block's vectors multiplied by Lᵀ and by L as
		 * matrix–matrix products ({@link #product}) with the weights w_c (f_t on the
		 * target's rows, −f_b on the background's) applied in between.
		 */
		private final class Block implements LargestEigenvalue.BlockOperator {

			private final Split[] parts;
			private final double[][] weights;

			Block(final Split[] parts) {
				this.parts = parts;
				weights = new double[parts.length][];
				for (int c = 0; c < parts.length; c++) {
					final Split s = parts[c];
					final double[] w = new double[j.samples()];
					Arrays.fill(w, s.b);
					for (final int i : s.index)
						w[j.row[i]] = s.a + s.b;
					weights[c] = w;
				}
			}

			@Override
			public void apply(final int[] which, final int count, final double[][] v,
				final double[][] out)
			{
				final int n = j.samples(), r = j.r;
				final double[][] block = Arrays.copyOf(v, count);
				final double[][] u = new double[count][n]; // (L v_c)ᵀ
				product(block, lt, u, true);
				for (int c = 0; c < count; c++) {
					final double[] w = weights[which[c]], uc = u[c];
					for (int i = 0; i < n; i++)
						uc[i] *= w[i];
				}
				final double[][] y = new double[count][r];
				product(u, j.l, y, false);
				for (int c = 0; c < count; c++) {
					parts[which[c]].addMeans(v[c], y[c]);
					out[c] = y[c];
				}
			}
		}

		/**
		 * One split's M = a·P + b·S + (rank-two mean term) with P the cross product of the
		 * rows of L of its smaller part (L_tᵀL_t = S − L_bᵀL_b, as the rows' full cross
		 * product is S); the mean term is {@code −f_t n_t μ_tμ_tᵀ + f_b n_b μ_bμ_bᵀ} with
		 * {@code n_b μ_b = σ − n_t μ_t} (σ the sum of all rows: 0 up to rounding).
		 */
		private final class Split {

			/** The pooled indices of the smaller part, and their rows of L. */
			final int[] index;
			final double[][] rows;
			final double a, b, ct, cb;
			final double[] mt, mb;

			Split(final Partition p) {
				final int nt = j.sizes[0], nb = j.sizes[1];
				final boolean target = nt <= nb;
				index = p.part(target ? 0 : 1);
				rows = new double[index.length][];
				final double[] part = new double[j.r]; // the sum of the part's rows
				for (int q = 0; q < index.length; q++) {
					rows[q] = j.l[j.row[index[q]]];
					TopEigen.axpy(1, rows[q], part);
				}
				final double[] other = j.sum.clone(); // the sum of the other part's rows
				TopEigen.axpy(-1, part, other);
				mt = target ? part : other;
				mb = target ? other : part;
				for (int c = 0; c < j.r; c++) {
					mt[c] /= nt;
					mb[c] /= nb;
				}
				final double ft = 1.0 / (nt - 1), fb = alpha / (nb - 1);
				a = target ? ft + fb : -(ft + fb);
				b = target ? -fb : ft;
				ct = -ft * nt;
				cb = fb * nb;
			}

			/** {@code out += (−f_t n_t μ_tμ_tᵀ + f_b n_b μ_bμ_bᵀ) v}. */
			void addMeans(final double[] v, final double[] out) {
				TopEigen.axpy(ct * TopEigen.dot(mt, v), mt, out);
				TopEigen.axpy(cb * TopEigen.dot(mb, v), mb, out);
			}

			/** M, r × r row-major. */
			double[] dense() {
				final int r = j.r;
				final double[] m = rows.length == 0 ? new double[r * r] : Products.crossProduct(
					rows, r, a);
				for (int c = 0; c < r; c++)
					for (int q = 0; q < r; q++)
						m[c * r + q] += b * j.s[c * r + q] + ct * mt[c] * mt[q] + cb * mb[c] *
							mb[q];
				return m;
			}
		}
	}
}
