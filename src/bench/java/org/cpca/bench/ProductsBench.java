package org.cpca.bench;

import static org.bytedeco.openblas.global.openblas.CblasNoTrans;
import static org.bytedeco.openblas.global.openblas.CblasRowMajor;
import static org.bytedeco.openblas.global.openblas.CblasTrans;
import static org.bytedeco.openblas.global.openblas.CblasUpper;
import static org.bytedeco.openblas.global.openblas.cblas_dgemm;
import static org.bytedeco.openblas.global.openblas.cblas_dsyrk;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Locale;
import java.util.Random;
import java.util.function.Function;
import java.util.function.LongToDoubleFunction;

import org.bytedeco.javacpp.DoublePointer;
import org.cpca.core.Progress;
import org.cpca.core.data.Dataset;
import org.cpca.core.data.Preprocessing;
import org.cpca.core.linalg.Backend;
import org.cpca.core.linalg.Products;

/**
 * The "products" group of {@code cpca bench}: the hot kernels on the native backend and on
 * the Java kernels against this CPU's true double-precision peak (docs/scaling.md). Each
 * kernel's rate is its flops per CPU-second of the whole process (all threads, OpenBLAS's
 * too), so the rate per core does not depend on how many cores the other processes on
 * the machine leave us.
 * <p>
 * <b>The peak.</b> Measured, not quoted, with the widest vectors the CPU has: twelve
 * independent chains of vector fused multiply–adds on the Vector API's preferred species
 * ({@code VectorPeak}: 8 doubles with AVX-512), no memory traffic; peak = vector FMAs per
 * second × lanes × 2 flops. A JVM without the Vector API cannot issue them: the peak is
 * then the larger of OpenBLAS's dgemm rate and a 4-lane estimate from scalar FMA chains,
 * and the row says so. OpenBLAS's dgemm rate in the same run is the practical ceiling:
 * one call in one thread on off-heap operands, then the same product through
 * {@link Products#times} (its copies to and from the Java heap and its blocks over the
 * cores), which is what the native backend's products pay. Each kernel's row gives its
 * rate as a share of the peak and of that dgemm rate, and on the native backend also of
 * OpenBLAS's own call for the kernel's shape, timed the same way ({@code dsyrk} for the
 * covariance and the Gram matrix, {@code dgemm} for the block products): the ceiling of
 * any caller of OpenBLAS at that shape, which can be well below the large dgemm's.
 * <p>
 * <b>Kernels.</b> Where the environment pins OpenBLAS's kernels ({@code OPENBLAS_CORETYPE},
 * {@code OPENBLAS_L2_SIZE}; this project's machine sets them to its AVX2 kernels), the
 * group runs in a child JVM without them, as the numpy peer does ({@link BlasEnvironment}),
 * and names the kernels OpenBLAS picked.
 */
final class ProductsBench {

	/** Lanes assumed for the estimate when the Vector API is missing (256-bit vectors). */
	private static final int ESTIMATED_LANES = 4;
	/** Order of the square dgemm that gives the practical ceiling. */
	private static final int GEMM = 1536;

	private ProductsBench() {}

