package org.cpca.core.contrast;

import static org.cpca.core.TestData.assertMessage;

import org.cpca.core.Progress;
import org.cpca.core.TestData;
import org.cpca.core.data.Dataset;
import org.cpca.core.linalg.TopEigen;
import org.cpca.core.model.CpcaModel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import org.apache.commons.math3.linear.RealMatrix;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

public class CpcaTest {

	private static final CpcaOptions TWO = CpcaOptions.defaults().withComponents(2);

	/** On paper: target ±3e1, ±2e2, ±1e3; background ±3e1 and zeros. */
	private static Dataset paperTarget() {
		return Dataset.of("target", new double[][] { { 3, 0, 0 }, { -3, 0, 0 }, { 0, 2, 0 },
			{ 0, -2, 0 }, { 0, 0, 1 }, { 0, 0, -1 } });
	}

	private static Dataset paperBackground() {
		return Dataset.of("background", new double[][] { { 3, 0, 0 }, { -3, 0, 0 }, { 0, 0,
			0 }, { 0, 0, 0 }, { 0, 0, 0 }, { 0, 0, 0 } });
	}

	@Test
	void diagonalCaseSolvedOnPaper() {
		// C_t = diag(3.6, 1.6, 0.4), C_b = diag(3.6, 0, 0)
		final Cpca cpca = Cpca.fit(paperTarget(), paperBackground(), TWO, Progress.NONE);
		final CpcaModel pca = cpca.pca();
		assertArrayEquals(new double[] { 3.6, 1.6 }, pca.eigenvalues(), 1e-9);
		assertArrayEquals(new double[] { 1, 0, 0 }, pca.components()[0], 1e-9);
		final CpcaModel one = cpca.model(1);
		assertArrayEquals(new double[] { 1.6, 0.4 }, one.eigenvalues(), 1e-9);
		assertArrayEquals(new double[] { 0, 1, 0 }, one.components()[0], 1e-9);
		assertArrayEquals(new double[] { 0, 0, 1 }, one.components()[1], 1e-9);
		assertArrayEquals(new double[] { 1.6, 0.4 }, one.targetVariance(), 1e-9);
		assertArrayEquals(new double[] { 0, 0 }, one.backgroundVariance(), 1e-9);
		assertArrayEquals(new double[] { 1.6 / 5.6, 0.4 / 5.6 }, one
			.fractionOfTargetVariance(), 1e-9);
		final CpcaModel inf = cpca.model(Double.POSITIVE_INFINITY);
		assertArrayEquals(new double[] { 0, 1, 0 }, inf.components()[0], 1e-9);
		assertEquals(1.6, inf.eigenvalues()[0], 1e-9);
		// large finite α: e1 has eigenvalue 3.6(1 − α) < 0 < 0.4
		final CpcaModel big = cpca.model(10);
		assertArrayEquals(new double[] { 1.6, 0.4 }, big.eigenvalues(), 1e-9);
		// k = 3 at α = 2.5: 1.6, 0.4 and 3.6(1 − 2.5) < 0, so 2 of 3 carry contrast
		final CpcaModel three = Cpca.fit(paperTarget(), paperBackground(), CpcaOptions
			.defaults().withComponents(3), Progress.NONE).model(2.5);
		assertTrue(three.diagnostics().contains("only 2 of 3 directions have more target " +
			"than background variance at α = 2.5 (eigenvalue > 0); the others are returned " +
			"but carry no contrast"), three.diagnostics().toString());
	}

	@Test
	void alphaZeroIsPca() {
		final Dataset t = Dataset.of("target", TestData.gaussian(1, 80, 12, 5, 4, 3, 2));
		final Dataset b = Dataset.of("background", TestData.gaussian(2, 70, 12, 1, 6));
		final Cpca cpca = Cpca.fit(t, b, CpcaOptions.defaults().withComponents(3),
			Progress.NONE);
		final CpcaModel pca = cpca.pca(), zero = cpca.model(0);
		assertArrayEquals(pca.eigenvalues(), zero.eigenvalues(), 1e-9);
		assertTrue(TestData.maxAngle(pca.components(), zero.components()) < 1e-6);
	}

