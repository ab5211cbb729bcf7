package org.cpca.core.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.Random;

import org.cpca.core.Progress;
import org.cpca.core.data.Dataset;
import org.cpca.core.data.Preprocessing;
import org.cpca.core.TestData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The native backend's symmetric sums (covariance, Gram matrix, cross products: dsyrk and
 * dgemm on bands of rows, panels written straight into native memory) against the Java
 * kernels, at sizes with several panels and several bands, so that the first panel's
 * overwrite, the later panels' accumulation and every band edge are crossed.
 */
class NativeSymmetricSumTest {

	private static float[][] floats(final long seed, final int rows, final int cols) {
		final Random r = new Random(seed);
		final float[][] x = new float[rows][cols];
		for (final float[] row : x)
			for (int j = 0; j < cols; j++)
				row[j] = (float) (3 + r.nextGaussian());
		return x;
	}

	private static double[][] doubles(final long seed, final int rows, final int cols) {
		final Random r = new Random(seed);
		final double[][] x = new double[rows][cols];
		for (final double[] row : x)
			for (int j = 0; j < cols; j++)
				row[j] = r.nextGaussian();
		return x;
	}

	/** Largest |a − b| over the largest |b|. */
	private static double relative(final double[] a, final double[] b) {
		double diff = 0, size = 0;
		for (int i = 0; i < a.length; i++) {
			diff = Math.max(diff, Math.abs(a[i] - b[i]));
			size = Math.max(size, Math.abs(b[i]));
		}
		return diff / size;
	}

	@Test
	void bandsCoverTheTriangleInEqualWork() {
		for (final int m : new int[] { 1, 7, 127, 128, 784, 801, 1000, 4000, 46000 }) {
			final int[] edges = NativeBlas.bandEdges(m);
			final int bands = edges.length - 1;
			assertEquals(0, edges[0]);
			assertEquals(m, edges[bands]);
			assertTrue(m < 128 ? bands == 1 : bands % 2 == 0, m + ": " + bands + " bands");
			final double each = 0.5 * m * (m + 1.0) / bands;
			for (int b = 0; b < bands; b++) {
				assertTrue(edges[b + 1] > edges[b], m + ": empty band " + b);
				assertTrue(b == 0 || edges[b] % 8 == 0, m + ": edge " + edges[b]);
				final double h = edges[b + 1] - edges[b], work = h * (m - edges[b]) - h * (h -
					1) / 2;
				// equal up to the rounding of the edges to multiples of 8
				assertTrue(Math.abs(work - each) <= 8.0 * m + 1, m + ": band " + b + " has " +
					work + " of " + each);
			}
		}
	}

	@Test
	void covarianceOverSeveralPanelsAndBands() {
		assumeTrue(Backend.isNative(), "the native backend is not in use");
		// 2,100 samples: three panels of up to 1,024; 850 features: four bands
		final Dataset x = Dataset.wrap("target", floats(1, 2100, 850));
		final Preprocessing pre = Preprocessing.fit(x, true, new ArrayList<>());
		final double[] onNative = Products.covariance(x, pre, Progress.NONE);
		final double[] onJava = Backend.onJava(() -> Products.covariance(x, pre,
			Progress.NONE));
		assertTrue(relative(onNative, onJava) < 1e-13, "relative " + relative(onNative,
			onJava));
		for (int i = 0; i < 850; i++)
			for (int j = 0; j < i; j++)
				assertEquals(onNative[j * 850 + i], onNative[i * 850 + j], 0);
	}

	@ParameterizedTest
	@ValueSource(booleans = { false, true })
	void gramOverSeveralPanelsAndBands(final boolean asRows) {
		assumeTrue(Backend.isNative(), "the native backend is not in use");
		// 300 + 230 samples: two bands; 1,100 features: three panels of up to 512
		final Dataset[] sets = { Dataset.wrap("target", floats(2, 300, 1100)), Dataset.wrap(
			"background", floats(3, 230, 1100)) };
		final Preprocessing[] pres = { Preprocessing.fit(sets[0], false, new ArrayList<>()),
			Preprocessing.fit(sets[1], true, new ArrayList<>()) };
		final double[] onNative = asRows ? TestData.flat(Products.gramRows(sets, pres, Progress.NONE,
			false)) : Products.gram(sets, pres, Progress.NONE, false);
		final double[] onJava = Backend.onJava(() -> Products.gram(sets, pres, Progress.NONE,
			false));
		assertTrue(relative(onNative, onJava) < 1e-13, "relative " + relative(onNative,
			onJava));
	}

	@Test
	void crossProductsAddToTheCallersRowsOnEveryPath() {
		assumeTrue(Backend.isNative(), "the native backend is not in use");
		final int m = 530, count = 1500; // four bands; more rows than one panel
		final double[][] rows = doubles(4, count, m);
		final double[][] start = doubles(5, m, m);
		final double[][] parallel = new double[m][], sequential = new double[m][], java =
			new double[m][];
		for (int i = 0; i < m; i++) {
			parallel[i] = start[i].clone();
			sequential[i] = start[i].clone();
			java[i] = start[i].clone();
		}
		Products.addCrossProduct(parallel, rows, count);
		Products.addCrossProductSequential(sequential, rows, count);
		Backend.onJava(() -> {
			Products.addCrossProduct(java, rows, count);
			return null;
		});
		final double[] product = Products.crossProduct(rows, m, 1.0);
		for (int i = 0; i < m; i++)
			for (int j = 0; j < m; j++) {
				// the same bits on all cores and in the calling thread; the lower part untouched
				assertEquals(parallel[i][j], sequential[i][j], 0, i + ", " + j);
				if (j < i) assertEquals(start[i][j], parallel[i][j], 0, i + ", " + j);
				else {
					assertEquals(java[i][j], parallel[i][j], 1e-12 * count, i + ", " + j);
					assertEquals(start[i][j] + product[i * m + j], parallel[i][j], 1e-12 * count);
				}
			}
		// no rows: nothing added, and an empty product is zero
		Products.addCrossProduct(parallel, rows, 0);
		assertEquals(sequential[3][7], parallel[3][7], 0);
		final double[] none = Products.crossProduct(new double[0][], 9, 1.0);
		for (final double v : none)
			assertEquals(0, v, 0);
	}
}
