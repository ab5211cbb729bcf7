package org.cpca.core.star;

import org.cpca.core.Progress;
import org.cpca.core.TestData;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.contrast.Measures;
import org.cpca.core.data.Dataset;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.result.Solution;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.apache.commons.math3.linear.EigenDecomposition;
import org.apache.commons.math3.linear.MatrixUtils;
import org.apache.commons.math3.linear.RealMatrix;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CpcaStarTest {

	private static CpcaOptions k(final int k) {
		return CpcaOptions.defaults().withComponents(k);
	}

	/**
	 * On paper, 2 × 2: target rows ±(1.5, 1.5), ±(1, −1) give
	 * C_t = [[13/6, 5/6], [5/6, 13/6]]; background rows ±(1.5, 0), ±(0, 3) give
	 * C_b = diag(1.5, 6). det(C_t − λC_b) = 0 ⇔ 36λ² − 65λ + 16 = 0, so
	 * λ = (65 ± √1921)/72, with v ∝ (1, (9λ − 13)/5).
	 */
	@Test
	void cpcaPlusPlusSolvedOnPaper() {
		final Dataset t = Dataset.of("target", new double[][] { { 1.5, 1.5 }, { -1.5,
			-1.5 }, { 1, -1 }, { -1, 1 } });
		final Dataset b = Dataset.of("background", new double[][] { { 1.5, 0 }, { -1.5, 0 },
			{ 0, 3 }, { 0, -3 } });
		final Cpca fit = Cpca.fit(t, b, k(2).withFeatureSpace(true), Progress.NONE);
		final CpcaModel m = CpcaPlusPlus.of(fit).model();
		final double l1 = (65 + Math.sqrt(1921)) / 72, l2 = (65 - Math.sqrt(1921)) / 72;
		assertArrayEquals(new double[] { l1, l2 }, m.eigenvalues(), 1e-12);
		assertEquals("cpcapp", m.method());
		assertTrue(Double.isNaN(m.alpha()));
		assertEquals(Map.of("regularization", 0.0), m.parameters());
		final double[][] v = m.components();
		for (int c = 0; c < 2; c++) {
			final double lambda = c == 0 ? l1 : l2;
			final double[] expected = unit(new double[] { 1, (9 * lambda - 13) / 5 });
			// the sign rule: the entry of largest magnitude is positive
			if (Math.abs(expected[1]) > Math.abs(expected[0]) && expected[1] < 0 || Math.abs(
				expected[0]) >= Math.abs(expected[1]) && expected[0] < 0)
				for (int j = 0; j < 2; j++)
					expected[j] = -expected[j];
			assertArrayEquals(expected, v[c], 1e-12);
			// reported variances of the unit vectors
			final double tv = (13 * (v[c][0] * v[c][0] + v[c][1] * v[c][1]) + 10 * v[c][0] *
				v[c][1]) / 6;
			final double bv = 1.5 * v[c][0] * v[c][0] + 6 * v[c][1] * v[c][1];
			assertEquals(tv, m.targetVariance()[c], 1e-12);
			assertEquals(bv, m.backgroundVariance()[c], 1e-12);
			assertEquals(lambda, tv / bv, 1e-12);
		}
		// cPCA* at β = 1 is the same problem
		final CpcaModel star = CpcaStar.of(fit).model(1);
		assertArrayEquals(m.eigenvalues(), star.eigenvalues(), 1e-12);
		assertEquals(1.0, star.parameters().get("beta"));
		assertEquals(0.0, star.parameters().get("regularization"));
	}

	/**
	 * On paper, 3 × 3 with a singular background: C_t = diag(3.6, 1.6, 0.4) (rows ±3e1,
	 * ±2e2, ±1e3) and C_b = diag(3.6, 0.4, 0) (rows ±3e1, ±1e2, two zeros). At β = 1
	 * C_b + δI with δ = ε·trace(C_b)/3 gives λ = 0.4/δ, 1.6/(0.4 + δ), 3.6/(3.6 + δ).
	 */
	@Test
	void singularBackgroundAtBetaOneIsRegularisedOnPaper() {
		final Dataset t = Dataset.of("target", new double[][] { { 3, 0, 0 }, { -3, 0, 0 }, {
			0, 2, 0 }, { 0, -2, 0 }, { 0, 0, 1 }, { 0, 0, -1 } });
		final Dataset b = Dataset.of("background", new double[][] { { 3, 0, 0 }, { -3, 0,
			0 }, { 0, 1, 0 }, { 0, -1, 0 }, { 0, 0, 0 }, { 0, 0, 0 } });
		final Cpca fit = Cpca.fit(t, b, k(3), Progress.NONE);
		assertFalse(fit.reducedSpace());
		final double eps = 1e-3, delta = eps * 4.0 / 3;
		final CpcaPlusPlus pp = CpcaPlusPlus.of(fit).withRegularization(eps);
		assertEquals(delta, pp.regularization(), 1e-15);
		final CpcaModel m = pp.model();
		assertArrayEquals(new double[] { 0.4 / delta, 1.6 / (0.4 + delta), 3.6 / (3.6 +
			delta) }, m.eigenvalues(), 1e-9 * 0.4 / delta);
		assertArrayEquals(new double[] { 0, 0, 1 }, m.components()[0], 1e-12);
		assertArrayEquals(new double[] { 0, 1, 0 }, m.components()[1], 1e-12);
		assertEquals(delta, (Double) m.parameters().get("regularization"), 1e-15);
		assertTrue(m.diagnostics().stream().anyMatch(s -> s.contains("singular") && s
			.contains("δ")), m.diagnostics().toString());
		// C_b + δI = B_β'/β' with β' = 1/(1 + δ): the same subspace; the regularised
		// eigenvalues are cPCA*'s at β' times β'
		final double betaPrime = 1 / (1 + delta);
		final CpcaModel star = CpcaStar.of(fit).model(betaPrime);
		for (int c = 0; c < 3; c++)
			assertEquals(star.eigenvalues()[c] * betaPrime, m.eigenvalues()[c], 1e-9 * m
				.eigenvalues()[c]);
		assertTrue(TestData.maxAngle(m.components(), star.components()) < 1e-9);
		// at β < 1 nothing is regularised and nothing is recorded
		final CpcaModel half = CpcaStar.of(fit).model(0.5);
		assertEquals(Map.of("beta", 0.5), half.parameters());
		assertFalse(half.diagnostics().stream().anyMatch(s -> s.contains("regularised")));
		// B_0.5 = diag(2.3, 0.7, 0.5): λ = 3.6/2.3, 1.6/0.7, 0.4/0.5
		assertArrayEquals(new double[] { 1.6 / 0.7, 3.6 / 2.3, 0.4 / 0.5 }, half
			.eigenvalues(), 1e-12);
	}

	@Test
	void betaZeroIsPca() {
		final Dataset t = Dataset.of("target", TestData.gaussian(1, 80, 12, 5, 4, 3, 2));
		final Dataset b = Dataset.of("background", TestData.gaussian(2, 70, 12, 1, 6));
		final Cpca fit = Cpca.fit(t, b, k(3), Progress.NONE);
		final CpcaModel pca = fit.pca(), zero = CpcaStar.of(fit).model(0);
		assertEquals("star", zero.method());
		assertEquals(Map.of("beta", 0.0), zero.parameters());
		assertArrayEquals(pca.eigenvalues(), zero.eigenvalues(), 1e-9);
		assertTrue(TestData.maxAngle(pca.components(), zero.components()) < 1e-7);
		assertArrayEquals(pca.targetVariance(), zero.targetVariance(), 1e-9);
	}

	@Test
	void betaTowardsOneIsCpcaPlusPlusWhenTheBackgroundIsInvertible() {
		final Dataset t = Dataset.of("target", TestData.gaussian(3, 120, 10, 5, 4, 3, 2));
		final Dataset b = Dataset.of("background", TestData.gaussian(4, 150, 10, 1, 6, 2));
		final Cpca fit = Cpca.fit(t, b, k(3), Progress.NONE);
		final CpcaStar star = CpcaStar.of(fit);
		assertFalse(star.backgroundSingular());
		final CpcaModel pp = CpcaPlusPlus.of(fit).model();
		assertEquals(0.0, pp.parameters().get("regularization"));
		double previous = Double.POSITIVE_INFINITY;
		for (final double gap : new double[] { 1e-2, 1e-4, 1e-6, 1e-8 }) {
			final CpcaModel near = star.model(1 - gap);
			final double angle = TestData.maxAngle(pp.components(), near.components());
			assertTrue(angle < previous + 1e-12, "angle " + angle + " at 1 − β = " + gap);
			previous = angle;
		}
		assertTrue(previous < 1e-6, "angle at β = 1 − 1e-8: " + previous);
		// and the eigenvalues converge: λ_β = vᵀC_tv / ((1−β) + βvᵀC_bv) → λ_pp
		assertArrayEquals(pp.eigenvalues(), star.model(1 - 1e-8).eigenvalues(), 1e-6 * pp
			.eigenvalues()[0]);
	}

	/**
	 * The reduced space gives the full solve for every β, including β = 1 with a singular
	 * background (the regularisation uses d, not r).
	 */
	@ParameterizedTest
	@ValueSource(doubles = { 0, 0.2, 0.7, 0.999, 1 })
	void reducedSpaceEqualsFullSolve(final double beta) {
		final Dataset t = Dataset.of("target", TestData.gaussian(5, 15, 40, 4, 3, 2, 1.5));
		final Dataset b = Dataset.of("background", TestData.gaussian(6, 12, 40, 1, 5, 0.5));
		final Cpca reduced = Cpca.fit(t, b, k(3), Progress.NONE);
		final Cpca full = Cpca.fit(t, b, k(3).withFeatureSpace(true), Progress.NONE);
		assertTrue(reduced.reducedSpace());
		assertFalse(full.reducedSpace());
		final CpcaStar rs = CpcaStar.of(reduced), fs = CpcaStar.of(full);
		assertTrue(rs.backgroundSingular() && fs.backgroundSingular());
		assertEquals(fs.regularization(), rs.regularization(), 1e-12 * fs.regularization());
		final CpcaModel r = rs.model(beta), f = fs.model(beta);
		assertArrayEquals(f.eigenvalues(), r.eigenvalues(), 1e-8 * f.eigenvalues()[0]);
		assertTrue(TestData.maxAngle(f.components(), r.components()) < 1e-6, "angle " +
			TestData.maxAngle(f.components(), r.components()));
		assertArrayEquals(f.targetVariance(), r.targetVariance(), 1e-8 * f
			.targetVariance()[0]);
		assertEquals(f.parameters(), r.parameters());
	}

	/**
	 * Outside span(Q) the generalized eigenvalue is 0: the full d × d problem has the
	 * reduced space's r eigenvalues and d − r zeros.
	 */
	@ParameterizedTest
	@ValueSource(doubles = { 0.4, 1 })
	void directionsOutsideTheDataHaveEigenvalueZero(final double beta) {
		final int d = 30;
		final Dataset t = Dataset.of("target", TestData.gaussian(7, 9, d, 4, 3, 2));
		final Dataset b = Dataset.of("background", TestData.gaussian(8, 8, d, 1, 5));
		final Cpca reduced = Cpca.fit(t, b, k(2), Progress.NONE);
		final int r = reduced.rank();
		assertEquals(15, r); // 8 + 7 centred samples in general position
		final CpcaModel inside = CpcaStar.of(Cpca.fit(t, b, k(r), Progress.NONE)).model(
			beta);
		final CpcaModel all = CpcaStar.of(Cpca.fit(t, b, k(d).withFeatureSpace(true),
			Progress.NONE)).model(beta);
		final double[] lambda = all.eigenvalues();
		final double top = lambda[0];
		// the target has rank 8: only 8 directions of span(Q) carry target variance
		for (int c = 0; c < r; c++)
			assertEquals(inside.eigenvalues()[c], lambda[c], 1e-8 * top);
		for (int c = 8; c < d; c++)
			assertEquals(0, lambda[c], 1e-9 * top, "eigenvalue " + c);
		assertTrue(all.diagnostics().stream().anyMatch(s -> s.contains("only 8 of 30")), all
			.diagnostics().toString());
	}

	/** Seeded random problems: the generalized eigen-equation and B-orthogonality. */
	@ParameterizedTest
	@ValueSource(ints = { 0, 1, 2, 3, 4, 5 })
	void randomProblemsSatisfyTheGeneralizedEigenEquation(final int trial) {
		final Random random = new Random(100 + trial);
		final int d = 5 + random.nextInt(30);
		final int nt = 10 + random.nextInt(60), nb = 10 + random.nextInt(60);
		final double[] scales = new double[d];
		for (int j = 0; j < d; j++)
			scales[j] = 0.1 + 5 * random.nextDouble();
		final double[][] tx = TestData.rounded(TestData.gaussian(200 + trial, nt, d, scales));
		final double[][] bx = TestData.rounded(TestData.gaussian(300 + trial, nb, d));
		final int k = 1 + random.nextInt(Math.min(4, d));
		final double beta = trial == 5 ? 1 : random.nextDouble();
		final Cpca fit = Cpca.fit(Dataset.of("target", tx), Dataset.of("background", bx), k(
			k), Progress.NONE);
		final CpcaStar star = CpcaStar.of(fit);
		final CpcaModel m = star.model(beta);
		final RealMatrix ct = TestData.covariance(tx), cb = TestData.covariance(bx);
		RealMatrix bb = MatrixUtils.createRealIdentityMatrix(d).scalarMultiply(1 - beta)
			.add(cb.scalarMultiply(beta));
		if (beta == 1) bb = bb.add(MatrixUtils.createRealIdentityMatrix(d).scalarMultiply(star
			.regularization()));
		final double[][] v = m.components();
		final double[] lambda = m.eigenvalues();
		final double scale = ct.getNorm() + lambda[0] * bb.getNorm();
		for (int c = 0; c < k; c++) {
			assertEquals(1, norm(v[c]), 1e-12, "unit length");
			final double[] lhs = ct.operate(v[c]), rhs = bb.operate(v[c]);
			double res = 0;
			for (int j = 0; j < d; j++)
				res += Math.pow(lhs[j] - lambda[c] * rhs[j], 2);
			assertTrue(Math.sqrt(res) < 1e-8 * scale, "residual " + Math.sqrt(res) +
				" of component " + c + " (d = " + d + ", β = " + beta + ")");
			for (int e = 0; e < c; e++) {
				final double cross = dot(v[e], bb.operate(v[c]));
				final double norms = Math.sqrt(dot(v[e], bb.operate(v[e])) * dot(v[c], rhs));
				assertEquals(0, cross / norms, 1e-8, "B-orthogonality of " + e + ", " + c);
			}
		}
		// the top k against a reference: Commons Math on B^{-1/2} C_t B^{-1/2}
		final EigenDecomposition eb = new EigenDecomposition(bb);
		final RealMatrix root = eb.getV().multiply(MatrixUtils.createRealDiagonalMatrix(
			inverseRoots(eb.getRealEigenvalues()))).multiply(eb.getVT());
		final RealMatrix s = root.multiply(ct).multiply(root);
		final double[][] z = TestData.topEigenvectors(s.add(s.transpose()).scalarMultiply(
			0.5), k);
		final double[][] reference = new double[k][];
		for (int c = 0; c < k; c++)
			reference[c] = root.operate(z[c]);
		assertTrue(TestData.maxAngle(reference, v) < 1e-6, "angle " + TestData.maxAngle(
			reference, v));
		// the sweep's eigenbasis solver gives the same subspace
		final CpcaStar.Solution sweep = star.sweep(beta, null);
		final double[][] sv = fit.space().components(sweep.w, k);
		assertTrue(TestData.maxAngle(sv, v) < 1e-6);
		assertArrayEquals(lambda, sweep.values, 1e-8 * lambda[0]);
	}

	/**
	 * β within round-off of 1 on a singular, large-scale background: B_β is mathematically
	 * positive definite but its factorisation may fail; the solve then raises the diagonal
	 * by the round-off level and records it. Either way the result is finite and solves
	 * the generalized problem to the accuracy of that shift.
	 */
	@ParameterizedTest
	@ValueSource(ints = { 10, 80 })
	void betaWithinRoundOffOfOneIsStillSolved(final int d) {
		final double[] scales = new double[d];
		java.util.Arrays.fill(scales, 300);
		final Dataset t = Dataset.of("target", TestData.gaussian(13, 3 * d, d, scales));
		final Dataset b = Dataset.of("background", TestData.gaussian(14, 5, d, scales));
		final Cpca fit = Cpca.fit(t, b, k(2).withFeatureSpace(true), Progress.NONE);
		final CpcaStar star = CpcaStar.of(fit);
		final double beta = Math.nextDown(1.0);
		for (final CpcaStar.Solution s : new CpcaStar.Solution[] { star.solve(beta), star
			.sweep(beta, null) })
		{
			for (final double v : s.values)
				assertTrue(Double.isFinite(v) && v > 0, java.util.Arrays.toString(s.values));
			for (final double v : s.w)
				assertTrue(Double.isFinite(v));
			for (final String note : s.notes)
				assertTrue(note.contains("raised by"), note);
		}
		// here the dense factorisation does fail: the shift path is exercised
		assertEquals(1, star.solve(beta).notes.size());
		// the top direction lies in the background's null space, as at β = 1 (which one
		// inside it is decided by round-off here, unlike cPCA++'s regularised solve)
		final CpcaModel near = star.model(beta);
		assertEquals(0, near.backgroundVariance()[0], 1e-6 * near.targetVariance()[0]);
	}

	@Test
	void invalidBetaIsRejectedWithAClearMessage() {
		final Cpca fit = Cpca.fit(Dataset.of("target", TestData.gaussian(9, 20, 4, 2)),
			Dataset.of("background", TestData.gaussian(10, 20, 4)), k(2), Progress.NONE);
		final CpcaStar star = CpcaStar.of(fit);
		for (final double beta : new double[] { -0.1, 1.5, Double.NaN,
			Double.POSITIVE_INFINITY })
		{
			final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
				() -> star.model(beta));
			assertTrue(e.getMessage().contains("β must be in [0, 1]"), e.getMessage());
		}
		assertThrows(IllegalArgumentException.class, () -> star.withRegularization(0));
		assertThrows(IllegalArgumentException.class, () -> star.withBetasReturned(1));
		assertThrows(IllegalArgumentException.class, () -> star.withBetaGrid(0, 0, 1));
		// one background exactly
		final Cpca pcaOnly = Cpca.fit(Dataset.of("target", TestData.gaussian(9, 20, 4, 2)),
			(Dataset) null, k(2), Progress.NONE);
		assertTrue(assertThrows(IllegalArgumentException.class, () -> CpcaStar.of(pcaOnly))
			.getMessage().contains("cPCA* takes one background"));
		assertTrue(assertThrows(IllegalArgumentException.class, () -> CpcaPlusPlus.of(
			pcaOnly)).getMessage().contains("cPCA++ takes one background"));
	}

	@Test
	void constantBackgroundIsPcaBelowOneAndRejectedAtOne() {
		final double[][] flat = new double[10][4];
		final Cpca fit = Cpca.fit(Dataset.of("target", TestData.gaussian(11, 20, 4, 3, 2)),
			Dataset.of("background", flat), k(2), Progress.NONE);
		final CpcaModel half = CpcaStar.of(fit).model(0.5);
		assertTrue(TestData.maxAngle(fit.pca().components(), half.components()) < 1e-7);
		final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
			() -> CpcaPlusPlus.of(fit).model());
		assertTrue(e.getMessage().contains("does not vary"), e.getMessage());
	}

	/**
	 * Two classes separated along a quiet direction (e1) under loud shared noise (e2, e3):
	 * PCA (β = 0) mixes them, β towards 1 separates them; the automatic β returns β = 0
	 * and contrastive values, and the separation curve covers the grid.
	 */
	@Test
	void automaticBetaAndTheSeparationCurve() {
		final Random random = new Random(12);
		final int nt = 200, nb = 200, d = 6;
		final double[][] tx = new double[nt][d], bx = new double[nb][d];
		final List<String> labels = new ArrayList<>();
		for (int i = 0; i < nt; i++) {
			final boolean one = i % 2 == 0;
			labels.add(one ? "a" : "b");
			tx[i][0] = (one ? 1 : -1) + 0.2 * random.nextGaussian();
			tx[i][1] = 6 * random.nextGaussian();
			tx[i][2] = 5 * random.nextGaussian();
			for (int j = 3; j < d; j++)
				tx[i][j] = 0.5 * random.nextGaussian();
		}
		for (int i = 0; i < nb; i++) {
			bx[i][0] = 0.2 * random.nextGaussian();
			bx[i][1] = 6 * random.nextGaussian();
			bx[i][2] = 5 * random.nextGaussian();
			for (int j = 3; j < d; j++)
				bx[i][j] = 0.5 * random.nextGaussian();
		}
		final Cpca fit = Cpca.fit(Dataset.of("target", tx).withLabels(labels), Dataset.of(
			"background", bx), k(2), Progress.NONE);
		final CpcaStar star = CpcaStar.of(fit).withBetaGrid(20, -2, 4);
		final double[] grid = star.betaGrid();
		assertEquals(22, grid.length);
		assertEquals(0, grid[0]);
		assertEquals(1, grid[21]);
		for (int i = 1; i < grid.length; i++)
			assertTrue(grid[i] > grid[i - 1]);
		final BetaSelection selection = star.automatic(Progress.NONE);
		assertArrayEquals(grid, selection.grid());
		final double[] betas = selection.betas();
		assertEquals(0, betas[0]);
		assertTrue(betas.length >= 2 && betas.length <= 4, java.util.Arrays.toString(betas));
		for (int i = 1; i < betas.length; i++)
			assertTrue(betas[i] > betas[i - 1]);
		// each returned model is cPCA* at its β
		for (int i = 0; i < betas.length; i++) {
			final CpcaModel chosen = selection.models().get(i);
			assertEquals("star", chosen.method());
			assertTrue(TestData.maxAngle(star.model(betas[i]).components(), chosen
				.components()) < 1e-6);
		}
		final List<Map<String, Double>> curve = selection.separation(labels);
		assertEquals(grid.length, curve.size());
		assertTrue(curve.get(0).get("lda_accuracy") < 0.75, curve.get(0).toString());
		assertTrue(curve.get(grid.length - 1).get("lda_accuracy") > 0.95);
		assertTrue(curve.get(grid.length - 1).get("symmetrized_kl") > 10 * curve.get(0).get(
			"symmetrized_kl"));
		// a contrastive β was chosen and it separates
		final CpcaModel best = selection.models().get(betas.length - 1);
		assertTrue(Measures.ldaAccuracy(best.targetScores(), labels) > 0.95);
		// deterministic
		assertArrayEquals(betas, star.automatic(Progress.NONE).betas());
	}

	private static double[] inverseRoots(final double[] values) {
		final double[] out = new double[values.length];
		for (int i = 0; i < out.length; i++)
			out[i] = 1 / Math.sqrt(values[i]);
		return out;
	}

	private static double[] unit(final double[] v) {
		final double n = norm(v);
		final double[] out = new double[v.length];
		for (int i = 0; i < v.length; i++)
			out[i] = v[i] / n;
		return out;
	}

	private static double norm(final double[] v) {
		return Math.sqrt(dot(v, v));
	}

	private static double dot(final double[] a, final double[] b) {
		double s = 0;
		for (int i = 0; i < a.length; i++)
			s += a[i] * b[i];
		return s;
	}
}
