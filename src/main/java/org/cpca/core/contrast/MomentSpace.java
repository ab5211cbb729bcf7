package org.cpca.core.contrast;

import org.cpca.core.data.Preprocessing;
import org.cpca.core.linalg.Products;

/**
 * The feature space built from moments ({@link Moments}) instead of samples: A and
 * every B_j are the d × d covariances of the merged moments, so everything solved on it
 * equals {@link FeatureSpace}'s to rounding. Target scores come from a
 * {@link TargetProjection} (a second pass over samples held elsewhere).
 * <p>
 * With a basis Q (d × m, orthonormal columns; {@link Cpca#fromRange}) the moments are
 * those of the samples projected on Q, A and B_j are QᵀC_tQ and QᵀC_bQ, and every
 * solution w maps back to feature space as Qw (docs/math/spark.md, the range path).
 */
final class MomentSpace extends ContrastiveSpace {

	private final Preprocessing targetPre;
	private final TargetProjection projection;
	/** Q (d × m, row-major), or {@code null} for the feature space itself. */
	private final double[] basis;
	private final int d;

	MomentSpace(final int d, final double[] a, final double[][] backgrounds,
		final Preprocessing targetPre, final TargetProjection projection)
	{
		this(d, a, backgrounds, targetPre, projection, null, d, Double.NaN);
	}

	MomentSpace(final int m, final double[] a, final double[][] backgrounds,
		final Preprocessing targetPre, final TargetProjection projection,
		final double[] basis, final int d, final double totalVariance)
	{
		super(m, a, backgrounds, totalVariance);
		this.targetPre = targetPre;
		this.projection = projection;
		this.basis = basis;
		this.d = d;
	}

	@Override
	public int features() {
		return d;
	}

	/** Qw (d × k), or w itself without a basis. */
	private double[] lift(final double[] w, final int k) {
		return basis == null ? w : Products.multiply(basis, d, m, w, k);
	}

	@Override
	public double[][] components(final double[] w, final int k) {
		final double[] x = lift(w, k);
		final double[][] v = new double[k][d];
		for (int c = 0; c < k; c++) {
			double norm = 0;
			for (int i = 0; i < d; i++)
				norm += x[i * k + c] * x[i * k + c];
			norm = Math.sqrt(norm);
			for (int i = 0; i < d; i++)
				v[c][i] = x[i * k + c] / norm;
		}
		return v;
	}

	@Override
	double[] targetScores(final double[] w, final int k) {
		return projection.project(targetPre, lift(w, k), k);
	}

	@Override
	String description() {
		return basis == null ? "feature space from merged moments: d = " + m +
			" features (d × d covariances)" : "randomized range: the moments projected on " +
				"an orthonormal basis of r = " + m + " directions of d = " + d + " features";
	}
}
