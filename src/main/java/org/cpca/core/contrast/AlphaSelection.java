package org.cpca.core.contrast;

import org.cpca.core.Progress;
import org.cpca.core.linalg.Products;
import org.cpca.core.linalg.SymmetricEigen;
import org.cpca.core.linalg.TopEigen;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.model.FittedModel;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

import org.apache.commons.math3.linear.MatrixUtils;
import org.apache.commons.math3.linear.SingularValueDecomposition;
import org.apache.commons.math3.ml.clustering.CentroidCluster;
import org.apache.commons.math3.ml.clustering.Clusterable;
import org.apache.commons.math3.ml.clustering.KMeansPlusPlusClusterer;
import org.apache.commons.math3.ml.clustering.MultiKMeansPlusPlusClusterer;
import org.apache.commons.math3.ml.distance.EuclideanDistance;
import org.apache.commons.math3.random.JDKRandomGenerator;

/**
 * Automatic α selection (Abid et al. 2018, Methods; ALGORITHMS.md §2.1).
 * <ol>
 * <li>Grid: α = 0 plus {@code alphaCount} values log-spaced over
 * [10^minLog, 10^maxLog].</li>
 * <li>For each α, the top-k subspace and the target scores S_α (n_t × k); each solve is
 * warm-started from the previous α.</li>
 * <li>Affinity of α_i and α_j: the product of the cosines of the principal angles between
 * span(S_αi) and span(S_αj) (the singular values of Q_iᵀQ_j after QR); 1 on the
 * diagonal; 0 for a numerically zero score matrix.</li>
 * <li>Spectral clustering into {@code alphasReturned} clusters: normalised affinity
 * D^{-1/2}AD^{-1/2}, its top eigenvectors with rows scaled to unit length, k-means++ with
 * a fixed seed and several restarts.</li>
 * <li>The cluster containing α = 0 is dropped; each other cluster returns its medoid
 * (largest summed affinity to its mates). α = 0 is always returned, first; the others
 * follow in ascending order.</li>
 * </ol>
 * The sweep runs on any fit that reduces to {@code A − αB} in a prepared space: linear
 * cPCA ({@link Cpca#automatic}) and kernel cPCA, which is linear cPCA on kernel features
 * ({@link KernelCpca#automatic}, whose models are this selection's models
 * {@linkplain #map mapped} to {@link KernelCpcaModel}s).
 *
 * @param <M> the kind of model returned per chosen α
 */
public final class AlphaSelection<M extends FittedModel> {

	private final double[] grid;
	private final double[][] affinity;
	private final int[] clusters;
	private final List<M> models;

	private AlphaSelection(final double[] grid, final double[][] affinity,
		final int[] clusters, final List<M> models)
	{
		this.grid = grid;
		this.affinity = affinity;
		this.clusters = clusters;
		this.models = Collections.unmodifiableList(models);
	}

	static AlphaSelection<CpcaModel> select(final Cpca cpca, final Progress progress) {
		final CpcaOptions o = cpca.options();
		final int k = o.components();
		final double[] grid = o.alphaGrid();
		final int g = grid.length;
		final TopEigen.Result[] solutions = new TopEigen.Result[g];
		final double[][] vectors = new double[g][];
		double[][] warm = null;
		for (int i = 0; i < g; i++) {
			progress.checkCancelled();
			solutions[i] = cpca.solve(grid[i], warm);
			warm = solutions[i].warmStart;
			vectors[i] = solutions[i].vectors;
			progress.stage("α sweep", (i + 1.0) / g);
		}
		final double[][] affinity = affinities(cpca, vectors, k);
		final Choice choice = choose(affinity, o.alphasReturned(), o.seed(), o
			.kmeansRestarts());
		final List<CpcaModel> models = new ArrayList<>();
		for (final int i : choice.chosen)
			models.add(cpca.build(grid[i], solutions[i]));
		return new AlphaSelection<>(grid, affinity, choice.clusters, models);
	}

	/**
	 * Step 3 for any sweep over one parameter: the affinity between the target-score
	 * subspaces of the solutions, given as m × k coefficient blocks (row-major) in the
	 * fit's space. Principal angles come from A without forming the scores
	 * ({@link #metricBasis}) unless a score matrix is numerically rank-deficient, in which
	 * case the scores themselves are orthonormalised.
	 */
	public static double[][] affinities(final Cpca cpca, final double[][] vectors, final int k) {
		final int g = vectors.length;
		final double[][][][] metric = new double[g][][][];
		boolean allMetric = true;
		for (int i = 0; i < g; i++) {
			metric[i] = metricBasis(cpca.targetRows(), vectors[i], k);
			allMetric &= metric[i] != null;
		}
		final double[][] affinity = new double[g][g];
		if (allMetric) {
			// every score matrix has full, well-conditioned rank: principal angles from A
			for (int i = 0; i < g; i++) {
				affinity[i][i] = 1;
				for (int j = i + 1; j < g; j++)
					affinity[i][j] = affinity[j][i] = metricAffinity(metric[i], metric[j]);
			}
		}
		else {
			final double[][][] bases = new double[g][][];
			for (int i = 0; i < g; i++)
				bases[i] = orthonormalColumns(cpca.targetScores(vectors[i], k), cpca
					.targetSamples(), k);
			for (int i = 0; i < g; i++) {
				affinity[i][i] = bases[i] == null ? 0 : 1;
				for (int j = i + 1; j < g; j++)
					affinity[i][j] = affinity[j][i] = affinity(bases[i], bases[j]);
			}
		}
		return affinity;
	}

