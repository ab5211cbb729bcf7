package org.cpca.spark;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.LongAccumulator;
import org.cpca.core.Progress;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.contrast.Moments;
import org.cpca.core.data.Dataset;
import org.cpca.core.model.CpcaModel;
import org.cpca.io.FitPipeline;
import org.cpca.io.FitRequest;
import org.cpca.io.Results;
import org.cpca.core.run.Settings;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import ij.IJ;
import ij.ImagePlus;
import ij.ImageStack;
import ij.process.FloatProcessor;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import scala.Tuple2;

/**
 * {@code cpca-spark bench}: samples × features generated in the executors (a planted
 * contrastive problem, seeded per partition), reduced to moments, solved on the driver;
 * the moments' throughput per core (task CPU time, generation timed apart) against the
 * single-machine fit of the same samples in memory and {@code cpca fit} on them
 * (docs/spark.md "Measured here").
 */
@Command(name = "bench", sortOptions = false, mixinStandardHelpOptions = true,
	description = { "Measure cpca-spark's moments pass and driver solve on data generated " +
		"in the executors (target and background of N samples each), and for comparison " +
		"the single-machine fit of the same samples in memory and cpca fit on them." })
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

	@Option(names = "--cli-max", paramLabel = "N", defaultValue = "100000",
		description = "Also run cpca fit (the single-machine command line) on the same " +
			"samples written as two 32-bit TIFF stacks (d × 1 pixels per slice), up to this " +
			"many samples per dataset (default: ${DEFAULT-VALUE}; 0: never).")
	long cliMax;

	@Override
	public Integer call() throws Exception {
		if (features < 2) throw new IllegalArgumentException("--features must be ≥ 2 (got " +
			features + ")");
		final JavaSparkContext sc = parent.context(master, "cpca-spark bench");
		final int cores = sc.defaultParallelism();
		final PrintWriter w = parent.out();
		final List<Map<String, Object>> rows = new ArrayList<>();
		w.println(String.format(Locale.ROOT, "cpca-spark bench: master %s (%d cores), d = %d, " +
			"target and background of N samples each, generated in the executors, path: " +
			"moments (d × d); load average at start %.2f", sc.master(), cores, features,
			loadAverage()));
		w.println("        N  parts   wall_s  generate_cpu_s  moments_cpu_s  " +
			"moments_per_core_samples_s  end_to_end_per_core_samples_s  solve_s(α=2, auto)  " +
			"single_fit_s  single_per_core_samples_s  cli_read_s  cli_fit_s  " +
			"max_rel_eigen_diff  load");
		for (final long n : samples) {
			if (n < 2) throw new IllegalArgumentException("--samples must be ≥ 2 (got " + n +
				")");
			final int p = partitions > 0 ? partitions : (int) Math.max(2L * cores, (n +
				49_999) / 50_000);
			final LongAccumulator gen = sc.sc().longAccumulator("generate_cpu_ns"), kernel = sc
				.sc().longAccumulator("moments_cpu_ns");
			long t0 = System.nanoTime();
			final Moments tm = moments(sc, n, p, true, gen, kernel), bm = moments(sc, n, p,
				false, gen, kernel);
			final double wall = (System.nanoTime() - t0) / 1e9;
			final double genCpu = gen.value() / 1e9, kernelCpu = kernel.value() / 1e9;
			final long count = tm.count() + bm.count();
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
			r.put("wall_s", wall);
			r.put("generate_cpu_s", genCpu);
			r.put("moments_cpu_s", kernelCpu);
			r.put("moments_per_core_samples_per_s", count / kernelCpu);
			r.put("end_to_end_per_core_samples_per_s", count / wall / cores);
			r.put("solve_alpha_2_s", solveFixed);
			r.put("solve_auto_alpha_s", solveAuto);
			String single = "             -                          -           -          -" +
				"                   -";
			if (n <= singleMax) {
				final float[][] tx = collectLocally(n, p, true), bx = collectLocally(n, p, false);
				final Dataset td = Dataset.wrap("target", tx), bd = Dataset.wrap("background", bx);
				t0 = System.nanoTime();
				final Cpca mem = Cpca.fit(td, List.of(bd), o, Progress.NONE);
				final CpcaModel ref = mem.model(2);
				final double singleFit = (System.nanoTime() - t0) / 1e9;
				double diff = 0;
				for (int c = 0; c < 2; c++)
					diff = Math.max(diff, Math.abs(ref.eigenvalues()[c] - fixed.eigenvalues()[c]) /
						Math.abs(ref.eigenvalues()[c]));
				final int local = Runtime.getRuntime().availableProcessors();
				r.put("single_machine_cores", local);
				r.put("single_machine_fit_s", singleFit);
				r.put("single_machine_per_core_samples_per_s", count / singleFit / local);
				r.put("max_relative_eigenvalue_difference", diff);
				double[] cli = null;
				if (n <= cliMax) {
					cli = cli(tx, bx);
					r.put("cli_read_s", cli[0]);
					r.put("cli_fit_s", cli[1]);
					r.put("cli_per_core_samples_per_s", count / cli[1] / local);
				}
				single = String.format(Locale.ROOT, "%14.2f %26.0f %11s %10s %19.1e", singleFit,
					count / singleFit / local, cli == null ? "-" : String.format(Locale.ROOT,
						"%.2f", cli[0]), cli == null ? "-" : String.format(Locale.ROOT, "%.2f",
							cli[1]), diff);
			}
			final double load = loadAverage();
			r.put("load_average", load);
			rows.add(r);
			w.println(String.format(Locale.ROOT, "%9d %6d %8.1f %15.1f %14.1f %27.0f %30.0f " +
				"%9.2f %8.2f %s %6.2f", n, p, wall, genCpu, kernelCpu, count / kernelCpu, count /
					wall / cores, solveFixed, solveAuto, single, load));
			w.flush();
			if (out != null) Files.write(out, Results.GSON.toJson(rows).getBytes(
				StandardCharsets.UTF_8));
		}
		return 0;
	}

	/** The 1-minute load average (NaN where the system does not report it). */
	private static double loadAverage() {
		return ManagementFactory.getOperatingSystemMXBean()
			.getSystemLoadAverage();
	}

	/**
	 * The moments of one generated dataset: each task generates its rows in chunks of
	 * {@link Moments.Accumulator#BLOCK} and adds them to the accumulator, timing the two
	 * apart by the task thread's CPU time (so the generation is not charged to the
	 * moments, and other load on the machine is not either); partitions merged as in
	 * {@link SparkMoments#moments}.
	 */
	private Moments moments(final JavaSparkContext sc, final long n, final int p,
		final boolean target, final LongAccumulator gen, final LongAccumulator kernel)
	{
		final List<Integer> ids = new ArrayList<>();
		for (int i = 0; i < p; i++)
			ids.add(i);
		final int d = features;
		final long s = seed;
		final JavaPairRDD<Integer, Moments> parts = sc.parallelize(ids, p)
			.mapPartitionsWithIndex((i, it) -> {
				final int part = it.next();
				final long from = n * part / p, to = n * (part + 1) / p;
				final Iterator<float[]> rows = new Generator(s, d, target, part).rows(
					to - from);
				final ThreadMXBean mx = ManagementFactory.getThreadMXBean();
				final Moments.Accumulator acc = new Moments.Accumulator(d);
				final float[][] chunk = new float[Moments.Accumulator.BLOCK][];
				long g = 0, k = 0;
				while (rows.hasNext()) {
					final long c0 = mx.getCurrentThreadCpuTime();
					int c = 0;
					while (c < chunk.length && rows.hasNext())
						chunk[c++] = rows.next();
					final long c1 = mx.getCurrentThreadCpuTime();
					for (int q = 0; q < c; q++)
						acc.add(chunk[q]);
					g += c1 - c0;
					k += mx.getCurrentThreadCpuTime() - c1;
				}
				final long c0 = mx.getCurrentThreadCpuTime();
				final Moments m = acc.result();
				k += mx.getCurrentThreadCpuTime() - c0;
				gen.add(g);
				kernel.add(k);
				return Collections.singletonList(new Tuple2<>(i, m)).iterator();
			}, true).mapToPair(t -> t);
		return SparkMoments.tree(parts, p, Moments::merge);
	}

	/**
	 * cpca fit on the same samples: written as two 32-bit TIFF stacks (one slice per
	 * sample, d × 1 pixels), then the command line's own pipeline ({@link FitPipeline}, what
	 * {@code cpca fit} runs) at α = 2 without plots; {read, fit} seconds from its
	 * summary.json ("timings_s").
	 */
	private double[] cli(final float[][] t, final float[][] b) throws Exception {
		final Path dir = Files.createTempDirectory("cpca-bench-cli");
		try {
			for (final String name : new String[] { "t", "b" }) {
				final float[][] x = name.equals("t") ? t : b;
				final ImageStack st = new ImageStack(features, 1);
				for (final float[] row : x)
					st.addSlice(new FloatProcessor(features, 1, row));
				IJ.saveAsTiff(new ImagePlus(name, st), dir.resolve(name + ".tif").toString());
			}
			FitPipeline.run(FitRequest.builder().target(dir.resolve("t.tif")).background(dir
				.resolve("b.tif")).settings(Settings.builder().set("alpha", "2").build()).plots(
					false).out(dir.resolve("out")).build(), Progress.NONE);
			final JsonObject timings = JsonParser.parseString(Files.readString(dir.resolve(
				"out/summary.json"))).getAsJsonObject().getAsJsonObject("timings_s");
			return new double[] { timings.get("read").getAsDouble(), timings.get("fit")
				.getAsDouble() };
		}
		finally {
			HadoopFiles.deleteLocal(dir);
		}
	}

	/** The same rows on the driver, for the single-machine comparison. */
	private float[][] collectLocally(final long n, final int p, final boolean target) {
		final float[][] out = new float[(int) n][];
		int i = 0;
		for (int part = 0; part < p; part++) {
			final Iterator<float[]> it = new Generator(seed, features, target, part)
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

		Iterator<float[]> rows(final long count) {
			return new Iterator<float[]>() {

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
