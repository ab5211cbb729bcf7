package org.cpca.core.contrast;

import org.cpca.core.linalg.TopEigen;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.commons.math3.linear.CholeskyDecomposition;
import org.apache.commons.math3.linear.LUDecomposition;
import org.apache.commons.math3.linear.MatrixUtils;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.linear.SingularValueDecomposition;
import java.util.stream.IntStream;

/**
 * Measures of separation and of subspace agreement (docs/math/cpca.md).
 * <p>
 * Separation measures take points (n × k, e.g. scores) and one class label per point:
 * <ul>
 * <li>{@link #ldaAccuracy}: resubstitution accuracy of Gaussian linear discriminant
 * analysis (class means, pooled covariance with n − C degrees of freedom, class priors) —
 * "separated" when ≥ 0.9;</li>
 * <li>{@link #symmetrizedKl}: symmetrised Kullback–Leibler divergence between Gaussian
 * fits of two classes, KL(P‖Q) + KL(Q‖P) (averaged over class pairs when more than
 * two);</li>
 * <li>{@link #silhouette}: mean silhouette coefficient with Euclidean distance;</li>
 * <li>{@link #nearestNeighbourAccuracy}: leave-one-out 1-nearest-neighbour accuracy.</li>
 * </ul>
 * Subspace measures take two sets of k vectors (rows): {@link #principalAngles} and
 * {@link #projectorAlignment} {@code tr(P₁P₂)/k ∈ [0, 1]}.
 */
public final class Measures {

	private Measures() {}

	/** All four separation measures, keyed by snake_case names, for reports. */
	public static Map<String, Double> separation(final double[][] points,
		final List<String> labels)
	{
		final Map<String, Double> out = new LinkedHashMap<>();
		out.put("lda_accuracy", ldaAccuracy(points, labels));
		out.put("symmetrized_kl", symmetrizedKl(points, labels));
		final double[] pairwise = pairwise(points, new Groups(points, labels));
		out.put("silhouette", pairwise[0]);
		out.put("nn_accuracy", pairwise[1]);
		return out;
	}

	/** Resubstitution accuracy of Gaussian LDA with a pooled covariance. */
	public static double ldaAccuracy(final double[][] x, final List<String> labels) {
		final Groups g = new Groups(x, labels);
		final int k = g.dim;
		final RealMatrix pooled = MatrixUtils.createRealMatrix(k, k);
		for (int i = 0; i < x.length; i++) {
			final double[] mu = g.means[g.index[i]];
			for (int a = 0; a < k; a++)
				for (int b = 0; b < k; b++)
					pooled.addToEntry(a, b, (x[i][a] - mu[a]) * (x[i][b] - mu[b]));
		}
		final RealMatrix cov = regularized(pooled.scalarMultiply(1.0 / Math.max(1, x.length -
			g.count)));
		final RealMatrix inv = new LUDecomposition(cov, 0).getSolver().getInverse();
		final double[][] w = new double[g.count][];
		final double[] bias = new double[g.count];
		for (int c = 0; c < g.count; c++) {
			w[c] = inv.operate(g.means[c]);
			bias[c] = -0.5 * dot(w[c], g.means[c]) + Math.log((double) g.sizes[c] / x.length);
		}
		int correct = 0;
		for (int i = 0; i < x.length; i++) {
			int best = 0;
			double bestScore = Double.NEGATIVE_INFINITY;
			for (int c = 0; c < g.count; c++) {
				final double s = dot(w[c], x[i]) + bias[c];
				if (s > bestScore) {
					bestScore = s;
					best = c;
				}
			}
			if (best == g.index[i]) correct++;
		}
		return (double) correct / x.length;
	}

