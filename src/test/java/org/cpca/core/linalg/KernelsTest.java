package org.cpca.core.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * The vector kernels equal the scalar ones to the last bit (docs/speed.md), on and above
 * the diagonal of the symmetric updates and everywhere in block products: every size
 * that exercises a tile edge (full 4 × 3-vector tiles, 4 × 1-vector tiles, single rows,
 * padded edge tiles), on random data with exact zeros mixed in, into accumulators that
 * already hold values. Also: the build runs its tests with the vector
 * kernels, so that the path the launcher takes is the one every other test checks.
 */
class KernelsTest {

	private static final int[] SIZES = { 1, 3, 4, 5, 7, 8, 9, 23, 24, 25, 47, 48, 49, 50, 97,
		131 };

	/** The vector kernels themselves, whatever cpca.kernels says (needs the module). */
	private static Kernels vector() {
		assumeTrue(ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent(),
			"no Vector API module in this JVM");
		final Kernels k = Kernels.vectorKernels();
		assumeTrue(k != null, "no vector kernels for this JVM or CPU");
		return k;
	}

	@Test
	void theTestsRunWithTheVectorKernelsOnceWarm() throws InterruptedException {
		// surefire passes --add-modules jdk.incubator.vector (pom.xml); .ci/run's second
		// pass sets cpca.kernels=scalar to run everything once more on the scalar path
		if ("scalar".equals(System.getProperty("cpca.kernels"))) {
			assertTrue(Products.KERNELS instanceof ScalarKernels);
			return;
		}
		// a build on JDK 11–16 compiles no vector kernels and runs its tests without the
		// module (pom.xml's vector-kernels profile)
		assumeTrue(ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent(),
			"no Vector API module in this JVM");
		assertTrue(Products.KERNELS instanceof WarmingKernels, Products.KERNELS.toString());
		assumeTrue(Kernels.vectorKernels() != null, "no vector kernels for this JVM or CPU");
		final WarmingKernels k = (WarmingKernels) Products.KERNELS;
		k.warmUpNow();
		for (int i = 0; i < 600 && !k.warm(); i++)
			Thread.sleep(50);
		assertTrue(k.warm(), "the vector kernels did not get warm in 30 s: " + k);
		assertTrue(k.toString().startsWith("vector"), k.toString());
	}

	@Test
	void syrkEqualsScalarBitForBit() {
		final Kernels v = vector(), s = new ScalarKernels();
		final Random random = new Random(11);
		for (final int m : SIZES)
			for (final int count : new int[] { 1, 3, 4, 9, 64 }) {
				final double[][] p = randomRows(random, count, m);
				final double[][] g1 = randomRows(random, m, m), g2 = copy(g1);
				final int i0 = random.nextInt(m), i1 = i0 + 1 + random.nextInt(m - i0);
				s.syrkRows(g1, p, count, i0, i1);
				v.syrkRows(g2, p, count, i0, i1);
				assertSameUpper(g1, g2, "syrk m = " + m + ", count = " + count + ", rows " +
					i0 + "…" + i1);
				// the whole matrix in bands, as Products does
				final double[][] h1 = new double[m][m], h2 = new double[m][m];
				for (int b = 0; b < m; b += 48) {
					s.syrkRows(h1, p, count, b, Math.min(m, b + 48));
					v.syrkRows(h2, p, count, b, Math.min(m, b + 48));
				}
				assertSameUpper(h1, h2, "syrk bands m = " + m + ", count = " + count);
			}
	}

