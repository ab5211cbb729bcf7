package org.cpca.core.uca;

import org.cpca.core.Progress;
import org.cpca.core.TestData;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.contrast.CpcaTest;
import org.cpca.core.contrast.Measures;
import org.cpca.core.data.Dataset;
import org.cpca.core.linalg.TopEigen;
import org.cpca.core.model.CpcaModel;

import static org.cpca.core.TestData.assertMessage;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import org.apache.commons.math3.linear.EigenDecomposition;
import org.apache.commons.math3.linear.RealMatrix;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class UcaTest {

	private static final CpcaOptions ONE = CpcaOptions.defaults().withComponents(1);
	private static final CpcaOptions TWO = CpcaOptions.defaults().withComponents(2);

	private static double[] lambda(final CpcaModel m) {
		return (double[]) m.parameters().get("lambda");
	}

	private static double dual(final CpcaModel m) {
		return (Double) m.parameters().get("dual");
	}

	/** The paper's literal constraints vᵀB_jv ≤ 1 (the on-paper cases below use them). */
	private static CpcaModel literal(final Cpca fit, final Progress progress) {
		return Uca.fit(fit, Uca.Scale.UNIT, progress);
	}

	private static CpcaModel literalStacked(final Dataset target, final List<Dataset> bs,
		final CpcaOptions options, final Progress progress)
	{
		return Uca.stacked(target, bs, options, Uca.Scale.UNIT, progress);
	}

	/**
	 * The default bound is the median variance of the background's non-constant features.
	 * On paper (the diagonal case below): A = diag(3.6, 1.6, 0.4), B = diag(3.6, 0.4, 0), s =
	 * median(3.6, 0.4) = 2. The linear programme max 3.6a + 1.6b + 0.4c over a + b + c = 1,
	 * 3.6a + 0.4b ≤ 2 has its optimum 2.6 at a = b = 1/2; the dual max(3.6 − 3.6λ, 1.6 −
	 * 0.4λ, 0.4) + 2λ is minimised at the same kink λ = 0.625 (the multiplier of B itself).
	 */
	@Test
	void defaultBoundIsTheBackgroundsTypicalFeatureVarianceSolvedOnPaper() {
		final Dataset t = Dataset.of("target", diagonalRows(3.6, 1.6, 0.4));
		final Dataset b = Dataset.of("background", diagonalRows(3.6, 0.4, 0));
		final CpcaModel m = Uca.fit(Cpca.fit(t, b, TWO, Progress.NONE), Progress.NONE);
		assertEquals(2, ((double[]) m.parameters().get("constraint_scale"))[0], 1e-6);
		assertEquals(0.625, lambda(m)[0], 1e-6);
		assertEquals(2.6, dual(m), 1e-6);
	}

	/** ±√(1.5v_j)·e_j rows: mean 0, covariance diag(v) (n = 2·dim rows, n − 1 = 2·dim − 1). */
	private static double[][] diagonalRows(final double... v) {
		final int d = v.length;
		final double[][] rows = new double[2 * d][d];
		for (int j = 0; j < d; j++) {
			final double s = Math.sqrt(v[j] * (2 * d - 1) / 2.0);
			rows[2 * j][j] = s;
			rows[2 * j + 1][j] = -s;
		}
		return rows;
	}

	/**
	 * Unit-free: multiplying target and background by 100 (grey levels 0–1 against 0–100)
	 * leaves the default UCA's components and multipliers as they are; the literal
	 * constraint vᵀBv ≤ 1, met at scale 1, cannot be met at 100.
	 */
	@Test
	void defaultIsUnitFree() {
		final double[][] t = TestData.gaussian(41, 80, 6, 3, 2, 1.5, 1, 1, 1);
		final double[][] b = TestData.gaussian(42, 90, 6, 2.5, 0.5, 1, 1, 1, 1);
		final double[][] t100 = new double[t.length][], b100 = new double[b.length][];
		for (int i = 0; i < t.length; i++)
			t100[i] = java.util.Arrays.stream(t[i]).map(x -> 100 * x).toArray();
		for (int i = 0; i < b.length; i++)
			b100[i] = java.util.Arrays.stream(b[i]).map(x -> 100 * x).toArray();
		final Cpca small = Cpca.fit(Dataset.of("target", t), Dataset.of("background", b), TWO,
			Progress.NONE);
		final Cpca large = Cpca.fit(Dataset.of("target", t100), Dataset.of("background",
			b100), TWO, Progress.NONE);
		final CpcaModel one = Uca.fit(small, Progress.NONE), hundred = Uca.fit(large,
			Progress.NONE);
		assertEquals(lambda(one)[0], lambda(hundred)[0], 1e-6 * lambda(one)[0]);
		assertTrue(lambda(one)[0] > 0, "the constraint is active");
		assertTrue(TestData.maxAngle(one.components(), hundred.components()) < 1e-5);
		// the literal constraint depends on the units: met at scale 1, not at 100
		assertTrue(dual(literal(small, Progress.NONE)) > 0);
		assertMessage(() -> literal(large, Progress.NONE), "cannot all be met",
			"standardise");
	}

	/**
	 * On paper: A = diag(3.6, 1.6), B = 1.6·[[1, 1], [1, 1]] (B = 3.2uuᵀ, u = (1, 1)/√2).
	 * With v = (cos θ, sin θ): vᵀAv = 2.6 + cos 2θ, vᵀBv = 1.6(1 + sin 2θ) ≤ 1 ⇔
	 * sin 2θ ≤ −3/8, so the optimum is 2.6 + √55/8 at sin 2θ = −3/8. Dual:
	 * λ_max(A − λB) = 2.6 − 1.6λ + √(1 + 2.56λ²), g′ = 0 at λ² = 0.36/5.632.
	 */
	@Test
	void solvedOnPaperWithASimpleTopEigenvalue() {
		final Dataset t = Dataset.of("target", new double[][] { { 3, 0 }, { -3, 0 }, { 0, 2 },
			{ 0, -2 }, { 0, 0 }, { 0, 0 } });
		final Dataset b = Dataset.of("background", new double[][] { { 2, 2 }, { -2, -2 }, {
			0, 0 }, { 0, 0 }, { 0, 0 }, { 0, 0 } });
		final CpcaModel m = literal(Cpca.fit(t, b, ONE, Progress.NONE), Progress.NONE);
		assertEquals("uca", m.method());
		assertTrue(Double.isNaN(m.alpha()));
		assertEquals(Math.sqrt(0.36 / 5.632), lambda(m)[0], 1e-9);
		assertEquals(2.6 + Math.sqrt(55) / 8, dual(m), 1e-12);
		final double theta = -0.5 * Math.asin(3.0 / 8);
		assertArrayEquals(new double[] { Math.cos(theta), Math.sin(theta) }, m
			.components()[0], 1e-8);
		// primal = dual: the first component attains the bound with the constraint tight
		assertEquals(dual(m), m.targetVariance()[0], 1e-9);
		assertEquals(1, m.backgroundVariance()[0], 1e-9);
	}

	/**
	 * On paper, diagonal: A = diag(3.6, 1.6, 0.4), B = diag(3.6, 0.4, 0). The primal is the
	 * linear programme max 3.6a + 1.6b + 0.4c over a + b + c = 1, 3.6a + 0.4b ≤ 1: optimum
	 * 1.975 at a = 3/16, b = 13/16. The dual max(3.6 − 3.6λ, 1.6 − 0.4λ, 0.4) + λ is
	 * minimised at the kink λ = 0.625, where e1 and e2 tie at 1.35: the optimum mixes them,
	 * so the first two components span {e1, e2}.
	 */
	@Test
	void diagonalCaseSolvedOnPaper() {
		final Dataset t = Dataset.of("target", new double[][] { { 3, 0, 0 }, { -3, 0, 0 }, {
			0, 2, 0 }, { 0, -2, 0 }, { 0, 0, 1 }, { 0, 0, -1 } });
		final Dataset b = Dataset.of("background", new double[][] { { 3, 0, 0 }, { -3, 0,
			0 }, { 0, 1, 0 }, { 0, -1, 0 }, { 0, 0, 0 }, { 0, 0, 0 } });
		final CpcaModel m = literal(Cpca.fit(t, b, TWO, Progress.NONE), Progress.NONE);
		assertEquals(0.625, lambda(m)[0], 1e-9);
		assertEquals(1.975, dual(m), 1e-9);
		assertArrayEquals(new double[] { 1.35, 1.35 }, m.eigenvalues(), 1e-8);
		assertTrue(TestData.maxAngle(new double[][] { { 1, 0, 0 }, { 0, 1, 0 } }, m
			.components()) < 1e-6);
		assertTrue(m.diagnostics().stream().anyMatch(s -> s.contains("repeated")), m
			.diagnostics().toString());
	}

	@Test
	void inactiveConstraintGivesPca() {
		final Dataset t = Dataset.of("target", TestData.gaussian(1, 60, 8, 3, 2, 1.5));
		// background variances ≈ 0.01: vᵀBv ≤ 1 holds for every unit v
		final Dataset b = Dataset.of("background", TestData.gaussian(2, 50, 8, 0.1, 0.1,
			0.1, 0.1, 0.1, 0.1, 0.1, 0.1));
		final Cpca cpca = Cpca.fit(t, b, CpcaOptions.defaults().withComponents(3),
			Progress.NONE);
		final CpcaModel uca = literal(cpca, Progress.NONE), pca = cpca.pca();
		assertArrayEquals(new double[] { 0 }, lambda(uca), 0);
		assertEquals(pca.eigenvalues()[0], dual(uca), 1e-9);
		assertArrayEquals(pca.eigenvalues(), uca.eigenvalues(), 1e-9);
		assertTrue(TestData.maxAngle(pca.components(), uca.components()) < 1e-6);
		assertTrue(uca.diagnostics().stream().anyMatch(s -> s.contains("equals PCA")), uca
			.diagnostics().toString());
	}

	/** n samples: Σ_q z_q·sd_q·dir_q + noise, z standard normal (seeded). */
	private static Dataset generated(final String name, final long seed, final int n,
		final double noise, final double[][] dirs, final double... sd)
	{
		final Random r = new Random(seed);
		final int d = dirs[0].length;
		final double[][] x = new double[n][d];
		for (final double[] row : x) {
			for (int q = 0; q < sd.length; q++) {
				final double z = r.nextGaussian() * sd[q];
				for (int j = 0; j < d; j++)
					row[j] += z * dirs[q][j];
			}
			for (int j = 0; j < d; j++)
				row[j] += noise * r.nextGaussian();
		}
		return Dataset.of(name, x);
	}

	/** Orthonormal random directions in d dimensions. */
	private static double[][] directions(final long seed, final int count, final int d) {
		final Random r = new Random(seed);
		final double[][] v = new double[count][d];
		for (final double[] x : v)
			for (int j = 0; j < d; j++)
				x[j] = r.nextGaussian();
		return TopEigen.orthonormalize(v, new double[0][], null, d);
	}

	private static double angle(final double[] component, final double[] direction) {
		return Measures.principalAngles(new double[][] { component }, new double[][] {
			direction })[0];
	}

	@Test
	void redundantBackgroundGetsZeroLambda() {
		final double[][] dir = directions(3, 3, 15);
		// target: unique direction 0 (sd 2), nuisance 1 (sd 5) and 2 (sd 4)
		final Dataset t = generated("target", 4, 200, 0.1, dir, 2, 5, 4);
		// background "covering": both nuisance directions; background "redundant": only
		// direction 1, weaker, which "covering" already constrains more strongly
		final Dataset covering = generated("covering", 5, 150, 0.1, new double[][] { dir[1],
			dir[2] }, 5, 4);
		final Dataset redundant = generated("redundant", 6, 150, 0.05, new double[][] {
			dir[1] }, 3);
		for (final boolean redundantFirst : new boolean[] { true, false }) {
			final List<Dataset> bs = redundantFirst ? List.of(redundant, covering) : List.of(
				covering, redundant);
			final CpcaModel m = literal(Cpca.fit(t, bs, ONE, Progress.NONE), Progress.NONE);
			final double[] l = lambda(m);
			final int r = redundantFirst ? 0 : 1;
			assertEquals(0, l[r], 0, "λ = " + java.util.Arrays.toString(l));
			assertTrue(l[1 - r] > 0);
			assertTrue(m.diagnostics().stream().anyMatch(s -> s.contains("redundant is " +
				"redundant")), m.diagnostics().toString());
			// and the same as UCA with the covering background alone
			final CpcaModel alone = literal(Cpca.fit(t, covering, ONE, Progress.NONE),
				Progress.NONE);
			assertEquals(lambda(alone)[0], l[1 - r], 1e-8 * l[1 - r]);
			assertTrue(TestData.maxAngle(alone.components(), m.components()) < 1e-6);
		}
	}

	/**
	 * Background 1 (300 samples) carries nuisance direction 1, background 2 (30 samples)
	 * nuisance direction 2. Pooled, direction 2 keeps only about 30/330 of its variance, so
	 * the stacked constraint lets it through; split, each background constrains its own.
	 */
	@Test
	void splitRemovesBothNuisancesWhileStackedLetsTheSmallerThrough() {
		final double[][] dir = directions(7, 3, 20);
		final Dataset t = generated("target", 8, 300, 0.1, dir, 2, 5, 4);
		final Dataset b1 = generated("big", 9, 300, 0.1, new double[][] { dir[1] }, 5);
		final Dataset b2 = generated("small", 10, 30, 0.1, new double[][] { dir[2] }, 4);
		final CpcaModel split = literal(Cpca.fit(t, List.of(b1, b2), ONE, Progress.NONE),
			Progress.NONE);
		final CpcaModel stacked = literalStacked(t, List.of(b1, b2), ONE, Progress.NONE);
		final double[] s = split.components()[0], p = stacked.components()[0];
		final double deg = Math.PI / 180;
		// split: close to the unique direction, far from both nuisances
		assertTrue(angle(s, dir[0]) < 20 * deg, "split to unique " + angle(s, dir[0]) / deg);
		assertTrue(angle(s, dir[1]) > 70 * deg && angle(s, dir[2]) > 70 * deg, angle(s,
			dir[1]) / deg + " " + angle(s, dir[2]) / deg + split.diagnostics());
		// stacked: pulled towards the small background's nuisance, away from the unique
		// direction
		assertTrue(angle(p, dir[2]) < 60 * deg && angle(p, dir[2]) < angle(s, dir[2]) - 20 *
			deg, "stacked to nuisance 2 " + angle(p, dir[2]) / deg);
		assertTrue(angle(p, dir[0]) > angle(s, dir[0]) + 20 * deg, "stacked to unique " +
			angle(p, dir[0]) / deg);
		assertEquals(2, lambda(split).length);
		assertEquals(1, lambda(stacked).length);
		assertEquals(2.0, (Double) stacked.parameters().get("stacked"));
		assertTrue(stacked.diagnostics().stream().anyMatch(x -> x.contains("pooled")));
	}

	/** Reference g(λ) in feature space (Commons Math), for the optimality checks. */
	private static double referenceDual(final RealMatrix a, final List<RealMatrix> bs,
		final double[] lambda)
	{
		RealMatrix c = a.copy();
		double sum = 0;
		for (int j = 0; j < bs.size(); j++) {
			c = c.subtract(bs.get(j).scalarMultiply(lambda[j]));
			sum += lambda[j];
		}
		double top = Double.NEGATIVE_INFINITY;
		for (final double v : new EigenDecomposition(c).getRealEigenvalues())
			top = Math.max(top, v);
		return top + sum;
	}

	@ParameterizedTest
	@ValueSource(ints = { 1, 2, 3, 4, 5, 6 })
	void seededRandomProblemsSatisfyOptimalityAndHaveNoDualityGap(final int seed) {
		final Random r = new Random(seed);
		final int d = 6 + r.nextInt(6), nb = 1 + seed % 3;
		final double[][] t = TestData.rounded(TestData.gaussian(100 + seed, 40 + r.nextInt(
			40), d, 4, 3, 2.5, 2, 1.5));
		final List<Dataset> bs = new ArrayList<>();
		final List<RealMatrix> cov = new ArrayList<>();
		for (int j = 0; j < nb; j++) {
			final double[] scales = new double[d];
			// random scales, but the last two features quiet in every background, so that
			// the constraints can all be met
			for (int f = 0; f < d; f++)
				scales[f] = f >= d - 2 ? 0.5 : 0.3 + 3 * r.nextDouble();
			final double[][] x = TestData.rounded(TestData.gaussian(200 + 10 * seed + j, 30 + r
				.nextInt(50), d, scales));
			bs.add(Dataset.of("background " + (j + 1), x));
			cov.add(TestData.covariance(x));
		}
		final RealMatrix a = TestData.covariance(t);
		final CpcaModel m = literal(Cpca.fit(Dataset.of("target", t), bs, ONE,
			Progress.NONE), Progress.NONE);
		final double[] l = lambda(m);
		final double g = dual(m);
		assertEquals(referenceDual(a, cov, l), g, 1e-9 * g);
		// the top eigenvalue of A − Σλ_jB_j at the optimum: simple, or (several backgrounds
		// only, where the dual is an SDP whose solution may have rank 2) repeated
		RealMatrix c = a.copy();
		for (int j = 0; j < nb; j++)
			c = c.subtract(cov.get(j).scalarMultiply(l[j]));
		final double[] ev = new EigenDecomposition(c).getRealEigenvalues();
		java.util.Arrays.sort(ev);
		final boolean tied = ev[ev.length - 1] - ev[ev.length - 2] <= 1e-6 * g;
		if (tied) {
			assertTrue(nb > 1, "one background: no tie expected on random data");
			assertTrue(m.diagnostics().stream().anyMatch(x -> x.contains("repeated")), m
				.diagnostics().toString());
		}
		else {
			// no duality gap: the first component attains g, feasibly, with complementary
			// slackness
			final double[] v = m.components()[0];
			assertEquals(g, quadratic(a, v), 1e-7 * g, m.diagnostics().toString());
			for (int j = 0; j < nb; j++) {
				final double cj = quadratic(cov.get(j), v);
				assertTrue(l[j] >= 0);
				assertTrue(cj <= 1 + 1e-7, "vᵀB_jv = " + cj + " " + m.diagnostics());
				assertEquals(0, l[j] * (1 - cj), 1e-7 * g);
			}
		}
		// g is minimal: no nearby or random λ ≥ 0 gives less
		for (int trial = 0; trial < 20; trial++) {
			final double[] other = l.clone();
			for (int j = 0; j < nb; j++)
				other[j] = Math.max(0, trial < 10 ? l[j] + 1e-3 * r.nextGaussian() : l[j] * 3 *
					r.nextDouble());
			assertTrue(referenceDual(a, cov, other) >= g - 1e-9 * g);
		}
	}

	private static double quadratic(final RealMatrix s, final double[] v) {
		final double[] sv = s.operate(v);
		double q = 0;
		for (int i = 0; i < v.length; i++)
			q += v[i] * sv[i];
		return q;
	}

	@Test
	void reducedSpaceEqualsFeatureSpace() {
		final double[][] dir = directions(11, 4, 300);
		final Dataset t = generated("target", 12, 25, 0.2, dir, 3, 6, 5, 4);
		final Dataset b1 = generated("b1", 13, 30, 0.2, new double[][] { dir[1], dir[3] }, 6,
			4);
		final Dataset b2 = generated("b2", 14, 20, 0.2, new double[][] { dir[2] }, 5);
		final CpcaOptions o = CpcaOptions.defaults().withComponents(3);
		final Cpca full = Cpca.fit(t, List.of(b1, b2), o.withFeatureSpace(true),
			Progress.NONE);
		final Cpca reduced = Cpca.fit(t, List.of(b1, b2), o, Progress.NONE);
		assertTrue(reduced.reducedSpace() && !full.reducedSpace());
		final CpcaModel f = literal(full, Progress.NONE), r = literal(reduced,
			Progress.NONE);
		assertArrayEquals(lambda(f), lambda(r), 1e-7 * lambda(f)[0]);
		assertEquals(dual(f), dual(r), 1e-9 * dual(f));
		assertArrayEquals(f.eigenvalues(), r.eigenvalues(), 1e-8 * dual(f));
		assertTrue(TestData.maxAngle(f.components(), r.components()) < 1e-5);
		final CpcaModel fs = literalStacked(t, List.of(b1, b2), o.withFeatureSpace(true),
			Progress.NONE), rs = literalStacked(t, List.of(b1, b2), o, Progress.NONE);
		assertArrayEquals(lambda(fs), lambda(rs), 1e-7 * lambda(fs)[0]);
		assertTrue(TestData.maxAngle(fs.components(), rs.components()) < 1e-5);
	}

	@Test
	void deterministicAndInvariantToSampleOrder() {
		final double[][] t = TestData.gaussian(20, 50, 9, 3, 2, 2, 1);
		final double[][] b1 = TestData.gaussian(21, 40, 9, 2, 1, 1);
		final double[][] b2 = TestData.gaussian(22, 40, 9, 1, 1, 2, 2);
		final List<double[]> shuffled = new ArrayList<>(List.of(t));
		Collections.shuffle(shuffled, new Random(3));
		final List<Dataset> bs = List.of(Dataset.of("b1", b1), Dataset.of("b2", b2));
		final CpcaModel a = literal(Cpca.fit(Dataset.of("target", t), bs, TWO,
			Progress.NONE), Progress.NONE);
		final CpcaModel again = literal(Cpca.fit(Dataset.of("target", t), bs, TWO,
			Progress.NONE), Progress.NONE);
		final CpcaModel s = literal(Cpca.fit(Dataset.of("target", shuffled.toArray(
			new double[0][])), bs, TWO, Progress.NONE), Progress.NONE);
		assertArrayEquals(lambda(a), lambda(again), 0);
		assertArrayEquals(a.components()[0], again.components()[0], 0);
		assertArrayEquals(lambda(a), lambda(s), 1e-8 * lambda(a)[0]);
		assertTrue(TestData.maxAngle(a.components(), s.components()) < 1e-6);
	}

	@Test
	void badInputGivesClearMessages() {
		final Dataset t = Dataset.of("target", TestData.gaussian(30, 20, 3, 2, 1));
		assertMessage(() -> literal(Cpca.fit(t, List.of(), ONE, Progress.NONE),
			Progress.NONE), "at least one background");
		assertMessage(() -> literalStacked(t, List.of(), ONE, Progress.NONE),
			"at least one background");
		// every direction has background variance ≥ 100 (full rank, no complement): no
		// unit vector meets vᵀBv ≤ 1
		final Dataset loud = Dataset.of("loud", TestData.gaussian(31, 200, 3, 20, 20, 20));
		assertMessage(() -> literal(Cpca.fit(t, loud, ONE, Progress.NONE), Progress.NONE),
			"cannot all be met", "standardise");
		// each background alone can be met, both together cannot: v = (c, s) needs
		// 0.1c² + 4s² ≤ 1 and 4c² + 0.1s² ≤ 1, whose sum 4.1 ≤ 2 fails
		final Dataset two = Dataset.of("target", new double[][] { { 2, 0 }, { -2, 0 }, { 0,
			1 }, { 0, -1 } });
		final double q = Math.sqrt(0.15), w = Math.sqrt(6);
		final Dataset first = Dataset.of("first", new double[][] { { q, 0 }, { -q, 0 }, { 0,
			w }, { 0, -w } });
		final Dataset second = Dataset.of("second", new double[][] { { w, 0 }, { -w, 0 }, {
			0, q }, { 0, -q } });
		for (final Dataset b : List.of(first, second))
			assertTrue(dual(literal(Cpca.fit(two, b, ONE, Progress.NONE), Progress.NONE)) > 0);
		assertMessage(() -> literal(Cpca.fit(two, List.of(first, second), ONE,
			Progress.NONE), Progress.NONE), "cannot all be met");
		// standardised, the same data are feasible
		final CpcaModel m = literal(Cpca.fit(t, loud, ONE.withStandardize(true),
			Progress.NONE), Progress.NONE);
		assertTrue(dual(m) > 0);
	}
}
