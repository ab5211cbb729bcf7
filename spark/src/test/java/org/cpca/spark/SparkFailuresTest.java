package org.cpca.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * cpca-spark as a user runs it (its own JVM, local mode, the script's logging set-up
 * conf/log4j2.properties): Spark's failures are one line on standard error, the root
 * cause without a trace, with a non-zero exit and no results folder; Spark's own
 * messages go to the log file unless --verbose.
 */
public class SparkFailuresTest extends LocalSparkTest {

	/** The output of one cpca-spark process. */
	private static final class Process {

		final int code;
		final String err;

		Process(final int code, final String err) {
			this.code = code;
			this.err = err;
		}
	}

	/** Starts cpca-spark as the script does (local[2]), with extra JVM flags. */
	private static ProcessBuilder cpcaSpark(final Path dir, final List<String> jvm,
		final String... args)
	{
		final List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty(
			"java.home"), "bin", "java").toString(), "-Djava.awt.headless=true",
			"-Dlog4j2.configurationFile=" + Path.of("conf", "log4j2.properties")
				.toAbsolutePath(), "-Dcpca.spark.log=" + dir.resolve("cpca-spark.log"),
			"-Djava.io.tmpdir=" + dir, "-Xmx512m"));
		command.addAll(jvm);
		command.addAll(List.of("-cp", System.getProperty("java.class.path"),
			"org.cpca.spark.SparkMain"));
		command.addAll(Arrays.asList(args));
		command.addAll(List.of("--master", "local[2]"));
		return new ProcessBuilder(command).redirectOutput(dir.resolve("stdout.txt")
			.toFile()).redirectError(dir.resolve("stderr.txt").toFile());
	}

	private static Process run(final Path dir, final String... args) throws Exception {
		final java.lang.Process p = cpcaSpark(dir, List.of(), args).start();
		assertTrue(p.waitFor(5, TimeUnit.MINUTES), "cpca-spark " + String.join(" ", args));
		return new Process(p.exitValue(), Files.readString(dir.resolve("stderr.txt")));
	}

	/** One line, the message, no trace, exit code 1, no results folder. */
	private static void assertOneLine(final Process p, final String expected,
		final Path out)
	{
		assertEquals(1, p.code, p.err);
		assertEquals(1, p.err.strip().lines().count(), p.err);
		assertTrue(p.err.startsWith("cpca-spark: "), p.err);
		assertTrue(p.err.contains(expected), p.err);
		assertFalse(p.err.contains("\tat ") || p.err.contains("Exception in"), p.err);
		assertFalse(Files.exists(out), "no results folder");
	}

	@Test
	public void aNaNPixelIsOneLineAndTheExecutorsTraceGoesToTheLog(@TempDir final Path dir)
		throws Exception
	{
		final Path nan = SparkTesting.nanStack(dir.resolve("nan.tif"));
		final Path out = dir.resolve("out");
		final Path quiet = Files.createDirectory(dir.resolve("quiet"));
		assertOneLine(run(quiet, "fit", "--target", nan.toString(), "--method", "pca",
			"--out", out.toString()), "target has a non-finite value (NaN) at slice 4, " +
				"feature 6", out);
		final String log = Files.readString(quiet.resolve("cpca-spark.log"));
		assertTrue(log.contains("ERROR Executor") && log.contains("\tat "), "the executor's " +
			"trace is in the log file:\n" + log);

		// asked for: Spark's warnings on the console too, and still the one line last
		final Path verbose = Files.createDirectory(dir.resolve("verbose"));
		final Process v = run(verbose, "fit", "--target", nan.toString(), "--method", "pca",
			"--out", out.toString(), "--verbose");
		assertEquals(1, v.code, v.err);
		assertTrue(v.err.contains("WARN TaskSetManager"), v.err);
		final List<String> lines = v.err.strip().lines().collect(Collectors.toList());
		assertTrue(lines.get(lines.size() - 1).startsWith("cpca-spark: target has a " +
			"non-finite value (NaN)"), v.err);
	}

	@Test
	public void unreadableParquetIsOneLine(@TempDir final Path dir) throws Exception {
		final Path good = dir.resolve("good.parquet");
		SparkSession.builder().getOrCreate().range(200).selectExpr("id * 0.5 as a",
			"sin(id) as b", "cos(id) as c").coalesce(1).write().parquet(good.toString());
		final Path part;
		try (Stream<Path> s = Files.list(good)) {
			part = s.filter(f -> f.getFileName().toString().endsWith(".parquet")).findFirst()
				.orElseThrow();
		}
		final byte[] bytes = Files.readAllBytes(part);
		final Path truncated = Files.write(dir.resolve("truncated.parquet"), Arrays.copyOf(
			bytes, bytes.length / 2));
		final byte[] damaged = bytes.clone();
		for (int i = 4; i < damaged.length - 8; i++) // the pages and the footer, not the magic
			damaged[i] = (byte) (i * 31);
		final Path corrupt = Files.write(dir.resolve("corrupt.parquet"), damaged);
		final Path empty = Files.write(dir.resolve("empty.parquet"), new byte[0]);
		final Path text = Files.write(dir.resolve("text.parquet"), "a,b\n1,2\n".getBytes(
			StandardCharsets.UTF_8));
		final Path out = dir.resolve("out");
		for (final Path bad : List.of(truncated, corrupt, empty, text)) {
			final Path run = Files.createDirectory(dir.resolve("run-" + bad.getFileName()));
			assertOneLine(run(run, "fit", "--target", bad.toString(), "--method", "pca",
				"--out", out.toString()), bad + " could not be read as a Parquet table (", out);
		}
	}

	@Test
	public void terminationIsOneLine(@TempDir final Path dir) throws Exception {
		stopARun(dir, "TERM", false);
	}

	@Test
	public void ctrlCIsOneLine(@TempDir final Path dir) throws Exception {
		stopARun(dir, "INT", true);
	}

	/**
	 * Sends the signal to a run busy in a Spark job: one line, a non-zero exit, nothing
	 * in or beside --out. A process started with SIGINT ignored (a build started in the
	 * background of a shell) keeps ignoring it: the Ctrl-C case is then skipped.
	 */
	private static void stopARun(final Path dir, final String signal,
		final boolean interrupt) throws Exception
	{
		final Path held = dir.resolve("held");
		final Path out = dir.resolve("out");
		final java.lang.Process p = cpcaSpark(dir, List.of("-D" + SparkInput.HOLD_PROPERTY +
			"=" + held), "fit", "--target", SparkTesting.IMAGES.resolve("target.tif")
				.toString(), "--background", SparkTesting.IMAGES.resolve("background.tif")
					.toString(), "--out", out.toString()).start();
		try {
			if (interrupt) assumeFalse(ignoresSigint(p.pid()), "SIGINT is ignored by this " +
				"build's processes (started in the background)");
			// the run is in a Spark job once a task holds
			final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
			while (!Files.exists(held.resolve("task-started")) && p.isAlive() && System
				.nanoTime() < deadline)
				Thread.sleep(100);
			assertTrue(Files.exists(held.resolve("task-started")), Files.readString(dir
				.resolve("stderr.txt")));
			new ProcessBuilder("kill", "-" + signal, String.valueOf(p.pid())).start()
				.waitFor();
			assertTrue(p.waitFor(2, TimeUnit.MINUTES), "stopped by SIG" + signal);
		}
		finally {
			p.destroyForcibly();
		}
		final String err = Files.readString(dir.resolve("stderr.txt"));
		assertNotEquals(0, p.exitValue(), err);
		assertEquals("cpca-spark: stopped (Ctrl-C or a termination signal): the run was " +
			"cancelled and no results were written", err.strip(), "SIG" + signal);
		assertFalse(Files.exists(out), "no results folder");
		try (Stream<Path> s = Files.list(dir)) {
			assertEquals(List.of(), s.map(f -> f.getFileName().toString()).filter(n -> n
				.startsWith("out") || n.contains(".partial") || n.endsWith(".lock")).collect(
					Collectors.toList()), "nothing left beside --out");
		}
	}

	/** Whether the process ignores SIGINT (Linux: /proc/PID/status). */
	private static boolean ignoresSigint(final long pid) throws IOException {
		final Path status = Path.of("/proc", String.valueOf(pid), "status");
		if (!Files.exists(status)) return false;
		for (final String line : Files.readAllLines(status))
			if (line.startsWith("SigIgn:")) return (Long.parseLong(line.substring(7).strip(),
				16) & (1L << 1)) != 0; // bit n - 1 for signal n; SIGINT is 2
		return false;
	}

	/** The log file of a test run is written, not the console (see log4j2-test.properties). */
	@Test
	public void testLogsGoToAFile() throws IOException {
		org.apache.logging.log4j.LogManager.getLogger("org.apache.spark.cpca").warn(
			"a warning for the log file");
		final String log = Files.readString(Path.of("target", "spark-test.log"));
		assertTrue(log.contains("a warning for the log file"), "target/spark-test.log");
	}
}
