package org.cpca.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;

import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.broadcast.Broadcast;
import org.cpca.core.contrast.Moments;
import org.cpca.core.contrast.TargetProjection;
import org.cpca.core.data.Preprocessing;

import scala.Tuple2;

/**
 * The two distributed passes: moments (each partition accumulates count, mean and
 * scatter in blocks; partitions merge by Chan's formula in a {@code treeAggregate}) and
 * target scores (the components broadcast, each partition projecting its samples).
 */
final class SparkMoments {

	private SparkMoments() {}

	/**
	 * The merged moments of the rows (each of length d): each partition accumulates its
	 * own (in blocks, {@link Moments.Accumulator}); then a tree aggregation as Spark's
	 * {@code treeAggregate} does it (depth 2: about √P partials per group, the groups
	 * merged in the executors, the √P group results on the driver), except that every
	 * merge takes its inputs in partition order — Spark's own final reduce merges in task
	 * completion order, which changes the last bits from run to run. So the result is
	 * bit-identical whatever the scheduling, retries included.
	 */
	static Moments moments(final JavaRDD<float[]> rows, final int d) {
		return moments(rows, d, (acc, x) -> acc.add(x));
	}

	/** Adds one row to a partition's accumulator. */
	interface Adder<T> extends Serializable {

		void add(Moments.Accumulator acc, T row);
	}

	/** {@link #moments(JavaRDD, int)} of rows of any type (e.g. projected, in double). */
	static <T> Moments moments(final JavaRDD<T> rows, final int d, final Adder<T> adder) {
		JavaPairRDD<Integer, Moments> level = rows.mapPartitionsWithIndex((i, it) -> {
			final Moments.Accumulator acc = new Moments.Accumulator(d);
			while (it.hasNext())
				adder.add(acc, it.next());
			return Collections.singletonList(new Tuple2<>(i, acc.result())).iterator();
		}, true).mapToPair(t -> t);
		return tree(level, rows.getNumPartitions(), Moments::merge);
	}

	/**
	 * Merges indexed partials (one per partition, indices 0 … count−1) as a depth-2 tree:
	 * groups of about √count merged in the executors, then the groups on the driver;
	 * every merge takes its inputs in index order, so the result does not depend on
	 * scheduling.
	 */
	static <T> T tree(JavaPairRDD<Integer, T> level, final int partials,
		final Function2<T, T, T> merge)
	{
		int count = partials;
		final int fan = Math.max(2, (int) Math.ceil(Math.sqrt(count)));
		while (count > fan) {
			final int groups = (count + fan - 1) / fan;
			level = level.mapToPair(t -> new Tuple2<>(t._1 / fan, t)).groupByKey(groups)
				.mapToPair(g -> new Tuple2<>(g._1, mergeInOrder(g._2, merge)));
			count = groups;
		}
		return mergeInOrder(level.collect(), merge);
	}

	private static <T> T call(final Function2<T, T, T> f,
		final T a, final T b)
	{
		try {
			return f.call(a, b);
		}
		catch (final RuntimeException e) {
			throw e;
		}
		catch (final Exception e) {
			throw new IllegalStateException(e);
		}
	}

	/** Merges (index, value) pairs in ascending index, as a balanced binary tree. */
	static <T> T mergeInOrder(final Iterable<Tuple2<Integer, T>> parts,
		final Function2<T, T, T> merge)
	{
		final List<Tuple2<Integer, T>> sorted = new ArrayList<>();
		parts.forEach(sorted::add);
		sorted.sort((a, b) -> Integer.compare(a._1, b._1));
		List<T> level = new ArrayList<>();
		for (final Tuple2<Integer, T> t : sorted)
			level.add(t._2);
		if (level.isEmpty()) throw new IllegalStateException("no partial results");
		while (level.size() > 1) {
			final List<T> next = new ArrayList<>();
			for (int i = 0; i < level.size(); i += 2)
				next.add(i + 1 < level.size() ? call(merge, level.get(i), level.get(i + 1))
					: level.get(i));
			level = next;
		}
		return level.get(0);
	}

