package org.cpca.core.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Without the native backend's jars (Fiji and ImageJ as the bundles install them) the
 * Java kernels answer, and the one diagnostic line says why.
 */
class BackendFallbackTest {

	@Test
	void withoutTheNativeJarsTheJavaKernelsAnswer() throws IOException, InterruptedException {
		final String out = withoutNativeJars("--version");
		final String[] lines = out.strip().split("\\R");
		assertEquals(3, lines.length, out);
		assertTrue(lines[1].startsWith("kernels: "), out);
		assertFalse(lines[1].contains("native"), out);
		assertEquals("native kernels unavailable (the JavaCPP and OpenBLAS jars are " +
			"missing): using the Java kernels", lines[2]);
	}

	/**
	 * A whole automatic-α fit too, with more features than the solvers' small size (64), so
	 * that the paths that would keep a matrix in native memory are asked: none may load a
	 * class that links JavaCPP (ImageJ 1.53t stopped with NoClassDefFoundError when one did).
	 */
	@Test
	void anAutomaticAlphaFitRunsWithoutTheNativeJars(@TempDir final Path dir)
		throws IOException, InterruptedException
	{
		final Random r = new Random(29);
		final int d = 80;
		final Path target = dir.resolve("target.csv"), background = dir.resolve(
			"background.csv");
		for (final Path file : new Path[] { target, background }) {
			final StringBuilder sb = new StringBuilder();
			for (int j = 0; j < d; j++)
				sb.append(j == 0 ? "" : ",").append("f").append(j);
			sb.append('\n');
			for (int i = 0; i < 200; i++) {
				for (int j = 0; j < d; j++)
					sb.append(j == 0 ? "" : ",").append(r.nextGaussian() * (1 + j % 7));
				sb.append('\n');
			}
			Files.write(file, sb.toString().getBytes(StandardCharsets.UTF_8));
		}
		final Path results = dir.resolve("results");
		final String out = withoutNativeJars("fit", "--target", target.toString(),
			"--background", background.toString(), "--alpha", "auto", "--no-plots", "--out",
			results.toString());
		assertFalse(out.contains("Exception") || out.contains("Error"), out);
		assertTrue(Files.isRegularFile(results.resolve("model.json")), out);
	}

	/** Runs the command line in a JVM without the JavaCPP and OpenBLAS jars (exit 0). */
	private static String withoutNativeJars(final String... args) throws IOException,
		InterruptedException
	{
		final List<String> kept = new ArrayList<>();
		boolean dropped = false;
		for (final String entry : System.getProperty("java.class.path").split(
			File.pathSeparator))
		{
			final String name = Paths.get(entry).getFileName().toString();
			if (name.startsWith("javacpp-") || name.startsWith("openblas-")) dropped = true;
			else kept.add(entry);
		}
		assertTrue(dropped, "the native jars are on the test class path");
		final String java = Paths.get(System.getProperty("java.home"), "bin", "java")
			.toString();
		final List<String> command = new ArrayList<>(List.of(java, "-Djava.awt.headless=true",
			"-cp", String.join(File.pathSeparator, kept), "org.cpca.cli.Main"));
		command.addAll(List.of(args));
		final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
		final String out = new String(p.getInputStream().readAllBytes(),
			StandardCharsets.UTF_8);
		assertTrue(p.waitFor(120, TimeUnit.SECONDS));
		assertEquals(0, p.exitValue(), out);
		return out;
	}
}
