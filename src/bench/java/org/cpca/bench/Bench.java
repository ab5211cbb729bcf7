package org.cpca.bench;

import java.io.PrintStream;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.DoubleSupplier;

import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import org.cpca.core.Progress;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.IntToDoubleFunction;
import org.cpca.core.contrast.AlphaTracker;
import org.cpca.core.model.CpcaModel;
import org.cpca.render.ModelViews;

/**
 * Timings of the core solvers on seeded synthetic data ({@link SyntheticData}), printed
 * as a table. Each case first runs untimed until the JIT has compiled it (see
 * {@link #time}), then {@value #REPEATS} times; the median is reported, with the first
 * run's time (what a fresh JVM pays) in the note where it matters. Times are wall-clock in
 * this process; other processes on the machine inflate them, so compare ratios to the
 * targets and repeat.
 */
public final class Bench {

	/** One line of the table. */
	public static final class Row {

		public final String name;
		public final String shape;
		public final double seconds;
		public final double targetSeconds;
		public final String note;

		Row(final String name, final String shape, final double seconds,
			final double targetSeconds, final String note)
		{
			this.name = name;
			this.shape = shape;
			this.seconds = seconds;
			this.targetSeconds = targetSeconds;
			this.note = note;
		}

		/** Whether the time meets the goal; true when there is no goal (NaN). */
		public boolean met() {
			return Double.isNaN(targetSeconds) || seconds <= targetSeconds;
		}

		@Override
		public String toString() {
			return Double.isNaN(targetSeconds) ? String.format(Locale.ROOT,
				"%-46s %-18s %9.3f s %10s  %-4s %s", name, shape, seconds, "—", "", note)
				: String.format(Locale.ROOT, "%-46s %-18s %9.3f s %8.2f s  %-4s %s", name, shape, seconds,
					targetSeconds, met() ? "ok" : "SLOW", note);
		}
	}

	/** Timed runs per case. */
	private static final int REPEATS = 5;
	/**
	 * Warm-up ends after at least {@link #WARMUP_MIN_SECONDS} once this many consecutive
	 * runs saw the JIT compile for less than {@link #QUIET_FRACTION} of the run's time …
	 */
	private static final int QUIET_RUNS = 3;
	private static final double QUIET_FRACTION = 0.05;
	private static final double WARMUP_MIN_SECONDS = 10;
	/** … or after this long, or this many runs, whichever comes first. */
	private static final double WARMUP_MAX_SECONDS = 40;
	private static final int WARMUP_MAX_RUNS = 60;

	/** The first run of a case, the median of its steady runs, and how it got there. */
	static final class Timing {

		final double first;
		final double median;
		/** Untimed runs before the timed ones (the first run included). */
		final int warmups;

		private Timing(final double first, final double median, final int warmups) {
			this.first = first;
			this.median = median;
			this.warmups = warmups;
		}

		/** The note's words for the first run and the warm-up. */
		String note() {
			return String.format(Locale.ROOT, "first run in this JVM %.3f s; steady after %d runs", first,
				warmups);
		}
	}

	private Bench() {}

	/** The groups of cases, by name, in the order they run. */
	public static final Map<String, BiConsumer<PrintStream, List<Row>>> GROUPS;
	static {
		GROUPS = new LinkedHashMap<>();
		GROUPS.put("linear", Bench::linear);
		GROUPS.put("star", StarBench::run);
		GROUPS.put("online", OnlineBench::run);
		GROUPS.put("kernel", KernelBench::run);
		GROUPS.put("uca", UcaBench::run);
		GROUPS.put("oneshot", OneShotBench::run);
		GROUPS.put("products", ProductsBench::run);
		GROUPS.put("generate", GenerateBench::run);
		GROUPS.put("significance", SignificanceBench::run);
		GROUPS.put("stream", StreamBench::run);
	}

	/** Runs every group. */
	public static List<Row> run(final PrintStream out) {
		return run(out, GROUPS.keySet());
	}

