package org.cpca.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CancellationException;

import org.junit.jupiter.api.Test;

/** Online cPCA* (ALGORITHMS.md §5): the update rule, convergence, determinism, options. */
class OnlineCpcaStarTest {

	/** Features of the planted problem and the two planted (target-only) axes. */
	static final int D = 12, PLANTED_A = 6, PLANTED_B = 9;

	/**
	 * Background: independent features with standard deviations 3, 2.6, 2.2, … (0.4 on the
	 * planted axes). Target: the same, except standard deviation 2 and 1.5 on the two
	 * planted axes. Covariances are diagonal, so the cPCA* eigenvalues are t_j/((1−β) +
	 * βb_j) on paper and, for β ≥ 0.5, the top two are the planted axes.
	 */
	static double[][] planted(final long seed, final int n, final boolean target) {
		final Random r = new Random(seed);
		final double[][] x = new double[n][D];
		for (int i = 0; i < n; i++)
			for (int j = 0; j < D; j++) {
				double sd = Math.max(0.5, 3 - 0.4 * j);
				if (j == PLANTED_A) sd = target ? 2 : 0.4;
				if (j == PLANTED_B) sd = target ? 1.5 : 0.4;
				x[i][j] = 5 + j + sd * r.nextGaussian();
			}
		return x;
	}

	static double[][] axes(final int... js) {
		final double[][] out = new double[js.length][D];
		for (int i = 0; i < js.length; i++)
			out[i][js[i]] = 1;
		return out;
	}

	@Test
	void oneStepEachWayMatchesTheUpdateByHand() {
		// d = k = 2, W₀ = I, M₀ = I, zero means, η = 0.1, τ = 1, β = 0.5
		final OnlineOptions o = OnlineOptions.defaults().withComponents(2).withRates(0.1, 1)
			.withBeta(0.5).withMeans(new double[2], new double[2]);
		final OnlineCpcaStar net = new OnlineCpcaStar(2, o, new double[] { 1, 0, 0, 1 });
		// target x = (1, 2): t = 1, p = 0; c = z = (1, 2);
		// W = I + 0.2·z xᵀ − 0.1·I; M = 0.9·I + 0.1·z zᵀ
		net.update(new float[] { 1, 2 }, true);
		assertEquals(0, net.backgroundFraction());
		assertMatrix(new double[][] { { 1.1, 0.4 }, { 0.4, 1.7 } }, net.weights());
		assertMatrix(new double[][] { { 1.0, 0.2 }, { 0.2, 1.3 } }, net.lateral());
		// background x = (2, −1): t = 2, p = ½; c = W x = (1.8, −0.9);
		// W = 0.9·W − 0.2·(β/p)·c xᵀ; M = 0.9·M
		net.update(new float[] { 2, -1 }, false);
		assertEquals(0.5, net.backgroundFraction());
		assertMatrix(new double[][] { { 0.27, 0.72 }, { 0.72, 1.35 } }, net.weights());
		assertMatrix(new double[][] { { 0.9, 0.18 }, { 0.18, 1.17 } }, net.lateral());
		assertEquals(2, net.samplesSeen());
		// F = M⁻¹W
		final double[][] f = net.filter();
		final double det = 0.9 * 1.17 - 0.18 * 0.18;
		assertEquals((1.17 * 0.27 - 0.18 * 0.72) / det, f[0][0], 1e-12);
		assertEquals((-0.18 * 0.72 + 0.9 * 1.35) / det, f[1][1], 1e-12);
	}

	private static void assertMatrix(final double[][] expected, final double[][] actual) {
		for (int i = 0; i < expected.length; i++)
			assertArrayEquals(expected[i], actual[i], 1e-12, "row " + i);
	}

	@Test
	void runningMeansCentreOnTheMeanSoFarAndAreExactAfterOnePass() {
		final OnlineOptions o = OnlineOptions.defaults().withComponents(1).withRates(0.1, 1);
		final OnlineCpcaStar net = new OnlineCpcaStar(1, o, new double[] { 1 });
		// the first target sample is centred on itself: no change of W or M except decay
		net.update(new float[] { 4 }, true);
		assertEquals(1 - 2 * 0.1 * 0.5, net.weights()[0][0], 1e-15);
		net.update(new float[] { 8 }, true);
		assertEquals(6, net.targetMean()[0]);
		net.update(new float[] { 1 }, false);
		net.update(new float[] { 3 }, false);
		assertEquals(2, net.backgroundMean()[0]);
		net.freezeMeans();
		net.update(new float[] { 100 }, true);
		assertEquals(6, net.targetMean()[0]);
	}

	@Test
	void convergesToThePlantedDirections() throws IOException {
		final Dataset t = Dataset.of("target", planted(1, 2000, true));
		final Dataset b = Dataset.of("background", planted(2, 2000, false));
		final double beta = 0.8;
		final double[][] exact = TestData.cpcaStar(TestData.covariance(TestData.rounded(t
			.toArray())), TestData.covariance(TestData.rounded(b.toArray())), beta, 2);
		final OnlineOptions o = OnlineOptions.defaults().withBeta(beta).withEpochs(3);
		final OnlineCpcaStar.Result r = OnlineCpcaStar.fit(SampleSource.of(t), SampleSource
			.of(b), o, exact, Progress.NONE);
		for (final OnlineCpcaStar.Checkpoint c : r.curve())
			System.out.println(c.samples + " " + c.alignment + " " + c.change);
		System.out.println(Measures.projectorAlignment(r.subspace(), axes(PLANTED_A,
			PLANTED_B)));
	}
}
