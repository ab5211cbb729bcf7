package org.cpca.core.contrast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fit from a Gram matrix, the automatic α and its components in a heap of a fixed
 * size: N = 2,000 samples (one N × N double matrix is 30.5 MiB) in a child JVM with
 * {@code -Xmx200m} and the serial collector (the launcher's). The live set peaks at five
 * such matrices (L, A, B, the solver's Qᵀ and M; docs/memory.md) plus the JVM's own: the
 * run completes from 176 MiB. Before the solver was let go for the lift, its preparation
 * kept the reflectors, A's rows and QᵀA beside Qᵀ, and the affinities A's rows, it needed
 * 233 MiB and ran out of memory at 229 MiB.
 */
class GramMemoryTest {

	@TempDir
	Path dir;

	@Test
	void automaticAlphaRunsInAHeapOfFiveMatricesAndTheJvm() throws Exception {
		final List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty(
			"java.home"), "bin", "java").toString(), "-Xmx200m", "-XX:+UseSerialGC"));
		final String kernels = System.getProperty("cpca.kernels");
		if (kernels != null) cmd.add("-Dcpca.kernels=" + kernels);
		cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), GramFitProbe.class
			.getName(), "1000"));
		final Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir
			.resolve("out").toFile()).start();
		assertTrue(p.waitFor(600, TimeUnit.SECONDS), "the probe did not finish");
		final String out = new String(Files.readAllBytes(dir.resolve("out")),
			StandardCharsets.UTF_8);
		assertEquals(0, p.exitValue(), out);
		assertTrue(out.contains("rank 1998, models "), out);
	}
}
