package org.cpca.core.significance;

import static org.cpca.core.significance.PermutationTestTest.gauss;
import static org.cpca.core.significance.PermutationTestTest.gaussian;
import static org.cpca.core.significance.PermutationTestTest.scales;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.cpca.core.Progress;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import org.cpca.core.gcpca.Gcpca;
import org.cpca.core.kernel.KernelFunction;
import org.cpca.core.kernel.KernelOptions;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/** Bootstrap stability: planted components reproducible, noise components not. */
class BootstrapTest {

	/** Two directions planted in the target (variances 75 and 27), background noise. */
	private static List<Dataset> planted() {
		final int d = 8, n = 60;
		final Dataset b = gaussian("background", 17, n, scales(d));
		final Dataset noise = gaussian("target", 18, n, scales(d));
		final SplittableRandom r = new SplittableRandom(19);
		final float[][] rows = new float[n][];
		for (int i = 0; i < n; i++) {
			rows[i] = noise.row(i).clone();
			final double z1 = gauss(r), z2 = gauss(r);
			for (int j = 2; j < d; j += 2) {
				rows[i][j] += (float) (5 * z1);
				rows[i][j + 1] += (float) (3 * z2);
			}
		}
		return List.of(Dataset.wrap("target", rows), b);
	}

	private static void assertStableThenNot(final Directions family) {
		final List<Dataset> data = planted();
		final Bootstrap.Stability s = Bootstrap.run(data.get(0), List.of(data.get(1)), family,
			60, 3, Progress.NONE);
		final double[] median = s.medianAngles(), upper = s.upperAngles();
		final String text = String.format(Locale.ROOT, "median %s, 95 %% %s", Arrays.toString(
			median), Arrays.toString(upper));
		// 60 + 60 samples: the planted directions within ~15°, the noise ones beyond 30°
		assertTrue(median[0] < 20 && upper[0] < 30, text);
		assertTrue(median[1] < 20 && upper[1] < 30, text);
		assertTrue(median[2] > 30, text);
		assertTrue(median[3] > 30, text);
		for (int c = 0; c < median.length; c++)
			assertTrue(upper[c] >= median[c], text);
	}

	@Test
	void plantedComponentsAreStableAndNoiseComponentsAreNot() {
		final CpcaOptions k4 = CpcaOptions.defaults().withComponents(4);
		assertStableThenNot(FixedFits.cpca(k4, 1));
		assertStableThenNot(FixedFits.star(k4, 0.5));
		// not cPCA++ here: its third component (a direction where this background sample
		// happens to vary little) came out at 14° — reproducible within this sample, which
		// is all a bootstrap can say
	}

	@Test
	void theSpreadIsSmallWhereTheComponentIsStableAndTheSameOnOneThread() throws Exception {
		final List<Dataset> data = planted();
		final FixedFit f = FixedFits.cpca(CpcaOptions.defaults().withComponents(4), 1);
		// 20 resamples: three chunks of 8, added in order
		final Bootstrap.Stability all = Bootstrap.run(data.get(0), List.of(data.get(1)), f, 20,
			5, Progress.NONE);
		final java.util.concurrent.ForkJoinPool one = new java.util.concurrent.ForkJoinPool(1);
		final Bootstrap.Stability single;
		try {
			single = one.submit(() -> Bootstrap.run(data.get(0), List.of(data.get(1)), f, 20, 5,
				Progress.NONE)).get();
		}
		finally {
			one.shutdown();
		}
		final double[][] spread = all.spread();
		for (int c = 0; c < 4; c++)
			assertArrayEquals(single.spread()[c], spread[c], "component " + (c + 1));
		assertEquals(8, spread[0].length);
		// per feature ≤ 1 (entries of unit vectors); a stable component's spread is small,
		// a noise component's is not
		final double[] norm = new double[4];
		for (int c = 0; c < 4; c++)
			for (final double v : spread[c]) {
				assertTrue(v >= 0 && v <= 1, "spread " + v);
				norm[c] += v * v;
			}
		final String text = Arrays.toString(norm) + " " + Arrays.toString(all.medianAngles());
		assertTrue(norm[0] < 0.1 && norm[1] < 0.1, text);
		assertTrue(norm[2] > 2 * norm[0] && norm[3] > 2 * norm[0], text);
	}

