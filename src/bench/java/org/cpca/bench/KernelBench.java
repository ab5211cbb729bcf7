package org.cpca.bench;

import java.io.PrintStream;
import java.util.List;

import org.cpca.core.contrast.AlphaSelection;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import org.cpca.core.kernel.KernelCpca;
import org.cpca.core.kernel.KernelCpcaModel;
import org.cpca.core.kernel.KernelOptions;
import org.cpca.core.Progress;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.Arrays;
import java.util.Locale;

/**
 * The "kernel" group of {@code cpca bench}: kernel cPCA (rbf, automatic γ) on
 * {@link SyntheticData} with d = 784 — the exact path at N = 2,000 (goal ≤ 3 s for the fit
 * and one α) and the Nyström path at N = 50,000 with 500 landmarks (goal ≤ 15 s, memory
 * independent of N²: the peak heap is reported), each followed by the automatic α sweep.
 */
final class KernelBench {

	private KernelBench() {}

	/**
	 * CPU seconds of this process so far (all threads), or NaN where the JVM does not tell:
	 * on a shared machine, CPU time divided by the free cores estimates the unloaded time.
	 */
	static double cpuSeconds() {
		final OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
		if (!(os instanceof com.sun.management.OperatingSystemMXBean)) return Double.NaN;
		return ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime() / 1e9;
	}

	static void run(final PrintStream out, final List<Bench.Row> rows) {
		exact(out, rows);
		nystrom(out, rows);
	}

	private static void exact(final PrintStream out, final List<Bench.Row> rows) {
		final float[][][] data = SyntheticData.contrastive(3, 1000, 1000, 784);
		final Dataset t = Dataset.wrap("target", data[0]), b = Dataset.wrap("background",
			data[1]);
		final String shape = "1000+1000×784";
		final CpcaOptions o = CpcaOptions.defaults();
		final double[] fit = new double[1], cpu = new double[1];
		final KernelCpca[] last = new KernelCpca[1];
		final double one = Bench.median(() -> {
			final double c0 = cpuSeconds();
			final long t0 = System.nanoTime();
			final KernelCpca k = KernelCpca.fit(t, b, o, KernelOptions.defaults(),
				Progress.NONE);
			fit[0] = (System.nanoTime() - t0) / 1e9;
			k.model(2.0);
			last[0] = k;
			cpu[0] = cpuSeconds() - c0;
			return (System.nanoTime() - t0) / 1e9;
		});
		if (!last[0].exact()) throw new IllegalStateException("expected the exact path");
		rows.add(Bench.print(out, new Bench.Row("kernel exact one α " + shape, shape, one,
			3.0, String.format(Locale.ROOT, "fit %.3f s of it (rank %d, γ %.3g); α = 2; CPU %.2f s (last " +
				"run)", fit[0], last[0].rank(), last[0].kernel().gamma(), cpu[0]))));
		// the sweep once (the JIT is warm from the fits above)
		final double c0 = cpuSeconds();
		final long t0 = System.nanoTime();
		final AlphaSelection<KernelCpcaModel> auto = last[0].automatic(Progress.NONE);
		rows.add(Bench.print(out, new Bench.Row("kernel exact automatic α " + shape, shape,
			(System.nanoTime() - t0) / 1e9, Double.NaN, String.format(Locale.ROOT, "after fit, one run, " +
				"41 α; CPU %.2f s; chose %s", cpuSeconds() - c0, Arrays.toString(auto
					.alphas())))));
	}

	private static void nystrom(final PrintStream out, final List<Bench.Row> rows) {
		float[][][] data = SyntheticData.contrastive(4, 25000, 25000, 784);
		final Dataset t = Dataset.wrap("target", data[0]), b = Dataset.wrap("background",
			data[1]);
		data = null;
		final String shape = "25000+25000×784";
		final long inputBytes = 50000L * 784 * 4;
		final CpcaOptions o = CpcaOptions.defaults();
		final KernelOptions ko = KernelOptions.defaults().withLandmarks(500);
		final long[] peak = { 0 };
		final KernelCpca[] last = new KernelCpca[1];
		final double[] fit = new double[1], cpu = new double[1];
		final double one = Bench.median(() -> {
			last[0] = null;
			System.gc();
			Bench.resetPeaks();
			final double c0 = cpuSeconds();
			final long t0 = System.nanoTime();
			final KernelCpca k = KernelCpca.fit(t, b, o, ko, Progress.NONE);
			fit[0] = (System.nanoTime() - t0) / 1e9;
			k.model(2.0);
			final double s = (System.nanoTime() - t0) / 1e9;
			cpu[0] = cpuSeconds() - c0;
			peak[0] = Math.max(peak[0], Bench.peakHeap());
			last[0] = k;
			return s;
		});
		if (last[0].exact()) throw new IllegalStateException("expected the Nyström path");
		rows.add(Bench.print(out, new Bench.Row("kernel Nyström one α " + shape +
			" (500 landmarks)", shape, one, 15.0, String.format(Locale.ROOT, "fit %.3f s of it; CPU %.2f s " +
				"(last run); peak heap %d MB = %.2f × input (%d MB floats; an N × N matrix " +
				"would be %d MB); max heap %d MB", fit[0], cpu[0], peak[0] >> 20,
				(double) peak[0] / inputBytes, inputBytes >> 20, (50000L * 50000 * 8) >> 20,
				Runtime.getRuntime().maxMemory() >> 20))));
		final double c0 = cpuSeconds();
		final long t0 = System.nanoTime();
		last[0].automatic(Progress.NONE);
		rows.add(Bench.print(out, new Bench.Row("kernel Nyström automatic α " + shape, shape,
			(System.nanoTime() - t0) / 1e9, Double.NaN, String.format(Locale.ROOT, "after fit, one run, " +
				"41 α; CPU %.2f s", cpuSeconds() - c0))));
	}
}
