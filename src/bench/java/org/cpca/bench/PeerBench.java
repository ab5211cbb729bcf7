package org.cpca.bench;

import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.cpca.core.Progress;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import java.io.BufferedInputStream;
import java.lang.management.ManagementFactory;
import java.util.Collections;

/**
 * {@code cpca bench --peer}: our solvers against the numpy/scipy peer
 * ({@code src/bench/numpy_peer.py}) on the same data, in alternating pairs of fresh
 * processes.
 * <p>
 * Each case writes one seeded {@link SyntheticData} pair as little-endian float32 files
 * and runs each side once untimed (the file cache; the Java child's class-data sharing
 * archive, made as the {@code cpca} launcher makes one for a command-line run, whose JVM
 * options the child also gets: {@link Bench#childJvmOptions}); then, pair after pair, a
 * fresh JVM ({@link #main}: load, fit, solve, scores — what a
 * one-shot {@code cpca fit} does) and a fresh Python process (load, the same computation
 * with OpenBLAS and LAPACK) run one after the other, the order alternating from pair to
 * pair. The machine is shared, so absolute seconds drift with the load; the ratio of the
 * two runs of a pair, taken a few seconds apart, is what is compared: the table gives the
 * median ratio over the pairs (in-process time after loading, and whole-process wall time
 * including JVM or interpreter start-up and the load), with the load average (1 min)
 * before and after the case. Both sides run without the {@code OPENBLAS_CORETYPE} and
 * {@code OPENBLAS_L2_SIZE} variables this machine may set ({@link BlasEnvironment}, in
 * the child processes only): OpenBLAS then picks its kernels for the CPU on both sides.
 */
public final class PeerBench {

	/** A case: name, samples of each dataset, features, α (NaN: automatic), peer case. */
	static final class Case {

		final String name;
		final int samples;
		final int features;
		final double alpha;
		final String peer;

		Case(final String name, final int samples, final int features, final double alpha,
			final String peer)
		{
			this.name = name;
			this.samples = samples;
			this.features = features;
			this.alpha = alpha;
			this.peer = peer;
		}

		String shape() {
			return samples + "+" + samples + "×" + features;
		}
	}

	/** The issue-20 cases; "scaling" adds the n × d grid of docs/scaling.md. */
	static List<Case> cases(final String set) {
		final List<Case> out = new ArrayList<>();
		switch (set) {
			case "one":
				out.add(new Case("one α", 5000, 784, 2, "one"));
				break;
			case "auto784":
				out.add(new Case("automatic α", 5000, 784, Double.NaN, "auto"));
				break;
			case "auto3136":
				out.add(new Case("automatic α", 5000, 3136, Double.NaN, "auto"));
				break;
			case "images":
				out.add(new Case("exact one α, images", 2000, 65536, 2, "gram"));
				break;
			case "images500":
				out.add(new Case("exact one α, images", 500, 65536, 2, "gram"));
				break;
			case "scaling":
				// cheapest cells first (n · d, one α before automatic α), so that a run cut
				// short still fills most of the grid
				for (final boolean auto : new boolean[] { false, true })
					for (final int[] nd : new int[][] { { 1000, 196 }, { 1000, 784 }, { 5000, 196 },
						{ 1000, 3136 }, { 20000, 196 }, { 5000, 784 }, { 20000, 784 }, { 5000, 3136 },
						{ 20000, 3136 } })
					{
						final int n = nd[0], d = nd[1];
						out.add(auto ? new Case("automatic α", n, d, Double.NaN, "auto") : new Case(
							"one α", n, d, 2, n < d ? "gram" : "one"));
					}
				break;
			case "default":
				out.add(new Case("one α", 5000, 784, 2, "one"));
				out.add(new Case("automatic α", 5000, 784, Double.NaN, "auto"));
				out.add(new Case("automatic α", 5000, 3136, Double.NaN, "auto"));
				break;
			default:
				// cells of the grid, e.g. "auto:5000x784,one:20000x196" (docs/scaling.md)
				if (set.matches("((one|auto):\\d+x\\d+,?)+")) {
					for (final String cell : set.split(",")) {
						final String[] kind = cell.split(":"), nd = kind[1].split("x");
						final int n = Integer.parseInt(nd[0]), d = Integer.parseInt(nd[1]);
						out.add(kind[0].equals("auto") ? new Case("automatic α", n, d, Double.NaN,
							"auto") : new Case("one α", n, d, 2, n < d ? "gram" : "one"));
					}
					break;
				}
				throw new IllegalArgumentException("no peer case set '" + set +
					"': use default, one, auto784, auto3136, images, images500, scaling or " +
					"cells such as auto:5000x784,one:20000x196");
		}
		return out;
	}