	@Test
	void identicalDatasetsAtAlphaOneHaveZeroEigenvalues() {
		final double[][] x = TestData.gaussian(3, 50, 8, 3, 2, 1);
		final Cpca cpca = Cpca.fit(Dataset.of("target", x), Dataset.of("background", x),
			TWO, Progress.NONE);
		final CpcaModel m = cpca.model(1);
		assertArrayEquals(new double[] { 0, 0 }, m.eigenvalues(), 1e-9);
		assertTrue(m.diagnostics().stream().anyMatch(s -> s.contains("only 0 of 2")), m
			.diagnostics().toString());
	}

	@Test
	void isotropicBackgroundShiftsEigenvaluesByAlphaSigmaSquared() {
		final int d = 6;
		final double s = 2;
		final double[][] bg = new double[2 * d][d];
		for (int i = 0; i < d; i++) {
			bg[2 * i][i] = s;
			bg[2 * i + 1][i] = -s;
		}
		final double sigma2 = 2 * s * s / (2 * d - 1);
		final Dataset t = Dataset.of("target", TestData.gaussian(4, 40, d, 4, 3, 2));
		final Cpca cpca = Cpca.fit(t, Dataset.of("background", bg), CpcaOptions.defaults()
			.withComponents(3), Progress.NONE);
		final CpcaModel pca = cpca.pca();
		for (final double alpha : new double[] { 0.5, 2, 7 }) {
			final CpcaModel m = cpca.model(alpha);
			for (int c = 0; c < 3; c++)
				assertEquals(pca.eigenvalues()[c] - alpha * sigma2, m.eigenvalues()[c], 1e-9);
			assertTrue(TestData.maxAngle(pca.components(), m.components()) < 1e-6);
		}
	}

	@ParameterizedTest
	@ValueSource(doubles = { 0.3, 1, 4.5, 60 })
	void agreesWithReferenceSolverAndSatisfiesEigenEquation(final double alpha) {
		final double[][] t = TestData.rounded(TestData.gaussian(5, 90, 15, 4, 1, 3, 2, 5));
		final double[][] b = TestData.rounded(TestData.gaussian(6, 60, 15, 5, 1, 1, 3));
		final Cpca cpca = Cpca.fit(Dataset.of("target", t), Dataset.of("background", b),
			CpcaOptions.defaults().withComponents(4), Progress.NONE);
		final CpcaModel m = cpca.model(alpha);
		final RealMatrix c = TestData.covariance(t).subtract(TestData.covariance(b)
			.scalarMultiply(alpha));
		final double[][] reference = TestData.topEigenvectors(c, 4);
		assertTrue(TestData.maxAngle(reference, m.components()) < 1e-6);
		final double[][] v = m.components();
		for (int i = 0; i < 4; i++) {
			// ‖Cv − λv‖ small; unit; orthogonal; sign rule
			final double[] cv = c.operate(v[i]);
			double res = 0;
			for (int j = 0; j < cv.length; j++)
				res += Math.pow(cv[j] - m.eigenvalues()[i] * v[i][j], 2);
			assertTrue(Math.sqrt(res) < 1e-8 * c.getNorm(), "residual " + Math.sqrt(res));
			for (int j = 0; j < 4; j++)
				assertEquals(i == j ? 1 : 0, TopEigen.dot(v[i], v[j]), 1e-10);
			int arg = 0;
			for (int j = 1; j < v[i].length; j++)
				if (Math.abs(v[i][j]) > Math.abs(v[i][arg])) arg = j;
			assertTrue(v[i][arg] > 0);
			if (i > 0) assertTrue(m.eigenvalues()[i] <= m.eigenvalues()[i - 1]);
		}
	}

