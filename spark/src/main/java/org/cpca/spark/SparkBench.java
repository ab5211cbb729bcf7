package org.cpca.spark;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;

import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.cpca.core.Progress;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.contrast.Moments;
import org.cpca.core.data.Dataset;
import org.cpca.core.model.CpcaModel;
import org.cpca.io.Results;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code cpca-spark bench}: samples × features generated in the executors (a planted
 * contrastive problem, seeded per partition), reduced to moments, solved on the driver;
 * throughput per core against the single-machine fit of the same samples in memory.
 */
@Command(name = "bench", sortOptions = false, mixinStandardHelpOptions = true,
	description = { "Measure cpca-spark's moments pass and driver solve on generated data " +
		"(target and background of N samples each), and the single-machine fit of the " +
		"same samples for comparison." })
final class SparkBench implements Callable<Integer> {

	@ParentCommand
	SparkMain parent;

	@Option(names = "--master", paramLabel = "URL", description = "Spark master " +
		"(default local[*]).")
	String master;

	@Option(names = "--samples", paramLabel = "N,N,…", split = ",", defaultValue =
		"100000,1000000", description = "Samples per dataset, one run each (default: " +
			"${DEFAULT-VALUE}).")
	long[] samples;

	@Option(names = "--features", paramLabel = "D", defaultValue = "784",
		description = "Features (default: ${DEFAULT-VALUE}, 28 × 28 pixels).")
	int features;

	@Option(names = "--partitions", paramLabel = "P", defaultValue = "0",
		description = "Partitions per dataset (default: 2 × the cores Spark reports, at " +
			"least one per 50,000 samples).")
	int partitions;

	@Option(names = "--single-max", paramLabel = "N", defaultValue = "200000",
		description = "Run the single-machine fit in memory up to this many samples per " +
			"dataset (it holds 2 N D floats; default: ${DEFAULT-VALUE}).")
	long singleMax;

	@Option(names = "--seed", paramLabel = "SEED", defaultValue = "0")
	long seed;

	@Option(names = "--out", paramLabel = "FILE", description = "Also write the results " +
		"as JSON.")
	Path out;

	@Override
	public Integer call() throws Exception {
		if (features < 2) throw new IllegalArgumentException("--features must be ≥ 2 (got " +
			features + ")");
		final JavaSparkContext sc = parent.context(master, "cpca-spark bench");
		final int cores = sc.defaultParallelism();
		final PrintWriter w = parent.out();
		final List<Map<String, Object>> rows = new ArrayList<>();
		w.println(String.format(Locale.ROOT, "cpca-spark bench: master %s (%d cores), d = %d, " +
			"target and background of N samples each, path: moments (d × d)", sc.master(), cores,
			features));
		w.println("        N  parts  generate_s  moments_s  per_core_samples_s  solve_s(α=2, " +
			"auto)   single_fit_s  single_per_core_samples_s  max_rel_eigen_diff");
		for (final long n : samples) {
			if (n < 2) throw new IllegalArgumentException("--samples must be ≥ 2 (got " + n +
				")");
			final int p = partitions > 0 ? partitions : (int) Math.max(2L * cores, (n +
				49_999) / 50_000);
			final JavaRDD<float[]> t = generated(sc, n, p, true), b = generated(sc, n, p,
				false);
			long t0 = System.nanoTime();
			final long count = t.count() + b.count();
			final double generate = (System.nanoTime() - t0) / 1e9;
			t0 = System.nanoTime();
			final Moments tm = SparkMoments.moments(t, features), bm = SparkMoments.moments(b,
				features);
			final double moments = (System.nanoTime() - t0) / 1e9;
			final double net = Math.max(1e-9, moments - generate);
			t0 = System.nanoTime();
			final CpcaOptions o = CpcaOptions.defaults().withComponents(2).withSeed(seed);
			final Cpca fit = Cpca.fromMoments("target", tm, null, List.of("background"), List
				.of(bm), o, (pre, v, k) -> new double[(int) n * k]);
			final CpcaModel fixed = fit.model(2);
			final double solveFixed = (System.nanoTime() - t0) / 1e9;
			t0 = System.nanoTime();
			fit.automatic(Progress.NONE);
			final double solveAuto = (System.nanoTime() - t0) / 1e9;
			final Map<String, Object> r = new LinkedHashMap<>();
			r.put("samples_per_dataset", n);
			r.put("features", features);
			r.put("partitions", p);
			r.put("cores", cores);
			r.put("generate_s", generate);
			r.put("generate_and_moments_s", moments);
			r.put("moments_per_core_samples_per_s", count / net / cores);
			r.put("solve_alpha_2_s", solveFixed);
			r.put("solve_auto_alpha_s", solveAuto);
			String single = "             -                          -                   -";
			if (n <= singleMax) {
				final Dataset td = Dataset.wrap("target", collectLocally(n, p, true)), bd = Dataset
					.wrap("background", collectLocally(n, p, false));
				t0 = System.nanoTime();
				final Cpca mem = Cpca.fit(td, List.of(bd), o, Progress.NONE);
				final double singleFit = (System.nanoTime() - t0) / 1e9;
				final CpcaModel ref = mem.model(2);
				double diff = 0;
				for (int c = 0; c < 2; c++)
					diff = Math.max(diff, Math.abs(ref.eigenvalues()[c] - fixed.eigenvalues()[c]) /
						Math.abs(ref.eigenvalues()[c]));
				final int local = Runtime.getRuntime().availableProcessors();
				r.put("single_machine_cores", local);
				r.put("single_machine_fit_s", singleFit);
				r.put("single_machine_per_core_samples_per_s", count / singleFit / local);
				r.put("max_relative_eigenvalue_difference", diff);
				single = String.format(Locale.ROOT, "%14.2f %26.0f %19.1e", singleFit, count /
					singleFit / local, diff);
			}
			rows.add(r);
			w.println(String.format(Locale.ROOT, "%9d %6d %11.2f %10.2f %19.0f %9.2f %8.2f  %s", n,
				p, generate, moments, count / net / cores, solveFixed, solveAuto, single));
			w.flush();
		}
		if (out != null) Files.write(out, Results.GSON.toJson(rows).getBytes(
			StandardCharsets.UTF_8));
		return 0;
	}

