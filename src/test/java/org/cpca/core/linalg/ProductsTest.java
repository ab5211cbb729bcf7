package org.cpca.core.linalg;

import org.cpca.core.Progress;
import org.cpca.core.contrast.ReducedSpace;
import org.cpca.core.data.Dataset;
import org.cpca.core.data.Preprocessing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The fast kernels against naive triple loops on seeded random data. */
class ProductsTest {

	private static double[][] random(final long seed, final int rows, final int cols) {
		final Random r = new Random(seed);
		final double[][] x = new double[rows][cols];
		for (final double[] row : x)
			for (int j = 0; j < cols; j++)
				row[j] = r.nextGaussian();
		return x;
	}

	@ParameterizedTest
	@ValueSource(ints = { 1, 3, 5, 33, 700 })
	void timesMatchesNaiveProduct(final int p) {
		final int q = 517, c = p == 700 ? 601 : 1030; // odd sizes: remainders everywhere
		final double[][] x = random(p, p, q), l = random(p + 1, q, c);
		x[0][3] = x[0][2] = x[0][1] = x[0][0] = 0; // exercise the zero-skip
		final double[][] out = Products.times(x, l);
		for (int v = 0; v < p; v++)
			for (int i = 0; i < c; i++) {
				double ref = 0, mag = 0;
				for (int t = 0; t < q; t++) {
					ref += x[v][t] * l[t][i];
					mag += Math.abs(x[v][t] * l[t][i]);
				}
				assertEquals(ref, out[v][i], 1e-14 * mag);
			}
		// deterministic
		final double[][] again = Products.times(x, l);
		for (int v = 0; v < p; v++)
			assertArrayEquals(out[v], again[v], 0);
	}

	/**
	 * The symmetric rank-k update against a naive sum, at sizes that leave remainders in
	 * every blocking (row pairs, groups of four panel rows, column tiles of 256, row blocks
	 * of 48), with zero entries that the kernel skips: one whole pair, and one row of a pair.
	 */
	@ParameterizedTest
	@ValueSource(ints = { 1, 2, 5, 49, 97, 300, 611 })
	void crossProductMatchesNaiveSum(final int m) {
		final int count = m == 611 ? 259 : 23;
		final double[][] rows = random(m + 7, count, m);
		for (final double[] row : rows) {
			row[0] = 0;
			if (m > 2) row[1] = 0;
			if (m > 4) row[4] = 0;
		}
		final double[] g = Products.crossProduct(rows, m, 0.5);
		for (int i = 0; i < m; i++)
			for (int j = 0; j < m; j++) {
				double ref = 0, mag = 0;
				for (final double[] row : rows) {
					ref += row[i] * row[j];
					mag += Math.abs(row[i] * row[j]);
				}
				assertEquals(0.5 * ref, g[i * m + j], 1e-14 * mag, "entry " + i + ", " + j);
			}
		// the same panel added again in two parts gives the same upper triangle
		final double[][] upper = new double[m][m];
		Products.addCrossProduct(upper, rows, count);
		final double[] twice = Products.crossProduct(rows, m, 1.0);
		for (int i = 0; i < m; i++)
			for (int j = i; j < m; j++)
				assertEquals(twice[i * m + j], upper[i][j], 0);
	}

	/** Block products where one row of a pair of x is zero on a group of four terms. */
	/**
	 * S flat, its rows copied a band at a time for several blocks (docs/memory.md): the
	 * same bits as the product of each block with all of S's rows, for a thin block (the
	 * Java kernels, over one band and several, the last one short), a block of tiled rows,
	 * and one wide enough for the native dgemm where it runs.
	 */
	@ParameterizedTest
	@ValueSource(ints = { 2, 9, 40 })
	void symmetricTimesFlatEqualsTheProductWithAllRows(final int k) {
		for (final int m : new int[] { 100, 700 }) {
			final Random r = new Random(31L * m + k);
			final double[] s = new double[m * m];
			final double[][] rows = new double[m][m], block = new double[k][m];
			for (int i = 0; i < m; i++)
				for (int j = 0; j <= i; j++)
					s[i * m + j] = s[j * m + i] = rows[i][j] = rows[j][i] = r.nextGaussian();
			for (final double[] b : block)
				for (int j = 0; j < m; j++)
					b[j] = r.nextInt(5) == 0 ? 0 : r.nextGaussian();
			final double[][] expected = Products.symmetricTimesRows(rows, block),
				half = Products.symmetricTimesRows(rows, Arrays.copyOf(block, 1));
			final double[][][] actual = Products.symmetricTimesFlat(s, m, new double[][][] {
				block, Arrays.copyOf(block, 1) });
			for (int c = 0; c < k; c++)
				assertArrayEquals(expected[c], actual[0][c], 0.0, "m = " + m + ", vector " + c);
			assertArrayEquals(half[0], actual[1][0], 0.0, "m = " + m + ", one vector");
		}
	}