	/**
	 * The moments of the rows whose index (in order) is in {@code keep}: one pass, the set
	 * broadcast (PCPCA's held-out split, {@link org.cpca.core.contrast.Cpca.SubsetMoments}).
	 */
	static Moments subset(final JavaSparkContext sc, final JavaRDD<float[]> rows,
		final BitSet keep, final int d)
	{
		final Broadcast<BitSet> b = sc.broadcast(keep);
		try {
			return moments(rows.zipWithIndex().filter(t -> b.value().get((int) (long) t._2))
				.map(t -> t._1), d);
		}
		finally {
			b.destroy();
		}
	}

	/**
	 * {@code Σ_i ‖y_i‖⁴} of the rows preprocessed by {@code pre} (cPCA++'s Ledoit–Wolf
	 * ridge, {@link org.cpca.core.contrast.Cpca.FourthMoments}): one pass, the
	 * preprocessing broadcast, each partition's sum merged in partition order.
	 */
	static double fourthMoment(final JavaSparkContext sc, final JavaRDD<float[]> rows,
		final Preprocessing pre)
	{
		final Broadcast<double[][]> b = sc.broadcast(new double[][] { pre.mean(), pre
			.scale() });
		try {
			final JavaPairRDD<Integer, Double> parts = rows.mapPartitionsWithIndex((i, it) -> {
				final double[] mean = b.value()[0], scale = b.value()[1];
				double sum = 0;
				while (it.hasNext()) {
					final float[] x = it.next();
					double norm = 0;
					for (int j = 0; j < mean.length; j++) {
						final double y = scale == null ? x[j] - mean[j] : (x[j] - mean[j]) /
							scale[j];
						norm += y * y;
					}
					sum += norm * norm;
				}
				return Collections.singletonList(new Tuple2<>(i, sum)).iterator();
			}, true).mapToPair(t -> t);
			return tree(parts, rows.getNumPartitions(), Double::sum);
		}
		finally {
			b.destroy();
		}
	}

	/**
	 * The scores {@code X̃w} of the rows, in order, as a {@link TargetProjection}: one pass
	 * per call, the preprocessing and w broadcast.
	 */
	static TargetProjection projection(final JavaSparkContext sc,
		final JavaRDD<float[]> rows)
	{
		return (pre, w, k) -> project(sc, rows, pre, w, k);
	}

	static double[] project(final JavaSparkContext sc, final JavaRDD<float[]> rows,
		final Preprocessing pre, final double[] w, final int k)
	{
		final Broadcast<double[][]> b = sc.broadcast(new double[][] { pre.mean(), pre
			.scale(), w });
		try {
			final List<double[]> parts = rows.mapPartitions(it -> {
				final double[][] v = b.value();
				final double[] mean = v[0], scale = v[1], ww = v[2];
				final int d = mean.length;
				final double[] x = new double[d];
				double[] out = new double[64 * k];
				int n = 0;
				while (it.hasNext()) {
					final float[] row = it.next();
					for (int j = 0; j < d; j++)
						x[j] = scale == null ? row[j] - mean[j] : (row[j] - mean[j]) / scale[j];
					if ((n + 1) * k > out.length) out = Arrays.copyOf(out, out.length * 2);
					for (int j = 0; j < d; j++) {
						final double xj = x[j];
						if (xj == 0) continue;
						final int o = j * k;
						for (int c = 0; c < k; c++)
							out[n * k + c] += xj * ww[o + c];
					}
					n++;
				}
				return Collections.singletonList(Arrays.copyOf(out, n * k)).iterator();
			}).collect();
			int total = 0;
			for (final double[] p : parts)
				total += p.length;
			final double[] all = new double[total];
			int at = 0;
			for (final double[] p : parts) {
				System.arraycopy(p, 0, all, at, p.length);
				at += p.length;
			}
			return all;
		}
		finally {
			b.destroy();
		}
	}

	/** A list of n copies, for tests and benchmarks. */
	static <T> List<T> copies(final T x, final int n) {
		final List<T> out = new ArrayList<>();
		for (int i = 0; i < n; i++)
			out.add(x);
		return out;
	}
}
