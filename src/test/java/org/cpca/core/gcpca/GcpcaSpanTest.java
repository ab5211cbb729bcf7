package org.cpca.core.gcpca;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.cpca.core.Progress;
import org.cpca.core.TestData;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import org.cpca.core.model.CpcaModel;
import org.junit.jupiter.api.Test;

/**
 * gcPCA on a table with a direction of no variance (issue 31): a duplicated feature makes
 * A + B singular; every variant is solved inside the data's span on both the d × d and the
 * reduced path, returns no component with variances at rounding level, and agrees with the
 * full-space solution of docs/math/gcpca.md computed independently on the deduplicated
 * table ({@link GcpcaReference}) to 1e-6°.
 */
class GcpcaSpanTest {

	static final int D = 10, FIRST = 2, COPY = 7, K = 2;

	/** {target, background}: a planted table whose feature COPY repeats feature FIRST. */
	static float[][][] duplicated(final long seed) {
		final float[][][] p = TestData.planted(seed, 200, 150, D, 3, 2, 1.0);
		for (final float[][] x : p)
			for (final float[] row : x)
				row[COPY] = row[FIRST];
		return p;
	}

	@Test
	void everyVariantIsSolvedInsideTheSpanOnBothPaths() {
		for (long seed = 0; seed < 3; seed++) {
			final float[][][] p = duplicated(seed);
			final double[][] a = TestData.covariance(TestData.toDouble(p[0])).getData();
			final double[][] b = TestData.covariance(TestData.toDouble(p[1])).getData();
			final double[][] q = GcpcaReference.withoutDuplicate(D, FIRST, COPY);
			for (final boolean features : new boolean[] { true, false })
				for (final Gcpca.Variant v : new Gcpca.Variant[] { Gcpca.Variant.V2,
					Gcpca.Variant.V3, Gcpca.Variant.V4 })
					for (final boolean orthogonal : new boolean[] { false, true }) {
						final String what = "seed " + seed + ", " + v.id() + (orthogonal
							? " orthogonal" : "") + (features ? ", d × d" : ", reduced");
						final Cpca fit = Cpca.fit(Dataset.wrap("target", p[0]), Dataset.wrap(
							"background", p[1]), CpcaOptions.defaults().withComponents(K)
								.withFeatureSpace(features), Progress.NONE);
						final CpcaModel m = Gcpca.of(fit, v, orthogonal, Double.NaN).model();
						assertEquals(0.0, m.parameters().get("ridge"), what);
						final double[] tv = m.targetVariance(), bv = m.backgroundVariance();
						for (int c = 0; c < 2 * K; c++)
							assertTrue(tv[c] > 1e-3 && bv[c] > 1e-3, what + ": component " + c +
								" has variances " + tv[c] + " / " + bv[c]);
						final double[][] expected = GcpcaReference.solve(a, b, q, v, K,
							orthogonal);
						final double[][] actual = m.components();
						for (int c = 0; c < 2 * K; c++) {
							final double angle = GcpcaReference.angle(expected[c], actual[c]);
							assertTrue(angle <= 1e-6, what + ": component " + c + " lies " +
								angle + "° from the deduplicated solution");
						}
					}
		}
	}

	@Test
	void moreComponentsThanTheSpanHoldsAreRefusedInOneLine() {
		// five features, two of them copies: the data vary in three directions, room for
		// k = 1 only (the sample counts would allow k = 2)
		final float[][][] p = TestData.planted(4, 50, 40, 5, 1, 1, 1.0);
		for (final float[][] x : p)
			for (final float[] row : x) {
				row[3] = row[0];
				row[4] = row[1];
			}
		final Cpca fit = Cpca.fit(Dataset.wrap("target", p[0]), Dataset.wrap("background",
			p[1]), CpcaOptions.defaults().withComponents(2).withFeatureSpace(true), Progress
				.NONE);
		TestData.assertMessage(() -> Gcpca.of(fit, Gcpca.Variant.V4, false, Double.NaN)
			.model(), "vary together in only 3 direction", "choose k ≤ 1");
	}
}
