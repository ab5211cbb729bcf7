package org.cpca.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.cpca.core.Progress;
import org.cpca.generate.TestImageGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tests {@code cpca generate}: the bundled images regenerated, existing files kept. */
public class GenerateCommandTest {

	private static final String[] SMALL = { "--size", "8", "--target-slices", "2",
		"--background-slices", "2" };

	/** Runs the CLI; returns the exit code, standard output and standard error. */
	private static Object[] cpca(final String... args) {
		final StringWriter out = new StringWriter(), err = new StringWriter();
		final int code = Main.run(new PrintWriter(out, true), new PrintWriter(err, true),
			args);
		return new Object[] { code, out.toString(), err.toString() };
	}

	private static String[] args(final Path out, final String... more) {
		final List<String> a = new ArrayList<>(List.of("generate", "--out", out
			.toString()));
		a.addAll(List.of(more));
		return a.toArray(new String[0]);
	}

	@Test
	public void testDocumentedCommandRegeneratesTheBundledImagesByteForByte(
		@TempDir final Path dir) throws Exception
	{
		// test-images/README.md: ./cpca generate --out test-images --overwrite (into an
		// empty folder here, so without --overwrite)
		final Object[] r = cpca(args(dir));
		assertEquals(0, r[0], (String) r[2]);
		for (final String name : List.of(TestImageGenerator.TARGET_FILE,
			TestImageGenerator.BACKGROUND_FILE, TestImageGenerator.LABELS_FILE))
			assertArrayEquals(Files.readAllBytes(Paths.get("test-images", name)), Files
				.readAllBytes(dir.resolve(name)), name + " differs from test-images/" + name);
	}

	@Test
	public void testExistingFilesAreNotReplacedWithoutOverwrite(@TempDir final Path dir)
		throws Exception
	{
		final Path target = dir.resolve(TestImageGenerator.TARGET_FILE);
		final Path labels = dir.resolve(TestImageGenerator.LABELS_FILE);
		Files.write(target, "my own target".getBytes(StandardCharsets.UTF_8));
		Files.write(labels, "my own labels".getBytes(StandardCharsets.UTF_8));
		final Object[] r = cpca(args(dir, SMALL));
		assertEquals(1, r[0]);
		final String err = (String) r[2];
		assertEquals(1, err.strip().lines().count(), err);
		assertTrue(err.startsWith("cpca: --out " + dir + " already holds target.tif, " +
			"target-labels.txt: add --overwrite"), err);
		assertFalse(err.contains("Exception") || err.contains("\tat "), err);
		assertEquals("my own target", Files.readString(target));
		assertEquals("my own labels", Files.readString(labels));
		assertEquals(List.of("target-labels.txt", "target.tif"), names(dir),
			"nothing else written");

		final Object[] again = cpca(args(dir, concat(SMALL, "--overwrite")));
		assertEquals(0, again[0], (String) again[2]);
		assertEquals(List.of("background.tif", "target-labels.txt", "target.tif"), names(
			dir));
		assertEquals(List.of("0", "1"), Files.readAllLines(labels).stream().sorted()
			.collect(Collectors.toList()), "replaced by the generated labels");
	}

	@Test
	public void testOtherFilesInOutDoNotBlock(@TempDir final Path dir) throws Exception {
		Files.write(dir.resolve("notes.txt"), new byte[] { 1 });
		assertEquals(0, cpca(args(dir, SMALL))[0]);
		assertArrayEquals(new byte[] { 1 }, Files.readAllBytes(dir.resolve("notes.txt")));
	}

	@Test
	public void testLargeStacksNeedOnlyTheirBytes(@TempDir final Path dir) throws Exception {
		// 1,500 + 1,500 slices of 128 × 128 are 49 MB of 8-bit pixels: a 200 MB heap holds
		// them (the estimate was once 8 bytes per pixel, 393 MB, and refused this)
		final Path out = dir.resolve("out");
		final Process p = new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin",
			"java").toString(), "-Xmx200m", "-Djava.awt.headless=true", "-cp", System
				.getProperty("java.class.path"), Main.class.getName(), "generate", "--out", out
					.toString(), "--size", "128", "--target-slices", "1500",
			"--background-slices", "1500", "--quiet").redirectErrorStream(true).start();
		final String text = new String(p.getInputStream().readAllBytes(),
			StandardCharsets.UTF_8);
		assertEquals(0, p.waitFor(), text);
		assertEquals(1500L * 128 * 128, Files.size(out.resolve(TestImageGenerator.TARGET_FILE)),
			1e6, "the target's pixels and a small header");
		final TestImageGenerator.Config c = TestImageGenerator.Config.defaults().withSize(128,
			128).withSlices(1500, 1500);
		assertTrue(TestImageGenerator.bytesNeeded(c) < 70_000_000L, "needs " +
			TestImageGenerator.bytesNeeded(c));
	}

	private static String[] concat(final String[] a, final String b) {
		return Stream.concat(Stream.of(a), Stream.of(b)).toArray(String[]::new);
	}

	private static List<String> names(final Path dir) throws Exception {
		try (Stream<Path> s = Files.list(dir)) {
			return s.map(p -> p.getFileName().toString()).sorted().collect(Collectors
				.toList());
		}
	}
}