	private PeerBench() {}

	/** Whether the JVM child runs with the JVM's default heap instead of docs/memory.md's. */
	private static boolean defaultHeap;

	/**
	 * Runs the JVM child with the JVM's default heap (no {@code -Xmx}; a quarter of the
	 * machine's memory), as a user who gives no option does, instead of the heap
	 * docs/memory.md prescribes.
	 */
	public static void defaultHeap(final boolean on) {
		defaultHeap = on;
	}

	/** Threads per side (0: all cores); see {@link #run(PrintStream, String, int, Path, String, int)}. */
	private static int threads;

	/** The 1-minute load average, or NaN where the system does not tell. */
	static double load() {
		try {
			return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
		}
		catch (final IOException | RuntimeException e) {
			return ManagementFactory.getOperatingSystemMXBean()
				.getSystemLoadAverage();
		}
	}

	/**
	 * Runs the case set with the given number of pairs, printing one line per pair and a
	 * summary per case.
	 *
	 * @param peerScript path of numpy_peer.py
	 * @param python the Python interpreter with numpy and scipy
	 */
	public static void run(final PrintStream out, final String set, final int pairs,
		final Path peerScript, final String python) throws IOException, InterruptedException
	{
		run(out, set, pairs, peerScript, python, 0);
	}

	/**
	 * {@link #run} with both sides limited to the given number of threads (0: all cores):
	 * the JVM's common pool parallelism and OpenBLAS's thread count. On a machine
	 * oversubscribed by other work, one thread each compares the kernels without the
	 * threads' scheduling (OpenBLAS's spinning threads suffer most from it).
	 */
	public static void run(final PrintStream out, final String set, final int pairs,
		final Path peerScript, final String python, final int threads) throws IOException,
		InterruptedException
	{
		run(out, set, pairs, peerScript, python, threads, List.of());
	}