	@Test
	void timesSkipsZeroRowsOfAPair() {
		final double[][] x = random(11, 6, 9), l = random(12, 9, 300);
		for (int t = 0; t < 4; t++) {
			x[0][t] = x[1][t] = 0; // the whole first pair, first group
			x[2][t] = 0; // the first row of the second pair
			x[5][4 + t] = 0; // the second row of the third pair, second group
		}
		final double[][] out = Products.times(x, l);
		for (int v = 0; v < 6; v++)
			for (int i = 0; i < 300; i++) {
				double ref = 0, mag = 0;
				for (int t = 0; t < 9; t++) {
					ref += x[v][t] * l[t][i];
					mag += Math.abs(x[v][t] * l[t][i]);
				}
				assertEquals(ref, out[v][i], 1e-14 * mag);
			}
	}

	@ParameterizedTest
	@ValueSource(ints = { 1, 2, 7, 64, 600 })
	void choleskyFactorsAndSolves(final int m) {
		final double[] s = SolverTest.spd(m + 5, m, 4, 0);
		final double[][] rows = new double[m][m];
		for (int i = 0; i < m; i++)
			System.arraycopy(s, i * m, rows[i], 0, m);
		final double[][] r = Products.cholesky(rows);
		for (int i = 0; i < m; i++)
			for (int j = 0; j < m; j++) {
				if (j < i) assertEquals(0, r[i][j], 0);
				double v = 0;
				for (int t = 0; t <= Math.min(i, j); t++)
					v += r[t][i] * r[t][j];
				assertEquals(s[i * m + j], v, 1e-13);
			}
		final int k = 3;
		final double[] w = new double[m * k];
		final Random rnd = new Random(m);
		for (int i = 0; i < w.length; i++)
			w[i] = rnd.nextGaussian();
		final double[] c = Products.choleskySolve(r, w, k);
		// residual of S c = w, relative to ‖S‖‖c‖ (condition number up to 1e4)
		for (int col = 0; col < k; col++) {
			double cn = 0;
			for (int i = 0; i < m; i++)
				cn = Math.max(cn, Math.abs(c[i * k + col]));
			for (int i = 0; i < m; i++) {
				double y = 0;
				for (int j = 0; j < m; j++)
					y += s[i * m + j] * c[j * k + col];
				assertEquals(w[i * k + col], y, 1e-12 * Math.max(1, cn));
			}
		}
	}

