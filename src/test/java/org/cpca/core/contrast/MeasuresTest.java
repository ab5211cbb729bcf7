package org.cpca.core.contrast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

class MeasuresTest {

	/** n points per class, 2-D Gaussian with unit variance, class means 0 and (shift, 0). */
	private static double[][] twoClasses(final long seed, final int n, final double shift,
		final List<String> labels)
	{
		final Random r = new Random(seed);
		final double[][] x = new double[2 * n][];
		for (int i = 0; i < 2 * n; i++) {
			final boolean second = i >= n;
			x[i] = new double[] { r.nextGaussian() + (second ? shift : 0), r.nextGaussian() };
			labels.add(second ? "b" : "a");
		}
		return x;
	}

	@Test
	void farApartClassesAreSeparatedByEveryMeasure() {
		final List<String> labels = new ArrayList<>();
		final double[][] x = twoClasses(1, 200, 40, labels);
		assertEquals(1, Measures.ldaAccuracy(x, labels), 0);
		assertEquals(1, Measures.nearestNeighbourAccuracy(x, labels), 0);
		assertTrue(Measures.silhouette(x, labels) > 0.9);
		// symmetrised KL of N(0, I) and N((μ, 0), I) is μ² (here μ = 40, up to sampling)
		assertEquals(1600, Measures.symmetrizedKl(x, labels), 160);
	}

	@Test
	void identicalDistributionsAreNotSeparated() {
		final List<String> labels = new ArrayList<>();
		final double[][] x = twoClasses(2, 2000, 0, labels);
		assertEquals(0.5, Measures.ldaAccuracy(x, labels), 0.05);
		assertEquals(0.5, Measures.nearestNeighbourAccuracy(x, labels), 0.05);
		assertEquals(0, Measures.silhouette(x, labels), 0.05);
		assertEquals(0, Measures.symmetrizedKl(x, labels), 0.02);
	}

	@Test
	void klOfKnownGaussiansMatchesClosedForm() {
		// 1-D: N(0, 1) vs N(3, 1): KL each way 4.5, symmetrised 9
		final List<String> labels = new ArrayList<>();
		final Random r = new Random(3);
		final int n = 20000;
		final double[][] x = new double[2 * n][1];
		for (int i = 0; i < 2 * n; i++) {
			x[i][0] = r.nextGaussian() + (i < n ? 0 : 3);
			labels.add(i < n ? "p" : "q");
		}
		assertEquals(9, Measures.symmetrizedKl(x, labels), 0.3);
		// LDA's error for two unit Gaussians 3 apart is Φ(−1.5) ≈ 6.7 %
		assertEquals(1 - 0.0668, Measures.ldaAccuracy(x, labels), 0.01);
	}

	@Test
	void measuresDoNotDependOnSampleOrder() {
		final List<String> labels = new ArrayList<>();
		final double[][] x = twoClasses(4, 60, 2, labels);
		final List<Integer> order = new ArrayList<>();
		for (int i = 0; i < x.length; i++)
			order.add(i);
		Collections.shuffle(order, new Random(5));
		final double[][] y = new double[x.length][];
		final List<String> l = new ArrayList<>();
		for (int i = 0; i < x.length; i++) {
			y[i] = x[order.get(i)];
			l.add(labels.get(order.get(i)));
		}
		assertEquals(Measures.ldaAccuracy(x, labels), Measures.ldaAccuracy(y, l), 1e-12);
		assertEquals(Measures.silhouette(x, labels), Measures.silhouette(y, l), 1e-12);
		assertEquals(Measures.symmetrizedKl(x, labels), Measures.symmetrizedKl(y, l), 1e-9);
	}

