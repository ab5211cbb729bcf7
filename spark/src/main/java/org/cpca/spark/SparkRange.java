package org.cpca.spark;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.cpca.core.contrast.Moments;
import org.cpca.core.data.Preprocessing;
import org.cpca.core.linalg.Products;
import org.cpca.core.linalg.SymmetricEigen;

import scala.Tuple2;

/**
 * The range path (many samples and many features): a randomized range finder gives one
 * orthonormal basis Q (d × r) of the dominant directions of the stacked preprocessed
 * samples Z; each dataset's moments are then taken of its samples projected on Q (r × r),
 * and the driver solves in that space for every α (docs/math/spark.md, the range path).
 * Passes over the data: 1 + q for the sketch, 1 for the projected moments.
 */
final class SparkRange {

	/** Columns added to r in the sketch (p). */
	static final int OVERSAMPLING = 10;
	/** Passes of subspace iteration after the first sketch (q). */
	static final int POWER_ITERATIONS = 2;
	/** Columns of the sketch below this fraction of its largest are dropped as rank-deficient. */
	static final double NEGLIGIBLE = 1e-10;

	private SparkRange() {}

	/** r: the given rank, or max(10k, 100); never more than d or the samples in all. */
	static int rank(final int given, final int k, final int d, final long samples) {
		final long r = given > 0 ? given : Math.max(10L * k, 100);
		return (int) Math.max(1, Math.min(r, Math.min(d, samples)));
	}

	/** The basis and every dataset's moments in it. */
	static final class Range {

		/** Q, d × r, row-major. */
		final double[] basis;
		final int r;
		/** The moments of Qᵀz for each dataset's preprocessed samples z, in stacked order. */
		final List<Moments> moments;

		Range(final double[] basis, final int r, final List<Moments> moments) {
			this.basis = basis;
			this.r = r;
			this.moments = moments;
		}
	}

	/**
	 * Sketch, subspace iteration and the projected moments.
	 *
	 * @param sets the datasets' rows in stacked order, each with its preprocessing
	 * @param rank r (at most d)
	 */
	static Range fit(final JavaSparkContext sc, final List<JavaRDD<float[]>> sets,
		final List<Preprocessing> pres, final int d, final int rank, final long seed)
	{
		int width = Math.min(d, rank + OVERSAMPLING);
		final Random random = new Random(seed);
		double[] b = new double[d * width];
		for (int i = 0; i < b.length; i++)
			b[i] = random.nextGaussian();
		double[] y = sketch(sc, sets, pres, b, width, d);
		for (int i = 0; i < POWER_ITERATIONS; i++) {
			b = orthonormal(y, d, width);
			width = b.length / d;
			y = sketch(sc, sets, pres, b, width, d);
		}
		// the top r left singular vectors of Y = QR: Q times the eigenvectors of RRᵀ
		final double[] q = orthonormal(y, d, width);
		final int l = q.length / d;
		final double[] rt = Products.multiplyTransposed(q, d, l, y, width); // R, l × width
		final double[] rrt = new double[l * l];
		for (int i = 0; i < l; i++)
			for (int j = 0; j < l; j++) {
				double s = 0;
				for (int c = 0; c < width; c++)
					s += rt[i * width + c] * rt[j * width + c];
				rrt[i * l + j] = s;
			}
		final int r = Math.min(rank, l);
		final double[] basis = Products.multiply(q, d, l, SymmetricEigen.of(rrt, l).vectors(
			r), r);
		final List<Moments> moments = new ArrayList<>();
		final Broadcast<double[]> qb = sc.broadcast(basis);
		try {
			for (int s = 0; s < sets.size(); s++) {
				final Preprocessing pre = pres.get(s);
				final double[] mean = pre.mean(), scale = pre.scale();
				moments.add(SparkMoments.moments(sets.get(s), r, (acc, x) -> acc.add(project(x,
					mean, scale, qb.value(), r))));
			}
		}
		finally {
			qb.destroy();
		}
		return new Range(basis, r, moments);
	}

