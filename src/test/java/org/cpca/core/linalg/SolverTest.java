package org.cpca.core.linalg;

import org.cpca.core.Progress;
import org.cpca.core.TestData;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.contrast.ReducedSpace;
import org.cpca.core.data.Dataset;
import org.cpca.core.model.CpcaModel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;

import org.apache.commons.math3.linear.EigenDecomposition;
import org.apache.commons.math3.linear.MatrixUtils;
import org.apache.commons.math3.linear.RealMatrix;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Exactness of the own eigen-solvers against Commons Math on seeded random problems. */
class SolverTest {

	/** A covariance-like m × m matrix: spectrum spread over `decades` decades (+ repeats). */
	static double[] spd(final long seed, final int m, final double decades,
		final int repeated)
	{
		final Random r = new Random(seed);
		final double[][] g = new double[m][m];
		for (final double[] row : g)
			for (int j = 0; j < m; j++)
				row[j] = r.nextGaussian();
		final double[][] q = TopEigen.orthonormalize(g, new double[0][], null, m);
		final double[] s = new double[m];
		for (int i = 0; i < m; i++)
			s[i] = Math.pow(10, -decades * i / Math.max(1, m - 1.0));
		for (int i = 0; i < repeated; i++)
			s[m - 1 - i] = s[m - repeated]; // a cluster of equal small eigenvalues
		final double[] out = new double[m * m];
		for (int i = 0; i < m; i++)
			for (int j = 0; j < m; j++) {
				double v = 0;
				for (int c = 0; c < m; c++)
					v += q[c][i] * s[c] * q[c][j];
				out[i * m + j] = v;
			}
		for (int i = 0; i < m; i++)
			for (int j = i + 1; j < m; j++)
				out[j * m + i] = out[i * m + j];
		return out;
	}

	private static RealMatrix matrix(final double[] s, final int m) {
		final RealMatrix x = MatrixUtils.createRealMatrix(m, m);
		for (int i = 0; i < m; i++)
			for (int j = 0; j < m; j++)
				x.setEntry(i, j, s[i * m + j]);
		return x;
	}

	private static double[] sortedDescending(final double[] v) {
		final double[] s = v.clone();
		Arrays.sort(s);
		for (int i = 0; i < s.length / 2; i++) {
			final double t = s[i];
			s[i] = s[s.length - 1 - i];
			s[s.length - 1 - i] = t;
		}
		return s;
	}

	@ParameterizedTest
	@ValueSource(ints = { 1, 2, 3, 17, 150 })
	void fullDecompositionMatchesCommonsMath(final int m) {
		final double[] s = spd(m, m, 6, m / 5);
		final Random r = new Random(m);
		for (int i = 0; i < m; i++) // indefinite: shift some eigenvalues negative
			s[i * m + i] -= 0.3 * r.nextDouble();
		final SymmetricEigen e = SymmetricEigen.of(s, m);
		final double[] ref = sortedDescending(new EigenDecomposition(matrix(s, m))
			.getRealEigenvalues());
		final double norm = Math.max(Math.abs(ref[0]), Math.abs(ref[m - 1]));
		assertArrayEquals(ref, e.values(), 1e-12 * norm);
		final double[] v = e.vectors();
		for (int c = 0; c < m; c++) {
			double res = 0;
			for (int i = 0; i < m; i++) {
				double y = -e.value(c) * v[i * m + c];
				for (int j = 0; j < m; j++)
					y += s[i * m + j] * v[j * m + c];
				res += y * y;
			}
			assertTrue(Math.sqrt(res) <= 1e-13 * norm, "residual " + Math.sqrt(res));
			for (int d = c; d < m; d++) {
				double dot = 0;
				for (int i = 0; i < m; i++)
					dot += v[i * m + c] * v[i * m + d];
				assertEquals(c == d ? 1 : 0, dot, 1e-12);
			}
		}
	}

