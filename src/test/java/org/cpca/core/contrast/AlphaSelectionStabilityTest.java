package org.cpca.core.contrast;

import org.cpca.core.selection.SpectralChoice;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.cpca.core.linalg.SymmetricEigen;

import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * docs/math/cpca.md: the clustering of the α grid is stable. A seeded chain of 41
 * grid values (positions drawn around four loose, unequal groups, Gaussian affinity) has a
 * best 4-partition of its spectral embedding that is found by exhaustive search over the
 * contiguous partitions (the embedding of a chain is a curve: k-means' optimum on it is
 * contiguous); every seed must return the α set of that partition.
 */
public class AlphaSelectionStabilityTest {

	private static double[][] chain(final long seed) {
		final Random r = new Random(seed);
		final int g = 41;
		final double[] x = new double[g];
		for (int i = 0; i < g; i++)
			x[i] = i + 0.8 * r.nextGaussian();
		java.util.Arrays.sort(x);
		final double[][] a = new double[g][g];
		for (int i = 0; i < g; i++)
			for (int j = 0; j < g; j++)
				a[i][j] = Math.exp(-(x[i] - x[j]) * (x[i] - x[j]) / (2 * 16.0));
		return a;
	}

	/** The spectral embedding of the choice (rows of the top-c eigenvectors, unit rows). */
	private static double[][] embedding(final double[][] a, final int c) {
		final int g = a.length;
		final double[] deg = new double[g];
		for (int i = 0; i < g; i++)
			for (int j = 0; j < g; j++)
				deg[i] += a[i][j];
		final double[] n = new double[g * g];
		for (int i = 0; i < g; i++)
			for (int j = 0; j < g; j++)
				n[i * g + j] = a[i][j] / Math.sqrt(deg[i] * deg[j]);
		final double[] v = SymmetricEigen.of(n, g).vectors(c);
		final double[][] p = new double[g][c];
		for (int i = 0; i < g; i++) {
			double len = 0;
			for (int t = 0; t < c; t++)
				len += v[i * c + t] * v[i * c + t];
			for (int t = 0; t < c; t++)
				p[i][t] = v[i * c + t] / Math.sqrt(len);
		}
		return p;
	}

	private static double segmentCost(final double[][] p, final int from, final int to) {
		final int dim = p[0].length;
		final double[] m = new double[dim];
		for (int i = from; i < to; i++)
			for (int t = 0; t < dim; t++)
				m[t] += p[i][t] / (to - from);
		double s = 0;
		for (int i = from; i < to; i++)
			for (int t = 0; t < dim; t++)
				s += (p[i][t] - m[t]) * (p[i][t] - m[t]);
		return s;
	}

	/** The medoids chosen from the best contiguous 4-partition (index 0's cluster dropped). */
	private static List<Integer> bestContiguous(final double[][] a) {
		final double[][] p = embedding(a, 4);
		final int g = a.length;
		double best = Double.POSITIVE_INFINITY;
		int[] cuts = null;
		for (int i = 1; i < g; i++)
			for (int j = i + 1; j < g; j++)
				for (int k = j + 1; k < g; k++) {
					final double c = segmentCost(p, 0, i) + segmentCost(p, i, j) + segmentCost(p,
						j, k) + segmentCost(p, k, g);
					if (c < best - 1e-12) {
						best = c;
						cuts = new int[] { 0, i, j, k, g };
					}
				}
		final List<Integer> chosen = new java.util.ArrayList<>(List.of(0));
		for (int s = 1; s < 4; s++) {
			int medoid = -1;
			double max = Double.NEGATIVE_INFINITY;
			for (int i = cuts[s]; i < cuts[s + 1]; i++) {
				double sum = 0;
				for (int j = cuts[s]; j < cuts[s + 1]; j++)
					sum += a[i][j];
				if (sum > max) {
					max = sum;
					medoid = i;
				}
			}
			chosen.add(medoid);
		}
		return chosen;
	}

	@Test
	void everySeedReturnsTheBestPartitionsAlphas() {
		for (long problem = 1; problem <= 8; problem++) {
			final double[][] a = chain(problem);
			final List<Integer> expected = bestContiguous(a);
			for (long seed = 0; seed < 10; seed++) {
				final SpectralChoice.Result choice = SpectralChoice.choose(a, 4, seed, 10);
				assertEquals(expected, choice.chosen, "problem " + problem + ", seed " + seed);
			}
		}
	}

	@Test
	void costAndGapAreReported() {
		final SpectralChoice.Result choice = SpectralChoice.choose(chain(3), 4, 0, 10);
		assertTrue(choice.cost >= 0 && Double.isFinite(choice.cost));
		assertTrue(choice.spectralGap > 0, "normalised affinity eigengap " + choice.spectralGap);
	}
}