	static void run(final PrintStream out, final List<Bench.Row> rows) {
		if (!BlasEnvironment.unpinned()) {
			inChild(out);
			return;
		}
		final LongToDoubleFunction vector = vectorPeak();
		final int lanes = vector == null ? ESTIMATED_LANES : Integer.parseInt(vector
			.toString());
		rows.add(Bench.print(out, new Bench.Row("CPU", cpuModel(), 0, Double.NaN, String
			.format(Locale.ROOT, "%s; widest double vectors in this JVM: %s", cpuModel(),
				vector == null ? "unknown (no Vector API: start the JVM with --add-modules " +
					"jdk.incubator.vector)" : lanes * 64 + " bits (" + lanes + " doubles)"))));
		final long p0 = System.nanoTime();
		final double scalarFma = fmaRate(n -> chains(n), 1);
		double peak = vector == null ? scalarFma * 2 * ESTIMATED_LANES : fmaRate(vector,
			lanes) * 2;
		// without the Vector API: the larger of OpenBLAS's dgemm rate and the 4-lane estimate
		final double gemm = vector == null && Backend.isNative() ? gemmGflops() : Double.NaN;
		final boolean fromGemm = gemm > peak;
		if (fromGemm) peak = gemm;
		final String how = vector != null ? String.format(Locale.ROOT, "%.1f GFLOP/s = %.2f " +
			"G vector FMA/s × %d lanes × 2 flops (12 chains; scalar FMA chains: %.1f GFLOP/s)",
			peak, peak / 2 / lanes, lanes, 2 * scalarFma) : String.format(Locale.ROOT, "%.1f " +
				"GFLOP/s, %s (no Vector API in this JVM: the widest vectors were not measured)",
				peak, fromGemm ? "OpenBLAS's dgemm rate" : "a 4-lane estimate from scalar FMA " +
					"chains");
		rows.add(Bench.print(out, new Bench.Row("DP peak per core (measured)", lanes * 64 +
			"-bit", (System.nanoTime() - p0) / 1e9, Double.NaN, how)));
		final double[][] ga = random(GEMM, 7), gb = random(GEMM, 8);
		final double ceiling;
		if (Backend.isNative()) {
			final String core = BlasEnvironment.coreName();
			ceiling = rawGemm(out, rows, core, peak);
			rate(out, rows, "dgemm " + GEMM + "³ by Products.times (copies, blocks)", GEMM +
				"³", 2.0 * GEMM * GEMM * GEMM, peak, ceiling, Double.NaN, null, () -> Products
					.times(ga, gb));
		}
		else {
			ceiling = Double.NaN;
			rows.add(Bench.print(out, new Bench.Row("OpenBLAS dgemm (the practical ceiling)",
				"-", 0, Double.NaN, "not measured: " + (Backend.diagnostic() != null ? Backend
					.diagnostic() : "the native backend is switched off (-Dcpca.kernels)"))));
		}
		final float[][][] data = SyntheticData.contrastive(1, 5000, 5000, 784);
		final Dataset t = Dataset.wrap("target", data[0]);
		final Preprocessing pre = Preprocessing.fit(t, false, new ArrayList<>());
		final double flops = 5000.0 * 784 * 785; // n·d(d+1)/2 multiply–adds, 2 flops each
		final double[][] a = random(784, 5), b = random(784, 6);
		final float[][][] images = SyntheticData.contrastive(2, 500, 500, 16384, 12, 3, 1.0);
		final Dataset[] sets = { Dataset.wrap("target", images[0]), Dataset.wrap(
			"background", images[1]) };
		final Preprocessing[] pres = { Preprocessing.fit(sets[0], false, new ArrayList<>()),
			Preprocessing.fit(sets[1], false, new ArrayList<>()) };
		final double gramFlops = 1000.0 * 1001 * 16384;
		// OpenBLAS's own call for each kernel's shape (NaN without the native backend)
		final boolean nat = Backend.isNative();
		final double ownCovariance = nat ? ownSyrk(5000, 784) : Double.NaN;
		final double ownTimes = nat ? ownGemm(784) : Double.NaN;
		final double ownGram = nat ? ownSyrk(16384, 1000) : Double.NaN;
		if (nat) rows.add(Bench.print(out, new Bench.Row("OpenBLAS's own call per shape", "-",
			0, Double.NaN, String.format(Locale.ROOT, "dsyrk 5000×784 (the covariance) %.1f, " +
				"dgemm 784³ (the block products) %.1f, dsyrk 1000×16384 (the Gram matrix) %.1f " +
				"GFLOP/s per CPU-second = %.0f / %.0f / %.0f %% of the peak (best of 10 " +
				"single-thread calls on off-heap operands after 5)", ownCovariance, ownTimes,
				ownGram, 100 * ownCovariance / peak, 100 * ownTimes / peak, 100 * ownGram /
					peak))));
		for (final boolean onNative : nat ? new boolean[] { true, false }
			: new boolean[] { false })
		{
			final String on = onNative ? ", native" : ", Java";
			final Function<Runnable, Runnable> backend = k -> onNative ? k : () -> Backend
				.onJava(() -> {
					k.run();
					return null;
				});
			rate(out, rows, "covariance 5000×784" + on, "5000×784", flops, peak, ceiling,
				onNative ? ownCovariance : Double.NaN, "dsyrk", backend.apply(() -> Products
					.covariance(t, pre, Progress.NONE)));
			rate(out, rows, "times (block products) 784×784·784×784" + on, "784³", 2.0 * 784 *
				784 * 784, peak, ceiling, onNative ? ownTimes : Double.NaN, "dgemm", backend
					.apply(() -> Products.times(a, b)));
			if (onNative) rate(out, rows, "Gram, double, 1000×16384" + on, "1000×16384",
				gramFlops, peak, ceiling, ownGram, "dsyrk", () -> Products.gram(sets, pres,
					Progress.NONE, false));
			else rate(out, rows, "Gram, float blocks, 1000×16384" + on, "1000×16384",
				gramFlops, 2 * peak, 2 * ceiling, Double.NaN, null, backend.apply(() -> Products
					.gram(sets, pres, Progress.NONE, true)));
		}
	}

