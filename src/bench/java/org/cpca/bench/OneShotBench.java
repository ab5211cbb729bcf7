package org.cpca.bench;

import ij.ImagePlus;
import ij.ImageStack;
import ij.io.FileSaver;
import ij.process.FloatProcessor;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.cpca.core.Progress;
import org.cpca.core.linalg.Products;
import org.cpca.core.run.Settings;
import org.cpca.io.FitPipeline;
import org.cpca.io.FitRequest;

/**
 * The "oneshot" benchmark group: a whole {@code cpca fit} process on 5,000 + 5,000 samples ×
 * 784 features (28 × 28 images from {@link SyntheticData}, 32-bit TIFF stacks), all
 * default outputs (figures included), at one α ({@code --alpha 2}) and with automatic α,
 * against its numpy/scipy peer ({@code src/bench/peer_fit.py}: the same reading,
 * covariances and eigen-solves — for automatic α the 41 per-α solves, the principal-angle
 * affinity, spectral clustering (sklearn's when installed, else the same with scipy's
 * k-means) — and the scores written to scores.csv; no figures, no model files), run side by
 * side: each pair runs numpy, our default backend and, when that is the native one, our
 * Java fallback ({@code -Dcpca.kernels=vector}), the order rotating from pair to pair; the
 * table gives the medians of {@value #PAIRS} pairs and the ratios of the medians, with the
 * load average before and after. The goals (issue 29): a ratio of at most
 * {@value #GOAL_ONE} at one α and {@value #GOAL_AUTO} for automatic α, on the native
 * backend; the fallback's ratio is reported.
 * <p>
 * Every process runs without the variables that pin OpenBLAS's kernels on this machine
 * ({@link BlasEnvironment}): OpenBLAS picks its kernels for the CPU on both sides.
 * <p>
 * Our process is the {@code cpca} launcher of the installation (with its class-data
 * sharing archive; the first, untimed run of each side makes it and warms the file
 * cache), or {@code java -cp} this JVM's class path when there is no launcher.
 * <p>
 * A further row per case gives the same fit run again and again in the benchmark's own
 * JVM: its cost once nothing is left to load or compile, the floor that a fresh process
 * (which adds the JVM's start and its compilers' work) approaches but cannot pass.
 */
final class OneShotBench {

	static final int PAIRS = 5;
	static final double GOAL_ONE = 2.0, GOAL_AUTO = 0.8;

	private OneShotBench() {}

	/** A case: its name, {@code --alpha}'s value and the goal ratio to the numpy peer. */
	private static final class Case {

		final String name, alpha;
		final double goal;

		Case(final String name, final String alpha, final double goal) {
			this.name = name;
			this.alpha = alpha;
			this.goal = goal;
		}
	}

	private static final List<Case> CASES = List.of(new Case("cpca fit --alpha 2", "2",
		GOAL_ONE), new Case("cpca fit --alpha auto", "auto", GOAL_AUTO));

	static void run(final PrintStream out, final List<Bench.Row> rows) {
		final String home = System.getProperty("cpca.home", ".");
		final Path peer = Paths.get(home, "src", "bench", "peer_fit.py");
		Path tmp = null;
		try {
			tmp = Files.createTempDirectory("cpca-oneshot-");
			final float[][][] data = SyntheticData.contrastive(13, 5000, 5000, 784);
			final Path t = save(data[0], "target", tmp.resolve("target.tif"));
			final Path b = save(data[1], "background", tmp.resolve("background.tif"));
			final String python = python();
			final boolean withPeer = Files.isRegularFile(peer) && python != null;
			// our sides: the default backend, and the Java fallback when the default is native
			final List<String> backends = new ArrayList<>(List.of(""));
			if (Products.kernels().startsWith("native")) backends.add("vector");
			for (final Case c : CASES)
				runCase(out, rows, c, home, peer, python, withPeer, backends, t, b, tmp);
		}
		catch (final IOException e) {
			throw new IllegalStateException("the one-shot benchmark could not run: " + e
				.getMessage(), e);
		}
		finally {
			if (tmp != null) delete(tmp);
		}
	}

