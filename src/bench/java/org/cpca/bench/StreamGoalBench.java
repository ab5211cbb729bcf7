package org.cpca.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import ij.ImagePlus;
import ij.ImageStack;

import org.cpca.image.ImageInput;
import org.cpca.image.TiffFiles;

/**
 * {@code cpca bench --stream-goal DIR}: issue 30's goal for data larger than the heap,
 * whole process. 2,000 + 2,000 32-bit slices of 512 × 512 (4.2 GB on disk):
 * {@code cpca fit} at one α and at automatic α in a child JVM with a roomy heap (read
 * into memory) against the same command with {@code -Xmx1g} or the given heap (the memory plan streams on
 * its own, docs/memory.md). Per α: wall time of each process and their ratio (goal ≤
 * 1.5), the peak resident memory of each child (Linux's VmHWM, read from
 * {@code /proc/PID/status} while it runs; goal ≤ 1.5 GB for the streamed one), and
 * exactness: each result's eigenvalues (relative) and the largest principal angle
 * between the default model's components (by its sine, in degrees).
 * <p>
 * The data are made once into DIR and reused: {@code target.tif} and
 * {@code background.tif} as 32-bit floats, converted one stack at a time from
 * {@code cpca generate}'s 8-bit images (kept in {@code DIR/u8}).
 */
final class StreamGoalBench {

	static final int SLICES = 2000, SIDE = 512;
	/** The in-memory child's heap: the input (4.2 GB) and docs/memory.md's 40·N² with room. */
	static final String MEMORY_HEAP = "-Xmx10g";
	/** The goals: streamed wall time / in-memory wall time, and the streamed peak (bytes). */
	static final double TIME_GOAL = 1.5, PEAK_GOAL = 1.5e9;

	private StreamGoalBench() {}

	/**
	 * @param streamHeap the streamed child's heap limit (the goal's: 1g)
	 */
	static void run(final PrintStream out, final Path dir, final String streamHeap)
		throws IOException, InterruptedException
	{
		final String heap = "-Xmx" + streamHeap;
		prepare(out, dir);
		out.println(String.format(Locale.ROOT, "data: %s (2 × %.2f GB of float32); load %.2f",
			dir, Files.size(dir.resolve("target.tif")) / 1e9, PeerBench.load()));
		for (final String alpha : new String[] { "2", "auto" }) {
			final Path work = Files.createTempDirectory(dir, "runs");
			try {
				final double load = PeerBench.load();
				final Run memory, streamed;
				try {
					memory = fit(dir, work.resolve("memory"), MEMORY_HEAP, alpha);
					out.println("  α=" + alpha + " in memory (" + MEMORY_HEAP + "): " + memory);
					streamed = fit(dir, work.resolve("streamed"), heap, alpha);
					out.println("  α=" + alpha + " streamed (" + heap + "): " + streamed);
				}
				catch (final IllegalStateException e) {
					out.println("stream goal α=" + alpha + ": NOT MET: " + e.getMessage());
					continue;
				}
				final double ratio = streamed.wall / memory.wall;
				out.println(String.format(Locale.ROOT, "stream goal α=%s %d+%d×%d: wall %.1f s " +
					"streamed / %.1f s in memory = %.2f (goal ≤ %.1f: %s); peak resident %.0f MB " +
					"streamed (goal ≤ %.0f MB: %s), %.0f MB in memory; eigenvalues %.1e relative " +
					"(%d results); components %.1e° apart; plan: %s; load %.2f → %.2f", alpha,
					SLICES, SLICES, SIDE * SIDE, streamed.wall, memory.wall, ratio, TIME_GOAL,
					ratio <= TIME_GOAL ? "ok" : "NOT MET", streamed.peak / 1e6, PEAK_GOAL / 1e6,
					streamed.peak <= PEAK_GOAL ? "ok" : "NOT MET", memory.peak / 1e6, maxRelative(
						memory.eigenvalues, streamed.eigenvalues), memory.eigenvalues.size(), Math
							.toDegrees(largestAngle(memory.components, streamed.components)),
					streamed.plan, load, PeerBench.load()));
				out.flush();
			}
			finally {
				delete(work);
			}
		}
	}

	/** What a child's {@code cpca fit} (or {@link FijiGoalBench}'s command) took and wrote. */
	static final class Run {

		double wall, peak;
		String plan;
		/** Each result's eigenvalues, in summary.json's order. */
		final List<double[]> eigenvalues = new ArrayList<>();
		/** The default model's components (model.json). */
		double[][] components;

		@Override
		public String toString() {
			return String.format(Locale.ROOT, "%.1f s, peak resident %.0f MB, %s", wall, peak /
				1e6, plan);
		}
	}

