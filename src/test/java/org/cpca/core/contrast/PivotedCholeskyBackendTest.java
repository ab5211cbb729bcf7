package org.cpca.core.contrast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Arrays;
import java.util.Random;

import org.cpca.core.Progress;
import org.cpca.core.TestData;
import org.cpca.core.data.Dataset;
import org.cpca.core.linalg.Backend;
import org.cpca.core.linalg.Products;
import org.cpca.core.linalg.TopEigen;
import org.cpca.core.model.CpcaModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The pivoted Cholesky factorisation of the reduced space on the native backend (LAPACK's
 * {@code dpstrf}) against the Java one (the vector kernels, or the scalar ones in the
 * second test pass) on hard Gram matrices: duplicated samples (rank below N), clustered
 * and zero eigenvalues, a scale of 10⁻³⁰ and a large mean offset. The factor reproduces G,
 * finds the same rank, is triangular in its pivot order and is the same bits run to run;
 * the fits built on it agree across backends to 10⁻¹⁰ in eigenvalues (relative to the
 * largest) and 10⁻⁸ degrees in subspaces. Skipped where the native backend is not in use.
 */
class PivotedCholeskyBackendTest {

	/** The hard inputs. */
	enum Hard {
		/** 240 samples of which 40 repeat others: rank 200. */
		DUPLICATED,
		/** Two clusters of 30 equal singular values (10 and 10⁻³), 90 zero: rank 60 of 150. */
		CLUSTERED,
		/** DUPLICATED scaled by 10⁻¹⁵ (G by 10⁻³⁰). */
		TINY,
		/** 200 samples 10⁴ away from the origin, not centred: one huge direction. */
		OFFSET
	}

	/** The samples (rows) of a hard case, d = 400 features. */
	private static double[][] samples(final Hard hard) {
		final int d = 400;
		switch (hard) {
			case DUPLICATED:
			case TINY: {
				final double[][] z = gaussian(1, 240, d);
				for (int i = 200; i < 240; i++)
					z[i] = z[(i - 200) * 5].clone();
				if (hard == Hard.TINY) for (final double[] row : z)
					for (int j = 0; j < d; j++)
						row[j] *= 1e-15;
				return z;
			}
			case CLUSTERED: {
				// Z = Σ_c s_c u_c w_cᵀ with orthonormal u_c (length 150) and w_c (length d)
				final double[][] u = TopEigen.orthonormalize(gaussian(2, 60, 150),
					new double[0][], null, 150);
				final double[][] w = TopEigen.orthonormalize(gaussian(3, 60, d),
					new double[0][], null, d);
				final double[][] z = new double[150][d];
				for (int c = 0; c < 60; c++) {
					final double s = c < 30 ? 10 : 1e-3;
					for (int i = 0; i < 150; i++)
						TopEigen.axpy(s * u[c][i], w[c], z[i]);
				}
				return z;
			}
			default: {
				final double[][] z = gaussian(4, 200, d);
				for (final double[] row : z)
					for (int j = 0; j < d; j++)
						row[j] += 1e4;
				return z;
			}
		}
	}

	private static double[][] gaussian(final long seed, final int n, final int d) {
		final Random r = new Random(seed);
		final double[][] x = new double[n][d];
		for (final double[] row : x)
			for (int j = 0; j < d; j++)
				row[j] = r.nextGaussian();
		return x;
	}

	private static final int[] RANKS = { 200, 60, 200, 200 };

	/** G = ZZᵀ, row-major. */
	private static double[] gram(final double[][] z) {
		final int n = z.length;
		final double[] g = new double[n * n];
		for (int i = 0; i < n; i++)
			for (int j = 0; j <= i; j++)
				g[i * n + j] = g[j * n + i] = TopEigen.dot(z[i], z[j]);
		return g;
	}

	private static double maxDiagonal(final double[] g, final int n) {
		double max = 0;
		for (int i = 0; i < n; i++)
			max = Math.max(max, g[i * n + i]);
		return max;
	}

	/**
	 * Checks L against G: the rank, LLᵀ = G (to 10⁻¹³ of the largest diagonal on the
	 * pivoted rows, to 10⁻¹¹ on all, whose residual is the Schur complement left below the
	 * tolerance), L triangular with a positive, non-increasing diagonal in pivot order.
	 */
	private static void assertFactors(final double[] g, final int n, final double[][] l,
		final int[] pivots, final int rank, final String what)
	{
		assertFactors(g, n, l, pivots, rank, 0, what);
	}