	/** Steps 4 and 5: a cluster per grid value and the chosen grid indices. */
	public static final class Choice {

		public final int[] clusters;
		/** Index 0 first, then each other cluster's medoid, ascending. */
		public final List<Integer> chosen;

		Choice(final int[] clusters, final List<Integer> chosen) {
			this.clusters = clusters;
			this.chosen = chosen;
		}
	}

	/**
	 * Steps 4 and 5 for any sweep whose first grid value is the PCA end (α = 0, β = 0):
	 * spectral clustering of the affinity into {@code wanted} clusters (at most the grid
	 * size), the first value's cluster dropped, each other cluster's medoid (largest summed
	 * affinity to its mates) chosen; index 0 is always chosen, first.
	 */
	public static Choice choose(final double[][] affinity, final int wanted, final long seed,
		final int restarts)
	{
		final int g = affinity.length;
		final int clustersWanted = Math.min(wanted, g);
		final int[] clusters = spectralClusters(affinity, clustersWanted, seed, restarts);
		final List<Integer> chosen = new ArrayList<>();
		for (int c = 0; c < clustersWanted; c++) {
			if (c == clusters[0]) continue;
			int medoid = -1;
			double best = Double.NEGATIVE_INFINITY;
			for (int i = 0; i < g; i++) {
				if (clusters[i] != c) continue;
				double sum = 0;
				for (int j = 0; j < g; j++)
					if (clusters[j] == c) sum += affinity[i][j];
				if (sum > best) {
					best = sum;
					medoid = i;
				}
			}
			if (medoid >= 0) chosen.add(medoid);
		}
		Collections.sort(chosen);
		chosen.add(0, 0);
		return new Choice(clusters, chosen);
	}

	/**
	 * The principal angles between span(S_i) and span(S_j) without forming the n_t × k
	 * score matrices: S = X̃_t V (or L_t V in the reduced space) has
	 * {@code SᵢᵀSⱼ = (n_t − 1) VᵢᵀAVⱼ}, so with {@code VᵀAV = RᵀR} (Cholesky, k × k) the
	 * orthonormalised scores {@code Q = SR⁻¹} satisfy {@code QᵢᵀQⱼ = EᵢᵀFⱼ} for
	 * {@code E = VR⁻¹} and {@code F = AVR⁻¹}. Exactly the same cosines as the QR of the scores,
	 * at O(m k) per α instead of O(n_t d k).
	 *
	 * @return {E columns, F columns}, or {@code null} if VᵀAV is not safely positive
	 *         definite (a numerically rank-deficient score matrix: the caller then uses
	 *         the scores themselves)
	 */
	static double[][][] metricBasis(final double[][] a, final double[] v, final int k) {
		final int m = v.length / k;
		final double[][] cols = new double[k][m];
		for (int i = 0; i < m; i++)
			for (int c = 0; c < k; c++)
				cols[c][i] = v[i * k + c];
		final double[][] av = Products.symmetricTimesRows(a, cols);
		final double[][] r = new double[k][k];
		// Cholesky of G = VᵀAV, column by column (G_cd = v_c · Av_d)
		double maxDiag = 0;
		for (int c = 0; c < k; c++)
			maxDiag = Math.max(maxDiag, TopEigen.dot(cols[c], av[c]));
		if (!(maxDiag > 0)) return null;
		for (int d = 0; d < k; d++) {
			for (int c = 0; c <= d; c++) {
				double s = 0.5 * (TopEigen.dot(cols[c], av[d]) + TopEigen.dot(cols[d], av[c]));
				for (int t = 0; t < c; t++)
					s -= r[t][c] * r[t][d];
				if (c < d) r[c][d] = s / r[c][c];
				else {
					// relative column norm of the scores ≥ 1e-6: well inside double range
					if (!(s > 1e-12 * maxDiag)) return null;
					r[d][d] = Math.sqrt(s);
				}
			}
		}
		// E = V R⁻¹, F = AV R⁻¹ (column d = (x_d − Σ_{c<d} r_cd e_c) / r_dd)
		final double[][] e = new double[k][], f = new double[k][];
		for (int d = 0; d < k; d++) {
			e[d] = cols[d].clone();
			f[d] = av[d].clone();
			for (int c = 0; c < d; c++) {
				TopEigen.axpy(-r[c][d], e[c], e[d]);
				TopEigen.axpy(-r[c][d], f[c], f[d]);
			}
			for (int i = 0; i < m; i++) {
				e[d][i] /= r[d][d];
				f[d][i] /= r[d][d];
			}
		}
		return new double[][][] { e, f };
	}