	@ParameterizedTest
	@ValueSource(doubles = { 0, 0.1, 2, 37, 1000 })
	void contrastSolverMatchesCommonsMathAtAnyAlpha(final double alpha) {
		final int m = 160, k = 4;
		// spread-out background spectrum (8 decades) with a cluster of 20 equal values,
		// target with near-degenerate top eigenvalues
		final double[] b = spd(11, m, 8, 20);
		final double[] a = spd(12, m, 3, 0);
		final double[] a2 = spd(13, m, 1, 0);
		for (int i = 0; i < a.length; i++)
			a[i] = 5 * a[i] + 1e-9 * a2[i];
		final ContrastSolver solver = ContrastSolver.build(a, b, m);
		final TopEigen.Result res = solver.solve(alpha, k, null, 42);
		final double[] c = new double[m * m];
		for (int i = 0; i < c.length; i++)
			c[i] = a[i] - alpha * b[i];
		final EigenDecomposition ref = new EigenDecomposition(matrix(c, m));
		final double[] values = sortedDescending(ref.getRealEigenvalues());
		final double norm = Math.max(Math.abs(values[0]), Math.abs(values[m - 1]));
		assertArrayEquals(Arrays.copyOf(values, k), res.values, 1e-10 * norm);
		for (int col = 0; col < k; col++) {
			double r2 = 0, len = 0;
			for (int i = 0; i < m; i++) {
				double y = -res.values[col] * res.vectors[i * k + col];
				for (int j = 0; j < m; j++)
					y += c[i * m + j] * res.vectors[j * k + col];
				r2 += y * y;
				len += res.vectors[i * k + col] * res.vectors[i * k + col];
			}
			assertEquals(1, len, 1e-12);
			// ContrastSolver.TOLERANCE (1e-12) of ‖C‖, and a little for Q's rounding
			assertTrue(Math.sqrt(r2) <= 2e-12 * norm, "α = " + alpha + " residual " + Math
				.sqrt(r2) + " of ‖C‖ = " + norm);
		}
		// deterministic: bit-identical on a second solve and on a second build
		final TopEigen.Result again = ContrastSolver.build(a, b, m).solve(alpha, k, null, 42);
		assertArrayEquals(res.values, again.values, 0);
		assertArrayEquals(res.vectors, again.vectors, 0);
	}

	/**
	 * A background without variance outside its leading block (as kernel cPCA's exact
	 * features give): the blocked preparation (only that block tridiagonalised) solves
	 * A − αB as exactly as the full one, at every α.
	 */
	@ParameterizedTest
	@ValueSource(doubles = { 0, 0.3, 4, 200 })
	void blockedPreparationForABackgroundWithANullBlock(final double alpha) {
		final int m = 170, nb = 90, k = 3;
		final double[] inner = spd(31, nb, 6, 10), a = spd(32, m, 3, 0);
		final double[] b = new double[m * m];
		for (int i = 0; i < nb; i++)
			System.arraycopy(inner, i * nb, b, i * m, nb);
		assertEquals(nb, ContrastSolver.leadingBlock(b, m));
		assertEquals(m, ContrastSolver.leadingBlock(a, m));
		final TopEigen.Result blocked = ContrastSolver.build(a, b, m).solve(alpha, k, null, 5);
		final TopEigen.Result full = ContrastSolver.buildFull(a, b, m).solve(alpha, k, null,
			5);
		final double[] c = new double[m * m];
		for (int i = 0; i < c.length; i++)
			c[i] = a[i] - alpha * b[i];
		final double[] values = sortedDescending(new EigenDecomposition(matrix(c, m))
			.getRealEigenvalues());
		final double norm = Math.max(Math.abs(values[0]), Math.abs(values[m - 1]));
		assertArrayEquals(Arrays.copyOf(values, k), blocked.values, 1e-10 * norm);
		assertArrayEquals(full.values, blocked.values, 1e-10 * norm);
		final double[][] vb = new double[k][m], vf = new double[k][m];
		for (int i = 0; i < m; i++)
			for (int col = 0; col < k; col++) {
				vb[col][i] = blocked.vectors[i * k + col];
				vf[col][i] = full.vectors[i * k + col];
			}
		assertTrue(TestData.maxAngle(vb, vf) < 1e-7);
		// B = 0 entirely: the blocked path with an empty block is PCA of A
		final TopEigen.Result none = ContrastSolver.build(a, new double[m * m], m).solve(
			alpha, k, null, 5);
		assertArrayEquals(Arrays.copyOf(sortedDescending(new EigenDecomposition(matrix(a, m))
			.getRealEigenvalues()), k), none.values, 1e-10);
	}

