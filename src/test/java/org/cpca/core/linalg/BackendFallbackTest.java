package org.cpca.core.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * Without the native backend's jars (Fiji and ImageJ as the bundles install them) the
 * Java kernels answer, and the one diagnostic line says why.
 */
class BackendFallbackTest {

	@Test
	void withoutTheNativeJarsTheJavaKernelsAnswer() throws IOException, InterruptedException {
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
		final Process p = new ProcessBuilder(java, "-Djava.awt.headless=true", "-cp", String
			.join(File.pathSeparator, kept), "org.cpca.cli.Main", "--version")
				.redirectErrorStream(true).start();
		final String out = new String(p.getInputStream().readAllBytes(),
			StandardCharsets.UTF_8);
		assertTrue(p.waitFor(60, TimeUnit.SECONDS));
		assertEquals(0, p.exitValue(), out);
		final String[] lines = out.strip().split("\\R");
		assertEquals(3, lines.length, out);
		assertTrue(lines[1].startsWith("kernels: "), out);
		assertFalse(lines[1].contains("native"), out);
		assertEquals("native kernels unavailable (the JavaCPP and OpenBLAS jars are " +
			"missing): using the Java kernels", lines[2]);
	}
}