	/**
	 * The group in a child JVM without the variables that pin OpenBLAS's kernels
	 * ({@link BlasEnvironment}), as the numpy peer runs; its lines are passed on.
	 */
	private static void inChild(final PrintStream out) {
		out.println("(products: run in a child JVM without " + BlasEnvironment.pinning() +
			", as the numpy peer runs, so that OpenBLAS picks its kernels for this CPU)");
		out.flush();
		final List<String> cmd = new ArrayList<>(List.of(Paths.get(System.getProperty(
			"java.home"), "bin", "java").toString()));
		cmd.addAll(Bench.childJvmOptions());
		cmd.addAll(List.of("-Djava.awt.headless=true", "-Dcpca.home=" + System.getProperty(
			"cpca.home", "."), "-cp", System.getProperty("java.class.path"), ProductsBench.class
				.getName()));
		try {
			final Process p = BlasEnvironment.unpinned(new ProcessBuilder(cmd))
				.redirectErrorStream(true).start();
			try (BufferedReader r = new BufferedReader(new InputStreamReader(p
				.getInputStream(), StandardCharsets.UTF_8)))
			{
				for (String line; (line = r.readLine()) != null;) {
					if (line.startsWith("WARNING: Using incubator modules")) continue;
					out.println(line);
					out.flush();
				}
			}
			if (p.waitFor() != 0) throw new IllegalStateException("the products benchmark's " +
				"child JVM failed (exit " + p.exitValue() + ")");
		}
		catch (final IOException e) {
			throw new IllegalStateException("the products benchmark's child JVM could not " +
				"run: " + e.getMessage(), e);
		}
		catch (final InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted");
		}
	}

	/** The child of {@link #inChild}: the group's rows on standard output. */
	public static void main(final String[] args) {
		run(System.out, new ArrayList<>());
	}

	private static double[][] random(final int m, final long seed) {
		final double[][] a = new double[m][m];
		final Random r = new Random(seed);
		for (final double[] row : a)
			for (int j = 0; j < m; j++)
				row[j] = r.nextGaussian();
		return a;
	}

	/**
	 * The practical ceiling: OpenBLAS's {@code dgemm} alone, one call on off-heap operands
	 * in one thread (no copies, no blocks), per CPU-second of that thread.
	 */
	private static double rawGemm(final PrintStream out, final List<Bench.Row> rows,
		final String core, final double peak)
	{
		final double best = ownGemm(GEMM);
		rows.add(Bench.print(out, new Bench.Row("OpenBLAS dgemm " + GEMM + "³ alone (the " +
			"practical ceiling)", GEMM + "³", 2.0 * GEMM * GEMM * GEMM / best / 1e9, Double.NaN,
			String.format(Locale.ROOT, "%.1f GFLOP/s per CPU-second = %.0f %% of the peak (best " +
				"of 10 single-thread calls on off-heap operands after 5); OpenBLAS core %s", best,
				100 * best / peak, core))));
		return best;
	}

	/** OpenBLAS's {@code dgemm} of two random n × n matrices: {@link #single}'s rate. */
	private static double ownGemm(final int n) {
		final long nn = (long) n * n;
		try (DoublePointer a = randomPointer(nn, 9); DoublePointer b = randomPointer(nn, 10);
			DoublePointer c = new DoublePointer(nn))
		{
			return single(2.0 * n * n * n, () -> cblas_dgemm(CblasRowMajor, CblasNoTrans,
				CblasNoTrans, n, n, n, 1.0, a, n, b, n, 0.0, c, n));
		}
	}

	/**
	 * OpenBLAS's {@code dsyrk} of a random n × d matrix, the upper triangle of its d × d
	 * cross-product (d(d + 1)/2 entries of n multiply–adds): {@link #single}'s rate.
	 */
	private static double ownSyrk(final int n, final int d) {
		try (DoublePointer x = randomPointer((long) n * d, 11); DoublePointer c =
			new DoublePointer((long) d * d))
		{
			return single((double) n * d * (d + 1), () -> cblas_dsyrk(CblasRowMajor, CblasUpper,
				CblasTrans, d, n, 1.0, x, d, 0.0, c, d));
		}
	}

	private static DoublePointer randomPointer(final long size, final long seed) {
		final DoublePointer p = new DoublePointer(size);
		final Random r = new Random(seed);
		for (long i = 0; i < size; i++)
			p.put(i, r.nextGaussian());
		return p;
	}