	/**
	 * The preparation forms M = QᵀAQ band by band in one m × m work array
	 * (docs/memory.md): the same bits as {@code (QᵀA)Q} formed whole, for one band and
	 * for several (the last one short), A symmetric or not.
	 */
	@ParameterizedTest
	@ValueSource(ints = { 120, 601, 1100 })
	void targetInBasisEqualsTheWholeProductsToTheBit(final int m) {
		final Random r = new Random(m);
		final double[] b = new double[m * m], symmetric = new double[m * m],
			general = new double[m * m];
		for (int i = 0; i < m; i++)
			for (int j = 0; j <= i; j++) {
				b[i * m + j] = b[j * m + i] = r.nextGaussian();
				symmetric[i * m + j] = symmetric[j * m + i] = r.nextGaussian();
				general[i * m + j] = r.nextGaussian();
				general[j * m + i] = r.nextGaussian();
			}
		// 1,100 rows: two bands, the last one short
		assertTrue(m <= 1024 ? ContrastSolver.band(m) == m : m % ContrastSolver.band(m) != 0);
		for (final double[] a : new double[][] { symmetric, general }) {
			final ContrastSolver s = ContrastSolver.buildFull(a, b, m);
			final double[][] qt = s.basisRows(), rows = new double[m][], q = new double[m][m];
			for (int i = 0; i < m; i++) {
				rows[i] = Arrays.copyOfRange(a, i * m, (i + 1) * m);
				for (int j = 0; j < m; j++)
					q[j][i] = qt[i][j];
			}
			final double[][] p = Products.times(qt, rows), whole = new double[m][m];
			Products.multiplyAdd(p, q, whole, 0, m, 0, m, 0, m);
			for (int i = 0; i < m; i++)
				for (int j = i; j < m; j++)
					whole[i][j] = whole[j][i] = 0.5 * (whole[i][j] + whole[j][i]);
			for (int i = 0; i < m; i++)
				assertArrayEquals(whole[i], s.targetInBasis()[i], 0.0, "row " + i);
		}
	}