	@Test
	void floatRowsEqualScalarBitForBit() {
		final Kernels v = vector(), s = new ScalarKernels();
		final Random random = new Random(12);
		for (final int n : SIZES)
			for (final int count : new int[] { 1, 5, 64, 70 }) {
				final float[][] p = new float[count][n];
				for (final float[] row : p)
					for (int j = 0; j < n; j++)
						row[j] = random.nextInt(5) == 0 ? 0 : (float) random.nextGaussian();
				final float[][] a1 = new float[n][n], a2 = new float[n][n];
				for (int i = 0; i < n; i++)
					for (int j = 0; j < n; j++)
						a1[i][j] = a2[i][j] = (float) random.nextGaussian();
				final int c0 = random.nextInt(count), c1 = c0 + 1 + random.nextInt(count - c0);
				final int i0 = random.nextInt(n), i1 = i0 + 1 + random.nextInt(n - i0);
				s.floatRows(a1, p, c0, c1, i0, i1);
				v.floatRows(a2, p, c0, c1, i0, i1);
				for (int i = 0; i < n; i++)
					for (int j = i; j < n; j++)
						assertTrue(a1[i][j] == a2[i][j], "float rows n = " + n + " at " + i +
							"," + j + ": " + a1[i][j] + " vs " + a2[i][j]);
			}
	}

	@Test
	void timesEqualsScalarBitForBit() {
		final Kernels v = vector(), s = new ScalarKernels();
		final Random random = new Random(13);
		for (final int p : new int[] { 1, 2, 3, 4, 5, 8, 11, 33 })
			for (final int q : new int[] { 1, 3, 4, 7, 50 })
				for (final int c : SIZES) {
					final double[][] x = randomRows(random, p, q), l = randomRows(random, q, c);
					final double[][] o1 = randomRows(random, p, c), o2 = copy(o1);
					final int v0 = random.nextInt(p), v1 = v0 + 1 + random.nextInt(p - v0);
					final int i0 = random.nextInt(c), i1 = i0 + 1 + random.nextInt(c - i0);
					final int t0 = random.nextInt(q);
					s.timesBlock(x, l, o1, v0, v1, i0, i1, t0, q);
					v.timesBlock(x, l, o2, v0, v1, i0, i1, t0, q);
					assertSame(o1, o2, "times " + p + "×" + q + "·" + q + "×" + c);
				}
	}

	@Test
	void aCovarianceEqualsTheScalarOneAndTheTextbookSum() {
		final Kernels v = vector();
		final Random random = new Random(14);
		final int n = 300, m = 77;
		final double[][] rows = randomRows(random, n, m);
		final double[][] g1 = new double[m][m], g2 = new double[m][m];
		new ScalarKernels().syrkRows(g1, rows, n, 0, m);
		v.syrkRows(g2, rows, n, 0, m);
		assertSameUpper(g1, g2, "covariance");
		for (int i = 0; i < m; i++)
			for (int j = i; j < m; j++) {
				double sum = 0;
				for (int k = 0; k < n; k++)
					sum += rows[k][i] * rows[k][j];
				assertEquals(sum, g2[i][j], 1e-12 * n, "entry " + i + "," + j);
			}
	}

	private static double[][] randomRows(final Random random, final int r,
		final int c)
	{
		final double[][] x = new double[r][c];
		for (final double[] row : x)
			for (int j = 0; j < c; j++)
				row[j] = random.nextInt(5) == 0 ? 0 : random.nextGaussian();
		return x;
	}

	private static double[][] copy(final double[][] x) {
		final double[][] y = new double[x.length][];
		for (int i = 0; i < x.length; i++)
			y[i] = x[i].clone();
		return y;
	}

	/** Equal as numbers on and above the diagonal (below it is workspace: see Kernels). */
	private static void assertSameUpper(final double[][] a, final double[][] b,
		final String what)
	{
		for (int i = 0; i < a.length; i++)
			for (int j = i; j < a[i].length; j++)
				assertTrue(a[i][j] == b[i][j], what + " at " + i + "," + j + ": " + a[i][j] +
					" vs " + b[i][j]);
	}

	/** Equal as numbers in every entry (so +0 and −0 are equal, as they are in use). */
	private static void assertSame(final double[][] a, final double[][] b, final String what) {
		for (int i = 0; i < a.length; i++)
			for (int j = 0; j < a[i].length; j++)
				assertTrue(a[i][j] == b[i][j], what + " at " + i + "," + j + ": " + a[i][j] +
					" vs " + b[i][j]);
	}
}
