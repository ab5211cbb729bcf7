package org.cpca.core.selection;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.cpca.core.linalg.SymmetricEigen;

/**
 * Steps 4 and 5 of every automatic selection over a grid whose first value is the PCA end
 * (α of cPCA and kernel cPCA, β of cPCA*, and the (γ, α) selection): spectral clustering of
 * the grid's affinity matrix (seeded k-means++ restarts, a deterministic start, Lloyd
 * iterations, the cheapest partition in canonical labels) and each cluster's medoid;
 * docs/math/defaults.md. Shared by {@code AlphaSelection}, {@code BetaSelection} and
 * {@code KernelSelection}.
 */
public final class SpectralChoice {

	private SpectralChoice() {}

	/** Steps 4 and 5: a cluster per grid value and the chosen grid indices. */
	public static final class Result {

		public final int[] clusters;
		/** Index 0 first, then each other cluster's medoid, ascending. */
		public final List<Integer> chosen;
		/** k-means cost (sum of squared distances to the centroids) of the kept partition. */
		public final double cost;
		/**
		 * Eigengap of the normalised affinity at the cluster count c: μ_c − μ_{c+1} (μ
		 * descending; NaN when c equals the grid size). Large: c clusters are well defined.
		 */
		public final double spectralGap;

		public Result(final int[] clusters, final List<Integer> chosen, final double cost,
			final double spectralGap)
		{
			this.clusters = clusters;
			this.chosen = chosen;
			this.cost = cost;
			this.spectralGap = spectralGap;
		}

		/**
		 * This choice, made among the grid values {@code kept} (ascending indices into a
		 * grid of {@code size}), in the whole grid's indices: a value left out has cluster
		 * −1.
		 */
		public Result onGrid(final List<Integer> kept, final int size) {
			final int[] all = new int[size];
			Arrays.fill(all, -1);
			for (int c = 0; c < kept.size(); c++)
				all[kept.get(c)] = clusters[c];
			final List<Integer> on = new ArrayList<>();
			for (final int c : chosen)
				on.add(kept.get(c));
			return new Result(all, on, cost, spectralGap);
		}
	}

	/**
	 * Steps 4 and 5 for any sweep whose first grid value is the PCA end (α = 0, β = 0):
	 * spectral clustering of the affinity into {@code wanted} clusters (at most the grid
	 * size), the first value's cluster dropped, each other cluster's medoid (largest summed
	 * affinity to its mates) chosen; index 0 is always chosen, first.
	 */
	public static Result choose(final double[][] affinity, final int wanted, final long seed,
		final int restarts)
	{
		return choose(affinity, wanted, seed, restarts, null);
	}

	/**
	 * As {@link #choose(double[][], int, long, int)}, with medoids taken only among the
	 * {@code eligible} grid values (all when {@code null}); a cluster without an eligible
	 * value returns nothing.
	 */
	public static Result choose(final double[][] affinity, final int wanted, final long seed,
		final int restarts, final boolean[] eligible)
	{
		final int g = affinity.length;
		final int clustersWanted = Math.min(wanted, g);
		final Clustering clustering = spectralClusters(affinity, clustersWanted, seed,
			restarts);
		final int[] clusters = clustering.labels;
		final List<Integer> chosen = new ArrayList<>();
		for (int c = 0; c < clustersWanted; c++) {
			if (c == clusters[0]) continue;
			int medoid = -1;
			double best = Double.NEGATIVE_INFINITY;
			for (int i = 0; i < g; i++) {
				if (clusters[i] != c || (eligible != null && !eligible[i])) continue;
				double sum = 0;
				for (int j = 0; j < g; j++)
					if (clusters[j] == c) sum += affinity[i][j];
				// a sum that beats the best only by rounding is a tie, kept by the smaller
				// α: the medoid must not depend on how the affinities were summed (the
				// moments of a distributed run agree with an in-memory fit to ~1e-13)
				if (medoid < 0 || sum > best + 1e-9 * Math.abs(best)) {
					best = sum;
					medoid = i;
				}
			}
			if (medoid >= 0) chosen.add(medoid);
		}
		Collections.sort(chosen);
		chosen.add(0, 0);
		return new Result(clusters, chosen, clustering.cost, clustering.spectralGap);
	}

