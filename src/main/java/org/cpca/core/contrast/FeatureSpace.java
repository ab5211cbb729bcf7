package org.cpca.core.contrast;

import org.cpca.core.Progress;
import org.cpca.core.data.Dataset;
import org.cpca.core.data.Preprocessing;
import org.cpca.core.linalg.Products;

/**
 * The feature space itself: A = C_t and every B_j = C_b as d × d covariances. Used when there are
 * at least as many samples as features.
 */
final class FeatureSpace extends ContrastiveSpace {

	private final Dataset target;
	private final Preprocessing targetPre;

	private FeatureSpace(final Dataset target, final Preprocessing targetPre,
		final double[] a, final double[][] backgrounds)
	{
		super(target.features(), a, backgrounds);
		this.target = target;
		this.targetPre = targetPre;
	}

	static FeatureSpace build(final Dataset target, final Preprocessing targetPre,
		final Dataset[] backgrounds, final Preprocessing[] backgroundPre,
		final Progress progress)
	{
		final double[] a = Products.covariance(target, targetPre, progress);
		final double[][] b = new double[backgrounds.length][];
		for (int j = 0; j < b.length; j++)
			b[j] = Products.covariance(backgrounds[j], backgroundPre[j], progress);
		return new FeatureSpace(target, targetPre, a, b);
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
		return Products.project(target, targetPre, w, k);
	}

	@Override
	String description() {
		return "feature space: d = " + m + " features (d × d covariances)";
	}
}