	/** Runs the named groups (see {@link #GROUPS}). */
	public static List<Row> run(final PrintStream out,
		final Collection<String> groups)
	{
		for (final String g : groups)
			if (!GROUPS.containsKey(g)) throw new IllegalArgumentException("no benchmark " +
				"group '" + g + "': use one of " + GROUPS.keySet());
		final List<Row> rows = new ArrayList<>();
		out.println(String.format(Locale.ROOT, "%-46s %-18s %11s %10s  %-4s %s", "case", "shape",
			"median", "target", "", "note"));
		for (final String g : GROUPS.keySet())
			if (groups.contains(g)) GROUPS.get(g).accept(out, rows);
		return rows;
	}

	/** The linear core: one α, automatic α, interactive re-solves, the image case. */
	private static void linear(final PrintStream out, final List<Row> rows) {
		final float[][][] small = SyntheticData.contrastive(1, 5000, 5000, 784);
		final Dataset t = Dataset.wrap("target", small[0]);
		final Dataset b = Dataset.wrap("background", small[1]);
		final CpcaOptions o = CpcaOptions.defaults();
		final String shape = "5000+5000×784";

		final double[] fit = new double[1];
		final Timing one = time(() -> {
			final long t0 = System.nanoTime();
			final Cpca c = Cpca.fit(t, b, o, Progress.NONE);
			final long t1 = System.nanoTime();
			c.model(2.0);
			fit[0] = (t1 - t0) / 1e9;
			return (System.nanoTime() - t0) / 1e9;
		});
		rows.add(print(out, new Row("cpca one α " + shape, shape, one.median, 0.4, String
			.format(Locale.ROOT, "α = 2; fit %.3f s of the last run; %s", fit[0], one.note()))));

		final double[] withFit = new double[1];
		final Timing auto = time(() -> {
			final long t0 = System.nanoTime();
			final Cpca c = Cpca.fit(t, b, o, Progress.NONE);
			final long t1 = System.nanoTime();
			c.automatic(Progress.NONE);
			final long t2 = System.nanoTime();
			withFit[0] = (t2 - t0) / 1e9;
			return (t2 - t1) / 1e9;
		});
		rows.add(print(out, new Row("cpca automatic α " + shape, shape, auto.median, 1.0,
			String.format(Locale.ROOT, "after fit, 41 α, 4 returned; with fit %.3f s (last run); %s",
				withFit[0], auto.note()))));

		final Cpca fitted = Cpca.fit(t, b, o, Progress.NONE);
		// the interactive case: a slider over log α (the explorer's 200 steps over
		// 10^-2 … 10^4) moves to a new α; each solve is warm-started from the last one
		final AlphaTracker tracker = new AlphaTracker(fitted);
		final int[] position = { 60 };
		final IntToDoubleFunction slider = p -> Math.pow(10, -2 + 6.0 *
			(p - 1) / 199);
		tracker.model(slider.applyAsDouble(position[0]++)); // the one-time preparation
		final double resolve = dragMedian(() -> {
			final long t0 = System.nanoTime();
			tracker.model(slider.applyAsDouble(position[0]++));
			return (System.nanoTime() - t0) / 1e9;
		});
		rows.add(print(out, new Row("cpca re-solve new α 784 (interactive)", shape, resolve,
			0.03, "AlphaTracker at the next slider position, warm start; median of a " +
				"21-step drag")));

		// the explorer's whole update: the re-solve plus the redrawn scatter plot
		final List<String> classes = new ArrayList<>();
		for (int i = 0; i < t.samples(); i++)
			classes.add(i % 2 == 0 ? "a" : "b");
		final double explore = dragMedian(() -> {
			final long t0 = System.nanoTime();
			final CpcaModel m = tracker.model(slider.applyAsDouble(position[0]++));
			ModelViews.liveScatterPlot(m, classes, "target", 2);
			return (System.nanoTime() - t0) / 1e9;
		});
		rows.add(print(out, new Row("explore α: one slider update " + shape, shape, explore,
			0.05, "warm re-solve + the explorer's scatter plot of 2500 points (no window); " +
				"median of a 21-step drag")));

		// for comparison: a cold, history-independent model(α) on the fitted Cpca
		final double[] alphas = { 0.37, 3.1, 17, 140, 900 };
		for (final double alpha : alphas)
			fitted.model(alpha);
		final int[] next = { 0 };
		final double cold = median(() -> {
			final long t0 = System.nanoTime();
			fitted.model(alphas[next[0]++ % alphas.length]);
			return (System.nanoTime() - t0) / 1e9;
		});
		rows.add(print(out, new Row("cpca model(α) cold on a fitted Cpca 784", shape, cold,
			Double.NaN, "bit-identical whatever the call order; α ∈ " + Arrays.toString(
				alphas))));

		rows.add(print(out, images()));
	}