	@Test
	void reducedSpaceEqualsFullSolve() {
		// d = 300 features, 25 + 30 samples: the reduced space has r = 53
		final double[][] t = TestData.gaussian(7, 25, 300, 6, 5, 4, 3, 2);
		final double[][] b = TestData.gaussian(8, 30, 300, 6, 1, 5);
		final Dataset dt = Dataset.of("target", t), db = Dataset.of("background", b);
		final CpcaOptions o = CpcaOptions.defaults().withComponents(3);
		final Cpca full = Cpca.fit(dt, db, o.withFeatureSpace(true), Progress.NONE);
		final Cpca reduced = Cpca.fit(dt, db, o, Progress.NONE);
		assertTrue(reduced.reducedSpace());
		assertEquals(53, reduced.rank());
		for (final double alpha : new double[] { 0, 0.7, 3, 25, Double.POSITIVE_INFINITY }) {
			final CpcaModel f = full.model(alpha), r = reduced.model(alpha);
			assertArrayEquals(f.eigenvalues(), r.eigenvalues(), 1e-8 * Math.abs(f
				.eigenvalues()[0]), "α = " + alpha);
			assertTrue(TestData.maxAngle(f.components(), r.components()) < 1e-6, "α = " +
				alpha);
			final double[][] sf = f.targetScores(), sr = r.targetScores();
			for (int i = 0; i < sf.length; i++)
				assertArrayEquals(sf[i], sr[i], 1e-6, "α = " + alpha);
			assertArrayEquals(f.backgroundVariance(), r.backgroundVariance(), 1e-8);
		}
	}

	@Test
	void invariantToSampleOrder() {
		final double[][] t = TestData.gaussian(9, 40, 10, 3, 2, 2);
		final double[][] b = TestData.gaussian(10, 40, 10, 1, 3);
		final List<double[]> shuffled = new ArrayList<>(List.of(t));
		Collections.shuffle(shuffled, new Random(1));
		final CpcaModel a = Cpca.fit(Dataset.of("target", t), Dataset.of("background", b),
			TWO, Progress.NONE).model(2);
		final CpcaModel s = Cpca.fit(Dataset.of("target", shuffled.toArray(new double[0][])),
			Dataset.of("background", b), TWO, Progress.NONE).model(2);
		for (int c = 0; c < 2; c++)
			assertArrayEquals(a.components()[c], s.components()[c], 1e-9);
	}

	@Test
	void transformMatchesTrainingScoresAndFullRankReconstructs() {
		final double[][] t = TestData.rounded(TestData.gaussian(11, 30, 5, 2, 3));
		final double[][] b = TestData.gaussian(12, 30, 5, 1);
		final Dataset dt = Dataset.of("target", t);
		final Cpca cpca = Cpca.fit(dt, Dataset.of("background", b), CpcaOptions.defaults()
			.withComponents(5), Progress.NONE);
		for (final boolean whiten : new boolean[] { false, true }) {
			final CpcaModel m = Cpca.fit(dt, Dataset.of("background", b), CpcaOptions
				.defaults().withComponents(5).withWhiten(whiten), Progress.NONE).model(1.5);
			final double[][] scores = m.transform(dt);
			final double[][] training = m.targetScores();
			for (int i = 0; i < t.length; i++)
				assertArrayEquals(training[i], scores[i], 1e-9);
			final double[][] back = m.inverseTransform(scores);
			for (int i = 0; i < t.length; i++)
				assertArrayEquals(t[i], back[i], 1e-4);
		}
		assertEquals(5, cpca.rank());
	}

	@Test
	void standardizationUsesEachDatasetsOwnScale() {
		final double[][] t = TestData.gaussian(13, 60, 4, 100, 1, 1, 1);
		final double[][] b = TestData.gaussian(14, 60, 4, 1, 1, 1, 1);
		final CpcaModel m = Cpca.fit(Dataset.of("target", t), Dataset.of("background", b),
			TWO.withStandardize(true), Progress.NONE).pca();
		// after standardisation every target feature has variance n/(n−1)
		assertEquals(4 * 60 / 59.0, m.targetTotalVariance(), 1e-4);
		assertTrue(m.preprocessing().standardized());
	}