	private static void runCase(final PrintStream out, final List<Bench.Row> rows,
		final Case c, final String home, final Path peer, final String python,
		final boolean withPeer, final List<String> backends, final Path t, final Path b,
		final Path tmp) throws IOException
	{
		final String shape = "5000+5000×784";
		// the sides of a pair: null is the numpy peer, else our backend ("" = default)
		final List<String> sides = new ArrayList<>();
		if (withPeer) sides.add(null);
		sides.addAll(backends);
		final double[][] times = new double[sides.size()][PAIRS];
		final double load0 = load();
		// untimed: the class-data sharing archive, the file cache, Python's bytecode
		for (int s = 0; s < sides.size(); s++)
			time(command(sides.get(s), home, python, peer, c), c, t, b, tmp.resolve(c.alpha +
				"-warm-" + s));
		for (int i = 0; i < PAIRS; i++)
			for (int j = 0; j < sides.size(); j++) {
				final int s = (i + j) % sides.size();
				times[s][i] = time(command(sides.get(s), home, python, peer, c), c, t, b, tmp
					.resolve(c.alpha + "-run-" + s + "-" + i));
			}
		final double load1 = load();
		final int ours = withPeer ? 1 : 0;
		final double mo = median(times[ours]);
		if (!withPeer) {
			rows.add(Bench.print(out, new Bench.Row(c.name + ", whole process", shape, mo,
				Double.NaN, "no peer: python3 with numpy and scipy (and " + peer +
					") are needed for the ratio")));
			return;
		}
		final double mt = median(times[0]);
		final StringBuilder fallback = new StringBuilder();
		for (int s = ours + 1; s < sides.size(); s++)
			fallback.append(String.format(Locale.ROOT, "; %s fallback %.3f s, ratio %.2f " +
				"(pairs %s)", sides.get(s), median(times[s]), median(times[s]) / mt, list(
					times[s])));
		rows.add(Bench.print(out, new Bench.Row(c.name + ", whole process", shape, mo, c.goal *
			mt, String.format(Locale.ROOT, "numpy peer %.3f s%s; ratio %.2f (goal ≤ %.1f) on %s; " +
				"pairs cpca %s, peer %s%s; load average %.1f → %.1f on %d cores", mt, c.alpha
					.equals("auto") ? " (clustering: " + (has(python, "sklearn.cluster")
						? "sklearn" : "scipy, sklearn missing") + ")" : "", mo / mt, c.goal,
				Products.kernels(), list(times[ours]), list(times[0]), fallback, load0, load1,
				Runtime.getRuntime().availableProcessors()))));
		final double[] warm = warmRuns(c, t, b, tmp.resolve(c.alpha + "-warm-in-process"));
		final double mw = median(warm);
		rows.add(Bench.print(out, new Bench.Row("the same fit, warm JVM (in-process)", shape,
			mw, Double.NaN, String.format(Locale.ROOT, "ratio %.2f to the numpy " +
				"peer's whole process: the floor of a fresh JVM, which adds its start and its " +
				"compilers; runs %d–%d of %d in this JVM: %s; products on %s", mw / mt,
				WARM_RUNS - warm.length + 1, WARM_RUNS, WARM_RUNS, list(warm), Products.kernels() +
					(BlasEnvironment.unpinned() ? "" : " with this JVM's " + BlasEnvironment
						.pinning())))));
	}

	/** The process of one side: the numpy peer (null) or ours on a backend ("": default). */
	private static List<String> command(final String side, final String home,
		final String python, final Path peer, final Case c)
	{
		if (side == null) {
			final List<String> cmd = new ArrayList<>(List.of(python, peer.toString()));
			if (!c.alpha.equals("auto")) cmd.addAll(List.of("--alpha", c.alpha));
			return cmd;
		}
		return cpcaCommand(home, side);
	}

	private static Path save(final float[][] x, final String title, final Path file) {
		final ImageStack st = new ImageStack(28, 28);
		for (final float[] row : x)
			st.addSlice(new FloatProcessor(28, 28, row.clone()));
		if (!new FileSaver(new ImagePlus(title, st)).saveAsTiffStack(file.toString()))
			throw new IllegalStateException("could not write " + file);
		return file;
	}

	/**
	 * The cpca launcher of the installation, or this JVM's class path; on the given
	 * backend ({@code -Dcpca.kernels}, through the launcher's {@code CPCA_JAVA_OPTS}), or
	 * the default one for "".
	 */
	private static List<String> cpcaCommand(final String home, final String backend) {
		final Path launcher = Paths.get(home, "cpca");
		final String kernels = backend.isEmpty() ? "" : "-Dcpca.kernels=" + backend;
		if (System.getProperty("cpca.home") != null && Files.isExecutable(launcher)) {
			final List<String> cmd = new ArrayList<>();
			if (!kernels.isEmpty()) cmd.addAll(List.of("env", "CPCA_JAVA_OPTS=" + kernels));
			cmd.add(launcher.toString());
			return cmd;
		}
		final List<String> cmd = new ArrayList<>(List.of(Paths.get(System.getProperty(
			"java.home"), "bin", "java").toString()));
		cmd.addAll(Bench.childJvmOptions());
		if (!kernels.isEmpty()) cmd.add(kernels);
		cmd.addAll(List.of("-Djava.awt.headless=true", "-cp", System.getProperty(
			"java.class.path"), "org.cpca.cli.Main"));
		return cmd;
	}

