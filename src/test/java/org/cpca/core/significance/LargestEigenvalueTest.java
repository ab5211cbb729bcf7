package org.cpca.core.significance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.cpca.core.linalg.SymmetricEigen;
import org.cpca.core.linalg.TopEigen;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

/** Lanczos for the top eigenvalue: alone and in lockstep, against a dense solve; its cap. */
class LargestEigenvalueTest {

	/** A random symmetric m × m matrix with eigenvalues spread over [−scale, scale]. */
	private static double[] symmetric(final SplittableRandom random, final int m,
		final double scale)
	{
		final double[] a = new double[m * m];
		for (int i = 0; i < m; i++)
			for (int j = i; j < m; j++)
				a[i * m + j] = a[j * m + i] = scale * (2 * random.nextDouble() - 1);
		return a;
	}

	private static LargestEigenvalue.Operator operator(final double[] a, final int m) {
		return (v, out) -> {
			for (int i = 0; i < m; i++) {
				double s = 0;
				for (int j = 0; j < m; j++)
					s += a[i * m + j] * v[j];
				out[i] = s;
			}
		};
	}

	@Test
	void lockstepRunsGiveEachProblemsOwnTopBitForBit() {
		final SplittableRandom random = new SplittableRandom(21);
		final int m = 80, count = 5;
		final double[][] a = new double[count][];
		for (int c = 0; c < count; c++)
			a[c] = symmetric(random, m, Math.pow(10, c - 2)); // scales 0.01 … 100
		final double[] start = TopEigen.gaussian(random, m);
		final double[] block = LargestEigenvalue.of((which, n, v, out) -> {
			for (int c = 0; c < n; c++) {
				out[c] = new double[m];
				operator(a[which[c]], m).apply(v[c], out[c]);
			}
		}, count, m, start, 300);
		for (int c = 0; c < count; c++) {
			final double alone = LargestEigenvalue.of(operator(a[c], m), m, start, 300);
			assertEquals(alone, block[c], 0.0, "problem " + c + " in lockstep");
			final double dense = SymmetricEigen.of(a[c], m).value(0);
			// within the residual bound: 1e-10 of the spectrum's scale (≤ scale · m)
			assertEquals(dense, alone, 1e-10 * Math.pow(10, c - 2) * m, "problem " + c +
				" against the dense solve");
		}
	}

	@Test
	void aRunStoppedAtItsCapSaysSoWithNaN() {
		final SplittableRandom random = new SplittableRandom(5);
		final int m = 120;
		final double[] a = symmetric(random, m, 1);
		final double[] start = TopEigen.gaussian(random, m);
		// 6 steps cannot resolve the top of a random 120 × 120 spectrum to 1e-10
		assertTrue(Double.isNaN(LargestEigenvalue.of(operator(a, m), m, start, 6)));
		final double[] block = LargestEigenvalue.of((which, n, v, out) -> {
			for (int c = 0; c < n; c++) {
				out[c] = new double[m];
				operator(a, m).apply(v[c], out[c]);
			}
		}, 2, m, start, 6);
		assertTrue(Double.isNaN(block[0]) && Double.isNaN(block[1]), "both at the cap");
		// with room it converges
		assertEquals(SymmetricEigen.of(a, m).value(0), LargestEigenvalue.of(operator(a, m), m,
			start, 300), 1e-9);
	}
}