	/**
	 * {@link #assertFactors(double[], int, double[][], int[], int, String)} with the
	 * diagonal non-increasing within each stage: the first {@code firstStage} columns
	 * (the priority rows' pivots) and the rest.
	 */
	private static void assertFactors(final double[] g, final int n, final double[][] l,
		final int[] pivots, final int rank, final int firstStage, final String what)
	{
		assertEquals(n, l.length, what);
		final int r = l[0].length;
		assertEquals(rank, r, what + ": rank");
		final double max = maxDiagonal(g, n);
		final boolean[] pivoted = new boolean[n];
		for (int c = 0; c < r; c++) {
			assertTrue(!pivoted[pivots[c]], what + ": pivot " + pivots[c] + " twice");
			pivoted[pivots[c]] = true;
			final double[] row = l[pivots[c]];
			assertTrue(row[c] > 0, what + ": diagonal " + c);
			if (c > 0 && c != firstStage) assertTrue(row[c] <= l[pivots[c - 1]][c - 1] * (1 +
				1e-12), what + ": diagonal " + c + " grows");
			for (int t = c + 1; t < r; t++)
				assertEquals(0.0, row[t], what + ": entry (" + pivots[c] + ", " + t + ")");
		}
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n; j++) {
				final double bound = (pivoted[i] && pivoted[j] ? 1e-13 : 1e-11) * max;
				assertEquals(g[i * n + j], TopEigen.dot(l[i], l[j]), bound, what + ": (" + i +
					", " + j + ")");
			}
	}

	@ParameterizedTest
	@EnumSource(Hard.class)
	void dpstrfFactorsAsTheJavaPathDoes(final Hard hard) {
		assumeTrue(Backend.isNative(), "the native backend is not in use");
		final double[] g = gram(samples(hard));
		final int n = (int) Math.round(Math.sqrt(g.length));
		final int[] nativePivots = new int[n], javaPivots = new int[n];
		final double[][] l = ReducedSpace.pivotedCholesky(g, n, 0, nativePivots,
			ReducedSpace.RANK_TOLERANCE);
		final double[][] java = Backend.onJava(() -> ReducedSpace.pivotedCholesky(g, n, 0,
			javaPivots, ReducedSpace.RANK_TOLERANCE));
		final int rank = RANKS[hard.ordinal()];
		assertFactors(g, n, l, nativePivots, rank, "native");
		assertFactors(g, n, java, javaPivots, rank, "java");
		// the same bits run to run, and from G's rows (which are consumed) as from G flat
		final int[] again = new int[n];
		final double[][] rows = new double[n][];
		for (int i = 0; i < n; i++)
			rows[i] = Arrays.copyOfRange(g, i * n, (i + 1) * n);
		final double[][] fromRows = ReducedSpace.pivotedCholesky(rows, n, 0, again,
			ReducedSpace.RANK_TOLERANCE);
		assertArrayEquals(nativePivots, again);
		final double[][] direct = Products.nativePivotedCholesky(g, null, n, 0,
			ReducedSpace.RANK_TOLERANCE, null);
		for (int i = 0; i < n; i++) {
			assertArrayEquals(direct[i], l[i], 0, "row " + i + ": LAPACK's bits");
			assertArrayEquals(l[i], fromRows[i], 0, "row " + i + " bit for bit");
			assertTrue(rows[i] == null, "row " + i + " of G let go");
		}
	}

	/**
	 * Priority rows (kernel cPCA's exact features: the background first): the first 100
	 * rows are pivoted while one of them is above the tolerance, on both backends; then
	 * the rest. The same ranks of the first rows and of all, the same factorisation.
	 */
	@ParameterizedTest
	@EnumSource(Hard.class)
	void priorityRowsArePivotedFirstOnBothBackends(final Hard hard) {
		assumeTrue(Backend.isNative(), "the native backend is not in use");
		final double[] g = gram(samples(hard));
		final int n = (int) Math.round(Math.sqrt(g.length)), priority = 100;
		final int[] nativePivots = new int[n], javaPivots = new int[n];
		final double[][] l = ReducedSpace.pivotedCholesky(g, n, priority, nativePivots,
			ReducedSpace.RANK_TOLERANCE);
		final double[][] java = Backend.onJava(() -> ReducedSpace.pivotedCholesky(g, n,
			priority, javaPivots, ReducedSpace.RANK_TOLERANCE));
		final int rank = RANKS[hard.ordinal()];
		int first = 0;
		while (first < rank && javaPivots[first] < priority)
			first++;
		for (int c = 0; c < rank; c++)
			assertEquals(c < first, nativePivots[c] < priority, "column " + c + " pivots on " +
				nativePivots[c]);
		assertFactors(g, n, l, nativePivots, rank, first, "native");
		assertFactors(g, n, java, javaPivots, rank, first, "java");
		final double max = maxDiagonal(g, n);
		for (int i = 0; i < priority; i++)
			for (int c = first; c < rank; c++)
				assertTrue(l[i][c] * l[i][c] <= ReducedSpace.RANK_TOLERANCE * max, "row " + i +
					", column " + c + ": " + l[i][c]);
		final double[][] again = ReducedSpace.pivotedCholesky(g, n, priority, null,
			ReducedSpace.RANK_TOLERANCE);
		final double[][] direct = Products.nativePivotedCholesky(g, null, n, priority,
			ReducedSpace.RANK_TOLERANCE, null);
		for (int i = 0; i < n; i++) {
			assertArrayEquals(l[i], again[i], 0, "row " + i + " bit for bit");
			assertArrayEquals(direct[i], l[i], 0, "row " + i + ": LAPACK's bits");
		}
	}

	@Test
	void edgesFactorAsTheJavaPathDoes() {
		assumeTrue(Backend.isNative(), "the native backend is not in use");
		// no samples; one; all equal (G = 0: rank 0); a G with a non-finite diagonal
		final double[][] gs = { {}, { 4 }, new double[9], { 1, 0, 0, Double.NaN } };
		final int[] ranks = { 0, 1, 0, 0 };
		for (int c = 0; c < gs.length; c++) {
			final double[] g = gs[c];
			final int n = (int) Math.round(Math.sqrt(g.length));
			final double[][] l = ReducedSpace.pivotedCholesky(g, n);
			final double[][] java = Backend.onJava(() -> ReducedSpace.pivotedCholesky(g, n));
			assertEquals(n, l.length, "case " + c);
			assertEquals(java.length, l.length, "case " + c);
			for (int i = 0; i < n; i++) {
				assertEquals(ranks[c], l[i].length, "case " + c);
				assertArrayEquals(java[i], l[i], 0, "case " + c);
			}
		}
		assertEquals(2.0, ReducedSpace.pivotedCholesky(gs[1], 1)[0][0]);
	}

	/**
	 * Target and background (float32 datasets, 400 features: the reduced space) of a case:
	 * 30 + 34 samples, so that the reduced problem (r ≤ 62) is solved by the dense
	 * eigensolver, exact to rounding. (From r = 65 the iterative solver answers, whose
	 * residual tolerance of 10⁻¹⁰ allows angles of about 10⁻⁸ degrees; a different pivot
	 * order, which ties and near-ties between the backends' Gram matrices can give, is
	 * another basis of the same space and another path of that solver.)
	 */
	private static Dataset[] data(final Hard hard) {
		final int d = 400;
		// the target's cluster of three (features 0–2) stays on top at every α
		final double[][] t = TestData.gaussian(11, 30, d, 8, 8, 8), b = TestData.gaussian(12,
			34, d, 1, 1, 1, 6, 6, 5);
		if (hard == Hard.CLUSTERED) { // rank 5 + 7 of 64: zero eigenvalues; a cluster of 3
			final double[][] basis = gaussian(13, 13, d);
			final Random r = new Random(14);
			final double[] scales = { 8, 8, 8, 1, 1 };
			for (final double[] row : t) {
				Arrays.fill(row, 3);
				for (int c = 0; c < 5; c++)
					TopEigen.axpy(scales[c] * r.nextGaussian(), basis[c], row);
			}
			for (final double[] row : b) {
				Arrays.fill(row, 3);
				for (int c = 5; c < 13; c++)
					TopEigen.axpy(c == 6 ? 6 : r.nextGaussian(), basis[c], row);
			}
		}
		else { // duplicated samples
			for (int i = 24; i < 30; i++)
				t[i] = t[i - 24].clone();
			for (int i = 26; i < 34; i++)
				b[i] = b[i - 26].clone();
		}
		final double scale = hard == Hard.TINY ? 1e-15 : 1, offset = hard == Hard.OFFSET ? 1e4
			: 0;
		for (final double[][] x : new double[][][] { t, b })
			for (final double[] row : x)
				for (int j = 0; j < d; j++)
					row[j] = row[j] * scale + offset;
		return new Dataset[] { Dataset.of("target", t), Dataset.of("background", b) };
	}

	@ParameterizedTest
	@EnumSource(Hard.class)
	void fitsAgreeAcrossBackends(final Hard hard) {
		assumeTrue(Backend.isNative(), "the native backend is not in use");
		final Dataset[] data = data(hard);
		final CpcaOptions options = CpcaOptions.defaults().withComponents(3);
		final Cpca onNative = Cpca.fit(data[0], data[1], options, Progress.NONE);
		final Cpca again = Cpca.fit(data[0], data[1], options, Progress.NONE);
		final Cpca onJava = Backend.onJava(() -> Cpca.fit(data[0], data[1], options,
			Progress.NONE));
		assertTrue(onNative.reducedSpace());
		assertEquals(onJava.rank(), onNative.rank(), "rank");
		for (final double alpha : new double[] { 0.5, 3 }) {
			final CpcaModel a = onNative.model(alpha), b = Backend.onJava(() -> onJava.model(
				alpha)), c = again.model(alpha);
			double scale = 0;
			for (final double v : b.eigenvalues())
				scale = Math.max(scale, Math.abs(v));
			assertArrayEquals(b.eigenvalues(), a.eigenvalues(), 1e-10 * scale, "α = " + alpha);
			assertEquals(0, Math.toDegrees(TestData.maxAngleBySine(a.components(), b
				.components())), 1e-8, "α = " + alpha + ": largest angle (degrees)");
			assertArrayEquals(a.eigenvalues(), c.eigenvalues(), 0, "run to run");
			for (int k = 0; k < 3; k++)
				assertArrayEquals(a.components()[k], c.components()[k], 0, "run to run");
		}
	}
}
