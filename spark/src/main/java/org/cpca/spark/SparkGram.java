package org.cpca.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.broadcast.Broadcast;
import org.cpca.core.contrast.GramLift;
import org.cpca.core.data.Preprocessing;
import org.cpca.core.linalg.Products;

import scala.Tuple2;

/**
 * The wide path (many features, up to ~10⁴ samples in all): per-feature means (and
 * standard deviations) in one pass, the N × N Gram matrix of the stacked preprocessed
 * samples summed over pixel tiles in a second, and each model's components by a pass
 * that broadcasts the sample coefficients ({@link GramLift}). No d × d matrix anywhere.
 */
final class SparkGram {

	/** Values per tile task (N × tile width doubles): 8 M, 64 MB. */
	static final long TILE_VALUES = 8L << 20;

	private SparkGram() {}

	/** Count, mean and the diagonal of the scatter, merged by Chan's formula. */
	static final class Diagonal implements Serializable {

		private static final long serialVersionUID = 1L;
		final long n;
		final double[] mean, m2;

		Diagonal(final long n, final double[] mean, final double[] m2) {
			this.n = n;
			this.mean = mean;
			this.m2 = m2;
		}

		Diagonal merge(final Diagonal o) {
			if (o.n == 0) return this;
			if (n == 0) return o;
			final long t = n + o.n;
			final double[] mu = new double[mean.length], s = new double[mean.length];
			for (int j = 0; j < mu.length; j++) {
				final double delta = o.mean[j] - mean[j];
				mu[j] = mean[j] + delta * o.n / t;
				s[j] = m2[j] + o.m2[j] + delta * delta * ((double) n * o.n / t);
			}
			return new Diagonal(t, mu, s);
		}

		/** As {@code Preprocessing.fit}: mean, and √(M2/n) when standardising. */
		Preprocessing preprocessing(final String name, final boolean standardize,
			final List<String> diagnostics)
		{
			if (!standardize) return Preprocessing.of(mean, null);
			final double[] scale = new double[mean.length];
			int constant = 0;
			for (int j = 0; j < scale.length; j++) {
				final double sd = Math.sqrt(m2[j] / n);
				scale[j] = sd > 0 ? sd : 1;
				if (!(sd > 0)) constant++;
			}
			if (constant > 0) diagnostics.add(name + ": " + constant +
				" feature(s) have zero variance; they stay 0 after centring");
			return Preprocessing.of(mean, scale);
		}
	}

	/** The per-feature moments of the rows (two passes over each partition's buffer-free stream). */
	static Diagonal diagonal(final JavaRDD<float[]> rows, final int d) {
		final JavaPairRDD<Integer, Diagonal> parts = rows.mapPartitionsWithIndex((i, it) -> {
			// Welford per sample within the partition, then Chan between partitions
			long n = 0;
			final double[] mean = new double[d], m2 = new double[d];
			while (it.hasNext()) {
				final float[] x = it.next();
				n++;
				for (int j = 0; j < d; j++) {
					final double delta = x[j] - mean[j];
					mean[j] += delta / n;
					m2[j] += delta * (x[j] - mean[j]);
				}
			}
			return Collections.singletonList(new Tuple2<>(i, new Diagonal(n, mean, m2)))
				.iterator();
		}, true).mapToPair(t -> t);
		return SparkMoments.tree(parts, rows.getNumPartitions(), Diagonal::merge);
	}