	@Test
	void floatGramIsWithinItsStatedError() {
		// the float path of large image problems against the double path on the same
		// centred data (offset 100, so the centring itself is rounded in float): each
		// entry within 2 roundings of the values plus a 64-term float block sum, i.e.
		// 70·2⁻²⁴ of Σ|z_is z_js| ≤ √(G_ii G_jj) (Cauchy–Schwarz). 313 blocks of 64
		// features: summing the block sums in plain float would show (~13·2⁻²⁴ here)
		final int nt = 70, nb = 50, d = 20011, n = nt + nb;
		final Dataset[] sets = { Dataset.wrap("target", floats(3, nt, d)), Dataset.wrap(
			"background", floats(4, nb, d)) };
		final Preprocessing[] pres = new Preprocessing[2];
		for (int i = 0; i < 2; i++)
			pres[i] = Preprocessing.fit(sets[i], false, new ArrayList<>());
		final double[] exact = Products.gram(sets, pres, Progress.NONE, false);
		final double[] approx = Products.gram(sets, pres, Progress.NONE, true);
		double worst = 0;
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n; j++) {
				final double err = Math.abs(approx[i * n + j] - exact[i * n + j]);
				final double scale = Math.sqrt(exact[i * n + i] * exact[j * n + j]);
				assertTrue(err <= 70 * 0x1p-24 * scale, "G[" + i + "][" + j + "] off by " + err +
					" of " + scale);
				assertEquals(approx[i * n + j], approx[j * n + i], 0, "symmetric");
				worst = Math.max(worst, err / scale);
			}
		// the float path was taken (its rounding shows), and the block sums were added
		// without a float rounding each (measured: 0.37·2⁻²⁴)
		assertTrue(worst > 1e-9 && worst < 4 * 0x1p-24, "worst relative error " + worst);
	}

	@Test
	void gramRowsAreTheGramMatrix() {
		// the rows form (handed to the pivoted Cholesky to overwrite) holds exactly the
		// row-major Gram matrix, in both precisions
		final int nt = 30, nb = 20, d = 1500, n = nt + nb;
		final Dataset[] sets = { Dataset.wrap("target", floats(5, nt, d)), Dataset.wrap(
			"background", floats(6, nb, d)) };
		final Preprocessing[] pres = new Preprocessing[2];
		for (int i = 0; i < 2; i++)
			pres[i] = Preprocessing.fit(sets[i], false, new ArrayList<>());
		for (final boolean inFloat : new boolean[] { false, true }) {
			final double[] flat = Products.gram(sets, pres, Progress.NONE, inFloat);
			final double[][] rows = Products.gramRows(sets, pres, Progress.NONE, inFloat);
			assertEquals(n, rows.length);
			for (int i = 0; i < n; i++)
				for (int j = 0; j < n; j++)
					assertEquals(flat[i * n + j], rows[i][j], 0, "G[" + i + "][" + j + "]");
		}
	}

	private static float[][] floats(final long seed, final int rows, final int cols) {
		final Random r = new Random(seed);
		final float[][] x = new float[rows][cols];
		for (final float[] row : x)
			for (int j = 0; j < cols; j++)
				row[j] = (float) (100 + r.nextGaussian());
		return x;
	}

	@Test
	void pivotedCholeskyReproducesARankDeficientGram() {
		// G = ZZᵀ for 600 samples of rank 350: L (600 × r) with r = 350 and LLᵀ = G
		final int n = 600, rank = 350, d = 900;
		final double[][] basis = random(1, rank, d), coef = random(2, n, rank);
		final double[][] z = Products.times(coef, basis);
		final double[] g = new double[n * n];
		double max = 0;
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n; j++) {
				g[i * n + j] = TopEigen.dot(z[i], z[j]);
				max = Math.max(max, Math.abs(g[i * n + j]));
			}
		final double[][] l = ReducedSpace.pivotedCholesky(g, n);
		assertEquals(rank, l[0].length);
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n; j++)
				assertEquals(g[i * n + j], TopEigen.dot(l[i], l[j]), 1e-11 * max);
		final double[][] again = ReducedSpace.pivotedCholesky(g, n);
		for (int i = 0; i < n; i++)
			assertArrayEquals(l[i], again[i], 0);
	}

	@ParameterizedTest
	@ValueSource(doubles = { 0, 0.3, 2 })
	void directSolveIsExactOrDeclines(final double alpha) {
		final int m = 200, k = 3;
		final double[] b = SolverTest.spd(31, m, 4, 10), a = SolverTest.spd(32, m, 2, 0);
		final TopEigen.Result direct = ContrastSolver.direct(a, b, m, alpha, k, 7, 400);
		assertNotNull(direct, "α = " + alpha);
		final TopEigen.Result ref = ContrastSolver.build(a, b, m).solve(alpha, k, null, 7);
		double norm = 0;
		for (int i = 0; i < m * m; i++)
			norm = Math.max(norm, Math.abs(a[i] - alpha * b[i]));
		norm *= m; // a bound of ‖C‖₂
		assertArrayEquals(ref.values, direct.values, 1e-10 * norm);
		for (int col = 0; col < k; col++) {
			double r2 = 0;
			for (int i = 0; i < m; i++) {
				double y = -direct.values[col] * direct.vectors[i * k + col];
				for (int j = 0; j < m; j++)
					y += (a[i * m + j] - alpha * b[i * m + j]) * direct.vectors[j * k + col];
				r2 += y * y;
			}
			assertTrue(Math.sqrt(r2) <= 1e-10 * norm, "residual " + Math.sqrt(r2));
		}
		final TopEigen.Result again = ContrastSolver.direct(a, b, m, alpha, k, 7, 400);
		assertArrayEquals(direct.vectors, again.vectors, 0);
	}

	@ParameterizedTest
	@ValueSource(ints = { 1, 5, 33, 130 })
	void forwardAndBackSubstitutionSolveTheTriangularSystems(final int m) {
		final double[] s = SolverTest.spd(m + 11, m, 4, 0);
		final double[][] rows = new double[m][m];
		for (int i = 0; i < m; i++)
			System.arraycopy(s, i * m, rows[i], 0, m);
		final double[][] r = Products.cholesky(rows);
		final double[][] x = random(m + 12, m, m), y = new double[m][];
		for (int i = 0; i < m; i++)
			y[i] = x[i].clone();
		Products.forwardSolveRows(r, y, false);
		// Rᵀ Y = X
		for (int i = 0; i < m; i++)
			for (int j = 0; j < m; j++) {
				double v = 0, mag = 0;
				for (int t = 0; t <= i; t++) {
					v += r[t][i] * y[t][j];
					mag += Math.abs(r[t][i] * y[t][j]);
				}
				assertEquals(x[i][j], v, 1e-12 * Math.max(1, mag));
			}
		// the upper-triangle variant computes exactly the same upper triangle
		final double[][] u = new double[m][];
		for (int i = 0; i < m; i++)
			u[i] = x[i].clone();
		Products.forwardSolveRows(r, u, true);
		for (int i = 0; i < m; i++)
			for (int j = i; j < m; j++)
				assertEquals(y[i][j], u[i][j], 0);
		// R c = w for three columns
		final double[][] x3 = random(m + 13, m, 3);
		final double[] w = new double[m * 3];
		for (int i = 0; i < w.length; i++)
			w[i] = x3[i / 3][i % 3];
		final double[] c = Products.backSolve(r, w, 3);
		for (int i = 0; i < m; i++)
			for (int col = 0; col < 3; col++) {
				double v = 0, mag = 0;
				for (int j = i; j < m; j++) {
					v += r[i][j] * c[j * 3 + col];
					mag += Math.abs(r[i][j] * c[j * 3 + col]);
				}
				assertEquals(w[i * 3 + col], v, 1e-12 * Math.max(1, mag));
			}
	}
}
