package org.cpca.core.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

/**
 * {@link SymmetricEigen#values} (all eigenvalues, no vectors: the scree plot's spectrum)
 * on spectra known on paper ({@code U diag(s) Uᵀ}, {@link HardSpectraTest#compose}):
 * clustered, repeated and zero eigenvalues, negative ones, tiny and huge units. On the
 * Java kernels the values are {@link SymmetricEigen#of}'s to the bit (same reduction and
 * QL); on the native backend (LAPACK's {@code dsyevd} without vectors) they agree with
 * the decomposition with vectors and with the paper values to rounding.
 */
class EigenvaluesOnlyTest {

	private static final int M = 300;

	/** Paper spectra: clustered + repeated + zeros + negatives, in no particular order. */
	private static double[] spectrum(final double unit) {
		final double[] s = new double[M];
		for (int i = 0; i < M; i++)
			s[i] = unit * (i < 40 ? 1 + 1e-9 * i : i < 80 ? 0 : i < 100 ? -3.5 : i < 150 ?
				7 : Math.sin(i) * 20);
		return s;
	}

	private static double[] descending(final double[] s) {
		final double[] d = s.clone();
		Arrays.sort(d);
		for (int i = 0, j = d.length - 1; i < j; i++, j--) {
			final double t = d[i];
			d[i] = d[j];
			d[j] = t;
		}
		return d;
	}

	private static void check(final double unit) {
		final double[] paper = spectrum(unit);
		final double[] c = HardSpectraTest.compose(HardSpectraTest.basis(11, M), paper);
		final double[] expected = descending(paper);
		final double scale = 20 * Math.abs(unit);
		// the Java path: SymmetricEigen.of's values to the bit, the paper's to rounding
		final double[] java = Backend.onJava(() -> SymmetricEigen.values(c, M));
		final double[] javaFull = Backend.onJava(() -> SymmetricEigen.of(c, M).values());
		assertArrayEquals(javaFull, java, 0.0, "Java: the values of the full decomposition");
		for (int i = 0; i < M; i++)
			assertEquals(expected[i], java[i], 1e-12 * scale, "Java value " + i);
		// the default backend (native where it loads): the same to rounding
		final double[] any = SymmetricEigen.values(c, M);
		final double[] anyFull = SymmetricEigen.of(c, M).values();
		for (int i = 0; i < M; i++) {
			assertEquals(expected[i], any[i], 1e-12 * scale, "value " + i + " on " + Backend
				.describe());
			assertEquals(anyFull[i], any[i], 1e-12 * scale, "value " + i + " with vectors");
		}
	}

	@Test
	void clusteredRepeatedZeroAndNegativeEigenvalues() {
		check(1);
	}

	@Test
	void tinyAndHugeUnits() {
		check(1e-300); // scaled by a power of two inside, as the full decomposition does
		check(1e300);
		check(-1e-30);
	}

	@Test
	void oneAndTwoByTwo() {
		assertArrayEquals(new double[] { 4 }, SymmetricEigen.values(new double[] { 4 }, 1), 0);
		// [[2, 1], [1, 2]]: 3 and 1
		assertArrayEquals(new double[] { 3, 1 }, SymmetricEigen.values(new double[] { 2, 1, 1,
			2 }, 2), 1e-15);
		assertArrayEquals(new double[] { 3, 1 }, Backend.onJava(() -> SymmetricEigen.values(
			new double[] { 2, 1, 1, 2 }, 2)), 1e-15);
	}
}