	/**
	 * {@link #run(PrintStream, String, int, Path, String, int)} with our side run once per
	 * pair on each of the given backends ({@code -Dcpca.kernels=native|vector|scalar} in
	 * its child; none: this JVM's choice), so that the Java fallback's ratio is printed in
	 * the same run as the native one's: each pair then holds one numpy run and one run per
	 * backend, the order rotating from pair to pair.
	 */
	public static void run(final PrintStream out, final String set, final int pairs,
		final Path peerScript, final String python, final int threads,
		final List<String> backends) throws IOException, InterruptedException
	{
		PeerBench.threads = threads;
		if (!Files.isRegularFile(peerScript)) throw new IllegalArgumentException(
			"the numpy peer script " + peerScript + " does not exist: run from the " +
				"project folder (or set -Dcpca.home) so that src/bench/numpy_peer.py is found");
		for (final String b : backends)
			if (!List.of("native", "vector", "scalar").contains(b))
				throw new IllegalArgumentException("no backend '" + b + "': use native, vector " +
					"or scalar (comma-separated)");
		// null: the child's backend as this JVM's settings choose
		final List<String> ours = backends.isEmpty() ? Collections.singletonList(
			null) : backends;
		out.println("both sides run without " + String.join(" and ", BlasEnvironment.PINNING) +
			": our OpenBLAS picks its " + BlasEnvironment.coreName() + " kernels");
		for (final Case c : cases(set)) {
			final Path dir = Files.createTempDirectory("cpca-peer");
			try {
				final float[][][] data = SyntheticData.contrastive(1, c.samples, c.samples,
					c.features);
				write(dir, data);
				// untimed: the Java child's class-data sharing archive, the file cache,
				// Python's bytecode
				final List<String> archive = childArchive(c, dir);
				runPython(c, dir, peerScript, python);
				final double loadBefore = load();
				final int sides = ours.size() + 1; // numpy is side ours.size()
				// [side][pair] in-process seconds, whole-process seconds, peak resident bytes
				final double[][] in = new double[sides][pairs], wall = new double[sides][pairs],
					peak = new double[sides][pairs];
				for (int p = 0; p < pairs; p++) {
					final StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
						"  %-12s %-16s pair %d:", c.name, c.shape(), p + 1));
					for (int o = 0; o < sides; o++) {
						final int side = (o + p) % sides;
						final double[] r = side < ours.size() ? runJava(c, dir, backend(archive,
							ours.get(side))) : runPython(c, dir, peerScript, python);
						in[side][p] = r[0];
						wall[side][p] = r[1];
						peak[side][p] = r[2];
					}
					final double numpy = in[ours.size()][p];
					for (int side = 0; side < ours.size(); side++)
						line.append(String.format(Locale.ROOT, " ours%s %.3f s (process %.3f s, " +
							"ratio %.2f),", label(ours.get(side)), in[side][p], wall[side][p],
							in[side][p] / numpy));
					out.println(line.append(String.format(Locale.ROOT, " numpy %.3f s (process " +
						"%.3f s), load %.2f", numpy, wall[ours.size()][p], load())));
				}
				final double loadAfter = load();
				final double[] numpy = in[ours.size()], numpyWall = wall[ours.size()];
				// MB = 10⁶ bytes, as in the docs
				final double input = 2.0 * 4 * c.samples * c.features;
				for (int side = 0; side < ours.size(); side++) {
					final double[] ratio = new double[pairs], wallRatio = new double[pairs];
					for (int p = 0; p < pairs; p++) {
						ratio[p] = in[side][p] / numpy[p];
						wallRatio[p] = wall[side][p] / numpyWall[p];
					}
					final String who = "ours" + label(ours.get(side));
					out.println(String.format(Locale.ROOT,
						"%-12s %-16s %s %.3f s, numpy %.3f s (medians); ratio %.2f " +
							"(median of %d pairs; process %.2f: %s %.3f s, numpy %.3f s); load %.2f " +
							"→ %.2f", c.name, c.shape(), who, median(in[side]), median(numpy),
						median(ratio), pairs, median(wallRatio), who, median(wall[side]), median(
							numpyWall), loadBefore, loadAfter));
					warm(out, c, dir, backend(archive, ours.get(side)), who, median(numpy),
						median(numpyWall));
					out.println(String.format(Locale.ROOT,
						"%-12s %-16s peak resident memory (max over pairs): %s %.0f MB = %.2f × " +
							"the float32 input (%.0f MB; %s), numpy %.0f MB = %.2f ×", c.name, c
								.shape(), who, max(peak[side]) / 1e6, max(peak[side]) / input, input /
									1e6, heapText(c), max(peak[ours.size()]) / 1e6, max(peak[ours
										.size()]) / input));
				}
			}
			finally {
				for (final File f : dir.toFile().listFiles())
					f.delete();
				dir.toFile().delete();
			}
		}
	}

	/** " [vector]" for a forced backend, nothing for this JVM's choice. */
	private static String label(final String backend) {
		return backend == null ? "" : " [" + backend + "]";
	}

	/** The child's options for the given backend (null: as this JVM's settings say). */
	private static List<String> backend(final List<String> archive, final String backend) {
		if (backend == null) return archive;
		final List<String> out = new ArrayList<>(archive);
		out.add("-Dcpca.kernels=" + backend); // after the inherited one: the last one counts
		return out;
	}

	/**
	 * The same computation repeated in one JVM once compiled (what a Fiji user pays after
	 * the first run), against numpy's in-process median and, for automatic α, against
	 * numpy's whole process (the goal: ≤ {@value #WARM_AUTO_GOAL} of it).
	 */
	private static void warm(final PrintStream out, final Case c, final Path dir,
		final List<String> options, final String who, final double numpy,
		final double numpyProcess) throws IOException, InterruptedException
	{
		if (2L * c.samples * c.features > WARM_VALUES || c.peer.equals("gram")) return;
		final boolean auto = c.peer.equals("auto");
		final double warm = runJava(c, dir, options, auto ? "warmauto" : "warm")[0];
		out.println(String.format(Locale.ROOT, "%-12s %-16s the same computation repeated " +
			"in one JVM once compiled (warm, in-process): %s %.3f s = %.2f × numpy's " +
			"in-process median, %.2f × numpy's whole process%s", c.name, c.shape(), who, warm,
			warm / numpy, warm / numpyProcess, auto ? String.format(Locale.ROOT, " (goal ≤ %.2f)",
				WARM_AUTO_GOAL) : ""));
	}

	/** Goal of the warm automatic α: this fraction of numpy's whole process (issue 29). */
	static final double WARM_AUTO_GOAL = 0.25;

	private static double max(final double[] v) {
		double m = Double.NaN;
		for (final double x : v)
			if (!(x <= m)) m = x;
		return m;
	}

	static double median(final double[] v) {
		final double[] s = v.clone();
		Arrays.sort(s);
		final int n = s.length;
		return n % 2 == 1 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
	}

	private static void write(final Path dir, final float[][][] data) throws IOException {
		final String[] names = { "target.f32", "background.f32" };
		for (int j = 0; j < 2; j++) {
			try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(dir.resolve(
				names[j])), 1 << 20))
			{
				final int d = data[j][0].length;
				final ByteBuffer buf = ByteBuffer.allocate(4 * d).order(ByteOrder.LITTLE_ENDIAN);
				for (final float[] row : data[j]) {
					buf.clear();
					buf.asFloatBuffer().put(row);
					o.write(buf.array());
				}
			}
		}
		Files.writeString(dir.resolve("shape.txt"), data[0].length + " " + data[1].length +
			" " + data[0][0].length + "\n");
	}

	private static float[][] read(final Path file, final int n, final int d)
		throws IOException
	{
		final float[][] x = new float[n][d];
		try (InputStream in = new BufferedInputStream(Files.newInputStream(file),
			1 << 20); DataInputStream din = new DataInputStream(in))
		{
			final byte[] bytes = new byte[4 * d];
			for (int i = 0; i < n; i++) {
				din.readFully(bytes);
				ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(x[i]);
			}
		}
		return x;
	}

	private static String javaBin() {
		return Path.of(System.getProperty("java.home"), "bin", "java").toString();
	}

	/** The Java side of a pair, with the given extra JVM options. */
	private static double[] runJava(final Case c, final Path dir, final List<String> extra)
		throws IOException, InterruptedException
	{
		return runJava(c, dir, extra, c.peer.equals("auto") ? "auto" : "one");
	}

	/** The Java child in the given mode ({@link #main}). */
	private static double[] runJava(final Case c, final Path dir, final List<String> extra,
		final String mode) throws IOException, InterruptedException
	{
		final List<String> cmd = new ArrayList<>(List.of(javaBin()));
		cmd.addAll(Bench.childJvmOptions());
		cmd.addAll(extra);
		if (heapMiB(c) > 0) cmd.add("-Xmx" + heapMiB(c) + "m");
		cmd.addAll(List.of("-Djava.util.concurrent.ForkJoinPool.common" + ".parallelism=" +
			(threads > 0 ? threads : Runtime.getRuntime().availableProcessors()), "-cp", System
				.getProperty("java.class.path"), PeerBench.class.getName(), mode, dir
					.toString(), "2", Double.toString(Double.isNaN(c.alpha) ? 0 : c.alpha)));
		return timed(BlasEnvironment.unpinned(new ProcessBuilder(cmd)));
	}

	/**
	 * Class-data sharing for the Java child, as the {@code cpca} launcher gives a
	 * command-line run: an untimed run lists the classes it loads, a static archive of them
	 * is made (JDK 13+), and the timed runs map it. Returns the options that map it, or
	 * none where it could not be made (then the child loads its classes from the jar).
	 */
	private static List<String> childArchive(final Case c, final Path dir)
		throws IOException, InterruptedException
	{
		final Path list = dir.resolve("child.classlist"), jsa = dir.resolve("child.jsa");
		runJava(c, dir, Runtime.version().feature() >= 13 ? List.of(
			"-XX:DumpLoadedClassList=" + list) : List.of());
		if (Runtime.version().feature() < 13 || !Files.isRegularFile(list)) return List.of();
		final List<String> dump = new ArrayList<>(List.of(javaBin()));
		dump.addAll(Bench.childJvmOptions());
		dump.addAll(List.of("-Xshare:dump", "-XX:SharedClassListFile=" + list,
			"-XX:SharedArchiveFile=" + jsa, "-Xlog:disable", "-cp", System.getProperty(
				"java.class.path")));
		final Process p = new ProcessBuilder(dump).redirectErrorStream(true).redirectOutput(
			ProcessBuilder.Redirect.DISCARD).start();
		return p.waitFor() == 0 && Files.isRegularFile(jsa) && Files.size(jsa) > 0 ? List.of(
			"-Xshare:auto", "-XX:SharedArchiveFile=" + jsa) : List.of();
	}

	/** "-Xmx…m" or "the JVM's default heap" as the child was started. */
	private static String heapText(final Case c) {
		final long mib = heapMiB(c);
		return mib > 0 ? "-Xmx" + mib + "m" : "the JVM's default heap";
	}

	/**
	 * The JVM child's heap limit in MiB: what a user who follows docs/memory.md gives —
	 * the float32 input plus the memory check's estimate for the space (8·m² per dataset
	 * and two more, plus the reduced space's 8·N·min(N, d) factor) plus a quarter — and at
	 * least 2 GiB; 0 (no limit given) with {@link #defaultHeap}.
	 */
	static long heapMiB(final Case c) {
		if (defaultHeap) return 0;
		final long n = 2L * c.samples, d = c.features, m = Math.min(n, d);
		final long input = 4 * n * d;
		final long space = 8 * m * m * 4 + (d > n ? 8 * n * m : 0);
		return Math.max(2048, (input + space) * 5 / 4 >> 20);
	}

	private static double[] runPython(final Case c, final Path dir, final Path script,
		final String python) throws IOException, InterruptedException
	{
		final ProcessBuilder pb = BlasEnvironment.unpinned(new ProcessBuilder(python, script
			.toString(), c.peer, dir.toString(), "2", Double.toString(Double.isNaN(c.alpha) ? 0
				: c.alpha)));
		final Map<String, String> env = pb.environment();
		if (threads > 0) env.put("OPENBLAS_NUM_THREADS", Integer.toString(threads));
		return timed(pb);
	}

	/**
	 * {in-process seconds, whole-process wall seconds, peak resident bytes (NaN if not
	 * told)} of a child printing "seconds=… loaded=… peak=…".
	 */
	private static double[] timed(final ProcessBuilder pb) throws IOException,
		InterruptedException
	{
		pb.redirectErrorStream(true);
		final long t0 = System.nanoTime();
		final Process p = pb.start();
		final String output = new String(p.getInputStream().readAllBytes(),
			StandardCharsets.UTF_8);
		final int code = p.waitFor();
		final double wall = (System.nanoTime() - t0) / 1e9;
		for (final String line : output.split("\n"))
			if (line.startsWith("seconds=")) {
				double peak = Double.NaN;
				for (final String field : line.split(" "))
					if (field.startsWith("peak=")) peak = Double.parseDouble(field.substring(5));
				return new double[] { Double.parseDouble(line.substring(8).split(" ")[0]), wall,
					peak };
			}
		throw new IllegalStateException("benchmark child failed (exit " + code + "): " +
			String.join(" ", pb.command()) + "\n" + output);
	}

	/**
	 * The Java side of a pair, in a fresh JVM: {@code one|auto DIR K ALPHA}. Loads the two
	 * float32 files, then times what {@code cpca fit} computes: the fit (covariances or
	 * the reduced space), the solve at α (or the automatic α sweep with its affinity and
	 * clustering) and the target scores. {@code warm DIR K ALPHA} ({@code warmauto}): the
	 * one-α (automatic-α) computation repeated in this JVM, the median time once it is
	 * compiled.
	 */
	public static void main(final String[] args) throws IOException {
		final Path dir = Path.of(args[1]);
		final String[] shape = Files.readString(dir.resolve("shape.txt")).trim().split(" ");
		final int nt = Integer.parseInt(shape[0]), nb = Integer.parseInt(shape[1]), d = Integer
			.parseInt(shape[2]);
		final long t0 = System.nanoTime();
		final Dataset t = Dataset.wrap("target", read(dir.resolve("target.f32"), nt, d));
		final Dataset b = Dataset.wrap("background", read(dir.resolve("background.f32"), nb,
			d));
		final long t1 = System.nanoTime();
		final CpcaOptions o = CpcaOptions.defaults().withComponents(Integer.parseInt(args[2]));
		if (args[0].startsWith("warm")) {
			// the same as "one" ("auto" for warmauto) again and again: the median of the
			// last WARM_RUNS of 2·WARM_RUNS + 1, once this JVM has compiled it
			final double[] s = new double[WARM_RUNS];
			for (int i = 0; i <= 2 * WARM_RUNS; i++) {
				final long w0 = System.nanoTime();
				final Cpca fit = Cpca.fit(t, b, o, Progress.NONE);
				if (args[0].equals("warmauto")) fit.automatic(Progress.NONE);
				else fit.model(Double.parseDouble(args[3]));
				if (i > WARM_RUNS) s[i - WARM_RUNS - 1] = (System.nanoTime() - w0) / 1e9;
			}
			System.out.println(String.format(Locale.ROOT, "seconds=%.6f loaded=%.6f", median(
				s), (t1 - t0) / 1e9));
			return;
		}
		final Cpca cpca = Cpca.fit(t, b, o, Progress.NONE);
		if (args[0].equals("auto")) cpca.automatic(Progress.NONE);
		else cpca.model(Double.parseDouble(args[3]));
		final long t2 = System.nanoTime();
		System.out.println(String.format(Locale.ROOT, "seconds=%.6f loaded=%.6f peak=%.0f",
			(t2 - t1) / 1e9, (t1 - t0) / 1e9, peakResident()));
	}

	/** Timed runs of the {@code warm} mode of {@link #main}. */
	private static final int WARM_RUNS = 5;
	/** Cases of one α on up to this many values also get the warm floor (5,000 + 5,000 × 784). */
	private static final long WARM_VALUES = 10_000_000;

	/** The process's peak resident memory in bytes (Linux's VmHWM), or NaN elsewhere. */
	static double peakResident() {
		try {
			for (final String line : Files.readAllLines(Path.of("/proc/self/status")))
				if (line.startsWith("VmHWM:")) return 1024 * Double.parseDouble(line.substring(6)
					.trim().split("\\s+")[0]);
		}
		catch (final IOException | RuntimeException e) {
			// not Linux: no peak
		}
		return Double.NaN;
	}
}
