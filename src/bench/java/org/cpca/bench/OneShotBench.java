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
 * The "oneshot" benchmark group: a whole {@code cpca fit --alpha auto} process on 5,000 +
 * 5,000 samples × 784 features (28 × 28 images from {@link SyntheticData}, 32-bit TIFF
 * stacks), all default outputs, against its numpy/scipy peer
 * ({@code src/bench/peer_fit_auto.py}: the same reading, covariances, per-α eigen-solves,
 * principal-angle affinity, spectral clustering (sklearn's when installed, else the same
 * with scipy's k-means) and scores; no figures), run side by side: pairs
 * alternate which goes first, the table gives the medians of {@value #PAIRS} pairs and the
 * ratio of the medians, with the load average before and after. The goal is a ratio of
 * 0.6 or less.
 * <p>
 * Both processes run without the variables that pin OpenBLAS's kernels on this machine
 * ({@link BlasEnvironment}): OpenBLAS picks its kernels for the CPU on both sides.
 * <p>
 * The process is the {@code cpca} launcher of the installation (with its class-data
 * sharing archive; the first, untimed run of each side makes it and warms the file
 * cache), or {@code java -cp} this JVM's class path when there is no launcher.
 * <p>
 * A second row gives the same fit run again and again in the benchmark's own JVM: its
 * cost once nothing is left to load or compile, the floor that a fresh process (which
 * adds the JVM's start and its compilers' work) approaches but cannot pass.
 */
final class OneShotBench {

	static final int PAIRS = 5;
	static final double GOAL_RATIO = 0.6;

	private OneShotBench() {}

	static void run(final PrintStream out, final List<Bench.Row> rows) {
		final String home = System.getProperty("cpca.home", ".");
		final Path peer = Paths.get(home, "src", "bench", "peer_fit_auto.py");
		Path tmp = null;
		try {
			tmp = Files.createTempDirectory("cpca-oneshot-");
			final float[][][] data = SyntheticData.contrastive(13, 5000, 5000, 784);
			final Path t = save(data[0], "target", tmp.resolve("target.tif"));
			final Path b = save(data[1], "background", tmp.resolve("background.tif"));
			final List<String> cpca = cpcaCommand(home);
			final double load0 = load();
			final double[] ours = new double[PAIRS], theirs = new double[PAIRS];
			final String python = python();
			final boolean withPeer = Files.isRegularFile(peer) && python != null;
			// untimed: the class-data sharing archive, the file cache, Python's bytecode
			time(cpca, t, b, tmp.resolve("warm-cpca"));
			if (withPeer) time(peerCommand(python, peer), t, b, tmp.resolve("warm-peer"));
			for (int i = 0; i < PAIRS; i++) {
				final Path o1 = tmp.resolve("cpca-" + i), o2 = tmp.resolve("peer-" + i);
				if (i % 2 == 0 || !withPeer) {
					ours[i] = time(cpca, t, b, o1);
					if (withPeer) theirs[i] = time(peerCommand(python, peer), t, b, o2);
				}
				else {
					theirs[i] = time(peerCommand(python, peer), t, b, o2);
					ours[i] = time(cpca, t, b, o1);
				}
			}
			final double load1 = load();
			final double mo = median(ours);
			final String shape = "5000+5000×784";
			if (!withPeer) {
				rows.add(Bench.print(out, new Bench.Row("cpca fit --alpha auto, whole process",
					shape, mo, Double.NaN, "no peer: python3 with numpy and scipy " +
						"(and " + peer + ") are needed for the ratio")));
				return;
			}
			final double mt = median(theirs), ratio = mo / mt;
			rows.add(Bench.print(out, new Bench.Row("cpca fit --alpha auto, whole process",
				shape, mo, GOAL_RATIO * mt, String.format(Locale.ROOT,
					"numpy peer %.3f s (clustering: %s); ratio %.2f (goal ≤ %.1f); pairs cpca %s, " +
						"peer %s; load average %.1f → %.1f on %d cores", mt, has(python,
							"sklearn.cluster") ? "sklearn" : "scipy, sklearn missing", ratio, GOAL_RATIO,
					list(ours), list(theirs), load0, load1, Runtime.getRuntime()
						.availableProcessors()))));
			final double[] warm = warmRuns(t, b, tmp.resolve("warm-in-process"));
			final double mw = median(warm);
			rows.add(Bench.print(out, new Bench.Row("the same fit, warm JVM (in-process)", shape,
				mw, GOAL_RATIO * mt, String.format(Locale.ROOT, "ratio %.2f to the numpy " +
					"peer's whole process: the floor of a fresh JVM, which adds its start and its " +
					"compilers; runs %d–%d of %d in this JVM: %s; products on %s", mw / mt,
					WARM_RUNS - warm.length + 1, WARM_RUNS, WARM_RUNS, list(warm), Products.kernels() +
					(BlasEnvironment.unpinned() ? "" : " with this JVM's " + BlasEnvironment
						.pinning())))));
		}
		catch (final IOException e) {
			throw new IllegalStateException("the one-shot benchmark could not run: " + e
				.getMessage(), e);
		}
		finally {
			if (tmp != null) delete(tmp);
		}
	}

	private static Path save(final float[][] x, final String title, final Path file) {
		final ImageStack st = new ImageStack(28, 28);
		for (final float[] row : x)
			st.addSlice(new FloatProcessor(28, 28, row.clone()));
		if (!new FileSaver(new ImagePlus(title, st)).saveAsTiffStack(file.toString()))
			throw new IllegalStateException("could not write " + file);
		return file;
	}

	/** The cpca launcher of the installation, or this JVM's class path. */
	private static List<String> cpcaCommand(final String home) {
		final Path launcher = Paths.get(home, "cpca");
		if (System.getProperty("cpca.home") != null && Files.isExecutable(launcher))
			return new ArrayList<>(List.of(launcher.toString()));
		final List<String> cmd = new ArrayList<>(List.of(Paths.get(System.getProperty(
			"java.home"), "bin", "java").toString()));
		cmd.addAll(Bench.childJvmOptions());
		cmd.addAll(List.of("-Djava.awt.headless=true", "-cp", System.getProperty(
			"java.class.path"), "org.cpca.cli.Main"));
		return cmd;
	}

	private static List<String> peerCommand(final String python, final Path peer) {
		return new ArrayList<>(List.of(python, peer.toString()));
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
	private static double[] warmRuns(final Path t, final Path b, final Path out)
		throws IOException
	{
		final double[] s = new double[WARM_TIMED];
		for (int i = 0; i < WARM_RUNS; i++) {
			final long t0 = System.nanoTime();
			FitPipeline.run(FitRequest.builder().target(t).background(b).settings(Settings
				.defaults()).out(out).overwrite(true).build(), Progress.NONE);
			if (i >= WARM_RUNS - WARM_TIMED) s[i - (WARM_RUNS - WARM_TIMED)] = (System
				.nanoTime() - t0) / 1e9;
		}
		return s;
	}

	/** Wall time of one whole process writing into {@code out}. */
	private static double time(final List<String> command, final Path t, final Path b,
		final Path out) throws IOException
	{
		final List<String> c = new ArrayList<>(command);
		if (command.get(command.size() - 1).endsWith(".py")) c.addAll(List.of(t.toString(), b
			.toString(), out.toString()));
		else c.addAll(List.of("fit", "--target", t.toString(), "--background", b.toString(),
			"--alpha", "auto", "--out", out.toString()));
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
