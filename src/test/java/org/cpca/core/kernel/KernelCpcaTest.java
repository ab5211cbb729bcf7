package org.cpca.core.kernel;

import org.cpca.core.Progress;
import org.cpca.core.TestData;
import org.cpca.core.contrast.AlphaSelection;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.contrast.CpcaTest;
import org.cpca.core.contrast.Measures;
import org.cpca.core.data.Dataset;
import org.cpca.core.data.Preprocessing;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.model.FittedModel;
import org.cpca.core.modelfile.ModelFile;

import static org.cpca.core.TestData.assertMessage;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KernelCpcaTest {

	private static final CpcaOptions TWO = CpcaOptions.defaults().withComponents(2);
	private static final KernelOptions LINEAR = KernelOptions.defaults().withKernel(
		KernelFunction.linear());

	@TempDir
	Path dir;

	/** Scores as k rows of n values, for principal angles between score subspaces. */
	static double[][] columns(final double[][] scores) {
		final double[][] out = new double[scores[0].length][scores.length];
		for (int i = 0; i < scores.length; i++)
			for (int c = 0; c < scores[0].length; c++)
				out[c][i] = scores[i][c];
		return out;
	}

	private static double maxDifference(final double[][] a, final double[][] b) {
		double max = 0;
		for (int i = 0; i < a.length; i++)
			for (int c = 0; c < a[i].length; c++)
				max = Math.max(max, Math.abs(a[i][c] - b[i][c]));
		return max;
	}

	private static double maxAbs(final double[][] a) {
		double max = 0;
		for (final double[] row : a)
			for (final double v : row)
				max = Math.max(max, Math.abs(v));
		return max;
	}

	// --- the linear kernel is linear cPCA -------------------------------------------------

	@Test
	void linearKernelSolvesThePaperCase() {
		// linear cPCA's paper case (CpcaTest): C_t = diag(3.6, 1.6, 0.4), C_b = diag(3.6, 0, 0)
		final Dataset t = Dataset.of("target", new double[][] { { 3, 0, 0 }, { -3, 0, 0 }, {
			0, 2, 0 }, { 0, -2, 0 }, { 0, 0, 1 }, { 0, 0, -1 } });
		final Dataset b = Dataset.of("background", new double[][] { { 3, 0, 0 }, { -3, 0,
			0 }, { 0, 0, 0 }, { 0, 0, 0 }, { 0, 0, 0 }, { 0, 0, 0 } });
		final KernelCpca k = KernelCpca.fit(t, b, TWO, LINEAR, Progress.NONE);
		assertTrue(k.exact());
		assertEquals(3, k.rank());
		final KernelCpcaModel pca = k.model(0), one = k.model(1);
		assertArrayEquals(new double[] { 3.6, 1.6 }, pca.eigenvalues(), 1e-9);
		assertArrayEquals(new double[] { 1.6, 0.4 }, one.eigenvalues(), 1e-9);
		assertArrayEquals(new double[] { 1.6, 0.4 }, one.targetVariance(), 1e-9);
		assertArrayEquals(new double[] { 0, 0 }, one.backgroundVariance(), 1e-9);
		assertArrayEquals(new double[] { 1.6 / 5.6, 0.4 / 5.6 }, one
			.fractionOfTargetVariance(), 1e-9);
		// at α = 1 the components are e2 and e3: the scores are the 2nd and 3rd coordinates
		final double[][] s = one.targetScores();
		final double[][] expected = { { 0, 0 }, { 0, 0 }, { 2, 0 }, { -2, 0 }, { 0, 1 }, { 0,
			-1 } };
		for (int i = 0; i < 6; i++)
			for (int c = 0; c < 2; c++)
				assertEquals(Math.abs(expected[i][c]), Math.abs(s[i][c]), 1e-6);
	}

	@Test
	void linearKernelReproducesLinearCpcaScoresInBothSpaces() {
		for (final int d : new int[] { 12, 150 }) { // d < N (d × d) and d > N (reduced)
			final Dataset t = Dataset.of("target", TestData.gaussian(21, 60, d, 5, 4, 3, 2));
			final Dataset b = Dataset.of("background", TestData.gaussian(22, 50, d, 6, 1, 4));
			final Cpca linear = Cpca.fit(t, b, TWO, Progress.NONE);
			final KernelCpca kernel = KernelCpca.fit(t, b, TWO, LINEAR, Progress.NONE);
			for (final double alpha : new double[] { 0, 0.7, 3, 40 }) {
				final CpcaModel l = linear.model(alpha);
				final KernelCpcaModel k = kernel.model(alpha);
				assertArrayEquals(l.eigenvalues(), k.eigenvalues(), 1e-6 * Math.abs(l
					.eigenvalues()[0]));
				assertArrayEquals(l.targetVariance(), k.targetVariance(), 1e-6 * l
					.targetVariance()[0]);
				assertArrayEquals(l.backgroundVariance(), k.backgroundVariance(), 1e-6 * (1 + l
					.backgroundVariance()[0]));
				assertTrue(TestData.maxAngle(columns(l.targetScores()), columns(k
					.targetScores())) < 1e-5, "d = " + d + ", α = " + alpha);
				// new samples: the same projections (up to the sign of each component)
				final Dataset x = Dataset.of("new", TestData.gaussian(23, 7, d, 3, 3));
				final double[][] ls = l.transform(x), ks = k.transform(x);
				final double[][] lt = l.targetScores(), kt = k.targetScores();
				for (int c = 0; c < 2; c++) {
					int big = 0; // the sign is compared where the score is largest
					for (int i = 1; i < lt.length; i++)
						if (Math.abs(lt[i][c]) > Math.abs(lt[big][c])) big = i;
					final double sign = Math.signum(lt[big][c] * kt[big][c]);
					for (int i = 0; i < 7; i++)
						assertEquals(ls[i][c], sign * ks[i][c], 1e-4 * (1 + Math.abs(ls[i][c])));
				}
			}
		}
	}

	/**
	 * docs/math/kernel.md: standardisation is per dataset, before the kernel, so the linear
	 * kernel with standardisation is standardised linear cPCA (features in mixed units,
	 * means and spreads that differ between target and background).
	 */
	@Test
	void linearKernelWithStandardisationIsStandardisedLinearCpca() {
		for (final int d : new int[] { 12, 150 }) {
			final double[][] tx = TestData.gaussian(31, 60, d, 5, 4, 3, 2);
			final double[][] bx = TestData.gaussian(32, 50, d, 6, 1, 4);
			for (int j = 0; j < d; j++) {
				final double unit = Math.pow(10, (j % 5) - 2);
				for (final double[] r : tx)
					r[j] = r[j] * unit + 3 * unit;
				for (final double[] r : bx)
					r[j] = r[j] * unit * (1 + 0.5 * (j % 3)) - 7 * unit;
			}
			final Dataset t = Dataset.of("target", tx), b = Dataset.of("background", bx);
			final CpcaOptions o = TWO.withStandardize(true);
			final Cpca linear = Cpca.fit(t, b, o, Progress.NONE);
			final KernelCpca kernel = KernelCpca.fit(t, b, o, LINEAR, Progress.NONE);
			for (final double alpha : new double[] { 0, 0.7, 3 }) {
				final CpcaModel l = linear.model(alpha);
				final KernelCpcaModel k = kernel.model(alpha);
				assertArrayEquals(l.eigenvalues(), k.eigenvalues(), 1e-5 * Math.abs(l
					.eigenvalues()[0]), "d = " + d + ", α = " + alpha);
				assertTrue(TestData.maxAngle(columns(l.targetScores()), columns(k
					.targetScores())) < 1e-4, "d = " + d + ", α = " + alpha);
				// new samples go through the target's standardisation in both
				final Dataset x = Dataset.of("new", TestData.gaussian(33, 5, d, 3, 3));
				final double[][] ls = l.transform(x), ks = k.transform(x);
				for (int c = 0; c < 2; c++) {
					final double sign = Math.signum(ls[0][c] * ks[0][c]);
					for (int i = 0; i < 5; i++)
						assertEquals(ls[i][c], sign * ks[i][c], 1e-3 * (1 + Math.abs(ls[i][c])));
				}
			}
		}
	}

	// --- a case solved on paper with the RBF kernel ---------------------------------------

	@Test
	void rbfTwoPlusTwoSamplesSolvedOnPaper() {
		// target x1, x2 and background y1, y2: C_t = uuᵀ/2, C_b = wwᵀ/2 with u = Φ(x1) − Φ(x2),
		// w = Φ(y1) − Φ(y2). On v = s·u + t·w, C_t − αC_b acts as ½[[a, p], [−αp, −αc]] with
		// a = ‖u‖², c = ‖w‖², p = ⟨u, w⟩, so λ = ¼[(a − αc) + √((a − αc)² + 4α(ac − p²))],
		// (s, t) ∝ (p, 2λ − a), and the score of x1 is ⟨u/2, v⟩/‖v‖.
		final double gamma = 0.7;
		final double[][] x = { { 0, 0 }, { 1, 0 } }, y = { { 0, 0.5 }, { 1.5, 0.5 } };
		final java.util.function.BiFunction<double[], double[], Double> h = (p, q) -> Math
			.exp(-gamma * ((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1])));
		final double a = 2 - 2 * h.apply(x[0], x[1]), c = 2 - 2 * h.apply(y[0], y[1]);
		final double p = h.apply(x[0], y[0]) - h.apply(x[0], y[1]) - h.apply(x[1], y[0]) + h
			.apply(x[1], y[1]);
		final KernelCpca k = KernelCpca.fit(Dataset.of("target", x), Dataset.of("background",
			y), CpcaOptions.defaults().withComponents(1), KernelOptions.defaults().withKernel(
				KernelFunction.rbf(gamma)), Progress.NONE);
		assertEquals(2, k.rank());
		final double[][] z = { { 0.3, -0.2 }, { 2, 1 }, { -1, 0.4 } };
		for (final double alpha : new double[] { 0, 0.5, 2, 30 }) {
			final double lambda = 0.25 * ((a - alpha * c) + Math.sqrt((a - alpha * c) * (a -
				alpha * c) + 4 * alpha * (a * c - p * p)));
			final double s = p, t = 2 * lambda - a;
			final double norm = Math.sqrt(s * s * a + 2 * s * t * p + t * t * c);
			final double score = (s * a + t * p) / (2 * norm);
			final KernelCpcaModel m = k.model(alpha);
			assertEquals(lambda, m.eigenvalues()[0], 1e-7, "α = " + alpha);
			assertEquals(2 * score * score, m.targetVariance()[0], 1e-7);
			assertEquals((s * p + t * c) * (s * p + t * c) / (2 * norm * norm), m
				.backgroundVariance()[0], 1e-7);
			final double[][] scores = m.targetScores();
			final double sign = Math.signum(scores[0][0]);
			assertEquals(score, sign * scores[0][0], 1e-6);
			assertEquals(-score, sign * scores[1][0], 1e-6);
			// a new sample z: ⟨Φ(z) − μ_t, v⟩ with ⟨μ_t, u⟩ = 0 (h(x, x) = 1)
			final double mutW = 0.5 * (h.apply(x[0], y[0]) + h.apply(x[1], y[0]) - h.apply(x[0],
				y[1]) - h.apply(x[1], y[1]));
			final double[][] got = m.transform(Dataset.of("new", z));
			for (int i = 0; i < z.length; i++) {
				final double expected = (s * (h.apply(z[i], x[0]) - h.apply(z[i], x[1])) + t * (h
					.apply(z[i], y[0]) - h.apply(z[i], y[1])) - t * mutW) / norm;
				assertEquals(expected, sign * got[i][0], 1e-6, "sample " + i + ", α = " + alpha);
			}
		}
	}

	@Test
	void kernelValuesAndTheAutomaticGammaRule() {
		final double[] x = { 1, 2 }, y = { 3, -1 };
		// ‖x‖² = 5, ‖y‖² = 10, xᵀy = 1, ‖x − y‖² = 13
		assertEquals(1, KernelFunction.linear().value(1, 5, 10), 0);
		assertEquals(Math.exp(-0.1 * 13), KernelFunction.rbf(0.1).value(1, 5, 10), 1e-15);
		assertEquals(Math.pow(0.5 * 1 + 2, 3), KernelFunction.polynomial(3, 0.5, 2).value(1,
			5, 10), 1e-12);
		assertEquals(13, (x[0] - y[0]) * (x[0] - y[0]) + (x[1] - y[1]) * (x[1] - y[1]));
		// three points (0,0), (1,0), (0,2): squared distances 1, 4, 5 → median 4 → γ = 1/4
		final Dataset[] sets = { Dataset.of("t", new double[][] { { 0, 0 }, { 1, 0 } }),
			Dataset.of("b", new double[][] { { 0, 2 } }) };
		final List<String> notes = new ArrayList<>();
		final Preprocessing input = KernelMatrix.pooledInput(sets, false, notes);
		assertEquals(0.25, KernelMatrix.automaticGamma(KernelFunction.rbf(Double.NaN), sets,
			input, 0, notes).gamma(), 1e-12);
		// poly: squared norms about the pooled mean (1/3, 2/3): 5/9, 8/9, 17/9 → mean 10/9
		assertEquals(0.9, KernelMatrix.automaticGamma(KernelFunction.polynomial(2, Double.NaN,
			1), sets, input, 0, notes).gamma(), 1e-12);
		assertTrue(notes.get(0).contains("1/median squared distance"), notes.toString());
		// an explicit γ is kept
		assertEquals(0.3, KernelMatrix.automaticGamma(KernelFunction.rbf(0.3), sets, input, 0,
			notes).gamma());
	}

	// --- nonlinear structure: rings -----------------------------------------------------

	/**
	 * Target: two classes on concentric rings (radius 1 and 3) in dimensions 0–1; background:
	 * one ring of radius √5 there, which has the same (isotropic) covariance, so no linear
	 * direction of the ring plane has more target than background variance at α ≥ 1, and no
	 * linear projection separates concentric rings anyway. Both share strong Gaussian
	 * structure in dimensions 2–5 and weak noise in 6–9. In the RBF feature space the
	 * squared radius varies in the target only.
	 */
	static Dataset rings(final long seed, final int n, final boolean target) {
		final Random r = new Random(seed);
		final double[] sd = { 3, 2.5, 2, 1.5 };
		final double[][] x = new double[n][10];
		final List<String> labels = new ArrayList<>();
		for (int i = 0; i < n; i++) {
			final boolean outer = i % 2 == 1;
			final double radius = (target ? outer ? 3 : 1 : Math.sqrt(5)) + 0.1 * r
				.nextGaussian();
			final double angle = 2 * Math.PI * r.nextDouble();
			x[i][0] = radius * Math.cos(angle);
			x[i][1] = radius * Math.sin(angle);
			labels.add(outer ? "outer" : "inner");
			for (int j = 0; j < 4; j++)
				x[i][2 + j] = sd[j] * r.nextGaussian();
			for (int j = 6; j < 10; j++)
				x[i][j] = 0.3 * r.nextGaussian();
		}
		final Dataset d = Dataset.of(target ? "target" : "background", x);
		return target ? d.withLabels(labels) : d;
	}

	@Test
	void rbfKernelSeparatesRingsThatLinearCpcaCannot() {
		final Dataset t = rings(1, 200, true), b = rings(2, 200, false);
		final List<String> labels = t.labels();
		final Cpca linear = Cpca.fit(t, b, TWO, Progress.NONE);
		final KernelCpca kernel = KernelCpca.fit(t, b, TWO, KernelOptions.defaults(),
			Progress.NONE);
		assertTrue(kernel.exact());
		assertTrue(kernel.diagnostics().get(0).contains("exact"), kernel.diagnostics()
			.toString());
		// linear cPCA fails at every α of the sweep
		for (final double alpha : CpcaOptions.defaults().alphaGrid())
			assertTrue(Measures.ldaAccuracy(linear.model(alpha).targetScores(), labels) < 0.7,
				"linear at α = " + alpha);
		// kernel cPCA separates at the α the automatic selection returns (not at α = 0)
		final AlphaSelection<KernelCpcaModel> auto = kernel.automatic(Progress.NONE);
		assertEquals(0, auto.alphas()[0]);
		assertTrue(Measures.ldaAccuracy(auto.models().get(0).targetScores(), labels) < 0.7);
		double best = 0;
		for (final KernelCpcaModel m : auto.models())
			best = Math.max(best, Measures.ldaAccuracy(m.targetScores(), labels));
		assertTrue(best >= 0.9, "best LDA accuracy " + best + " at " + java.util.Arrays
			.toString(auto.alphas()));
		final KernelCpcaModel at20 = kernel.model(20);
		assertTrue(Measures.ldaAccuracy(at20.targetScores(), labels) >= 0.9);
		assertTrue(Measures.nearestNeighbourAccuracy(at20.targetScores(), labels) >= 0.9);
		// new samples from the same distribution are separated by transform
		final Dataset fresh = rings(3, 100, true);
		assertTrue(Measures.ldaAccuracy(at20.transform(fresh), fresh.labels()) >= 0.9);
	}

	// --- Nyström -----------------------------------------------------------------------

	@Test
	void nystromAgreesWithTheExactSolve() {
		final Dataset t = Dataset.of("target", TestData.gaussian(31, 300, 5, 3, 2.5, 2, 1.5,
			1));
		final Dataset b = Dataset.of("background", TestData.gaussian(32, 300, 5, 3, 1, 2));
		final KernelCpca exact = KernelCpca.fit(t, b, TWO, KernelOptions.defaults(),
			Progress.NONE);
		final KernelCpca nystrom = KernelCpca.fit(t, b, TWO, KernelOptions.defaults()
			.withLandmarks(300), Progress.NONE);
		final KernelCpca fewer = KernelCpca.fit(t, b, TWO, KernelOptions.defaults()
			.withLandmarks(100), Progress.NONE);
		final KernelCpca everyone = KernelCpca.fit(t, b, TWO, KernelOptions.defaults()
			.withLandmarks(600), Progress.NONE);
		assertFalse(nystrom.exact());
		assertTrue(nystrom.diagnostics().get(0).contains("Nyström: 300 landmarks"), nystrom
			.diagnostics().toString());
		assertEquals(exact.kernel().gamma(), nystrom.kernel().gamma());
		for (final double alpha : new double[] { 0, 1, 5 }) {
			final KernelCpcaModel e = exact.model(alpha), n = nystrom.model(alpha), all =
				everyone.model(alpha);
			final double angle = TestData.maxAngle(columns(e.targetScores()), columns(n
				.targetScores()));
			assertTrue(angle < 0.05, "α = " + alpha + ": largest principal angle " + angle);
			// more landmarks, closer to the exact solve
			assertTrue(angle < TestData.maxAngle(columns(e.targetScores()), columns(fewer.model(
				alpha).targetScores())));
			assertArrayEquals(e.eigenvalues(), n.eigenvalues(), 0.02 * e.eigenvalues()[0]);
			// every sample a landmark: Nyström is exact (up to float features)
			assertTrue(TestData.maxAngle(columns(e.targetScores()), columns(all
				.targetScores())) < 1e-4);
			assertArrayEquals(e.eigenvalues(), all.eigenvalues(), 1e-5 * e.eigenvalues()[0]);
		}
	}

	@Test
	void pathIsChosenByTheNumberOfSamples() {
		final Dataset t = Dataset.of("target", TestData.gaussian(41, 1100, 3, 2, 1));
		final Dataset b = Dataset.of("background", TestData.gaussian(42, 1000, 3, 2));
		final KernelCpca auto = KernelCpca.fit(t, b, TWO, KernelOptions.defaults(),
			Progress.NONE);
		assertFalse(auto.exact());
		assertEquals(KernelCpca.DEFAULT_LANDMARKS, auto.landmarks());
		assertTrue(auto.diagnostics().get(0).contains("Nyström"));
		final KernelCpcaModel m = auto.model(1);
		assertEquals("nystrom", m.parameters().get("path"));
		assertEquals((double) KernelCpca.DEFAULT_LANDMARKS, m.parameters().get("landmarks"));
		assertEquals(KernelCpca.DEFAULT_LANDMARKS, m.supportSize());
		final Dataset small = t.select(new int[] { 0, 1, 2, 3, 4, 5, 6, 7 });
		final KernelCpca exact = KernelCpca.fit(small, b.select(new int[] { 0, 1, 2, 3 }),
			TWO, KernelOptions.defaults(), Progress.NONE);
		assertTrue(exact.exact());
		assertEquals("exact", exact.model(1).parameters().get("path"));
		assertEquals(12, exact.model(1).supportSize());
	}

	// --- model properties ----------------------------------------------------------------

	@Test
	void transformReproducesTrainingScoresOnBothPaths() {
		final Dataset t = Dataset.of("target", TestData.gaussian(51, 90, 6, 3, 2, 1));
		final Dataset b = Dataset.of("background", TestData.gaussian(52, 80, 6, 3));
		for (final KernelOptions ko : new KernelOptions[] { KernelOptions.defaults(),
			KernelOptions.defaults().withLandmarks(40), KernelOptions.defaults().withKernel(
				KernelFunction.polynomial(2, Double.NaN, 1)) })
			for (final boolean whiten : new boolean[] { false, true }) {
				final KernelCpcaModel m = KernelCpca.fit(t, b, TWO.withWhiten(whiten)
					.withStandardize(whiten), ko, Progress.NONE).model(2);
				final double[][] s = m.targetScores(), again = m.transform(t);
				assertTrue(maxDifference(s, again) < 1e-5 * maxAbs(s), ko.kernel() + " " +
					maxDifference(s, again));
				// centred on the target: training scores have mean 0
				for (int c = 0; c < 2; c++) {
					double mean = 0;
					for (final double[] row : s)
						mean += row[c] / s.length;
					assertEquals(0, mean, 1e-6 * maxAbs(s));
				}
				if (whiten) for (int c = 0; c < 2; c++) {
					double var = 0;
					for (final double[] row : s)
						var += row[c] * row[c] / (s.length - 1);
					assertEquals(1, var, 1e-5);
				}
				// the sign rule: the target score of largest magnitude is positive
				for (int c = 0; c < 2; c++) {
					double big = 0;
					for (final double[] row : s)
						if (Math.abs(row[c]) > Math.abs(big)) big = row[c];
					assertTrue(big > 0);
				}
				// eigenvalue = target variance − α · background variance, in feature space
				for (int c = 0; c < 2; c++)
					assertEquals(m.eigenvalues()[c], m.targetVariance()[c] - 2 * m
						.backgroundVariance()[c], 1e-6 * m.targetVariance()[0]);
			}
	}

	@Test
	void seededAndDeterministic() {
		final Dataset t = Dataset.of("target", TestData.gaussian(61, 150, 5, 3, 2));
		final Dataset b = Dataset.of("background", TestData.gaussian(62, 140, 5, 3));
		for (final int landmarks : new int[] { KernelOptions.AUTOMATIC, 60 }) {
			final KernelOptions ko = KernelOptions.defaults().withLandmarks(landmarks);
			final KernelCpcaModel a = KernelCpca.fit(t, b, TWO, ko, Progress.NONE).model(3);
			final KernelCpcaModel again = KernelCpca.fit(t, b, TWO, ko, Progress.NONE).model(3);
			assertArrayEquals(a.eigenvalues(), again.eigenvalues(), 0);
			assertEquals(0, maxDifference(a.targetScores(), again.targetScores()));
			assertEquals(0, maxDifference(a.coefficients(), again.coefficients()));
		}
		// another seed: other landmarks (and another γ subsample only when N > 1000)
		final KernelCpcaModel one = KernelCpca.fit(t, b, TWO, KernelOptions.defaults()
			.withLandmarks(60), Progress.NONE).model(3);
		final KernelCpcaModel other = KernelCpca.fit(t, b, TWO.withSeed(9), KernelOptions
			.defaults().withLandmarks(60), Progress.NONE).model(3);
		boolean differ = false;
		for (int s = 0; s < 60; s++)
			differ |= !java.util.Arrays.equals(one.supportSample(s), other.supportSample(s));
		assertTrue(differ);
	}

	@Test
	void automaticAlphaMatchesTheModelAtEachChosenAlpha() {
		final Dataset t = rings(5, 80, true), b = rings(6, 80, false);
		final KernelCpca k = KernelCpca.fit(t, b, TWO, KernelOptions.defaults(),
			Progress.NONE);
		final AlphaSelection<KernelCpcaModel> a = k.automatic(Progress.NONE);
		final AlphaSelection<KernelCpcaModel> again = k.automatic(Progress.NONE);
		assertArrayEquals(a.alphas(), again.alphas());
		assertEquals(0, a.alphas()[0]);
		assertEquals(41, a.grid().length);
		for (final KernelCpcaModel m : a.models()) {
			assertEquals("kernel", m.method());
			assertTrue(TestData.maxAngle(columns(m.targetScores()), columns(k.model(m.alpha())
				.targetScores())) < 1e-6);
		}
	}

	/**
	 * docs/math/kernel.md, "The linear limit": automatic (γ, α) of the rbf kernel returns,
	 * right after kernel PCA, the limit γ → 0 — linear cPCA on the same inputs — at linear
	 * cPCA's own automatic α: the same α values and the same target-score subspaces. (Before,
	 * the run held only finite γ, whose cluster medoids need not be linear cPCA's choice.)
	 */
	@Test
	void automaticGammaAndAlphaIncludeTheLinearLimitAtLinearCpcasAutomaticAlpha() {
		final float[][][] tb = TestData.planted(31, 120, 120, 10, 3, 2, 1);
		final Dataset t = Dataset.wrap("target", tb[0]), b = Dataset.wrap("background",
			tb[1]);
		final AlphaSelection<CpcaModel> linear = Cpca.fit(t, b, TWO, Progress.NONE)
			.automatic(Progress.NONE);
		final KernelSelection s = KernelSelection.select(t, b, TWO, KernelOptions.defaults(),
			Progress.NONE);
		assertTrue(s.pairs().get(0)[0] > 0 && s.pairs().get(0)[1] == 0, "kernel PCA first");
		final List<Double> limitAlphas = new ArrayList<>();
		for (int i = 1; i < s.pairs().size() && s.pairs().get(i)[0] == 0; i++) {
			final KernelCpcaModel m = s.models().get(i);
			assertEquals(KernelFunction.Type.LINEAR, m.kernel().type());
			final CpcaModel l = linear.models().get(limitAlphas.size() + 1);
			assertEquals(l.alpha(), m.alpha(), 0);
			assertTrue(TestData.maxAngle(columns(m.targetScores()), columns(l
				.targetScores())) < 1e-6);
			limitAlphas.add(m.alpha());
		}
		assertEquals(linear.models().size() - 1, limitAlphas.size(), "" + limitAlphas);
		assertTrue(limitAlphas.size() >= 1);
		// the other pairs are finite γ
		for (int i = limitAlphas.size() + 1; i < s.pairs().size(); i++)
			assertTrue(s.pairs().get(i)[0] > 0);
	}

	/**
	 * docs/math/kernel.md: automatic (γ, α) leaves out the (γ, α) without positive contrast,
	 * as automatic α does (docs/math/cpca.md). A background that holds every target sample
	 * (and more) varies, in feature space, in every direction the target does, so large α
	 * has no positive contrast at any γ: those pairs are counted as left out, and no
	 * returned pair is one of them. (Before, they took part in the clustering and could be
	 * returned.)
	 */
	@Test
	void automaticGammaAndAlphaLeavesOutPairsWithoutPositiveContrast() {
		final float[][][] tb = TestData.planted(32, 40, 40, 6, 2, 1, 1);
		final float[][] both = new float[80][];
		for (int i = 0; i < 40; i++) {
			both[i] = tb[0][i].clone();
			both[40 + i] = tb[1][i].clone();
		}
		final Dataset t = Dataset.wrap("target", tb[0]), b = Dataset.wrap("background", both);
		final KernelSelection s = KernelSelection.select(t, b, TWO, KernelOptions.defaults(),
			Progress.NONE);
		final String rule = s.diagnostics().get(s.diagnostics().size() - 1);
		final java.util.regex.Matcher m = java.util.regex.Pattern.compile(
			"(\\d+) \\(γ, α\\) left out for want of positive contrast").matcher(rule);
		assertTrue(m.find(), rule);
		assertTrue(Integer.parseInt(m.group(1)) > 0, rule);
		for (final KernelCpcaModel model : s.models())
			for (final String d : model.diagnostics())
				assertFalse(d.contains("no positive contrast"), d);
	}

	@Test
	void saveAndLoadRoundTrip() throws Exception {
		final Dataset t = Dataset.of("target", TestData.gaussian(71, 40, 5, 3, 2));
		final Dataset b = Dataset.of("background", TestData.gaussian(72, 30, 5, 3));
		final Dataset x = Dataset.of("new", TestData.gaussian(73, 9, 5, 4));
		for (final KernelOptions ko : new KernelOptions[] { KernelOptions.defaults(),
			KernelOptions.defaults().withLandmarks(25).withKernel(KernelFunction.polynomial(3,
				0.2, 1.5)) })
		{
			final KernelCpcaModel m = KernelCpca.fit(t, b, TWO.withStandardize(true), ko,
				Progress.NONE).model(1.5).withAttributes(Map.of("image.width", "5"));
			final Path f = dir.resolve("kernel.json");
			ModelFile.write(m, f);
			final FittedModel any = ModelFile.readAny(f);
			assertTrue(any instanceof KernelCpcaModel);
			final KernelCpcaModel r = (KernelCpcaModel) any;
			assertEquals("kernel", r.method());
			assertEquals(1.5, r.alpha());
			assertEquals(m.parameters().keySet(), r.parameters().keySet());
			assertEquals(m.parameters().get("kernel"), r.parameters().get("kernel"));
			assertEquals(m.kernel().toString(), r.kernel().toString());
			assertArrayEquals(m.eigenvalues(), r.eigenvalues());
			assertArrayEquals(m.backgroundVariance(), r.backgroundVariance());
			assertEquals("5", r.attributes().get("image.width"));
			assertEquals(m.diagnostics(), r.diagnostics());
			assertNull(r.targetScores());
			assertEquals(0, maxDifference(m.transform(x), r.transform(x)));
			assertMessage(() -> ModelFile.read(f), "kernel", "readAny");
		}
		// linear models still load through both
		final CpcaModel linear = Cpca.fit(t, b, TWO, Progress.NONE).model(1);
		final Path f = dir.resolve("linear.json");
		ModelFile.write(linear, f);
		assertTrue(ModelFile.readAny(f) instanceof CpcaModel);
		assertArrayEquals(linear.eigenvalues(), ModelFile.read(f).eigenvalues());
	}

	@Test
	void badParametersGiveClearMessages() {
		assertMessage(() -> KernelFunction.rbf(0), "gamma", "> 0");
		assertMessage(() -> KernelFunction.rbf(-2), "gamma", "> 0");
		assertMessage(() -> KernelFunction.rbf(Double.POSITIVE_INFINITY), "gamma");
		assertMessage(() -> KernelFunction.polynomial(0, 1, 1), "degree", "≥ 1");
		assertMessage(() -> KernelFunction.of(KernelFunction.Type.POLYNOMIAL, 1, 2.5, 1),
			"degree", "whole number");
		assertMessage(() -> KernelFunction.polynomial(2, 1, -1), "coef0", "≥ 0");
		assertMessage(() -> KernelFunction.Type.parse("sigmoid"), "unknown kernel",
			"linear, poly or rbf");
		assertMessage(() -> KernelOptions.defaults().withLandmarks(-3), "landmarks");
		final Dataset t = Dataset.of("target", TestData.gaussian(81, 30, 4, 2));
		final Dataset b = Dataset.of("background", TestData.gaussian(82, 30, 4));
		assertMessage(() -> KernelCpca.fit(t, b, CpcaOptions.defaults().withComponents(3),
			KernelOptions.defaults().withLandmarks(2), Progress.NONE), "2 landmarks",
			"k = 3");
		assertMessage(() -> KernelCpca.fit(t, b, TWO, KernelOptions.defaults().withLandmarks(
			61), Progress.NONE), "61 landmarks", "at most 60");
		assertMessage(() -> KernelCpca.fit(t, b, CpcaOptions.defaults().withComponents(5),
			LINEAR, Progress.NONE), "k = 5", "rank 4");
		assertMessage(() -> KernelCpca.fit(t, List.of(b, b), TWO, KernelOptions.defaults(),
			Progress.NONE), "exactly one background");
		assertMessage(() -> KernelCpca.fit(t, List.of(), TWO, KernelOptions.defaults(),
			Progress.NONE), "exactly one background");
		assertMessage(() -> KernelCpca.fit(t, Dataset.of("background", TestData.gaussian(83,
			5, 3)), TWO, KernelOptions.defaults(), Progress.NONE), "same features");
		final Dataset same = Dataset.of("target", new double[][] { { 1, 1 }, { 1, 1 }, { 1,
			1 } });
		assertMessage(() -> KernelCpca.fit(same, same.named("background"), TWO, KernelOptions
			.defaults(), Progress.NONE), "gamma explicitly");
		final KernelCpca k = KernelCpca.fit(t, b, TWO, KernelOptions.defaults(),
			Progress.NONE);
		assertMessage(() -> k.model(Double.POSITIVE_INFINITY), "α = ∞", "not defined",
			"kernel");
		assertMessage(() -> k.model(-1), "α must be ≥ 0");
		assertMessage(() -> k.model(1).transform(Dataset.of("x", TestData.gaussian(84, 3,
			5))), "5 features", "fitted on 4");
	}
}
