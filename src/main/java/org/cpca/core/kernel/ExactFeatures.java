package org.cpca.core.kernel;

import org.cpca.core.Progress;
import org.cpca.core.contrast.ReducedSpace;
import org.cpca.core.data.Dataset;
import org.cpca.core.data.Preprocessing;

import java.util.Arrays;

/**
 * Exact kernel features (docs/math/kernel.md) for N = n_b + n_t up to a few thousand samples.
 * <p>
 * The kernel matrix K of the stacked samples [background; target] is centred per dataset
 * (each block on its own feature-space mean, {@link KernelMatrix#centre}), giving K_c, and
 * factored by a rank-revealing pivoted Cholesky, {@code K_c = L Lᵀ} (N × r, r the numerical
 * rank; pivots stop below {@value #RANK_TOLERANCE} of the largest diagonal). The rows of L are coordinates of
 * the centred feature vectors in an orthonormal basis of their span, so linear cPCA on them
 * solves exactly the symmetric problem {@code S^{1/2}UᵀDUS^{1/2}} of the specification (the
 * same problem up to an orthogonal change of basis, which changes neither eigenvalues nor
 * scores), and a unit w is a unit feature-space direction. The pivoted Cholesky costs
 * about N r²/3 against the 4N³/3 and more of an eigendecomposition.
 * <p>
 * The background's rows are pivoted first: the background then has coordinates only in
 * the first r_b columns (its roundoff-sized entries in the others, below the rank
 * tolerance, are set to 0), so the background covariance has an exactly zero trailing
 * block, the null space of the background in feature space, which the solver exploits.
 * <p>
 * A direction v is {@code Σ_i a_i Φ̃_i} for any a with {@code Lᵀa = v}; the one supported
 * on the pivot samples solves a triangular system, {@code L_Pᵀ a_P = v}. Expanding
 * {@code Φ̃_i = Φ(x_i) − μ_{s(i)}} gives coefficients over all training samples.
 */
final class ExactFeatures extends KernelFeatures {

	/**
	 * Pivots stop below this fraction of the largest diagonal of K_c: above the rounding
	 * of the Schur complements of a kernel matrix, which grows with its conditioning (the
	 * direction the centring removes from each dataset, exactly 0, came out at 8·10⁻¹¹ of
	 * the diagonal for N = 2,000 with the rbf kernel), so that such directions are not kept
	 * as noise. Directions with less feature-space variance than this carry nothing cPCA
	 * could resolve.
	 */
	static final double RANK_TOLERANCE = 1e-9;

	private final float[][] support;
	private final int nb;
	private final int nt;
	/** Rows of L at the pivot samples, in pivot order: lower triangular (r × r). */
	private final double[][] pivotRows;
	/** Support index of the pivot of each column. */
	private final int[] pivots;
	private final double[] rho;
	private final int backgroundRank;

	private ExactFeatures(final float[][] target, final float[][] background,
		final float[][] support, final double[][] pivotRows, final int[] pivots,
		final double[] rho, final int backgroundRank)
	{
		super(target, background);
		this.support = support;
		this.nb = background.length;
		this.nt = target.length;
		this.pivotRows = pivotRows;
		this.pivots = pivots;
		this.rho = rho;
		this.backgroundRank = backgroundRank;
	}

	static ExactFeatures build(final Dataset target, final Dataset background,
		final Preprocessing input, final KernelFunction h, final Progress progress)
	{
		final Dataset[] sets = { background, target };
		final int nb = background.samples(), nt = target.samples(), n = nb + nt;
		progress.stage("kernel matrix", 0);
		final double[] k = KernelMatrix.full(sets, input, h, progress);
		progress.checkCancelled();
		final double[][] rowMean = KernelMatrix.centre(k, n, new int[] { 0, nb, n });
		progress.stage("kernel factorisation", 0);
		final int[] pivotOf = new int[n];
		final double[][] l = ReducedSpace.pivotedCholesky(k, n, nb, pivotOf, RANK_TOLERANCE);
		progress.checkCancelled();
		final int r = l.length == 0 ? 0 : l[0].length;
		int rb = 0;
		while (rb < r && pivotOf[rb] < nb)
			rb++;
		final float[][] fb = new float[nb][r], ft = new float[nt][r];
		for (int i = 0; i < nb; i++)
			for (int c = 0; c < rb; c++)
				fb[i][c] = (float) l[i][c];
		for (int i = 0; i < nt; i++)
			for (int c = 0; c < r; c++)
				ft[i][c] = (float) l[nb + i][c];
		final double[][] pivotRows = new double[r][];
		for (int c = 0; c < r; c++)
			pivotRows[c] = Arrays.copyOf(l[pivotOf[c]], c + 1);
		final float[][] support = new float[n][];
		for (int i = 0; i < nb; i++)
			support[i] = background.row(i);
		for (int i = 0; i < nt; i++)
			support[nb + i] = target.row(i);
		progress.stage("kernel factorisation", 1);
		return new ExactFeatures(ft, fb, support, pivotRows, Arrays.copyOf(pivotOf, r),
			rowMean[1], rb);
	}

	@Override
	float[][] support() {
		return support;
	}

	@Override
	double[][] coefficients(final double[][] directions) {
		final int k = directions.length, r = pivots.length, n = nb + nt;
		final double[][] b = new double[n][k];
		for (int c = 0; c < k; c++) {
			// L_Pᵀ a = v by back substitution, as axpys over the rows of L_P
			final double[] v = directions[c].clone();
			for (int p = r - 1; p >= 0; p--) {
				final double[] row = pivotRows[p];
				final double a = v[p] / row[p];
				for (int q = 0; q < p; q++)
					v[q] -= a * row[q];
				b[pivots[p]][c] = a;
			}
			// Φ̃_i = Φ(x_i) − μ_{s(i)}: subtract each block's mean coefficient
			double sb = 0, st = 0;
			for (int i = 0; i < nb; i++)
				sb += b[i][c];
			for (int i = nb; i < n; i++)
				st += b[i][c];
			sb /= nb;
			st /= nt;
			for (int i = 0; i < n; i++)
				b[i][c] -= i < nb ? sb : st;
		}
		return b;
	}

	@Override
	double[] offsets() {
		return rho;
	}

	@Override
	String description() {
		return "kernel cPCA, exact: pivoted Cholesky of the N × N block-centred kernel " +
			"matrix (N = " + (nb + nt) + "), feature rank r = " + pivots.length + " (" +
			backgroundRank + " spanned by the background)";
	}
}