	private static Row images() {
		final String shape = "500+500×65536";
		float[][][] data = SyntheticData.contrastive(2, 500, 500, 65536, 12, 3, 1.0);
		final Dataset t = Dataset.wrap("target", data[0]);
		final Dataset b = Dataset.wrap("background", data[1]);
		data = null;
		final long inputBytes = 1000L * 65536 * 4;
		final CpcaOptions o = CpcaOptions.defaults();
		final long[] peak = { 0 };
		final Timing time = time(() -> {
			System.gc();
			resetPeaks();
			final long t0 = System.nanoTime();
			final Cpca c = Cpca.fit(t, b, o, Progress.NONE);
			c.model(2.0);
			final double s = (System.nanoTime() - t0) / 1e9;
			peak[0] = Math.max(peak[0], peakHeap());
			if (!c.reducedSpace()) throw new IllegalStateException("expected reduced space");
			return s;
		});
		return new Row("cpca one α " + shape + " (reduced space)", shape, time.median, 2.5,
			String.format(Locale.ROOT, "peak heap %d MB = %.2f × input (%d MB floats); max heap %d MB; " +
				"%s", peak[0] >> 20, (double) peak[0] / inputBytes, inputBytes >> 20, Runtime
					.getRuntime().maxMemory() >> 20, time.note()));
	}

	/**
	 * The options the {@code cpca} launcher gives every command-line run, a batch job
	 * (docs/speed.md#the-launchers-jvm-options): the optimising compiler compiles only
	 * what stays hot (tier-4 thresholds ten times the JVM's defaults). The launcher script
	 * lists the same options ({@code LauncherOptionsTest} checks).
	 */
	static final List<String> LAUNCHER_JVM_OPTIONS = List.of(
		"-XX:Tier4InvocationThreshold=50000", "-XX:Tier4CompileThreshold=150000",
		"-XX:Tier4BackEdgeThreshold=400000", "-XX:+UseSerialGC", "-XX:MinHeapFreeRatio=5",
		"-XX:MaxHeapFreeRatio=10");

	/**
	 * The launcher's options on Java 17 and later: the incubating Vector API's module (the
	 * vector kernels, docs/speed.md), and those kernels compiled at a tenth of the
	 * thresholds, so that their warm-up is short whatever {@link #LAUNCHER_JVM_OPTIONS}
	 * say.
	 */
	static final List<String> VECTOR_JVM_OPTIONS = List.of("--add-modules",
		"jdk.incubator.vector", "-XX:CompileCommand=quiet",
		"-XX:CompileCommand=CompileThresholdScaling,org.cpca.core.linalg.VectorKernels::*,0.1");

	/**
	 * The start-up options a child JVM needs to run as a {@code cpca} command-line run
	 * does: {@link #VECTOR_JVM_OPTIONS} when this JVM has the module, and
	 * {@link #LAUNCHER_JVM_OPTIONS}.
	 */
	static List<String> childJvmOptions() {
		final List<String> out = new ArrayList<>();
		if (ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()) out.addAll(
			VECTOR_JVM_OPTIONS);
		out.addAll(LAUNCHER_JVM_OPTIONS);
		// the same backend as this JVM's (-Dcpca.kernels=native|vector|scalar)
		final String kernels = System.getProperty("cpca.kernels");
		if (kernels != null) out.add("-Dcpca.kernels=" + kernels);
		return out;
	}