	/** A partition of the grid with its k-means cost and the spectral eigengap. */
	static final class Clustering {

		final int[] labels;
		final double cost;
		final double spectralGap;

		Clustering(final int[] labels, final double cost, final double spectralGap) {
			this.labels = labels;
			this.cost = cost;
			this.spectralGap = spectralGap;
		}
	}

	/** Minimum number of k-means restarts, whatever the options say (docs/math/cpca.md). */
	public static final int MIN_RESTARTS = 100;

	/**
	 * Normalised spectral clustering with a <b>stable</b> k-means: the embedding (top
	 * eigenvectors of D^{-1/2}AD^{-1/2}, rows scaled to unit length) is clustered by Lloyd's
	 * algorithm from many starts — at least {@link #MIN_RESTARTS} seeded k-means++ starts
	 * plus one deterministic farthest-point start from every point — and the partition of
	 * lowest cost (sum of squared distances to the centroids) is kept. Partitions whose
	 * costs agree to 1e-9 (relative) are a tie, broken by the canonical labelling (labels
	 * numbered by first appearance along the grid, lexicographically smallest), so the
	 * result depends on the seed only if the seeded starts miss the best partition, which
	 * the deterministic starts make unlikely on a grid of a few dozen values. Labels are
	 * canonical: cluster 0 contains the first grid value.
	 */
	static Clustering spectralClusters(final double[][] affinity, final int count,
		final long seed, final int restarts)
	{
		final int g = affinity.length;
		final double[] deg = new double[g];
		for (int i = 0; i < g; i++)
			for (int j = 0; j < g; j++)
				deg[i] += affinity[i][j];
		final double[] norm = new double[g * g];
		for (int i = 0; i < g; i++)
			for (int j = 0; j < g; j++)
				norm[i * g + j] = deg[i] > 0 && deg[j] > 0 ? affinity[i][j] / Math.sqrt(deg[i] *
					deg[j]) : 0;
		final SymmetricEigen e = SymmetricEigen.of(norm, g);
		final double gap = count < g ? e.value(count - 1) - e.value(count) : Double.NaN;
		final double[] v = e.vectors(count);
		final double[][] points = new double[g][count];
		for (int i = 0; i < g; i++) {
			double len = 0;
			for (int c = 0; c < count; c++) {
				points[i][c] = v[i * count + c];
				len += points[i][c] * points[i][c];
			}
			len = Math.sqrt(len);
			if (len > 0) for (int c = 0; c < count; c++)
				points[i][c] /= len;
		}
		final Random random = new Random(seed);
		int[] best = null;
		double bestCost = Double.POSITIVE_INFINITY;
		final int seeded = Math.max(MIN_RESTARTS, restarts);
		for (int r = 0; r < seeded + g; r++) {
			final double[][] centres = r < seeded ? plusPlus(points, count, random)
				: farthest(points, count, r - seeded);
			final int[] labels = canonical(lloyd(points, centres));
			final double cost = cost(points, labels, count);
			final double tol = 1e-9 * (1 + bestCost);
			if (best == null || cost < bestCost - tol || (cost <= bestCost + tol &&
				lexicographicallySmaller(labels, best)))
			{
				if (cost < bestCost) bestCost = cost;
				best = labels;
			}
		}
		return new Clustering(best, bestCost, gap);
	}

	private static double distance2(final double[] a, final double[] b) {
		double s = 0;
		for (int c = 0; c < a.length; c++)
			s += (a[c] - b[c]) * (a[c] - b[c]);
		return s;
	}

	/** k-means++ start: the first centre uniform, the others with probability ∝ D². */
	private static double[][] plusPlus(final double[][] p, final int count,
		final Random random)
	{
		final int g = p.length;
		final double[][] centres = new double[count][];
		centres[0] = p[random.nextInt(g)].clone();
		final double[] d2 = new double[g];
		Arrays.fill(d2, Double.POSITIVE_INFINITY);
		for (int c = 1; c < count; c++) {
			double sum = 0;
			for (int i = 0; i < g; i++) {
				d2[i] = Math.min(d2[i], distance2(p[i], centres[c - 1]));
				sum += d2[i];
			}
			int pick = g - 1;
			double u = random.nextDouble() * sum;
			for (int i = 0; i < g; i++) {
				u -= d2[i];
				if (u < 0) {
					pick = i;
					break;
				}
			}
			centres[c] = p[pick].clone();
		}
		return centres;
	}