	/** One {@code cpca fit} in a child JVM with the launcher's options and the given heap. */
	static Run fit(final Path data, final Path out, final String heap,
		final String alpha) throws IOException, InterruptedException
	{
		final List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty(
			"java.home"), "bin", "java").toString()));
		cmd.addAll(Bench.childJvmOptions());
		cmd.addAll(List.of(heap, "-Djava.awt.headless=true", "-cp", System.getProperty(
			"java.class.path"), "org.cpca.cli.Main", "fit", "--target", data.resolve(
				"target.tif").toString(), "--background", data.resolve("background.tif")
					.toString(), "--alpha", alpha, "--no-plots", "--quiet", "--out", out
						.toString()));
		return child(cmd, out, "cpca fit (" + heap + ")");
	}

	/**
	 * Runs a child JVM that writes {@code summary.json} and {@code model.json} into
	 * {@code out} (its output in {@code out.log}), watching its peak resident memory.
	 *
	 * @param what the child, for the failure's message
	 * @throws IllegalStateException with the child's last line if it failed
	 */
	static Run child(final List<String> cmd, final Path out, final String what)
		throws IOException, InterruptedException
	{
		final Path log = out.resolveSibling(out.getFileName() + ".log");
		final ProcessBuilder pb = BlasEnvironment.unpinned(new ProcessBuilder(cmd))
			.redirectErrorStream(true).redirectOutput(log.toFile());
		final Run r = new Run();
		final long t0 = System.nanoTime();
		final Process p = pb.start();
		final Path status = Path.of("/proc", Long.toString(p.pid()), "status");
		while (!p.waitFor(100, TimeUnit.MILLISECONDS))
			r.peak = Math.max(r.peak, peakOf(status));
		r.wall = (System.nanoTime() - t0) / 1e9;
		if (p.exitValue() != 0) {
			// the child's own message (one line) and the command, then the next case
			final List<String> lines = Files.readAllLines(log);
			throw new IllegalStateException(String.format(Locale.ROOT, "%s failed after " +
				"%.1f s, peak resident %.0f MB: %s (command: %s)", what, r.wall, r.peak / 1e6,
				lines.isEmpty() ? "no output" : lines.get(lines.size() - 1), String.join(" ",
					cmd)));
		}
		return results(out, r);
	}

	/** {@code r} with the plan, eigenvalues and components of out/summary.json, model.json. */
	static Run results(final Path out, final Run r) throws IOException {
		final JsonObject summary = json(out.resolve("summary.json"));
		final JsonElement plan = summary.getAsJsonObject("target").get("plan");
		r.plan = plan == null || plan.isJsonNull() ? "no plan recorded" : plan.getAsString();
		for (final JsonElement e : summary.getAsJsonArray("results"))
			r.eigenvalues.add(doubles(e.getAsJsonObject().getAsJsonArray("eigenvalues")));
		final JsonArray comps = json(out.resolve("model.json")).getAsJsonArray("components");
		r.components = new double[comps.size()][];
		for (int c = 0; c < comps.size(); c++)
			r.components[c] = doubles(comps.get(c).getAsJsonArray());
		return r;
	}

	/** The VmHWM of a running process in bytes (0 once it is gone). */
	private static double peakOf(final Path status) {
		try {
			for (final String line : Files.readAllLines(status))
				if (line.startsWith("VmHWM:")) return 1024 * Double.parseDouble(line.substring(6)
					.trim().split("\\s+")[0]);
		}
		catch (final IOException | RuntimeException e) {
			// the process has just ended
		}
		return 0;
	}

	private static JsonObject json(final Path file) throws IOException {
		try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
			return JsonParser.parseReader(r).getAsJsonObject();
		}
	}

	private static double[] doubles(final JsonArray a) {
		final double[] v = new double[a.size()];
		for (int i = 0; i < v.length; i++)
			v[i] = a.get(i).getAsDouble();
		return v;
	}

	/** The largest |a − b| / |a| over every eigenvalue of every result. */
	static double maxRelative(final List<double[]> a, final List<double[]> b) {
		if (a.size() != b.size()) return Double.POSITIVE_INFINITY;
		double max = 0;
		for (int r = 0; r < a.size(); r++) {
			if (a.get(r).length != b.get(r).length) return Double.POSITIVE_INFINITY;
			for (int c = 0; c < a.get(r).length; c++)
				max = Math.max(max, Math.abs(a.get(r)[c] - b.get(r)[c]) / Math.abs(a.get(r)[c]));
		}
		return max;
	}

	/**
	 * The largest principal angle (radians) between the spans of the rows of a and b, from
	 * its sine: the largest singular value of b's orthonormal rows minus their projection
	 * onto a's (accurate for tiny angles, where the cosine is not).
	 */
	static double largestAngle(final double[][] a, final double[][] b) {
		final double[][] qa = orthonormal(a), qb = orthonormal(b);
		final int k = qb.length;
		final double[][] r = new double[k][];
		for (int i = 0; i < k; i++) {
			r[i] = qb[i].clone();
			for (final double[] q : qa)
				axpy(-dot(q, qb[i]), q, r[i]);
		}
		// the largest eigenvalue of r rᵀ (k × k, symmetric) by power iteration
		final double[][] m = new double[k][k];
		for (int i = 0; i < k; i++)
			for (int j = 0; j < k; j++)
				m[i][j] = dot(r[i], r[j]);
		double[] v = new double[k];
		Arrays.fill(v, 1 / Math.sqrt(k));
		double lambda = 0;
		for (int it = 0; it < 500; it++) {
			final double[] w = new double[k];
			for (int i = 0; i < k; i++)
				w[i] = dot(m[i], v);
			final double norm = Math.sqrt(dot(w, w));
			if (norm == 0) return 0;
			lambda = dot(v, w);
			for (int i = 0; i < k; i++)
				w[i] /= norm;
			v = w;
		}
		return Math.asin(Math.min(1, Math.sqrt(Math.max(0, lambda))));
	}

	/** Orthonormal rows spanning the rows of x (modified Gram–Schmidt, twice). */
	private static double[][] orthonormal(final double[][] x) {
		final double[][] q = new double[x.length][];
		for (int i = 0; i < x.length; i++) {
			final double[] v = x[i].clone();
			for (int pass = 0; pass < 2; pass++)
				for (int j = 0; j < i; j++)
					axpy(-dot(q[j], v), q[j], v);
			final double norm = Math.sqrt(dot(v, v));
			for (int f = 0; f < v.length; f++)
				v[f] /= norm;
			q[i] = v;
		}
		return q;
	}

	private static double dot(final double[] a, final double[] b) {
		double s = 0;
		for (int i = 0; i < a.length; i++)
			s += a[i] * b[i];
		return s;
	}

	private static void axpy(final double s, final double[] x, final double[] y) {
		for (int i = 0; i < y.length; i++)
			y[i] += s * x[i];
	}

	/**
	 * Makes DIR's float32 stacks unless they are there: {@code cpca generate} into
	 * {@code DIR/u8} (8-bit) in a child, then each stack converted to 32-bit floats.
	 */
	private static void prepare(final PrintStream out, final Path dir) throws IOException,
		InterruptedException
	{
		if (Files.isRegularFile(dir.resolve("target.tif")) && Files.isRegularFile(dir
			.resolve("background.tif"))) return;
		final Path u8 = dir.resolve("u8");
		if (!Files.isRegularFile(u8.resolve("background.tif"))) {
			out.println("making the data once: cpca generate into " + u8 + " (8-bit), then " +
				"32-bit copies in " + dir);
			final List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty(
				"java.home"), "bin", "java").toString(), "-Xmx3g", "-Djava.awt.headless=true",
				"-cp", System.getProperty("java.class.path"), "org.cpca.cli.Main", "generate",
				"--out", u8.toString(), "--target-slices", Integer.toString(SLICES),
				"--background-slices", Integer.toString(SLICES), "--size", Integer.toString(SIDE),
				"--seed", "512"));
			final Process p = new ProcessBuilder(cmd).inheritIO().start();
			if (p.waitFor() != 0) throw new IllegalStateException("cpca generate failed: " +
				String.join(" ", cmd));
		}
		for (final String name : new String[] { "target.tif", "background.tif" }) {
			final Path to = dir.resolve(name);
			if (Files.isRegularFile(to)) continue;
			final ImagePlus in = ImageInput.openVirtual(u8.resolve(name));
			final ImageStack floats = new ImageStack(in.getWidth(), in.getHeight());
			final ImageStack stack = in.getStack();
			for (int s = 1; s <= stack.getSize(); s++)
				floats.addSlice(stack.getSliceLabel(s), stack.getProcessor(s).convertToFloat());
			final Path part = dir.resolve(name + ".part");
			TiffFiles.save(new ImagePlus(name, floats), part);
			Files.move(part, to);
		}
	}

	static void delete(final Path dir) throws IOException {
		if (!Files.exists(dir)) return;
		try (Stream<Path> s = Files.walk(dir)) {
			for (final Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator)
				Files.delete(p);
		}
	}
}