	/** Product of the singular values (capped at 1) of EᵢᵀFⱼ, symmetrised. */
	static double metricAffinity(final double[][][] bi, final double[][][] bj) {
		final int k = bi[0].length;
		final double[][] m = new double[k][k];
		for (int a = 0; a < k; a++)
			for (int b = 0; b < k; b++)
				m[a][b] = 0.5 * (TopEigen.dot(bi[0][a], bj[1][b]) + TopEigen.dot(bi[1][a],
					bj[0][b]));
		double product = 1;
		for (final double s : new SingularValueDecomposition(MatrixUtils
			.createRealMatrix(m)).getSingularValues())
			product *= Math.min(1, s);
		return product;
	}

	/** Orthonormal basis (n × k, column-major arrays) of the score columns, or null if ~0. */
	static double[][] orthonormalColumns(final double[] scores, final int n, final int k) {
		final double[][] cols = new double[k][n];
		double norm = 0;
		for (int i = 0; i < n; i++)
			for (int c = 0; c < k; c++) {
				cols[c][i] = scores[i * k + c];
				norm = Math.max(norm, Math.abs(scores[i * k + c]));
			}
		if (norm == 0) return null;
		final double[][] q = TopEigen.orthonormalize(cols, new double[0][], null, n);
		return q.length == 0 ? null : q;
	}

	/** Product of the cosines of the principal angles between two subspaces. */
	static double affinity(final double[][] qi, final double[][] qj) {
		if (qi == null || qj == null) return 0;
		if (qi.length != qj.length) return 0; // a rank-deficient score matrix
		final double[][] m = new double[qi.length][qj.length];
		for (int a = 0; a < qi.length; a++)
			for (int b = 0; b < qj.length; b++)
				m[a][b] = TopEigen.dot(qi[a], qj[b]);
		double product = 1;
		for (final double s : new SingularValueDecomposition(MatrixUtils
			.createRealMatrix(m)).getSingularValues())
			product *= Math.min(1, s);
		return product;
	}

	/** Normalised spectral clustering with seeded k-means++; returns a cluster per point. */
	static int[] spectralClusters(final double[][] affinity, final int count,
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
		final double[] v = e.vectors(count);
		final List<Point> points = new ArrayList<>();
		for (int i = 0; i < g; i++) {
			final double[] row = new double[count];
			double len = 0;
			for (int c = 0; c < count; c++) {
				row[c] = v[i * count + c];
				len += row[c] * row[c];
			}
			len = Math.sqrt(len);
			if (len > 0) for (int c = 0; c < count; c++)
				row[c] /= len;
			points.add(new Point(i, row));
		}
		final JDKRandomGenerator random = new JDKRandomGenerator();
		random.setSeed(seed);
		final KMeansPlusPlusClusterer<Point> kmeans = new KMeansPlusPlusClusterer<>(count,
			300, new EuclideanDistance(), random);
		final List<CentroidCluster<Point>> result = new MultiKMeansPlusPlusClusterer<>(
			kmeans, restarts).cluster(points);
		final int[] labels = new int[g];
		for (int c = 0; c < result.size(); c++)
			for (final Point p : result.get(c).getPoints())
				labels[p.index] = c;
		return labels;
	}

	private static final class Point implements Clusterable {

		final int index;
		final double[] coordinates;

		Point(final int index, final double[] coordinates) {
			this.index = index;
			this.coordinates = coordinates;
		}

		@Override
		public double[] getPoint() {
			return coordinates;
		}
	}

	/** The α grid that was swept (α = 0 first). */
	public double[] grid() {
		return grid.clone();
	}

	/** Affinity between every pair of grid values. */
	public double[][] affinity() {
		final double[][] out = new double[affinity.length][];
		for (int i = 0; i < out.length; i++)
			out[i] = affinity[i].clone();
		return out;
	}

	/** Cluster index of every grid value. */
	public int[] clusters() {
		return clusters.clone();
	}

	/** The chosen α values: 0 first, then ascending. */
	public double[] alphas() {
		final double[] a = new double[models.size()];
		for (int i = 0; i < a.length; i++)
			a[i] = models.get(i).alpha();
		return a;
	}

	/** One model per chosen α, in the order of {@link #alphas()}. */
	public List<M> models() {
		return models;
	}

	/**
	 * The same selection (grid, affinity, clusters, chosen α) with every model turned into
	 * another by {@code f}, which must keep its α.
	 */
	public <N extends FittedModel> AlphaSelection<N> map(final Function<? super M, N> f) {
		final List<N> mapped = new ArrayList<>();
		for (final M m : models) {
			final N n = f.apply(m);
			if (Double.compare(n.alpha(), m.alpha()) != 0) throw new IllegalStateException(
				"a mapped model must keep its α (" + m.alpha() + " became " + n.alpha() + ")");
			mapped.add(n);
		}
		return new AlphaSelection<>(grid, affinity, clusters, mapped);
	}
}
