package org.cpca.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;

import ij.IJ;
import ij.ImagePlus;

import org.cpca.analysis.Analysis;
import org.cpca.bench.StreamGoalBench.Run;
import org.cpca.command.ContrastivePcaCommand;
import org.cpca.core.model.FittedModel;
import org.cpca.core.run.Settings;
import org.scijava.Cancelable;
import org.scijava.Context;
import org.scijava.command.CommandService;
import org.scijava.module.Module;
import org.scijava.module.ModuleService;

/**
 * {@code cpca bench --fiji-goal DIR}: issue 30's goal for the Fiji command, whole process.
 * The data of {@code --stream-goal} (2,000 + 2,000 32-bit slices of 512 × 512 in
 * {@code DIR/target.tif} and {@code DIR/background.tif}, only read) are opened as TIFF
 * virtual stacks ({@link IJ#openVirtual}, what File &gt; Import &gt; TIFF Virtual Stack
 * gives) in a child JVM with the given heap (default 1g), and Plugins &gt; Contrastive PCA
 * &gt; Contrastive PCA... ({@link ContrastivePcaCommand}) runs on them through a real
 * SciJava context, headless, with its images, plots and tables made (not displayed) and
 * its model saved. Per α (one, automatic): the command's wall time against the in-memory
 * {@code cpca fit} ({@link StreamGoalBench#fit} with {@link StreamGoalBench#MEMORY_HEAP};
 * goal ≤ 1.5), the child's peak resident memory (goal ≤ 1.5 GB), the bytes it read (from
 * {@code /proc/self/io}: a pass over the data reads each pixel once), whether the target
 * was copied into memory, and exactness against the in-memory fit (eigenvalues and the
 * largest principal angle, {@link StreamGoalBench#maxRelative},
 * {@link StreamGoalBench#largestAngle}).
 * <p>
 * The child is this class's {@link #main}: it writes {@code summary.json} (each model's
 * eigenvalues, and what it read) beside the {@code model.json} the command saves, as
 * {@code cpca fit} does.
 */
final class FijiGoalBench {

	private FijiGoalBench() {}

	/**
	 * @param heaps the command's heap limits, e.g. {@code 1g} (the goal's) and {@code 1200m}
	 */
	static void run(final PrintStream out, final Path dir, final List<String> heaps)
		throws IOException, InterruptedException
	{
		final Path target = dir.resolve("target.tif"), background = dir.resolve(
			"background.tif");
		if (!Files.isRegularFile(target) || !Files.isRegularFile(background))
			throw new IllegalArgumentException(dir + " has no target.tif and background.tif: " +
				"make them once with cpca bench --stream-goal " + dir);
		final long bytes = Files.size(target) + Files.size(background);
		out.println(String.format(Locale.ROOT, "data: %s (%.2f GB of float32) opened as TIFF " +
			"virtual stacks; load %.2f", dir, bytes / 1e9, PeerBench.load()));
		for (final String alpha : new String[] { "2", "auto" }) {
			// the runs' files go to the temporary folder: DIR is only read
			final Path work = Files.createTempDirectory("cpca-fiji-goal");
			try {
				final double load = PeerBench.load();
				final Run memory;
				try {
					memory = StreamGoalBench.fit(dir, work.resolve("memory"),
						StreamGoalBench.MEMORY_HEAP, alpha);
				}
				catch (final IllegalStateException e) {
					out.println("fiji goal α=" + alpha + ": no in-memory reference: " + e
						.getMessage());
					continue;
				}
				out.println("  α=" + alpha + " cpca fit in memory (" + StreamGoalBench.MEMORY_HEAP +
					"): " + memory);
				for (final String heap : heaps) {
					final Run fiji;
					try {
						fiji = command(target, background, work.resolve("fiji" + heap), "-Xmx" + heap,
							alpha);
					}
					catch (final IllegalStateException e) {
						out.println("fiji goal α=" + alpha + " (-Xmx" + heap + "): NOT MET: " + e
							.getMessage());
						continue;
					}
					final double ratio = fiji.wall / memory.wall;
					out.println(String.format(Locale.ROOT, "fiji goal α=%s -Xmx%s %d+%d×%d: wall " +
						"%.1f s Contrastive PCA... on virtual stacks / %.1f s cpca fit in memory = " +
						"%.2f (goal ≤ %.1f: %s); peak resident %.0f MB (goal ≤ %.0f MB: %s), %.0f MB " +
						"in memory; eigenvalues %.1e relative (%d results); components %.1e° apart; " +
						"%s; load %.2f → %.2f", alpha, heap, StreamGoalBench.SLICES,
						StreamGoalBench.SLICES, StreamGoalBench.SIDE * StreamGoalBench.SIDE,
						fiji.wall, memory.wall, ratio, StreamGoalBench.TIME_GOAL, ratio <=
							StreamGoalBench.TIME_GOAL ? "ok" : "NOT MET", fiji.peak / 1e6,
						StreamGoalBench.PEAK_GOAL / 1e6, fiji.peak <= StreamGoalBench.PEAK_GOAL ? "ok"
							: "NOT MET", memory.peak / 1e6, StreamGoalBench.maxRelative(
								memory.eigenvalues, fiji.eigenvalues), memory.eigenvalues.size(),
						Math.toDegrees(StreamGoalBench.largestAngle(memory.components,
							fiji.components)), fiji.plan, load, PeerBench.load()));
					out.flush();
				}
			}
			finally {
				StreamGoalBench.delete(work);
			}
		}
	}

