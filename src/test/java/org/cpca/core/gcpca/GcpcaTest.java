package org.cpca.core.gcpca;

import org.cpca.core.family.Parse;
import org.cpca.core.Progress;
import org.cpca.core.TestData;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.star.CpcaPlusPlus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class GcpcaTest {

	private static Cpca fit(final float[][] t, final float[][] b, final int k,
		final Boolean features)
	{
		return Cpca.fit(Dataset.wrap("target", t), Dataset.wrap("background", b),
			CpcaOptions.defaults().withComponents(k).withFeatureSpace(features), Progress.NONE);
	}

	private static double absCos(final double[] u, final double[] v) {
		double s = 0, nu = 0, nv = 0;
		for (int i = 0; i < u.length; i++) {
			s += u[i] * v[i];
			nu += u[i] * u[i];
			nv += v[i] * v[i];
		}
		return Math.abs(s) / Math.sqrt(nu * nv);
	}

	/**
	 * On paper (the 2 × 2 case of the cPCA++ test): C_t = [[13/6, 5/6], [5/6, 13/6]],
	 * C_b = diag(1.5, 6); the ratios are λ = (65 ± √1921)/72, so v3 gives λ − 1 and v4
	 * (λ − 1)/(λ + 1), with the same directions v ∝ (1, (9λ − 13)/5).
	 */
	@Test
	void variantsSolvedOnPaper() {
		final Dataset t = Dataset.of("target", new double[][] { { 1.5, 1.5 }, { -1.5,
			-1.5 }, { 1, -1 }, { -1, 1 } });
		final Dataset b = Dataset.of("background", new double[][] { { 1.5, 0 }, { -1.5, 0 },
			{ 0, 3 }, { 0, -3 } });
		final Cpca fit = Cpca.fit(t, b, CpcaOptions.defaults().withComponents(1)
			.withFeatureSpace(true), Progress.NONE);
		final double l1 = (65 + Math.sqrt(1921)) / 72, l2 = (65 - Math.sqrt(1921)) / 72;
		assertArrayEquals(new double[] { l1, l2 }, Gcpca.of(fit, Gcpca.Variant.V2, false,
			Double.NaN).model().eigenvalues(), 1e-12);
		assertArrayEquals(new double[] { l1 - 1, l2 - 1 }, Gcpca.of(fit, Gcpca.Variant.V3,
			false, Double.NaN).model().eigenvalues(), 1e-12);
		final CpcaModel v4 = Gcpca.of(fit, Gcpca.Variant.V4, false, Double.NaN).model();
		assertArrayEquals(new double[] { (l1 - 1) / (l1 + 1), (l2 - 1) / (l2 + 1) }, v4
			.eigenvalues(), 1e-12);
		final double[][] v = v4.components();
		assertEquals(1, absCos(v[0], new double[] { 1, (9 * l1 - 13) / 5 }), 1e-12);
		assertEquals(1, absCos(v[1], new double[] { 1, (9 * l2 - 13) / 5 }), 1e-12);
		assertEquals(0.0, v4.parameters().get("ridge"));
	}

	/** v2, v3 and v4 share cPCA++'s eigenvectors; values r ↦ r − 1 ↦ (r − 1)/(r + 1). */
	@Test
	void variantsShareCpcaPlusPlusEigenvectors() {
		final float[][][] p = TestData.planted(3, 300, 250, 12, 3, 3, 1.0);
		final int k = 3;
		final Cpca fit = fit(p[0], p[1], k, null);
		final CpcaModel pp = CpcaPlusPlus.of(fit).model();
		assertEquals(0.0, pp.parameters().get("regularization"));
		final CpcaModel v2 = Gcpca.of(fit, Gcpca.Variant.V2, false, Double.NaN).model();
		final CpcaModel v3 = Gcpca.of(fit, Gcpca.Variant.V3, false, Double.NaN).model();
		final CpcaModel v4 = Gcpca.of(fit, Gcpca.Variant.V4, false, Double.NaN).model();
		assertEquals(2 * k, v4.numComponents());
		final double[] r = v2.eigenvalues(), r3 = v3.eigenvalues(), r4 = v4.eigenvalues();
		for (int c = 0; c < k; c++) {
			assertEquals(pp.eigenvalues()[c], r[c], 1e-9 * r[c]);
			assertEquals(1, absCos(pp.components()[c], v2.components()[c]), 1e-9);
		}
		for (int c = 0; c < 2 * k; c++) {
			assertEquals(r[c] - 1, r3[c], 1e-9 * Math.max(1, r[c]));
			assertEquals((r[c] - 1) / (r[c] + 1), r4[c], 1e-9);
			assertEquals(1, absCos(v2.components()[c], v3.components()[c]), 1e-8);
			assertEquals(1, absCos(v2.components()[c], v4.components()[c]), 1e-8);
		}
		// the target-only directions come first with values near +1, and the bottom end
		// (shared directions, equal variance in both) near 0, below the top
		assertTrue(r4[0] > 0.8, "top v4 value " + r4[0]);
		assertTrue(r4[2 * k - 1] < r4[k - 1]);
	}

	/** v4 values lie in [−1, 1] and flip sign (ends exchanged) when the datasets swap. */
	@Test
	void v4IsBoundedAndAntisymmetric() {
		final float[][][] p = TestData.planted(5, 200, 220, 15, 2, 2, 0.5);
		final int k = 3;
		final CpcaModel ab = Gcpca.of(fit(p[0], p[1], k, null), Gcpca.Variant.V4, false,
			Double.NaN).model();
		final CpcaModel ba = Gcpca.of(fit(p[1], p[0], k, null), Gcpca.Variant.V4, false,
			Double.NaN).model();
		final double[] x = ab.eigenvalues(), y = ba.eigenvalues();
		for (int c = 0; c < 2 * k; c++) {
			assertTrue(x[c] >= -1 && x[c] <= 1, "v4 value " + x[c]);
			final int swapped = c < k ? k + c : c - k;
			assertEquals(-x[c], y[swapped], 1e-9);
			assertEquals(1, absCos(ab.components()[c], ba.components()[swapped]), 1e-7);
		}
		assertTrue(x[0] > 0.9 && x[k] < 0, "ends " + x[0] + ", " + x[k]);
	}

	/** The orthogonal variants give orthonormal loadings; the plain ones do not. */
	@Test
	void orthogonalVariantsAreOrthonormal() {
		final float[][][] p = TestData.planted(7, 150, 150, 10, 3, 2, 1.0);
		final int k = 3;
		final Cpca fit = fit(p[0], p[1], k, null);
		for (final Gcpca.Variant v : Gcpca.Variant.values()) {
			final CpcaModel m = Gcpca.of(fit, v, true, 1.5).model();
			final double[][] c = m.components();
			for (int i = 0; i < 2 * k; i++)
				for (int j = 0; j < 2 * k; j++) {
					double s = 0;
					for (int f = 0; f < c[i].length; f++)
						s += c[i][f] * c[j][f];
					assertEquals(i == j ? 1 : 0, s, 1e-10, v + " " + i + "," + j);
				}
			// the first of each end is the plain variant's (found in the whole space)
			final CpcaModel plain = Gcpca.of(fit, v, false, 1.5).model();
			assertEquals(plain.eigenvalues()[0], m.eigenvalues()[0], 1e-9 * Math.max(1, Math
				.abs(m.eigenvalues()[0])));
		}
		final double[][] c = Gcpca.of(fit, Gcpca.Variant.V4, false, Double.NaN).model()
			.components();
		double worst = 0;
		for (int i = 0; i < 2 * k; i++)
			for (int j = 0; j < i; j++)
				worst = Math.max(worst, absCos(c[i], c[j]));
		assertTrue(worst > 1e-3, "plain gcPCA loadings are only D-orthogonal");
	}

	/** The exact reduced space gives the feature space's answer (no ridge needed in v4). */
	@Test
	void reducedSpaceEqualsFeatureSpace() {
		final float[][][] p = TestData.planted(11, 40, 30, 25, 2, 2, 0.3);
		final CpcaModel f = Gcpca.of(fit(p[0], p[1], 2, true), Gcpca.Variant.V4, false,
			Double.NaN).model();
		final CpcaModel r = Gcpca.of(fit(p[0], p[1], 2, false), Gcpca.Variant.V4, false,
			Double.NaN).model();
		assertArrayEquals(f.eigenvalues(), r.eigenvalues(), 1e-9);
		for (int c = 0; c < 4; c++)
			assertEquals(1, absCos(f.components()[c], r.components()[c]), 1e-8);
		assertEquals(0.0, r.parameters().get("ridge"));
	}

	/**
	 * Images: more features than samples. Each dataset spans only its own directions, so
	 * gcPCA solves in the pooled principal subspace (noted), where the planted target-only
	 * direction is still found first.
	 */
	@Test
	void moreFeaturesThanSamplesSolvesInThePooledSubspace() {
		final float[][][] p = TestData.planted(13, 60, 40, 400, 2, 1, 0.05);
		final Cpca fit = fit(p[0], p[1], 2, null);
		assertTrue(fit.reducedSpace());
		final CpcaModel v4 = Gcpca.of(fit, Gcpca.Variant.V4, false, Double.NaN).model();
		assertEquals(400, v4.components()[0].length);
		for (final double v : v4.eigenvalues())
			assertTrue(v >= -1 - 1e-9 && v <= 1 + 1e-9);
		final double q = (Double) v4.parameters().get("pooled_components");
		assertTrue(q >= 4 && q < 39, "pooled components " + q);
		assertTrue(v4.diagnostics().stream().anyMatch(s -> s.contains("top " + (int) q +
			" principal")));
		// the target-only direction has no background variance: its v4 value is near +1
		assertTrue(v4.eigenvalues()[0] > 0.9, "top value " + v4.eigenvalues()[0]);
		assertTrue(v4.backgroundVariance()[0] < 0.05 * v4.targetVariance()[0]);
	}

	/**
	 * The null edges on paper: with equal sample counts n, y = q/(n − 1) for both and
	 * (1 − y)² = 1 − h², so the ratio's upper edge (1 + h)²/(1 − y)² = (1 + h)/(1 − h) and
	 * the v4 edge is h = √(2y − y²) itself (the lower edge −h); at q = n − 1 they are ±1.
	 */
	@Test
	void nullEdgesSolvedOnPaper() {
		final double[] e = Gcpca.nullEdges(30, 301, 301);
		assertEquals(Math.sqrt(0.19), e[1], 1e-12);
		assertEquals(-Math.sqrt(0.19), e[0], 1e-12);
		assertArrayEquals(new double[] { -1, 1 }, Gcpca.nullEdges(300, 301, 1000));
		// unequal counts: the edges move away from 0 as q grows, and stay in (−1, 1)
		final double[] small = Gcpca.nullEdges(10, 201, 101), large = Gcpca.nullEdges(60,
			201, 101);
		assertTrue(large[1] > small[1] && small[1] > 0 && large[1] < 1);
		assertTrue(large[0] < small[0] && small[0] < 0 && large[0] > -1);
	}

	/**
	 * Seeded planted problems with more features than samples (400 features, 150 + 150
	 * samples): the reference's truncation to min(n_t, n_b) − 1 pooled components gives
	 * values near ±1 from sampling noise and misses the two target-only directions; the
	 * dimension chosen from the null edges recovers them (largest principal angle below
	 * 0.35 rad, and below the reference truncation's).
	 */
	@Test
	void chosenDimensionRecoversPlantedDirectionsWithFewSamples() {
		for (long seed = 31; seed < 34; seed++) {
			final float[][][] p = TestData.planted(seed, 150, 150, 400, 2, 2, 0.5);
			final double[][] dirs = TestData.plantedDirections(seed, 400, 2, 2);
			final double[][] targetOnly = { dirs[2], dirs[3] };
			final Cpca fit = fit(p[0], p[1], 2, null);
			final Gcpca g = Gcpca.of(fit, Gcpca.Variant.V4, false, Double.NaN);
			final CpcaModel chosen = g.model();
			final int q = ((Double) chosen.parameters().get("pooled_components")).intValue();
			assertTrue(q < Gcpca.pooled(fit), "seed " + seed + ": q " + q);
			final Gcpca.Spectrum all = Gcpca.solve(fit.space().a, fit.space().b, fit.space()
				.dimension(), Gcpca.Variant.V4, Double.NaN, 2, false, Gcpca.pooled(fit));
			final CpcaModel reference = fit.build("gcpca", Double.NaN, new java.util
				.LinkedHashMap<>(), all.values, all.w, 4, new java.util.ArrayList<>());
			final double mine = largestAngle(targetOnly, chosen), theirs = largestAngle(
				targetOnly, reference);
			assertTrue(mine < 0.35, "seed " + seed + ": angle " + mine + " at q = " + q + " vs " + theirs);
			assertTrue(mine < theirs, "seed " + seed + ": " + mine + " vs " + theirs);
			assertTrue(all.values[0] > 0.99, "the reference truncation saturates: " + all
				.values[0]);
		}
	}

	private static double largestAngle(final double[][] planted, final CpcaModel m) {
		final double[][] top = { m.components()[0], m.components()[1] };
		final double[] a = org.cpca.core.contrast.Measures.principalAngles(planted, top);
		return a[a.length - 1];
	}

	/** A singular denominator (a constant background feature) gets a recorded ridge. */
	@Test
	void ridgeIsRecordedWhenTheBackgroundIsSingular() {
		final float[][][] p = TestData.planted(23, 100, 100, 5, 2, 1, 0.5);
		for (final float[] row : p[1])
			row[0] = 7;
		final Cpca fit = fit(p[0], p[1], 2, null);
		final CpcaModel v2 = Gcpca.of(fit, Gcpca.Variant.V2, false, Double.NaN).model();
		final double ridge = (Double) v2.parameters().get("ridge");
		assertTrue(ridge > 0, "ridge " + ridge);
		assertTrue(v2.diagnostics().stream().anyMatch(s -> s.contains("ridge")));
		// the smallest ridge that brings cond(D) to 1e13: λ_max(B)/ridge ≈ 1e13
		final double bmax = java.util.Arrays.stream(new org.apache.commons.math3.linear
			.EigenDecomposition(TestData.covariance(TestData.toDouble(p[1]))).getRealEigenvalues())
			.max().getAsDouble();
		assertEquals(1e13, (bmax + ridge) / ridge, 1e13 * 1e-2);
		// v4's A + B is definite: no ridge
		assertEquals(0.0, Gcpca.of(fit, Gcpca.Variant.V4, false, Double.NaN).model()
			.parameters().get("ridge"));
	}

	/** Identical target and background: the shuffle null finds nothing significant. */
	@Test
	void shuffleNullOnIdenticalDataFindsNothing() {
		final float[][][] p = TestData.planted(17, 80, 80, 8, 2, 2, 1.0);
		final Cpca fit = fit(p[0], p[0], 2, null);
		final CpcaModel m = Gcpca.of(fit, Gcpca.Variant.V4, false, Double.NaN).run(40, 1,
			Progress.NONE);
		final double[] s = (double[]) m.parameters().get("significant");
		assertArrayEquals(new double[4], s);
		assertEquals(40.0, m.parameters().get("shuffles"));
		// … while a planted target-only direction is found, by the same test
		final float[][][] q = TestData.planted(17, 80, 80, 8, 2, 2, 0.3);
		final CpcaModel real = Gcpca.of(fit(q[0], q[1], 2, null), Gcpca.Variant.V4, false,
			Double.NaN).run(40, 1, Progress.NONE);
		final double[] t = (double[]) real.parameters().get("significant");
		assertEquals(1.0, t[0]);
		// seeded: the same seed gives the same null
		final CpcaModel again = Gcpca.of(fit(q[0], q[1], 2, null), Gcpca.Variant.V4, false,
			Double.NaN).run(40, 1, Progress.NONE);
		assertEquals(real.parameters().get("null_upper"), again.parameters().get(
			"null_upper"));
	}

	@Test
	void badParametersAreRefusedClearly() {
		TestData.assertMessage(() -> Gcpca.Variant.parse("v5"), "v5", "v1", "v4");
		final float[][][] p = TestData.planted(19, 30, 30, 6, 1, 1, 1.0);
		final Cpca fit = fit(p[0], p[1], 2, null);
		TestData.assertMessage(() -> Gcpca.of(fit, Gcpca.Variant.V4, false, Double.NaN).run(
			-1, 0, Progress.NONE), "shuffles", "≥ 0");
		TestData.assertMessage(() -> Gcpca.of(fit, Gcpca.Variant.V1, false, Double.NaN),
			"v1", "α");
		TestData.assertMessage(() -> Gcpca.of(fit(p[0], p[1], 4, null), Gcpca.Variant.V4,
			false, Double.NaN), "2k = 8", "k ≤ 3");
		TestData.assertMessage(() -> Parse.sparsity("-1", "--sparsity"), "--sparsity", "≥ 0");
		assertEquals(Gcpca.Variant.V3, Gcpca.Variant.parse(" V3 "));
	}
}