	/** Deterministic start: point {@code first}, then each time the farthest point. */
	private static double[][] farthest(final double[][] p, final int count, final int first) {
		final int g = p.length;
		final double[][] centres = new double[count][];
		centres[0] = p[first].clone();
		final double[] d2 = new double[g];
		Arrays.fill(d2, Double.POSITIVE_INFINITY);
		for (int c = 1; c < count; c++) {
			int pick = 0;
			for (int i = 0; i < g; i++) {
				d2[i] = Math.min(d2[i], distance2(p[i], centres[c - 1]));
				if (d2[i] > d2[pick]) pick = i;
			}
			centres[c] = p[pick].clone();
		}
		return centres;
	}

	/** Lloyd's iterations to a fixed point; an emptied cluster takes the farthest point. */
	private static int[] lloyd(final double[][] p, final double[][] centres) {
		final int g = p.length, count = centres.length, dim = p[0].length;
		final int[] labels = new int[g];
		Arrays.fill(labels, -1);
		for (int iter = 0; iter < 1000; iter++) {
			boolean changed = false;
			for (int i = 0; i < g; i++) {
				int arg = 0;
				double min = Double.POSITIVE_INFINITY;
				for (int c = 0; c < count; c++) {
					final double d = distance2(p[i], centres[c]);
					if (d < min) {
						min = d;
						arg = c;
					}
				}
				if (labels[i] != arg) {
					labels[i] = arg;
					changed = true;
				}
			}
			final int[] size = new int[count];
			for (int c = 0; c < count; c++)
				Arrays.fill(centres[c], 0);
			for (int i = 0; i < g; i++) {
				size[labels[i]]++;
				for (int t = 0; t < dim; t++)
					centres[labels[i]][t] += p[i][t];
			}
			for (int c = 0; c < count; c++) {
				if (size[c] > 0) {
					for (int t = 0; t < dim; t++)
						centres[c][t] /= size[c];
					continue;
				}
				int far = 0;
				double max = -1;
				for (int i = 0; i < g; i++) {
					final double d = distance2(p[i], centres[labels[i]]);
					if (size[labels[i]] > 1 && d > max) {
						max = d;
						far = i;
					}
				}
				size[labels[far]]--;
				labels[far] = c;
				size[c] = 1;
				centres[c] = p[far].clone();
				changed = true;
			}
			if (!changed) break;
		}
		return labels;
	}

	/** Sum of squared distances of the points to their cluster's centroid. */
	static double cost(final double[][] p, final int[] labels, final int count) {
		final int dim = p[0].length;
		final double[][] centres = new double[count][dim];
		final int[] size = new int[count];
		for (int i = 0; i < p.length; i++) {
			size[labels[i]]++;
			for (int t = 0; t < dim; t++)
				centres[labels[i]][t] += p[i][t];
		}
		for (int c = 0; c < count; c++)
			if (size[c] > 0) for (int t = 0; t < dim; t++)
				centres[c][t] /= size[c];
		double s = 0;
		for (int i = 0; i < p.length; i++)
			s += distance2(p[i], centres[labels[i]]);
		return s;
	}

	/** Labels renumbered by first appearance (0 for the first point's cluster, …). */
	static int[] canonical(final int[] labels) {
		final Map<Integer, Integer> map = new HashMap<>();
		final int[] out = new int[labels.length];
		for (int i = 0; i < labels.length; i++) {
			Integer c = map.get(labels[i]);
			if (c == null) map.put(labels[i], c = map.size());
			out[i] = c;
		}
		return out;
	}

	private static boolean lexicographicallySmaller(final int[] a, final int[] b) {
		for (int i = 0; i < a.length; i++)
			if (a[i] != b[i]) return a[i] < b[i];
		return false;
	}
}