	@Test
	void pivotedCholeskyWithPriorityRowsFactorsExactly() {
		// G = ZZᵀ for 30 + 40 points in 50 dimensions, the first 30 of rank 12
		final Random r = new Random(7);
		final int n1 = 30, n = 70, d = 50;
		final double[][] z = new double[n][d];
		final double[][] basis = new double[12][d];
		for (final double[] v : basis)
			for (int j = 0; j < d; j++)
				v[j] = r.nextGaussian();
		for (int i = 0; i < n; i++)
			if (i < n1) for (int q = 0; q < 12; q++) {
				final double f = r.nextGaussian() / 2;
				for (int j = 0; j < d; j++)
					z[i][j] += f * basis[q][j];
			}
			else for (int j = 0; j < d; j++)
				z[i][j] = r.nextGaussian();
		final double[] g = new double[n * n];
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n; j++)
				for (int t = 0; t < d; t++)
					g[i * n + j] += z[i][t] * z[j][t];
		final int[] pivots = new int[n];
		final double[][] l = ReducedSpace.pivotedCholesky(g, n, n1, pivots,
			ReducedSpace.RANK_TOLERANCE);
		assertEquals(50, l[0].length); // the rank
		for (int c = 0; c < 12; c++)
			assertTrue(pivots[c] < n1, "column " + c + " pivots on row " + pivots[c]);
		for (int c = 12; c < 50; c++)
			assertTrue(pivots[c] >= n1, "column " + c + " pivots on row " + pivots[c]);
		double max = 0;
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n; j++) {
				double s = 0;
				for (int c = 0; c < l[i].length; c++)
					s += l[i][c] * l[j][c];
				max = Math.max(max, Math.abs(s - g[i * n + j]));
			}
		assertTrue(max < 1e-9 * g[0], "‖LLᵀ − G‖ = " + max);
		for (int i = 0; i < n1; i++)
			for (int c = 12; c < 50; c++)
				assertEquals(0, l[i][c], 1e-6);
		// no priority: the plain factorisation, bit for bit
		final double[][] plain = ReducedSpace.pivotedCholesky(g, n);
		final double[][] zero = ReducedSpace.pivotedCholesky(g, n, 0, null,
			ReducedSpace.RANK_TOLERANCE);
		for (int i = 0; i < n; i++)
			assertArrayEquals(plain[i], zero[i], 0);
	}

	@Test
	void warmStartedSweepAgreesWithColdSolves() {
		final int m = 120, k = 3;
		final double[] b = spd(21, m, 5, 0), a = spd(22, m, 2, 0);
		final ContrastSolver solver = ContrastSolver.build(a, b, m);
		double[][] warm = null;
		for (final double alpha : new double[] { 0, 0.5, 5, 50, 500 }) {
			final TopEigen.Result w = solver.solve(alpha, k, warm, 1);
			final TopEigen.Result cold = solver.solve(alpha, k, null, 1);
			warm = w.warmStart;
			assertArrayEquals(cold.values, w.values, 1e-10 * Math.max(1, alpha));
		}
	}

	/**
	 * model(α) takes the direct path or the prepared solver by a rule that depends only on
	 * the data and α: the same α gives bit-identical models whatever was solved before
	 * (including the automatic sweep, which prepares the solver), and both paths are exact.
	 */
	@Test
	void singleAlphaIsIndependentOfCallOrder() {
		final int d = 90;
		final float[][][] data = TestData.planted(5, 400, 400, d, 20,
			3, 0.3);
		final Dataset t = Dataset.wrap("t", data[0]), b = Dataset.wrap("b", data[1]);
		final CpcaOptions o = CpcaOptions.defaults().withComponents(3);
		final double[] alphas = { 0, 0.5, 3, 60, 800 };
		final Cpca first = Cpca.fit(t, b, o, Progress.NONE);
		final CpcaModel[] before = new CpcaModel[alphas.length];
		for (int i = 0; i < alphas.length; i++)
			before[i] = first.model(alphas[i]);
		final Cpca second = Cpca.fit(t, b, o, Progress.NONE);
		second.automatic(Progress.NONE);
		for (int i = alphas.length - 1; i >= 0; i--) {
			final CpcaModel m = second.model(alphas[i]);
			assertArrayEquals(before[i].eigenvalues(), m.eigenvalues(), 0);
			for (int c = 0; c < 3; c++)
				assertArrayEquals(before[i].components()[c], m.components()[c], 0);
			// exact: each component is an eigenvector of C(α) = C_t − αC_b
			final RealMatrix ct = TestData.covariance(toDouble(data[0])), cb = TestData
				.covariance(toDouble(data[1]));
			final RealMatrix c = ct.subtract(cb.scalarMultiply(alphas[i]));
			final double norm = new EigenDecomposition(c).getRealEigenvalues()[0];
			for (int k = 0; k < 3; k++) {
				final double[] v = m.components()[k];
				final double[] cv = c.operate(v);
				double r2 = 0;
				for (int j = 0; j < d; j++)
					r2 += Math.pow(cv[j] - m.eigenvalues()[k] * v[j], 2);
				assertTrue(Math.sqrt(r2) <= 1e-9 * Math.max(Math.abs(norm), c.getNorm()),
					"α = " + alphas[i] + " residual " + Math.sqrt(r2));
			}
		}
	}

	private static double[][] toDouble(final float[][] x) {
		final double[][] out = new double[x.length][];
		for (int i = 0; i < x.length; i++) {
			out[i] = new double[x[i].length];
			for (int j = 0; j < x[i].length; j++)
				out[i][j] = x[i][j];
		}
		return out;
	}
}