	/**
	 * {@code ZZᵀ} (N × N row-major) of the stacked preprocessed samples: every sample is cut
	 * into pixel tiles, each tile task gathers its tile of all N samples and adds its
	 * rank-(tile width) update, and the tile Grams are summed in partition order.
	 *
	 * @param sets the datasets' rows in stacked order, with their preprocessing
	 */
	static double[] gram(final JavaSparkContext sc, final List<JavaRDD<float[]>> sets,
		final List<Preprocessing> pres, final long[] counts, final int d)
	{
		long total = 0;
		for (final long c : counts)
			total += c;
		final int n = (int) total;
		final int width = (int) Math.max(1, Math.min(d, TILE_VALUES / n));
		final int tiles = (d + width - 1) / width;
		JavaPairRDD<Integer, Tuple2<Integer, double[]>> pieces = null;
		long offset = 0;
		for (int s = 0; s < sets.size(); s++) {
			final long base = offset;
			final double[] mean = pres.get(s).mean(), scale = pres.get(s).scale();
			final Broadcast<double[][]> b = sc.broadcast(new double[][] { mean, scale });
			final JavaPairRDD<Integer, Tuple2<Integer, double[]>> p = sets.get(s)
				.zipWithIndex().flatMapToPair(t -> {
					final float[] x = t._1;
					final double[] mu = b.value()[0], sc2 = b.value()[1];
					final int index = (int) (base + t._2);
					final List<Tuple2<Integer, Tuple2<Integer, double[]>>> out = new ArrayList<>();
					for (int q = 0; q < tiles; q++) {
						final int f0 = q * width, f1 = Math.min(d, f0 + width);
						final double[] z = new double[f1 - f0];
						for (int f = f0; f < f1; f++)
							z[f - f0] = sc2 == null ? x[f] - mu[f] : (x[f] - mu[f]) / sc2[f];
						out.add(new Tuple2<>(q, new Tuple2<>(index, z)));
					}
					return out.iterator();
				});
			pieces = pieces == null ? p : pieces.union(p);
			offset += counts[s];
		}
		final JavaPairRDD<Integer, double[]> partial = pieces.groupByKey(tiles).mapToPair(
			g -> {
				final List<Tuple2<Integer, double[]>> rows = new ArrayList<>();
				g._2.forEach(rows::add);
				final int len = rows.get(0)._2.length;
				final double[][] byFeature = new double[len][n];
				for (final Tuple2<Integer, double[]> r : rows)
					for (int f = 0; f < len; f++)
						byFeature[f][r._1] = r._2[f];
				final double[][] upper = new double[n][n];
				Products.addCrossProduct(upper, byFeature, len);
				final double[] full = new double[n * n];
				for (int i = 0; i < n; i++)
					for (int j = i; j < n; j++)
						full[i * n + j] = full[j * n + i] = upper[i][j];
				return new Tuple2<>(g._1, full);
			});
		return SparkMoments.tree(partial, tiles, SparkGram::sum);
	}

	/**
	 * {@code Σ_i ‖z_i‖⁴} over the samples of stacked dataset {@code set} (0 is the target):
	 * ‖z_i‖² is G's diagonal, so cPCA++'s Ledoit–Wolf ridge needs no pass here.
	 */
	static double fourthMoment(final double[] g, final long[] counts, final int set) {
		long n = 0;
		for (final long c : counts)
			n += c;
		long from = 0;
		for (int s = 0; s < set; s++)
			from += counts[s];
		double sum = 0;
		for (long i = from; i < from + counts[set]; i++) {
			final double v = g[(int) (i * n + i)];
			sum += v * v;
		}
		return sum;
	}

	static double[] sum(final double[] a, final double[] b) {
		final double[] s = new double[a.length];
		for (int i = 0; i < s.length; i++)
			s[i] = a[i] + b[i];
		return s;
	}

	static double[][] sum(final double[][] a, final double[][] b) {
		final double[][] s = new double[a.length][];
		for (int c = 0; c < s.length; c++)
			s[c] = sum(a[c], b[c]);
		return s;
	}

	/** {@code Zᵀy}: one pass over every dataset with y broadcast. */
	static GramLift lift(final JavaSparkContext sc, final List<JavaRDD<float[]>> sets,
		final List<Preprocessing> pres, final long[] counts, final int d)
	{
		return (y, k) -> {
			final Broadcast<double[]> yb = sc.broadcast(y);
			try {
				double[][] v = null;
				long offset = 0;
				for (int s = 0; s < sets.size(); s++) {
					final long base = offset;
					final double[] mean = pres.get(s).mean(), scale = pres.get(s).scale();
					final JavaRDD<float[]> rows = sets.get(s);
					final JavaPairRDD<Integer, double[][]> parts = rows.zipWithIndex()
						.mapPartitionsWithIndex((p, it) -> {
							final double[] yy = yb.value();
							final double[][] acc = new double[k][d];
							while (it.hasNext()) {
								final Tuple2<float[], Long> t = it.next();
								final int row = (int) (base + t._2);
								final float[] x = t._1;
								for (int c = 0; c < k; c++) {
									final double w = yy[row * k + c];
									if (w == 0) continue;
									final double[] a = acc[c];
									for (int f = 0; f < d; f++)
										a[f] += w * (scale == null ? x[f] - mean[f] : (x[f] - mean[f]) /
											scale[f]);
								}
							}
							return Collections.singletonList(new Tuple2<>(p, acc)).iterator();
						}, true).mapToPair(t -> t);
					final double[][] part = SparkMoments.tree(parts, rows.getNumPartitions(),
						SparkGram::sum);
					v = v == null ? part : sum(v, part);
					offset += counts[s];
				}
				return v;
			}
			finally {
				yb.destroy();
			}
		};
	}

	/** Keeps the compiler's inference of {@link Function2} for method references. */
	static <T> Function2<T, T, T> of(final Function2<T, T, T> f) {
		return f;
	}
}