	/** Qᵀz for one sample x, z its preprocessed copy. */
	private static double[] project(final float[] x, final double[] mean,
		final double[] scale, final double[] q, final int r)
	{
		final double[] y = new double[r];
		for (int j = 0; j < x.length; j++) {
			final double z = scale == null ? x[j] - mean[j] : (x[j] - mean[j]) / scale[j];
			if (z == 0) continue;
			final int o = j * r;
			for (int c = 0; c < r; c++)
				y[c] += z * q[o + c];
		}
		return y;
	}

	/**
	 * {@code ZᵀZB} (d × l, row-major) in one pass over every dataset: each sample z adds
	 * z(zᵀB); the partitions' sums merge in partition order.
	 */
	static double[] sketch(final JavaSparkContext sc, final List<JavaRDD<float[]>> sets,
		final List<Preprocessing> pres, final double[] b, final int l, final int d)
	{
		final Broadcast<double[]> bb = sc.broadcast(b);
		try {
			double[] y = null;
			for (int s = 0; s < sets.size(); s++) {
				final double[] mean = pres.get(s).mean(), scale = pres.get(s).scale();
				final JavaRDD<float[]> rows = sets.get(s);
				final JavaPairRDD<Integer, double[]> parts = rows.mapPartitionsWithIndex((p,
					it) -> {
					final double[] bv = bb.value();
					final double[] acc = new double[d * l], z = new double[d];
					while (it.hasNext()) {
						final float[] x = it.next();
						for (int j = 0; j < d; j++)
							z[j] = scale == null ? x[j] - mean[j] : (x[j] - mean[j]) / scale[j];
						final double[] t = new double[l];
						for (int j = 0; j < d; j++) {
							final double zj = z[j];
							if (zj == 0) continue;
							final int o = j * l;
							for (int c = 0; c < l; c++)
								t[c] += zj * bv[o + c];
						}
						for (int j = 0; j < d; j++) {
							final double zj = z[j];
							if (zj == 0) continue;
							final int o = j * l;
							for (int c = 0; c < l; c++)
								acc[o + c] += zj * t[c];
						}
					}
					return Collections.singletonList(new Tuple2<>(p, acc)).iterator();
				}, true).mapToPair(t -> t);
				final double[] part = SparkMoments.tree(parts, rows.getNumPartitions(),
					SparkGram::sum);
				y = y == null ? part : SparkGram.sum(y, part);
			}
			return y;
		}
		finally {
			bb.destroy();
		}
	}

	/**
	 * An orthonormal basis (d × l', row-major) of the columns of y (d × l): Gram–Schmidt
	 * applied twice; columns that vanish (below {@link #NEGLIGIBLE} of the largest) are
	 * dropped, so l' is the numerical rank.
	 */
	static double[] orthonormal(final double[] y, final int d, final int l) {
		final List<double[]> kept = new ArrayList<>();
		double largest = 0;
		final double[][] cols = new double[l][d];
		for (int c = 0; c < l; c++) {
			for (int i = 0; i < d; i++)
				cols[c][i] = y[i * l + c];
			largest = Math.max(largest, norm(cols[c]));
		}
		for (final double[] v : cols) {
			for (int pass = 0; pass < 2; pass++)
				for (final double[] u : kept) {
					double dot = 0;
					for (int i = 0; i < d; i++)
						dot += u[i] * v[i];
					for (int i = 0; i < d; i++)
						v[i] -= dot * u[i];
				}
			final double n = norm(v);
			if (!(n > NEGLIGIBLE * largest)) continue;
			for (int i = 0; i < d; i++)
				v[i] /= n;
			kept.add(v);
		}
		if (kept.isEmpty()) throw new IllegalArgumentException("the data are constant " +
			"after centring: there is no variation to analyse");
		final int m = kept.size();
		final double[] q = new double[d * m];
		for (int c = 0; c < m; c++)
			for (int i = 0; i < d; i++)
				q[i * m + c] = kept.get(c)[i];
		return q;
	}

	private static double norm(final double[] v) {
		double s = 0;
		for (final double x : v)
			s += x * x;
		return Math.sqrt(s);
	}
}