	@Test
	void sameSeedSameAnglesAndTheSummaryKeys() {
		final List<Dataset> data = planted();
		final FixedFit f = FixedFits.gcpca(CpcaOptions.defaults().withComponents(1),
			Gcpca.Variant.V4, false, Double.NaN);
		final Bootstrap.Stability a = Bootstrap.run(data.get(0), List.of(data.get(1)), f, 20,
			8, Progress.NONE);
		final Bootstrap.Stability b = Bootstrap.run(data.get(0), List.of(data.get(1)), f, 20,
			8, Progress.NONE);
		assertArrayEquals(a.medianAngles(), b.medianAngles());
		assertArrayEquals(a.upperAngles(), b.upperAngles());
		assertEquals(2, a.medianAngles().length);
		assertEquals(List.of("resamples", "seed", "median_angle_degrees", "angle_95_degrees"),
			List.copyOf(a.toSummary().keySet()));
		assertThrows(IllegalArgumentException.class, () -> Bootstrap.run(data.get(0), List.of(
			data.get(1)), f, 1, 8, Progress.NONE));
	}

	@Test
	void anglesIgnoreSignAndScale() {
		final double[][] full = { { 1, 0 }, { 0, 1 } };
		final double[] a = Bootstrap.angles(full, new double[][] { { -2, 0 }, { 1, 1 } });
		assertEquals(0, a[0], 1e-12);
		assertEquals(45, a[1], 1e-12);
		assertEquals(90, Bootstrap.angles(full, new double[][] { { 1, 0 } })[1]);
		// a sparse loading thresholded to zero has no direction: 90°, not NaN
		assertEquals(90, Bootstrap.angles(full, new double[][] { { 1, 0 }, { 0, 0 } })[1]);
	}

	/**
	 * Kernel cPCA (docs/math/significance.md#kernel-cpca-stability): compared by the
	 * centred scores of the target's samples, the strongly planted component is stable and
	 * the last, noise, component not, with the linear kernel (which is cPCA) and with an
	 * RBF kernel. (Scores weigh a direction by the target's variance along it, so the
	 * weaker planted and the first noise components lie between: on these data, 18° and
	 * 24° of median with the linear kernel.)
	 */
	@Test
	void kernelComponentsAreComparedByTheirScoresOnTheTarget() {
		final List<Dataset> data = planted();
		final CpcaOptions k4 = CpcaOptions.defaults().withComponents(4);
		for (final KernelFunction kernel : List.of(KernelFunction.linear(), KernelFunction.rbf(
			0.002)))
		{
			final Directions scores = FixedFits.kernelScores(k4, KernelOptions.defaults()
				.withKernel(kernel), 1, data.get(0));
			final Bootstrap.Stability s = Bootstrap.run(data.get(0), List.of(data.get(1)),
				scores, 60, 3, Progress.NONE);
			final double[] median = s.medianAngles(), upper = s.upperAngles();
			final String text = kernel + String.format(Locale.ROOT, ": median %s, 95 %% %s",
				Arrays.toString(median), Arrays.toString(upper));
			assertTrue(median[0] < 10 && upper[0] < 15, text);
			assertTrue(median[3] > 40, text);
			assertEquals(List.of("resamples", "seed", "median_angle_degrees",
				"angle_95_degrees", "measure"), List.copyOf(s.toSummary().keySet()));
			assertEquals(60, s.spread()[0].length, "one value per target sample");
		}
		assertThrows(IllegalArgumentException.class, () -> FixedFits.kernelScores(k4,
			KernelOptions.defaults(), 1, data.get(0)), "an automatic γ must be frozen first");
	}
}