	/**
	 * The best rate of one native call over 10 runs after 5, in GFLOP/s per CPU-second of
	 * the calling thread (the backend runs OpenBLAS with one thread per call).
	 */
	private static double single(final double flops, final Runnable call) {
		final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		double best = 0;
		for (int run = 0; run < 15; run++) {
			final long c0 = threads.getCurrentThreadCpuTime();
			call.run();
			final double cpu = (threads.getCurrentThreadCpuTime() - c0) / 1e9;
			if (run >= 5) best = Math.max(best, flops / cpu / 1e9);
		}
		return best;
	}

	/** The square dgemm's rate on the native backend (GFLOP/s per CPU-second). */
	private static double gemmGflops() {
		final double[][] a = random(GEMM, 7), b = random(GEMM, 8);
		Products.times(a, b); // loads and warms up
		final double c0 = KernelBench.cpuSeconds();
		int runs = 0;
		double cpu;
		do {
			Products.times(a, b);
			runs++;
			cpu = KernelBench.cpuSeconds() - c0;
		}
		while (cpu < 1);
		return 2.0 * GEMM * GEMM * GEMM * runs / cpu / 1e9;
	}

	/** The CPU's model name and family (Linux), else the architecture. */
	static String cpuModel() {
		try {
			String name = null, family = null, model = null;
			for (final String line : Files.readAllLines(Paths.get("/proc/cpuinfo"))) {
				final int colon = line.indexOf(':');
				if (colon < 0) continue;
				final String key = line.substring(0, colon).trim(), value = line.substring(
					colon + 1).trim();
				if (name == null && key.equals("model name")) name = value;
				else if (family == null && key.equals("cpu family")) family = value;
				else if (model == null && key.equals("model")) model = value;
			}
			if (name != null) return name + (family == null ? "" : " (family " + family +
				(model == null ? "" : ", model " + model) + ")");
		}
		catch (final IOException | RuntimeException e) {
			// not Linux: the architecture below
		}
		return System.getProperty("os.arch");
	}

	/** The Vector API's FMA chains, or null where this JVM does not have them. */
	private static LongToDoubleFunction vectorPeak() {
		if (!ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()) return null;
		try {
			return (LongToDoubleFunction) Class.forName("org.cpca.bench.VectorPeak")
				.getDeclaredConstructor().newInstance();
		}
		catch (final ReflectiveOperationException | LinkageError | RuntimeException e) {
			return null;
		}
	}

	/**
	 * Times a kernel and adds its row: flops per CPU-second against {@code peak} (the DP
	 * peak; twice it for the float Gram kernel, whose vectors hold twice as many values)
	 * and against {@code ceiling}, OpenBLAS's dgemm rate in this run (NaN: not measured;
	 * twice it for the float kernel likewise), and against {@code own}, OpenBLAS's own
	 * call {@code routine} on the kernel's shape (NaN: not measured).
	 */
	private static void rate(final PrintStream out, final List<Bench.Row> rows,
		final String name, final String shape, final double flops, final double peak,
		final double ceiling, final double own, final String routine, final Runnable kernel)
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
			.format(Locale.ROOT, "%.1f GFLOP/s per CPU-second = %.0f %% of the peak%s (%d " +
				"runs, %.2f CPU s; %s); %s", gflops, 100 * gflops / peak, Double.isNaN(ceiling)
					? "" : String.format(Locale.ROOT, ", %.0f %% of OpenBLAS's dgemm", 100 * gflops /
						ceiling) + (Double.isNaN(own) ? "" : String.format(Locale.ROOT, ", %.0f %% " +
							"of OpenBLAS's own %s on this shape", 100 * gflops / own, routine)), runs,
				cpu, name.endsWith(", Java") ? Backend.onJava(
							Backend::describe) : Products.kernels(), time.note()))));
	}

	/**
	 * The best rate of one core's FMA chains over 15 timed runs (after 10 that compile
	 * them), in G FMA/s times the lanes per FMA: 12 chains per step.
	 */
	static double fmaRate(final LongToDoubleFunction chains, final int lanes) {
		final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		final int n = 20_000_000;
		double best = 0, sink = 0;
		for (int run = 0; run < 25; run++) {
			final long c0 = threads.getCurrentThreadCpuTime();
			sink += chains.applyAsDouble(n);
			final double seconds = (threads.getCurrentThreadCpuTime() - c0) / 1e9;
			if (run >= 10) best = Math.max(best, n * 12.0 / seconds);
		}
		if (sink == 0) throw new AssertionError(); // keeps the chains alive
		return best * lanes / 1e9;
	}

	private static double chains(final long n) {
		final double a = 1.0000001, b = -1e-9;
		double v0 = .1, v1 = .2, v2 = .3, v3 = .4, v4 = .5, v5 = .6, v6 = .7, v7 = .8, v8 = .9,
				v9 = 1, v10 = 1.1, v11 = 1.2;
		for (long i = 0; i < n; i++) {
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