	static Row print(final PrintStream out, final Row row) {
		out.println(row);
		out.flush();
		return row;
	}

	/** Updates of an interactive case before timing: the first steps of a slider drag. */
	private static final int DRAG_WARMUP = 10;
	/** Timed updates of an interactive case: the rest of the drag. */
	private static final int DRAG_STEPS = 21;

	/**
	 * An interactive case (one slider step): the median over a drag of
	 * {@value #DRAG_STEPS} steps after {@value #DRAG_WARMUP} untimed ones, i.e. the
	 * steady latency a user dragging the slider sees once the JIT has compiled the path
	 * (the very first steps in a fresh JVM are slower).
	 */
	static double dragMedian(final DoubleSupplier timed) {
		for (int i = 0; i < DRAG_WARMUP; i++)
			timed.getAsDouble();
		final double[] t = new double[DRAG_STEPS];
		for (int i = 0; i < DRAG_STEPS; i++)
			t[i] = timed.getAsDouble();
		Arrays.sort(t);
		return t[DRAG_STEPS / 2];
	}

	/** The median of {@link #time}. */
	static double median(final DoubleSupplier timed) {
		return time(timed).median;
	}

	/**
	 * Runs a case (the supplier returns its own timed seconds) untimed until it is steady,
	 * then {@value #REPEATS} times, and reports the median. Steady means the JIT has
	 * finished compiling its path: after at least {@value #WARMUP_MIN_SECONDS} s (as a JMH
	 * warm-up iteration), {@value #QUIET_RUNS} runs in a row during which the JVM's
	 * compilers worked less than {@value #QUIET_FRACTION} of the run's time (at most
	 * {@value #WARMUP_MAX_SECONDS} s or {@value #WARMUP_MAX_RUNS} runs). This matters on
	 * 2 cores: the compiler threads share them with the kernels' worker threads, and the
	 * methods called a few times per run (the small eigen-solves, the model's statistics)
	 * reach the optimising compiler only after several runs, so runs 2–12 of a one-α fit
	 * take 0.35–0.44 s against a steady 0.26–0.30 s while it compiles them. A long-running
	 * Fiji session or batch job sees the steady times; the first run is kept for reporting.
	 * A JVM that does not report its compilation time is warmed up to the limits.
	 */
	static Timing time(final DoubleSupplier timed) {
		final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
		final boolean watch = jit != null && jit.isCompilationTimeMonitoringSupported();
		long compiled = watch ? jit.getTotalCompilationTime() : 0;
		final double first = timed.getAsDouble();
		double spent = first;
		int runs = 1, quiet = 0;
		while ((quiet < QUIET_RUNS || spent < WARMUP_MIN_SECONDS) &&
			spent < WARMUP_MAX_SECONDS && runs < WARMUP_MAX_RUNS)
		{
			final double s = timed.getAsDouble();
			spent += s;
			runs++;
			if (watch) {
				final long now = jit.getTotalCompilationTime();
				quiet = now - compiled < QUIET_FRACTION * s * 1000 ? quiet + 1 : 0;
				compiled = now;
			}
		}
		final double[] t = new double[REPEATS];
		for (int i = 0; i < REPEATS; i++)
			t[i] = timed.getAsDouble();
		Arrays.sort(t);
		return new Timing(first, t[REPEATS / 2], runs);
	}

	static void resetPeaks() {
		for (final MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans())
			if (p.getType() == MemoryType.HEAP) p.resetPeakUsage();
	}

	/** Sum of the heap pools' peak usage since the last reset (an upper bound). */
	static long peakHeap() {
		long sum = 0;
		for (final MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans())
			if (p.getType() == MemoryType.HEAP) sum += p.getPeakUsage().getUsed();
		return sum;
	}

	public static void main(final String[] args) {
		run(System.out);
	}
}