	@Test
	void principalAnglesAndAlignmentOfKnownSubspaces() {
		final double t = 0.3;
		final double[][] a = { { 1, 0, 0 }, { 0, 1, 0 } };
		final double[][] b = { { 2, 0, 0 }, { 0, Math.cos(t), Math.sin(t) } };
		assertArrayEquals(new double[] { 0, t }, Measures.principalAngles(a, b), 1e-12);
		assertEquals((1 + Math.cos(t) * Math.cos(t)) / 2, Measures.projectorAlignment(a, b),
			1e-12);
		assertEquals(1, Measures.projectorAlignment(a, a), 1e-12);
		final double[][] c = { { 0, 0, 1 } };
		assertEquals(Math.PI / 2, Measures.principalAngles(a, c)[0], 1e-12);
		// a basis of the same plane gives zero angles
		final double[][] rotated = { { 1, 1, 0 }, { 1, -1, 0 } };
		assertArrayEquals(new double[] { 0, 0 }, Measures.principalAngles(a, rotated), 1e-7);
	}

	@Test
	void missingLabelsAreRejected() {
		assertThrows(IllegalArgumentException.class, () -> Measures.ldaAccuracy(
			new double[][] { { 1 }, { 2 } }, null));
	}

	/** A hand-solved case: 1-D points 0, 1 (class a) and 3, 4 (class b). */
	@Test
	void pairwiseMeasuresOnPaper() {
		final double[][] x = { { 0 }, { 1 }, { 3 }, { 4 } };
		final List<String> labels = List.of("a", "a", "b", "b");
		// point 0: a = 1, b = (3 + 4)/2 = 3.5, s = 2.5/3.5; point 1: a = 1, b = 2.5, s = 0.6
		// (points 3 and 2 mirror them)
		assertEquals((2.5 / 3.5 + 0.6) / 2, Measures.silhouette(x, labels), 1e-15);
		assertEquals(1, Measures.nearestNeighbourAccuracy(x, labels), 0);
		// class b's first point moved to 0.4: 0 and 1 are nearest to it, it is nearest to
		// 0, and 4 is nearest to 1 — every nearest neighbour is of the other class
		final double[][] y = { { 0 }, { 1 }, { 0.4 }, { 4 } };
		assertEquals(0, Measures.nearestNeighbourAccuracy(y, labels), 0);
		assertEquals(Measures.silhouette(x, labels), Measures.separation(x, labels).get(
			"silhouette"), 0);
	}

	/** The fused, parallel pass equals the textbook double loops on 3 classes in 3-D. */
	@Test
	void pairwiseMeasuresEqualTheTextbookLoops() {
		final Random r = new Random(7);
		final int n = 301;
		final double[][] x = new double[n][3];
		final List<String> labels = new ArrayList<>();
		for (int i = 0; i < n; i++) {
			final int c = r.nextInt(3);
			labels.add("c" + c);
			for (int a = 0; a < 3; a++)
				x[i][a] = r.nextGaussian() + (a == c ? 1.5 : 0);
		}
		double silhouette = 0;
		int correct = 0;
		for (int i = 0; i < n; i++) {
			final java.util.Map<String, double[]> sums = new java.util.TreeMap<>();
			int best = -1;
			double bestD = Double.POSITIVE_INFINITY;
			for (int j = 0; j < n; j++) {
				if (j == i) continue;
				double d = 0;
				for (int a = 0; a < 3; a++)
					d += (x[i][a] - x[j][a]) * (x[i][a] - x[j][a]);
				final double[] s = sums.computeIfAbsent(labels.get(j), k -> new double[2]);
				s[0] += Math.sqrt(d);
				s[1]++;
				if (d < bestD) {
					bestD = d;
					best = j;
				}
			}
			if (labels.get(best).equals(labels.get(i))) correct++;
			double a = 0, b = Double.POSITIVE_INFINITY;
			for (final java.util.Map.Entry<String, double[]> e : sums.entrySet())
				if (e.getKey().equals(labels.get(i))) a = e.getValue()[0] / e.getValue()[1];
				else b = Math.min(b, e.getValue()[0] / e.getValue()[1]);
			silhouette += (b - a) / Math.max(a, b);
		}
		assertEquals(silhouette / n, Measures.silhouette(x, labels), 1e-12);
		assertEquals((double) correct / n, Measures.nearestNeighbourAccuracy(x, labels), 0);
	}
}
