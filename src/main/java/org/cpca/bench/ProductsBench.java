package org.cpca.bench;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.cpca.core.Progress;
import org.cpca.core.data.Dataset;
import org.cpca.core.data.Preprocessing;
import org.cpca.core.linalg.Products;

/**
 * The "products" group of {@code cpca bench}: the hot kernels against this CPU's
 * double-precision peak (docs/scaling.md). Each kernel's rate is its flops per CPU-second
 * of the whole process (all threads), so the rate per core does not depend on how many
 * cores the other processes on the machine leave us.
 * <p>
 * <b>The peak.</b> Measured, not quoted: twelve independent chains of scalar fused
 * multiply–adds give the rate at which one core issues them (both FMA pipes busy; no
 * memory traffic); a vector FMA does the same work on the 4 doubles of each 256-bit pipe
 * (AVX-512 instructions are split over the two 256-bit pipes on this CPU, AMD Zen 4), so
 * the vector peak is 4 × 2 flops × that rate. On a CPU with 512-bit pipes the factor
 * would be 8: the note prints the factor used.
 */
final class ProductsBench {

	/** Doubles per FMA pipe on this machine (two 256-bit pipes, AMD Zen 4). */
	static final int LANES_PER_PIPE = 4;

	private ProductsBench() {}

	static void run(final PrintStream out, final List<Bench.Row> rows) {
		final long p0 = System.nanoTime();
		final double peak = peakGflops();
		rows.add(Bench.print(out, new Bench.Row("DP peak per core (measured)", "12 chains",
			(System.nanoTime() - p0) / 1e9, Double.NaN, String.format(Locale.ROOT, "%.1f GFLOP/s = %d lanes × 2 " +
				"flops × %.2f G scalar FMA/s (both pipes)", peak, LANES_PER_PIPE, peak / 2 /
					LANES_PER_PIPE))));
		final float[][][] data = SyntheticData.contrastive(1, 5000, 5000, 784);
		final Dataset t = Dataset.wrap("target", data[0]);
		final Preprocessing pre = Preprocessing.fit(t, false, new ArrayList<>());
		final double flops = 5000.0 * 784 * 785; // n·d(d+1)/2 multiply–adds, 2 flops each
		rate(out, rows, "covariance 5000×784", "5000×784", flops, peak, () -> Products
			.covariance(t, pre, Progress.NONE));
		final double[][] a = new double[784][784], b = new double[784][784];
		final java.util.Random r = new java.util.Random(5);
		for (int i = 0; i < 784; i++)
			for (int j = 0; j < 784; j++) {
				a[i][j] = r.nextGaussian();
				b[i][j] = r.nextGaussian();
			}
		rate(out, rows, "times (block products) 784×784·784×784", "784³", 2.0 * 784 * 784 *
			784, peak, () -> Products.times(a, b));
		final float[][][] images = SyntheticData.contrastive(2, 500, 500, 16384, 12, 3, 1.0);
		final Dataset[] sets = { Dataset.wrap("target", images[0]), Dataset.wrap(
			"background", images[1]) };
		final Preprocessing[] pres = { Preprocessing.fit(sets[0], false, new ArrayList<>()),
			Preprocessing.fit(sets[1], false, new ArrayList<>()) };
		rate(out, rows, "Gram, float blocks, 1000×16384", "1000×16384", 1000.0 * 1001 *
			16384, 2 * peak, () -> Products.gram(sets, pres, Progress.NONE, true));
	}

	/**
	 * Times a kernel and adds its row: flops per CPU-second against {@code peak} (the DP
	 * peak; twice it for the float Gram kernel, whose vectors hold twice as many values).
	 */
	private static void rate(final PrintStream out, final List<Bench.Row> rows,
		final String name, final String shape, final double flops, final double peak,
		final Runnable kernel)
	{
		final Bench.Timing time = Bench.time(() -> {
			final long t0 = System.nanoTime();
			kernel.run();
			return (System.nanoTime() - t0) / 1e9;
		});
		// the process CPU clock ticks coarsely (10 ms here): the rate is taken over as many
		// further runs as fill at least a CPU-second
		final double c0 = KernelBench.cpuSeconds();
		int runs = 0;
		double cpu;
		do {
			kernel.run();
			runs++;
			cpu = KernelBench.cpuSeconds() - c0;
		}
		while (cpu < 1 && runs < 500);
		final double gflops = flops * runs / cpu / 1e9;
		rows.add(Bench.print(out, new Bench.Row(name, shape, time.median, Double.NaN, String
			.format(Locale.ROOT, "%.1f GFLOP/s per CPU-second = %.0f %% of the peak (%d " +
				"runs, %.2f CPU s; %s kernels); %s", gflops, 100 * gflops / peak, runs, cpu,
				Products.kernels(), time.note()))));
	}

	/** The measured double-precision peak of one core in GFLOP/s (see the class note). */
	static double peakGflops() {
		final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		final int n = 20_000_000;
		double best = 0, sink = 0;
		for (int run = 0; run < 40; run++) {
			final long c0 = threads.getCurrentThreadCpuTime();
			sink += chains(n);
			final double seconds = (threads.getCurrentThreadCpuTime() - c0) / 1e9;
			// the first runs compile the loop
			if (run >= 10) best = Math.max(best, n * 12.0 / seconds);
		}
		if (sink == 0) throw new AssertionError(); // keeps the chains alive
		return best * 2 * LANES_PER_PIPE / 1e9;
	}

	private static double chains(final int n) {
		final double a = 1.0000001, b = -1e-9;
		double v0 = .1, v1 = .2, v2 = .3, v3 = .4, v4 = .5, v5 = .6, v6 = .7, v7 = .8, v8 = .9,
				v9 = 1, v10 = 1.1, v11 = 1.2;
		for (int i = 0; i < n; i++) {
			v0 = Math.fma(v0, a, b);
			v1 = Math.fma(v1, a, b);
			v2 = Math.fma(v2, a, b);
			v3 = Math.fma(v3, a, b);
			v4 = Math.fma(v4, a, b);
			v5 = Math.fma(v5, a, b);
			v6 = Math.fma(v6, a, b);
			v7 = Math.fma(v7, a, b);
			v8 = Math.fma(v8, a, b);
			v9 = Math.fma(v9, a, b);
			v10 = Math.fma(v10, a, b);
			v11 = Math.fma(v11, a, b);
		}
		return v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8 + v9 + v10 + v11;
	}
}