	@Test
	void varianceFractionChoosesSmallestK() {
		// C_t = diag(3.6, 1.6, 0.4): 3.6 / 5.6 = 0.64, (3.6 + 1.6) / 5.6 = 0.93
		final Cpca cpca = Cpca.fit(paperTarget(), (Dataset) null, CpcaOptions.defaults()
			.withVarianceFraction(0.9), Progress.NONE);
		assertEquals(2, cpca.pca().numComponents());
		assertEquals(1, Cpca.fit(paperTarget(), (Dataset) null, CpcaOptions.defaults()
			.withVarianceFraction(0.6), Progress.NONE).pca().numComponents());
	}

	/**
	 * The sweep keeps the top component's target and background variance at every α, so
	 * the variance-pairs plot needs no re-solve; they equal a fresh model's at that α,
	 * both for d ≤ n (feature space) and d &gt; n (reduced space).
	 */
	@ParameterizedTest
	@ValueSource(ints = { 20, 300 })
	void selectionKeepsTheSweepsVariancePairs(final int d) {
		final double[][] t = TestData.gaussian(31, 120, d, 5, 4, 1, 1, 3);
		final double[][] b = TestData.gaussian(32, 120, d, 5, 4);
		final Cpca cpca = Cpca.fit(Dataset.of("target", t), Dataset.of("background", b),
			TWO, Progress.NONE);
		final AlphaSelection<CpcaModel> a = cpca.automatic(Progress.NONE);
		final double[] tv = a.topTargetVariance(), bv = a.topBackgroundVariance();
		assertEquals(a.grid().length, tv.length);
		for (int i = 0; i < a.grid().length; i++) {
			final CpcaModel m = cpca.model(a.grid()[i]);
			assertEquals(m.targetVariance()[0], tv[i], 1e-8 * Math.abs(m.targetVariance()[0]),
				"α = " + a.grid()[i]);
			assertEquals(m.backgroundVariance()[0], bv[i], 1e-8 * Math.max(1e-12, Math.abs(m
				.backgroundVariance()[0])) + 1e-12, "α = " + a.grid()[i]);
		}
	}

	@Test
	void automaticAlphaReturnsZeroFirstAndIsDeterministic() {
		final double[][] t = TestData.gaussian(15, 120, 20, 5, 4, 1, 1, 3);
		final double[][] b = TestData.gaussian(16, 120, 20, 5, 4);
		final Cpca cpca = Cpca.fit(Dataset.of("target", t), Dataset.of("background", b),
			TWO, Progress.NONE);
		final AlphaSelection<CpcaModel> a = cpca.automatic(Progress.NONE);
		final AlphaSelection<CpcaModel> again = cpca.automatic(Progress.NONE);
		assertEquals(41, a.grid().length);
		assertEquals(0, a.alphas()[0]);
		assertTrue(a.alphas().length >= 2 && a.alphas().length <= 4);
		for (int i = 2; i < a.alphas().length; i++)
			assertTrue(a.alphas()[i] > a.alphas()[i - 1]);
		assertArrayEquals(a.alphas(), again.alphas());
		final double[][] aff = a.affinity();
		final int[] clusters = a.clusters();
		for (int i = 0; i < aff.length; i++) {
			// a grid value without positive contrast in its top k is left out (NaN)
			if (clusters[i] < 0) {
				assertTrue(Double.isNaN(aff[i][i]));
				continue;
			}
			assertEquals(1, aff[i][i], 1e-12);
			for (int j = 0; j < aff.length; j++) {
				if (clusters[j] < 0) continue;
				assertTrue(aff[i][j] >= 0 && aff[i][j] <= 1 + 1e-12);
				assertEquals(aff[i][j], aff[j][i], 1e-15);
			}
		}
		// each returned model equals a direct solve at its α
		for (final CpcaModel m : a.models())
			assertTrue(TestData.maxAngle(m.components(), cpca.model(m.alpha())
				.components()) < 1e-6);
	}