	/**
	 * The command in a child JVM ({@link #main}) with the options Fiji is advised to start
	 * with (the Vector API's module, docs/install.md) and its default collector.
	 */
	private static Run command(final Path target, final Path background, final Path out,
		final String heap, final String alpha) throws IOException, InterruptedException
	{
		final List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty(
			"java.home"), "bin", "java").toString()));
		if (ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()) cmd.addAll(
			Bench.VECTOR_JVM_OPTIONS);
		final String kernels = System.getProperty("cpca.kernels");
		if (kernels != null) cmd.add("-Dcpca.kernels=" + kernels);
		cmd.addAll(List.of(heap, "-Djava.awt.headless=true", "-cp", System.getProperty(
			"java.class.path"), FijiGoalBench.class.getName(), target.toString(), background
				.toString(), alpha, out.toString()));
		return StreamGoalBench.child(cmd, out, "Contrastive PCA... (" + heap + ")");
	}

	/**
	 * The child: {@code TARGET BACKGROUND ALPHA OUT}. Opens both TIFFs as virtual stacks,
	 * runs the command and writes OUT/summary.json and OUT/model.json; on failure, the
	 * command's reason as its last line and exit code 1.
	 */
	public static void main(final String[] args) throws Exception {
		final Path out = Path.of(args[3]);
		Files.createDirectories(out);
		final Context context = new Context(CommandService.class);
		final Result r;
		try {
			final long read0 = bytesRead();
			final ImagePlus target = IJ.openVirtual(args[0]), background = IJ.openVirtual(
				args[1]);
			if (target == null || background == null) throw new IllegalStateException(
				"ImageJ could not open " + args[0] + " or " + args[1] + " as a virtual stack");
			r = command(context, target, background, args[2], out);
			r.bytesRead = bytesRead() - read0;
		}
		finally {
			context.dispose();
		}
		if (r.failure != null) {
			System.out.println(r.failure);
			System.exit(1);
		}
		r.write(out.resolve("summary.json"));
		System.out.println(r.facts());
	}

	/** What one run of the command made. */
	static final class Result {

		/** Why the command was cancelled, or {@code null}. */
		String failure;
		Analysis analysis;
		/** The outputs it made: images and plots by their names, tables. */
		final List<String> outputs = new ArrayList<>();
		/** Bytes the process read while the command ran ({@code /proc/self/io}), or -1. */
		long bytesRead = -1;
		/** The input's size in bytes (a pass over both stacks). */
		long inputBytes;

		/** Whether the target was read in passes rather than copied into memory. */
		boolean streamed() {
			return analysis.targetData() == null;
		}

		String facts() {
			final String read = bytesRead < 0 ? "bytes read unknown" : String.format(Locale.ROOT,
				"read %.2f GB = %.2f passes over the input (%d pixels)", bytesRead / 1e9,
				(double) bytesRead / inputBytes, bytesRead / 4);
			return (streamed() ? "virtual stacks read in passes, never copied"
				: "COPIED INTO MEMORY") + "; " + read + "; outputs: " + String.join(", ",
					outputs);
		}

		/** summary.json as {@code cpca fit} writes it, with what the bench reads. */
		void write(final Path file) throws IOException {
			final JsonObject o = new JsonObject(), t = new JsonObject();
			t.add("plan", new JsonPrimitive(facts()));
			o.add("target", t);
			final JsonArray results = new JsonArray();
			for (final FittedModel m : analysis.models()) {
				final JsonObject e = new JsonObject();
				final JsonArray values = new JsonArray();
				for (final double v : m.eigenvalues())
					values.add(v);
				e.add("eigenvalues", values);
				results.add(e);
			}
			o.add("results", results);
			try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
				w.write(o.toString());
			}
		}
	}

	/**
	 * Contrastive PCA... on two open images as Fiji runs it (through the module service,
	 * with pre- and postprocessing), cPCA at α ({@code auto}: automatic α), the default
	 * components, every output made and the model saved to {@code out/model.json}.
	 */
	static Result command(final Context context, final ImagePlus target,
		final ImagePlus background, final String alpha, final Path out)
		throws InterruptedException, ExecutionException
	{
		final boolean auto = alpha.equals("auto");
		final Map<String, Object> in = new HashMap<>();
		in.put("target", target);
		in.put("background_source", "image");
		in.put("background", background);
		in.put("more_backgrounds", "");
		in.put("samples", "slices");
		in.put("axes", "auto");
		in.put("missing", "drop");
		in.put("method", "cpca");
		in.put("alpha_mode", auto ? "auto" : "fixed");
		in.put("alpha", auto ? 2.0 : Double.parseDouble(alpha));
		in.put("components", Settings.builder().build().components());
		in.put("standardize", false);
		in.put("whiten", false);
		in.put("bin", 1);
		in.put("seed", 0L);
		in.put("significance", 0);
		in.put("bootstrap", 0);
		in.put("significance_reselect", false);
		in.put("show_images", true);
		in.put("show_plots", true);
		in.put("show_tables", true);
		in.put("save_model", out.resolve("model.json").toFile());
		final CommandService commands = context.service(CommandService.class);
		final Module m = context.service(ModuleService.class).run(commands.getCommand(
			ContrastivePcaCommand.class.getName()), true, in).get();
		final Result r = new Result();
		r.inputBytes = 4L * (target.getStackSize() + background.getStackSize()) * target
			.getWidth() * target.getHeight();
		if (((Cancelable) m).isCanceled()) {
			r.failure = "cancelled: " + ((Cancelable) m).getCancelReason();
			return r;
		}
		final ContrastivePcaCommand c = (ContrastivePcaCommand) m.getDelegateObject();
		r.analysis = c.analysis();
		m.getOutputs().forEach((name, value) -> {
			if (value instanceof ImagePlus) r.outputs.add(name);
		});
		if (c.scoresTable() != null) r.outputs.add("scores table (" + c.scoresTable().size() +
			" rows)");
		if (c.componentsTable() != null) r.outputs.add("components table");
		return r;
	}

	/** The bytes this process has read so far (rchar of /proc/self/io), or -1. */
	static long bytesRead() {
		try {
			for (final String line : Files.readAllLines(Path.of("/proc/self/io")))
				if (line.startsWith("rchar:")) return Long.parseLong(line.substring(6).trim());
		}
		catch (final IOException | RuntimeException e) {
			// not Linux
		}
		return -1;
	}
}
