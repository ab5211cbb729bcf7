package org.cpca.core.contrast;

import org.cpca.core.Progress;
import org.cpca.core.data.Dataset;
import org.cpca.core.data.Preprocessing;
import org.cpca.core.linalg.Products;

import java.util.Arrays;
import java.util.stream.IntStream;

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
		// cPCA's two covariances side by side, each with its own parallel loops (a fresh-JVM
		// one-α run at 5,000 + 5,000 × 784: 0.62 s against 0.65 s, medians of 8 alternating
		// runs; docs/speed.md); more datasets (UCA) one after the other, so that the
		// transient memory stays within the check's 8·m² per dataset and two more. The
		// same results either way.
		final int sets = backgrounds.length + 1;
		final Progress shared = sets == 2 ? sides(progress) : progress;
		final double[][] c = new double[sets][];
		final IntStream all = IntStream.range(0, sets);
		(sets == 2 ? all.parallel() : all).forEach(j -> c[j] = j == 0 ? Products.covariance(
			target, targetPre, shared) : Products.covariance(backgrounds[j - 1],
				backgroundPre[j - 1], shared));
		return new FeatureSpace(target, targetPre, c[0], Arrays.copyOfRange(c, 1, sets));
	}

	/**
	 * The caller's progress for work done on other threads as well: one report at a time,
	 * and cancelled also when the calling thread is interrupted (a cancelled command).
	 */
	private static Progress sides(final Progress progress) {
		final Thread caller = Thread.currentThread();
		return new Progress() {

			@Override
			public synchronized void stage(final String stage, final double fraction) {
				progress.stage(stage, fraction);
			}

			@Override
			public boolean cancelled() {
				return caller.isInterrupted() || progress.cancelled();
			}
		};
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
