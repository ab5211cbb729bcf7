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
 * The fit from a Gram matrix and its solver's preparation in a heap of a fixed size: N =
 * 2,000 samples (one N × N double matrix is 30.5 MiB) in a child JVM with {@code -Xmx230m}
 * and the serial collector (the launcher's). L, A, B, the solver's Qᵀ and M and one
 * matrix of work (6 × 30.5 MiB) fit; before G was let go in the fit, LᵀL formed only for
 * the components and the solver's copies of A and Q dropped, the preparation ran out of
 * memory below 231 MiB (docs/memory.md).
 */
class GramMemoryTest {

	@TempDir
	Path dir;

	@Test
	void theSolverIsPreparedInAHeapOfSevenMatrices() throws Exception {
		final List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty(
			"java.home"), "bin", "java").toString(), "-Xmx230m", "-XX:+UseSerialGC"));
		final String kernels = System.getProperty("cpca.kernels");
		if (kernels != null) cmd.add("-Dcpca.kernels=" + kernels);
		cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), GramFitProbe.class
			.getName(), "1000", "solver"));
		final Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir
			.resolve("out").toFile()).start();
		assertTrue(p.waitFor(300, TimeUnit.SECONDS), "the probe did not finish");
		final String out = new String(Files.readAllBytes(dir.resolve("out")),
			StandardCharsets.UTF_8);
		assertEquals(0, p.exitValue(), out);
		assertTrue(out.contains("rank 1998, solver prepared true"), out);
	}
}