	/** Symmetrised KL divergence of Gaussian fits (mean over class pairs). */
	public static double symmetrizedKl(final double[][] x, final List<String> labels) {
		final Groups g = new Groups(x, labels);
		final RealMatrix[] cov = new RealMatrix[g.count];
		for (int c = 0; c < g.count; c++) {
			final RealMatrix s = MatrixUtils.createRealMatrix(g.dim, g.dim);
			for (int i = 0; i < x.length; i++) {
				if (g.index[i] != c) continue;
				for (int a = 0; a < g.dim; a++)
					for (int b = 0; b < g.dim; b++)
						s.addToEntry(a, b, (x[i][a] - g.means[c][a]) * (x[i][b] - g.means[c][b]));
			}
			cov[c] = regularized(s.scalarMultiply(1.0 / Math.max(1, g.sizes[c] - 1)));
		}
		double sum = 0;
		int pairs = 0;
		for (int p = 0; p < g.count; p++)
			for (int q = p + 1; q < g.count; q++) {
				sum += kl(g.means[p], cov[p], g.means[q], cov[q]) + kl(g.means[q], cov[q],
					g.means[p], cov[p]);
				pairs++;
			}
		return pairs == 0 ? 0 : sum / pairs;
	}

	private static double kl(final double[] m0, final RealMatrix s0, final double[] m1,
		final RealMatrix s1)
	{
		final int k = m0.length;
		final RealMatrix inv1 = new LUDecomposition(s1, 0).getSolver().getInverse();
		final double[] diff = new double[k];
		for (int a = 0; a < k; a++)
			diff[a] = m1[a] - m0[a];
		final double logDet = Math.log(new CholeskyDecomposition(s1, 0, 0)
			.getDeterminant()) - Math.log(new CholeskyDecomposition(s0, 0, 0)
				.getDeterminant());
		return 0.5 * (inv1.multiply(s0).getTrace() + dot(diff, inv1.operate(diff)) - k +
			logDet);
	}

	private static RealMatrix regularized(final RealMatrix s) {
		final int k = s.getRowDimension();
		final double eps = 1e-9 * Math.max(s.getTrace() / k, Double.MIN_NORMAL);
		final RealMatrix out = s.copy();
		for (int a = 0; a < k; a++)
			out.addToEntry(a, a, eps);
		return out;
	}

	/** Mean silhouette coefficient (Euclidean); points alone in their class count as 0. */
	public static double silhouette(final double[][] x, final List<String> labels) {
		return pairwise(x, new Groups(x, labels))[0];
	}

	/** Leave-one-out 1-nearest-neighbour accuracy (Euclidean). */
	public static double nearestNeighbourAccuracy(final double[][] x,
		final List<String> labels)
	{
		return pairwise(x, new Groups(x, labels))[1];
	}

	/**
	 * The two measures that need every pair of points, in one pass over the pairs: the mean
	 * silhouette and the leave-one-out 1-nearest-neighbour accuracy. Each point's row of
	 * distances is its own task (rows in parallel, each summed in index order, so the
	 * result does not depend on the number of threads); the coordinates are read from one
	 * flat array.
	 */
	private static double[] pairwise(final double[][] x, final Groups g) {
		final int n = x.length, dim = g.dim;
		final double[] flat = new double[n * dim];
		for (int i = 0; i < n; i++)
			System.arraycopy(x[i], 0, flat, i * dim, dim);
		final double[] silhouette = new double[n];
		final boolean[] nearestAgrees = new boolean[n];
		IntStream.range(0, n).parallel().forEach(i -> {
			final double[] sum = new double[g.count];
			int best = -1;
			double bestD = Double.POSITIVE_INFINITY;
			final int oi = i * dim;
			for (int j = 0; j < n; j++) {
				if (j == i) continue;
				final int oj = j * dim;
				double dd = 0;
				for (int a = 0; a < dim; a++) {
					final double e = flat[oi + a] - flat[oj + a];
					dd += e * e;
				}
				sum[g.index[j]] += Math.sqrt(dd);
				if (dd < bestD) {
					bestD = dd;
					best = j;
				}
			}
			nearestAgrees[i] = best >= 0 && g.index[best] == g.index[i];
			final int own = g.index[i];
			if (g.count < 2 || g.sizes[own] < 2) return;
			final double a = sum[own] / (g.sizes[own] - 1);
			double b = Double.POSITIVE_INFINITY;
			for (int c = 0; c < g.count; c++)
				if (c != own) b = Math.min(b, sum[c] / g.sizes[c]);
			final double m = Math.max(a, b);
			silhouette[i] = m > 0 ? (b - a) / m : 0;
		});
		double total = 0;
		int correct = 0;
		for (int i = 0; i < n; i++) {
			total += silhouette[i];
			if (nearestAgrees[i]) correct++;
		}
		return new double[] { g.count < 2 ? 0 : total / n, (double) correct / n };
	}

