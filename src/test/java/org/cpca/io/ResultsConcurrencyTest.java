package org.cpca.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.cpca.core.Progress;
import org.cpca.core.run.Settings;
import org.cpca.generate.TestImageGenerator;
import org.cpca.render.PlotStyle;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The results folder written side by side ({@link WriteJobs}) is the folder written one
 * file after the other, byte for byte (the manifest's order too), with one model and with
 * several, with and without every figure format; two folders draw their plots one at a
 * time; and a file that cannot be written leaves no folder, staging folder or lock behind,
 * though other files were being written at that moment.
 */
class ResultsConcurrencyTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	@TempDir
	static Path images;

	@TempDir
	Path dir;

	@BeforeAll
	static void makeImages() throws Exception {
		TestImageGenerator.write(TestImageGenerator.generate(TestImageGenerator.Config
			.defaults().withSlices(80, 80).withSize(16, 16)), images);
	}

	@AfterEach
	void threadsAsBefore() {
		System.clearProperty(WriteJobs.THREADS);
	}

	private static FitRequest.Builder request(final Path out, final String alpha) {
		return FitRequest.builder().target(images.resolve("target.tif")).background(images
			.resolve("background.tif")).labels(images.resolve("target-labels.txt")).settings(
				Settings.builder().set("alpha", alpha).build()).out(out);
	}

	/**
	 * Every file under {@code root} with its bytes; summary.json without its timings and
	 * the memory plan (which names the memory available at the time).
	 */
	private static Map<String, byte[]> files(final Path root) throws IOException {
		final Map<String, byte[]> m = new TreeMap<>();
		try (Stream<Path> s = Files.walk(root)) {
			for (final Path p : s.filter(Files::isRegularFile).collect(Collectors.toList())) {
				byte[] b = Files.readAllBytes(p);
				if (p.getFileName().toString().equals("summary.json")) b = new String(b,
					StandardCharsets.UTF_8).replaceAll("\"timings_s\": \\{[^}]*\\}", "").replaceAll("\"plan\": \"[^\"]*\"", "")
						.getBytes(StandardCharsets.UTF_8);
				m.put(root.relativize(p).toString(), b);
			}
		}
		return m;
	}

	private Map<String, byte[]> written(final String name, final int threads,
		final String alpha, final boolean all) throws IOException
	{
		System.setProperty(WriteJobs.THREADS, Integer.toString(threads));
		final Path out = dir.resolve(name);
		FitPipeline.run(request(out, alpha).allFigureFormats(all).build(), Progress.NONE);
		return files(out);
	}

	@Test
	void sideBySideIsByteForByteOneAfterTheOther() throws IOException {
		for (final String alpha : new String[] { "2", "auto" })
			for (final boolean all : new boolean[] { false, true }) {
				final String what = "alpha " + alpha + (all ? ", all formats" : "");
				final Map<String, byte[]> one = written("one-" + alpha + all, 1, alpha, all);
				final Map<String, byte[]> four = written("four-" + alpha + all, 4, alpha, all);
				assertEquals(one.keySet(), four.keySet(), what);
				assertTrue(one.keySet().stream().anyMatch(n -> n.endsWith(".png")), what);
				assertTrue(one.containsKey(OutputFolder.MANIFEST), what);
				for (final String n : one.keySet())
					assertArrayEquals(one.get(n), four.get(n), what + ": " + n);
			}
	}

	/** The one panel of one model is plots/scatter.png too, the same bytes. */
	@Test
	void oneModelsScatterPlotIsCopied() throws IOException {
		final Map<String, byte[]> f = written("copy", 4, "2", true);
		for (final String end : new String[] { ".png", "_hires.png", ".svg", ".pdf" })
			assertArrayEquals(f.get("plots/scatter_alpha_2" + end), f.get("plots/scatter" + end),
				end);
	}

	/**
	 * With several models, model.json is the primary model's file in models/ (written once
	 * and copied): the same bytes as exactly one of them.
	 */
	@Test
	void modelJsonIsThePrimaryModelsFile() throws IOException {
		final Map<String, byte[]> f = written("models", 2, "auto", false);
		final List<String> same = f.keySet().stream().filter(n -> n.startsWith("models") &&
			Arrays.equals(f.get(n), f.get("model.json"))).collect(Collectors.toList());
		assertEquals(1, same.size(), same.toString());
		assertTrue(f.keySet().stream().filter(n -> n.startsWith("models")).count() > 1);
	}

	/**
	 * Two results folders written at once (Fiji running two batches) draw their ImageJ
	 * plots one at a time: while another holds the drawing lock, a run waits before its
	 * plots and writes nothing into its folder.
	 */
	@Test
	void plotsWaitForAnotherFoldersPlots() throws Exception {
		System.setProperty(WriteJobs.THREADS, "2");
		final Path out = dir.resolve("waiting");
		final AtomicReference<Throwable> failed = new AtomicReference<>();
		final Thread writer = new Thread(() -> {
			try {
				FitPipeline.run(request(out, "2").build(), Progress.NONE);
			}
			catch (final Throwable e) {
				failed.set(e);
			}
		});
		synchronized (PlotStyle.DRAWING) {
			writer.start();
			// the run reaches its plots and waits there for this thread's drawing (one of its
			// threads blocked on a monitor with Results' plot job on its stack); without the
			// lock it would draw, finish and never block there
			final long end = System.nanoTime() + 60_000_000_000L;
			boolean waiting = false;
			while (!waiting && writer.isAlive() && System.nanoTime() < end) {
				Thread.sleep(10);
				for (final Map.Entry<Thread, StackTraceElement[]> t : Thread.getAllStackTraces()
					.entrySet())
					waiting |= t.getKey().getState() == Thread.State.BLOCKED && Arrays.stream(t
						.getValue()).anyMatch(f -> f.getClassName().startsWith(Results.class
							.getName()));
			}
			assertTrue(waiting, "plots drawn while another folder's were drawn");
			assertFalse(Files.exists(out));
		}
		writer.join(60_000);
		assertFalse(writer.isAlive());
		assertNull(failed.get());
		assertTrue(Files.isRegularFile(out.resolve("plots/eigenvalues.png")));
	}

	/**
	 * scores.csv cannot be written (a folder is in its place), early, while the figures
	 * are still being drawn on another thread: the run fails with one message naming
	 * --out, and leaves nothing, also after the other jobs would have ended.
	 */
	@Test
	void aFileThatCannotBeWrittenLeavesNothing() throws Exception {
		System.setProperty(WriteJobs.THREADS, "4");
		final Path parent = Files.createDirectories(dir.resolve("parent"));
		final Path out = parent.resolve("res");
		final Progress blocking = new Progress() {

			@Override
			public void stage(final String stage, final double fraction) {
				if (!stage.startsWith("writing results")) return;
				try (Stream<Path> s = Files.list(parent)) {
					for (final Path staging : s.collect(Collectors.toList()))
						if (Files.isDirectory(staging) && staging.getFileName().toString().endsWith(
							".tmp")) Files.createDirectories(staging.resolve("scores.csv/in-the-way"));
				}
				catch (final IOException e) {
					throw new IllegalStateException(e);
				}
			}
		};
		final IOException e = assertThrows(IOException.class, () -> FitPipeline.run(request(
			out, "auto").build(), blocking));
		assertTrue(e.getMessage().startsWith("cannot write the results into --out " + out),
			e.getMessage());
		assertFalse(e.getMessage().contains(".cpca-"), e.getMessage());
		Thread.sleep(1500); // a job that outlived the failure would write meanwhile
		assertEquals(List.of(), list(parent));
	}

	private static List<String> list(final Path d) throws IOException {
		try (Stream<Path> s = Files.list(d)) {
			return s.map(p -> p.getFileName().toString()).sorted().collect(Collectors
				.toList());
		}
	}
}
