package org.cpca.core.contrast;

import org.cpca.core.data.Preprocessing;

/**
 * The feature space built from moments ({@link Moments}) instead of samples: A and
 * every B_j are the d × d covariances of the merged moments, so everything solved on it
 * equals {@link FeatureSpace}'s to rounding. Target scores come from a
 * {@link TargetProjection} (a second pass over samples held elsewhere).
 */
final class MomentSpace extends ContrastiveSpace {

	private final Preprocessing targetPre;
	private final TargetProjection projection;

	MomentSpace(final int d, final double[] a, final double[][] backgrounds,
		final Preprocessing targetPre, final TargetProjection projection)
	{
		super(d, a, backgrounds);
		this.targetPre = targetPre;
		this.projection = projection;
	}

	@Override
	public int features() {
		return m;
	}

	@Override
	public double[][] components(final double[] w, final int k) {
		final double[][] v = new double[k][m];
		for (int c = 0; c < k; c++) {
			double norm = 0;
			for (int i = 0; i < m; i++)
				norm += w[i * k + c] * w[i * k + c];
			norm = Math.sqrt(norm);
			for (int i = 0; i < m; i++)
				v[c][i] = w[i * k + c] / norm;
		}
		return v;
	}

	@Override
	double[] targetScores(final double[] w, final int k) {
		return projection.project(targetPre, w, k);
	}

	@Override
	String description() {
		return "feature space from merged moments: d = " + m + " features (d × d covariances)";
	}
}