	/**
	 * Principal angles (radians, ascending) between the spans of the rows of a and b (each a
	 * set of vectors of the same length; orthonormalised first).
	 */
	public static double[] principalAngles(final double[][] a, final double[][] b) {
		final double[][] qa = orthonormalRows(a), qb = orthonormalRows(b);
		final double[][] m = new double[qa.length][qb.length];
		for (int i = 0; i < qa.length; i++)
			for (int j = 0; j < qb.length; j++)
				m[i][j] = dot(qa[i], qb[j]);
		final double[] s = new SingularValueDecomposition(MatrixUtils.createRealMatrix(m))
			.getSingularValues();
		final int count = Math.min(qa.length, qb.length);
		final double[] angles = new double[count];
		for (int i = 0; i < count; i++)
			angles[i] = Math.acos(Math.max(-1, Math.min(1, s[i])));
		return angles;
	}

	/** {@code tr(P_a P_b)/k}, k the larger of the two dimensions: 1 for equal subspaces. */
	public static double projectorAlignment(final double[][] a, final double[][] b) {
		final double[][] qa = orthonormalRows(a), qb = orthonormalRows(b);
		double sum = 0;
		for (final double[] u : qa)
			for (final double[] v : qb) {
				final double c = dot(u, v);
				sum += c * c;
			}
		return sum / Math.max(qa.length, qb.length);
	}

	private static double[][] orthonormalRows(final double[][] a) {
		final double[][] copy = new double[a.length][];
		for (int i = 0; i < a.length; i++)
			copy[i] = a[i].clone();
		return TopEigen.orthonormalize(copy, new double[0][], null, a[0].length);
	}

	private static double dot(final double[] a, final double[] b) {
		double s = 0;
		for (int i = 0; i < a.length; i++)
			s += a[i] * b[i];
		return s;
	}

	/** Points grouped by label, in first-appearance order. */
	private static final class Groups {

		final int count, dim;
		final int[] index, sizes;
		final double[][] means;

		Groups(final double[][] x, final List<String> labels) {
			if (labels == null || labels.size() != x.length)
				throw new IllegalArgumentException("one class label per sample is needed (got " +
					(labels == null ? 0 : labels.size()) + " labels for " + x.length +
					" samples)");
			if (x.length == 0) throw new IllegalArgumentException("no samples to measure");
			dim = x[0].length;
			final List<String> names = new ArrayList<>();
			index = new int[x.length];
			for (int i = 0; i < x.length; i++) {
				int c = names.indexOf(labels.get(i));
				if (c < 0) {
					c = names.size();
					names.add(labels.get(i));
				}
				index[i] = c;
			}
			count = names.size();
			sizes = new int[count];
			means = new double[count][dim];
			for (int i = 0; i < x.length; i++) {
				sizes[index[i]]++;
				for (int a = 0; a < dim; a++)
					means[index[i]][a] += x[i][a];
			}
			for (int c = 0; c < count; c++)
				for (int a = 0; a < dim; a++)
					means[c][a] /= sizes[c];
		}
	}
}
