package org.cpca.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tests {@link ConsoleProgress}: a redrawn line on a terminal, plain lines elsewhere, none quiet. */
public class ConsoleProgressTest {

	private static final long S = 1_000_000_000L;

	private final long[] now = { 0 };
	private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

	private ConsoleProgress progress(final ConsoleProgress.Mode mode) {
		return new ConsoleProgress(new PrintStream(bytes, true, StandardCharsets.UTF_8), mode,
			() -> now[0]);
	}

	/** A minute of work: slices 0..100 %, 6 s per tenth, then writing. */
	private String run(final ConsoleProgress p) {
		for (int i = 0; i <= 10; i++) {
			now[0] = 6 * i * S;
			p.stage("slice " + 10 * i + " of 100", i / 10.0);
		}
		now[0] = 61 * S;
		p.stage("writing target.tif", 0);
		p.done();
		return bytes.toString(StandardCharsets.UTF_8);
	}

	@Test
	public void testTerminalRedrawsOneLine() {
		final String out = run(progress(ConsoleProgress.Mode.TERMINAL));
		assertFalse(out.contains("\n"), out);
		assertTrue(out.contains("\r[###############               ] 50 % slice 50 of 100 " +
			"(30 s, about 30 s left)"), out);
		assertTrue(out.endsWith("\r"), "the bar is cleared at the end: " + out);
	}

	@Test
	public void testTerminalLinesFitAnEightyColumnTerminal() {
		final ConsoleProgress p = progress(ConsoleProgress.Mode.TERMINAL);
		p.stage("writing results to /a/rather/long/folder/name/of/results/made/by/a/batch/job",
			0.5);
		final String out = bytes.toString(StandardCharsets.UTF_8);
		assertEquals(ConsoleProgress.WIDTH, out.length(), out);
		assertTrue(out.endsWith("…"), out);
	}

	@Test
	public void testLinesWithoutATerminal() {
		final String out = run(progress(ConsoleProgress.Mode.LINES));
		assertFalse(out.contains("\r"), out);
		assertEquals(String.join("\n", "cpca: slice 10 of 100, 10 % (6 s, about 54 s left)",
			"cpca: slice 30 of 100, 30 % (18 s, about 42 s left)",
			"cpca: slice 50 of 100, 50 % (30 s, about 30 s left)",
			"cpca: slice 70 of 100, 70 % (42 s, about 18 s left)",
			"cpca: slice 90 of 100, 90 % (54 s, about 6 s left)", "cpca: writing target.tif, 0 %",
			"cpca: done in 1 min 1 s", ""), out.replace(System.lineSeparator(), "\n"));
	}

	@Test
	public void testShortRunsPrintNoLines() {
		final ConsoleProgress p = progress(ConsoleProgress.Mode.LINES);
		now[0] = 2 * S;
		p.stage("reading", 0.5);
		p.done();
		assertEquals("", bytes.toString(StandardCharsets.UTF_8));
	}

	/**
	 * The test runs turn progress off for the JVM (pom.xml): no progress lines in the
	 * build log from in-process runs; a user's run (no such property) keeps them.
	 */
	@Test
	public void testProgressIsOffInTestRunsAndOnForUsers() {
		assertEquals("off", System.getProperty(ConsoleProgress.PROPERTY),
			"the test runs set -Dcpca.progress=off");
		assertEquals(ConsoleProgress.Mode.QUIET, ConsoleProgress.mode(false, false, "off"));
		assertEquals(ConsoleProgress.Mode.QUIET, ConsoleProgress.mode(false, true, "off"));
		assertEquals(ConsoleProgress.Mode.LINES, ConsoleProgress.mode(false, false, null));
		assertEquals(ConsoleProgress.Mode.TERMINAL, ConsoleProgress.mode(false, true, null));
		assertEquals(ConsoleProgress.Mode.QUIET, ConsoleProgress.mode(true, true, null));
	}

	@Test
	public void testQuietPrintsNothing() {
		assertEquals("", run(progress(ConsoleProgress.Mode.QUIET)));
	}

	@Test
	public void testQuietFlag(@TempDir final Path dir) {
		final PrintStream err = System.err;
		final ByteArrayOutputStream e = new ByteArrayOutputStream();
		final StringWriter out = new StringWriter(), picocliErr = new StringWriter();
		int code;
		try {
			System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
			code = Main.run(new PrintWriter(out, true), new PrintWriter(picocliErr, true),
				"generate", "--out", dir.toString(), "--size", "8", "--target-slices", "2",
				"--background-slices", "2", "--quiet");
		}
		finally {
			System.setErr(err);
		}
		assertEquals(0, code, picocliErr.toString());
		assertEquals("", e.toString(StandardCharsets.UTF_8) + picocliErr);
	}
}