	@Test
	void trackerFollowsASliderToSolverPrecision() {
		final double[][] t = TestData.gaussian(20, 150, 120, 6, 5, 4, 3, 2, 2);
		final double[][] b = TestData.gaussian(21, 150, 120, 6, 5);
		final Cpca cpca = Cpca.fit(Dataset.of("target", t), Dataset.of("background", b),
			CpcaOptions.defaults().withComponents(3), Progress.NONE);
		final AlphaTracker tracker = new AlphaTracker(cpca);
		for (double alpha = 0.05; alpha < 2000; alpha *= 1.6) {
			final CpcaModel warm = tracker.model(alpha), cold = cpca.model(alpha);
			assertArrayEquals(cold.eigenvalues(), warm.eigenvalues(), 1e-8 * Math.max(1, Math
				.abs(cold.eigenvalues()[0])), "α = " + alpha);
			assertTrue(TestData.maxAngle(cold.components(), warm.components()) < 1e-5,
				"α = " + alpha);
		}
		assertEquals(Double.POSITIVE_INFINITY, new AlphaTracker(Cpca.fit(Dataset.of("target",
			t), Dataset.of("background", java.util.Arrays.copyOf(b, 20)), TWO, Progress.NONE))
				.model(Double.POSITIVE_INFINITY).alpha());
		assertMessage(() -> tracker.model(-1), "α must be ≥ 0");
	}

	@Test
	void badInputGivesClearMessages() {
		final Dataset t = Dataset.of("target", TestData.gaussian(17, 10, 4));
		final Dataset b = Dataset.of("background", TestData.gaussian(18, 10, 4));
		assertMessage(() -> Cpca.fit(t, Dataset.of("background", TestData.gaussian(1, 10,
			5)), TWO, Progress.NONE), "5 features", "same features");
		assertMessage(() -> Cpca.fit(Dataset.of("target", new double[][] { { 1, 2 } }),
			(Dataset) null, TWO, Progress.NONE), "only 1 sample", "at least 2");
		assertMessage(() -> Cpca.fit(Dataset.of("target", new double[][] { { 1, 2 }, { 1,
			2 } }), (Dataset) null, TWO, Progress.NONE), "constant");
		assertMessage(() -> Cpca.fit(t, b, CpcaOptions.defaults().withComponents(9),
			Progress.NONE), "k = 9", "at most");
		assertMessage(() -> Cpca.fit(t, b, TWO, Progress.NONE).model(-1), "α must be ≥ 0");
		// α·C_b so large that C_t is below its rounding (or overflows): a line, not
		// rounding noise or a failed eigen-decomposition
		assertMessage(() -> Cpca.fit(t, b, TWO, Progress.NONE).model(1e308), "α = 1e+308 " +
			"is too large", "use inf");
		assertMessage(() -> Cpca.fit(t, b, CpcaOptions.defaults().withComponents(2)
			.withAlphaGrid(40, 300, 308), Progress.NONE).automatic(Progress.NONE),
			"the α range reaches 1e+308", "smaller α range");
		// the bound on paper: ‖C_t‖_F/(ε‖C_b‖_F); just below it a model, just above a refusal
		final Cpca fit = Cpca.fit(t, b, TWO, Progress.NONE);
		final double bound = fit.space().normA / (Math.ulp(1.0) * fit.space().normB);
		fit.model(bound * 0.99);
		assertMessage(() -> fit.model(bound * 1.01), "too large", "the target is below the " +
			"rounding");
		assertMessage(() -> CpcaOptions.defaults().withComponents(0), "at least 1");
		final Dataset iso = Dataset.of("background", TestData.gaussian(19, 200, 4));
		assertMessage(() -> Cpca.fit(t, iso, TWO, Progress.NONE).model(
			Double.POSITIVE_INFINITY), "no null space", "finite α");
	}
}
