package org.cpca.core.rpca;

import org.cpca.core.Progress;
import org.cpca.core.TestData;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.contrast.CpcaTest;
import org.cpca.core.data.Dataset;
import org.cpca.core.linalg.TopEigen;
import org.cpca.core.model.CpcaModel;

import static org.cpca.core.TestData.assertMessage;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.apache.commons.math3.linear.RealMatrix;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RpcaTest {

	private static double[] kb(final CpcaModel m) {
		return (double[]) m.parameters().get("k_b");
	}

	/**
	 * A scree that is exactly piecewise linear with its knot at {@code knot}: steep
	 * (slope −3) before, shallow (−0.1) after, plus seeded noise of 0.02.
	 */
	private static double[] scree(final int knot, final int count, final long seed) {
		final Random r = new Random(seed);
		final double[] v = new double[count];
		for (int i = 1; i <= count; i++)
			v[i - 1] = 70 - 3 * Math.min(i, knot) - 0.1 * Math.max(0, i - knot) + 0.02 * r
				.nextGaussian();
		return v;
	}

	@ParameterizedTest
	@ValueSource(ints = { 2, 3, 5, 8, 12, 17 })
	void elbowRuleFindsTheKnownElbow(final int knot) {
		for (long seed = 1; seed <= 5; seed++)
			assertEquals(knot - 1, Rpca.elbow(scree(knot, 30, seed)), "knot " + knot);
	}

	@Test
	void elbowRuleLooksAtTheFirstTwentyOnly() {
		// a second, later elbow (at 25) beyond the window does not matter
		final double[] v = scree(6, 40, 3);
		for (int i = 24; i < v.length; i++)
			v[i] -= 30 + 2 * (i - 24);
		Arrays.sort(v);
		final double[] descending = new double[v.length];
		for (int i = 0; i < v.length; i++)
			descending[i] = v[v.length - 1 - i];
		assertEquals(5, Rpca.elbow(descending));
		assertMessage(() -> Rpca.elbow(new double[] { 3, 1 }), "at least 3", "k_b");
	}

	/**
	 * On paper: target diag(3.6, 1.6, 0.4); background ±3e1 (rank 1). Removing its one
	 * component leaves PCA of the target on {e2, e3}.
	 */
	@Test
	void solvedOnPaper() {
		final Dataset t = Dataset.of("target", new double[][] { { 3, 0, 0 }, { -3, 0, 0 }, {
			0, 2, 0 }, { 0, -2, 0 }, { 0, 0, 1 }, { 0, 0, -1 } });
		final Dataset b = Dataset.of("background", new double[][] { { 3, 0, 0 }, { -3, 0,
			0 }, { 0, 0, 0 }, { 0, 0, 0 } });
		final CpcaModel m = Rpca.fit(Cpca.fit(t, b, CpcaOptions.defaults().withComponents(2),
			Progress.NONE), List.of(1), Progress.NONE);
		assertEquals("rpca", m.method());
		assertTrue(Double.isNaN(m.alpha()));
		assertArrayEquals(new double[] { 1 }, kb(m), 0);
		assertArrayEquals(new double[] { 1.6, 0.4 }, m.eigenvalues(), 1e-9);
		assertArrayEquals(new double[] { 0, 1, 0 }, m.components()[0], 1e-9);
		assertArrayEquals(new double[] { 0, 0, 1 }, m.components()[1], 1e-9);
		// k_b = 0 is PCA
		final CpcaModel zero = Rpca.fit(Cpca.fit(t, b, CpcaOptions.defaults().withComponents(
			2), Progress.NONE), List.of(0), Progress.NONE);
		assertArrayEquals(new double[] { 3.6, 1.6 }, zero.eigenvalues(), 1e-9);
	}

	@Test
	void removingTheWholeBackgroundRangeIsCpcaAtInfinity() {
		// d = 12, background of 7 samples: rank 6, null space of dimension 6
		final double[][] t = TestData.gaussian(1, 60, 12, 5, 4, 3, 2, 2, 1);
		final double[][] b = TestData.gaussian(2, 7, 12, 6, 5, 4);
		for (final boolean features : new boolean[] { true, false }) {
			final Cpca cpca = Cpca.fit(Dataset.of("target", t), Dataset.of("background", b),
				CpcaOptions.defaults().withComponents(3).withFeatureSpace(features),
				Progress.NONE);
			final CpcaModel inf = cpca.model(Double.POSITIVE_INFINITY);
			final CpcaModel r = Rpca.fit(cpca, List.of(6), Progress.NONE);
			assertArrayEquals(inf.eigenvalues(), r.eigenvalues(), 1e-9);
			assertTrue(TestData.maxAngle(inf.components(), r.components()) < 1e-6);
			assertMessage(() -> Rpca.fit(cpca, List.of(7), Progress.NONE), "k_b = 7",
				"rank", "≤ 6");
		}
	}

	@Test
	void severalBackgroundsRemoveEachOnesTopComponents() {
		final double[][] t = TestData.gaussian(3, 80, 10, 5, 4, 3, 3, 2);
		final double[][] b1 = TestData.gaussian(4, 50, 10, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1);
		final double[][] b2 = TestData.gaussian(5, 50, 10, 1, 6, 5, 1, 1, 1, 1, 1, 1, 1);
		final List<Dataset> bs = List.of(Dataset.of("b1", b1), Dataset.of("b2", b2));
		final CpcaModel m = Rpca.fit(Cpca.fit(Dataset.of("target", t), bs, CpcaOptions
			.defaults().withComponents(3), Progress.NONE), Arrays.asList(1, 2), Progress.NONE);
		assertArrayEquals(new double[] { 1, 2 }, kb(m), 0);
		// reference: each background's own top components (Commons Math), the target
		// projected off their span, PCA of the rest
		final double[][] removed = new double[3][];
		removed[0] = TestData.topEigenvectors(TestData.covariance(TestData.rounded(b1)), 1)[0];
		final double[][] two = TestData.topEigenvectors(TestData.covariance(TestData.rounded(
			b2)), 2);
		removed[1] = two[0];
		removed[2] = two[1];
		for (final double[] v : m.components())
			for (final double[] r : removed)
				assertEquals(0, TopEigen.dot(v, r), 1e-9);
		final double[][] q = TopEigen.orthonormalize(removed, new double[0][], null, 10);
		RealMatrix p = org.apache.commons.math3.linear.MatrixUtils.createRealIdentityMatrix(10);
		for (final double[] x : q)
			p = p.subtract(org.apache.commons.math3.linear.MatrixUtils.createColumnRealMatrix(x)
				.multiply(org.apache.commons.math3.linear.MatrixUtils.createRowRealMatrix(x)));
		final RealMatrix residual = p.multiply(TestData.covariance(TestData.rounded(t)))
			.multiply(p);
		assertTrue(TestData.maxAngle(TestData.topEigenvectors(residual, 3), m
			.components()) < 1e-6);
		// one value for all backgrounds
		assertArrayEquals(new double[] { 2, 2 }, kb(Rpca.fit(Cpca.fit(Dataset.of("target", t),
			bs, CpcaOptions.defaults().withComponents(3), Progress.NONE), List.of(2),
			Progress.NONE)), 0);
	}

	@Test
	void reducedSpaceEqualsFeatureSpaceWithTheElbowRule() {
		// background with 4 strong directions: the elbow rule picks 4
		final Random r = new Random(6);
		final int d = 200;
		final double[][] dirs = new double[6][d];
		for (final double[] x : dirs)
			for (int j = 0; j < d; j++)
				x[j] = r.nextGaussian() / Math.sqrt(d);
		final double[][] t = new double[30][d], b = new double[40][d];
		final double[] tSd = { 6, 5, 4, 3, 3, 2 }, bSd = { 8, 7, 6, 5, 0, 0 };
		for (final double[][] x : new double[][][] { t, b })
			for (final double[] row : x) {
				for (int q = 0; q < 6; q++) {
					final double z = r.nextGaussian() * (x == t ? tSd : bSd)[q];
					for (int j = 0; j < d; j++)
						row[j] += z * dirs[q][j];
				}
				for (int j = 0; j < d; j++)
					row[j] += 0.05 * r.nextGaussian();
			}
		final Dataset dt = Dataset.of("target", t), db = Dataset.of("background", b);
		final CpcaOptions o = CpcaOptions.defaults().withComponents(2);
		final Cpca full = Cpca.fit(dt, db, o.withFeatureSpace(true), Progress.NONE);
		final Cpca reduced = Cpca.fit(dt, db, o, Progress.NONE);
		assertTrue(reduced.reducedSpace());
		final CpcaModel f = Rpca.fit(full, null, Progress.NONE), s = Rpca.fit(reduced, null,
			Progress.NONE);
		assertArrayEquals(new double[] { 4 }, kb(f), 0);
		assertArrayEquals(kb(f), kb(s), 0);
		assertArrayEquals(f.eigenvalues(), s.eigenvalues(), 1e-8 * f.eigenvalues()[0]);
		assertTrue(TestData.maxAngle(f.components(), s.components()) < 1e-6);
		assertTrue(f.diagnostics().stream().anyMatch(x -> x.contains("elbow")));
	}

	@Test
	void stackedPoolsTheBackgrounds() {
		final double[][] t = TestData.gaussian(7, 60, 8, 5, 4, 3);
		final Dataset b1 = Dataset.of("b1", TestData.gaussian(8, 30, 8, 6));
		final Dataset b2 = Dataset.of("b2", TestData.gaussian(9, 30, 8, 1, 6));
		final CpcaModel m = Rpca.stacked(Dataset.of("target", t), List.of(b1, b2), List.of(
			2), CpcaOptions.defaults().withComponents(2), Progress.NONE);
		assertEquals(2.0, (Double) m.parameters().get("stacked"));
		assertArrayEquals(new double[] { 2 }, kb(m), 0);
		final CpcaModel same = Rpca.fit(Cpca.fit(Dataset.of("target", t), Dataset.stack(
			"pooled", List.of(b1, b2)), CpcaOptions.defaults().withComponents(2),
			Progress.NONE), List.of(2), Progress.NONE);
		assertTrue(TestData.maxAngle(same.components(), m.components()) < 1e-9);
	}

	@Test
	void badInputGivesClearMessages() {
		final Dataset t = Dataset.of("target", TestData.gaussian(10, 30, 6, 3, 2));
		final Dataset b = Dataset.of("background", TestData.gaussian(11, 30, 6, 2));
		final Cpca cpca = Cpca.fit(t, b, CpcaOptions.defaults().withComponents(2),
			Progress.NONE);
		assertMessage(() -> Rpca.fit(cpca, List.of(-1), Progress.NONE), "k_b = -1", "≥ 0");
		assertMessage(() -> Rpca.fit(cpca, List.of(7), Progress.NONE), "k_b = 7", "rank");
		assertMessage(() -> Rpca.fit(cpca, List.of(5), Progress.NONE), "leaving 1",
			"k = 2");
		assertMessage(() -> Rpca.fit(cpca, List.of(1, 2), Progress.NONE), "2 values",
			"1 backgrounds");
		assertMessage(() -> Rpca.fit(Cpca.fit(t, List.of(), CpcaOptions.defaults(),
			Progress.NONE), null, Progress.NONE), "at least one background");
		// rank 2: too few eigenvalues for the elbow rule
		final Dataset thin = Dataset.of("thin", TestData.gaussian(12, 3, 6));
		assertMessage(() -> Rpca.fit(Cpca.fit(t, thin, CpcaOptions.defaults(),
			Progress.NONE), null, Progress.NONE), "elbow rule needs at least 3");
	}

	/**
	 * docs/math/rpca.md: one dominant background component (a decade above the rest, like an
	 * image stack's brightness), then log λ falls linearly to its floor at i = 7 and stays
	 * flat: the default rule keeps k_b = 6 (the knot on the log scale, independent of the
	 * data's units); the original rule on λ (asked for with {@link Rpca#SEED_ELBOW}) sees
	 * only the dominant component and keeps 1.
	 */
	@Test
	void defaultRuleSeesPastOneDominantComponent() {
		final int d = 30;
		final double[] log10 = new double[d];
		log10[0] = 5;
		for (int i = 2; i <= d; i++)
			log10[i - 1] = i <= 7 ? 4 - 0.4 * (i - 2) : 2 - 0.02 * (i - 7);
		final double[][] b = new double[2 * d][d];
		for (int i = 0; i < d; i++) {
			final double a = Math.sqrt(Math.pow(10, log10[i]));
			b[2 * i][i] = a;
			b[2 * i + 1][i] = -a;
		}
		final double[][] t = TestData.gaussian(7, 80, d, 1);
		for (final double scale : new double[] { 1, 1e-3 }) {
			final double[][] bs = new double[b.length][d], ts = new double[t.length][d];
			for (int i = 0; i < b.length; i++)
				for (int j = 0; j < d; j++)
					bs[i][j] = b[i][j] * scale;
			for (int i = 0; i < t.length; i++)
				for (int j = 0; j < d; j++)
					ts[i][j] = t[i][j] * scale;
			final Cpca fit = Cpca.fit(Dataset.of("target", ts), Dataset.of("background", bs),
				CpcaOptions.defaults(), Progress.NONE);
			final CpcaModel auto = Rpca.fit(fit, null, Progress.NONE);
			assertArrayEquals(new double[] { 6 }, kb(auto), "scale " + scale);
			assertTrue(auto.diagnostics().stream().anyMatch(x -> x.contains("log-elbow")), auto
				.diagnostics().toString());
			assertArrayEquals(new double[] { 1 }, kb(Rpca.fit(fit, List.of(Rpca.SEED_ELBOW),
				Progress.NONE)));
		}
	}
}