	/** The rows of one dataset, generated in the executors (partition p from its seed). */
	private JavaRDD<float[]> generated(final JavaSparkContext sc, final long n, final int p,
		final boolean target)
	{
		final List<Integer> ids = new ArrayList<>();
		for (int i = 0; i < p; i++)
			ids.add(i);
		final int d = features;
		final long s = seed;
		return sc.parallelize(ids, p).mapPartitions(it -> {
			final int part = it.next();
			final long from = n * part / p, to = n * (part + 1) / p;
			return new Generator(s, d, target, part).rows(to - from);
		});
	}

	/** The same rows on the driver, for the single-machine comparison. */
	private float[][] collectLocally(final long n, final int p, final boolean target) {
		final float[][] out = new float[(int) n][];
		int i = 0;
		for (int part = 0; part < p; part++) {
			final java.util.Iterator<float[]> it = new Generator(seed, features, target, part)
				.rows(n * (part + 1) / p - n * part / p);
			while (it.hasNext())
				out[i++] = it.next();
		}
		return out;
	}

	/**
	 * A planted problem: 5 shared directions (standard deviations 10/√(c+1)) in both
	 * datasets, 2 target-only directions (3 and 2.5), isotropic noise 0.5; directions from
	 * the seed, samples from the seed and the partition.
	 */
	static final class Generator {

		private final double[][] dirs;
		private final double[] sd;
		private final Random r;
		private final int d;

		Generator(final long seed, final int d, final boolean target, final int part) {
			this.d = d;
			final Random g = new Random(seed);
			dirs = new double[7][d];
			for (final double[] v : dirs) {
				double s = 0;
				for (int j = 0; j < d; j++)
					s += (v[j] = g.nextGaussian()) * v[j];
				for (int j = 0; j < d; j++)
					v[j] /= Math.sqrt(s);
			}
			sd = new double[7];
			for (int c = 0; c < 5; c++)
				sd[c] = 10 / Math.sqrt(c + 1);
			sd[5] = target ? 3 : 0;
			sd[6] = target ? 2.5 : 0;
			r = new Random(seed * 1_000_003L + part * 2L + (target ? 1 : 0));
		}

		java.util.Iterator<float[]> rows(final long count) {
			return new java.util.Iterator<float[]>() {

				private long i;

				@Override
				public boolean hasNext() {
					return i < count;
				}

				@Override
				public float[] next() {
					i++;
					final double[] x = new double[d];
					for (int j = 0; j < d; j++)
						x[j] = 0.5 * r.nextGaussian();
					for (int c = 0; c < dirs.length; c++) {
						if (sd[c] == 0) continue;
						final double z = sd[c] * r.nextGaussian();
						final double[] v = dirs[c];
						for (int j = 0; j < d; j++)
							x[j] += z * v[j];
					}
					final float[] f = new float[d];
					for (int j = 0; j < d; j++)
						f[j] = (float) x[j];
					return f;
				}
			};
		}
	}
}