	/**
	 * The first Python with numpy and scipy (sklearn's spectral clustering is used when it
	 * is there, the peer's own scipy version otherwise): $CPCA_PEER_PYTHON, Debian's
	 * /usr/bin/python3, python3 on the PATH; null if none has them.
	 */
	private static String python() {
		final List<String> candidates = new ArrayList<>();
		if (System.getenv("CPCA_PEER_PYTHON") != null) candidates.add(System.getenv(
			"CPCA_PEER_PYTHON"));
		candidates.add("/usr/bin/python3");
		candidates.add("python3");
		for (final String py : candidates)
			if (has(py, "numpy, scipy.linalg, scipy.cluster.vq")) return py;
		return null;
	}

	/** Whether {@code python} imports {@code modules} (a comma-separated list). */
	private static boolean has(final String python, final String modules) {
		try {
			final Process p = new ProcessBuilder(python, "-c", "import " + modules)
				.redirectErrorStream(true).start();
			p.getInputStream().readAllBytes();
			return p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0;
		}
		catch (final IOException e) {
			return false;
		}
		catch (final InterruptedException e) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/** Runs of the in-process fit; the last {@value #WARM_TIMED} are timed. */
	static final int WARM_RUNS = 8, WARM_TIMED = 5;

	/**
	 * The same fit in this JVM ({@link FitPipeline}, the command line's path: reading,
	 * the fit, every default output), {@value #WARM_RUNS} times into one folder; the wall
	 * times of the last {@value #WARM_TIMED}, when every class is loaded and every hot
	 * loop compiled: what a fresh process would cost without starting a JVM and compiling.
	 */
	private static double[] warmRuns(final Case c, final Path t, final Path b, final Path out)
		throws IOException
	{
		final Settings settings = Settings.builder().set("alpha", c.alpha).build();
		final double[] s = new double[WARM_TIMED];
		for (int i = 0; i < WARM_RUNS; i++) {
			final long t0 = System.nanoTime();
			FitPipeline.run(FitRequest.builder().target(t).background(b).settings(settings)
				.out(out).overwrite(true).build(), Progress.NONE);
			if (i >= WARM_RUNS - WARM_TIMED) s[i - (WARM_RUNS - WARM_TIMED)] = (System
				.nanoTime() - t0) / 1e9;
		}
		return s;
	}

	/** Wall time of one whole process writing into {@code out}. */
	private static double time(final List<String> command, final Case fit, final Path t,
		final Path b, final Path out) throws IOException
	{
		final List<String> c = new ArrayList<>(command);
		if (command.stream().anyMatch(a -> a.endsWith(".py"))) c.addAll(List.of(t.toString(), b.toString(), out
			.toString()));
		else c.addAll(List.of("fit", "--target", t.toString(), "--background", b.toString(),
			"--alpha", fit.alpha, "--out", out.toString()));
		final long t0 = System.nanoTime();
		final Process p = BlasEnvironment.unpinned(new ProcessBuilder(c)).redirectErrorStream(
			true).start();
		final String text = new String(p.getInputStream().readAllBytes());
		try {
			p.waitFor();
		}
		catch (final InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted");
		}
		final double s = (System.nanoTime() - t0) / 1e9;
		if (p.exitValue() != 0) throw new IllegalStateException(String.join(" ", c) +
			" failed: " + text.trim());
		return s;
	}

	private static double load() {
		final OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
		return os.getSystemLoadAverage();
	}

	private static double median(final double[] v) {
		final double[] s = v.clone();
		Arrays.sort(s);
		return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length /
			2]) / 2;
	}

	private static String list(final double[] v) {
		final StringBuilder sb = new StringBuilder();
		for (final double x : v)
			sb.append(sb.length() == 0 ? "" : "/").append(String.format(Locale.ROOT, "%.2f",
				x));
		return sb.toString();
	}

	/** Deletes a temporary folder and what it holds (left behind if it cannot). */
	static void delete(final Path root) {
		try (Stream<Path> s = Files.walk(root)) {
			s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
		}
		catch (final IOException e) {
			// a temporary folder
		}
	}
}
