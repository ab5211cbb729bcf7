package org.cpca.core.contrast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fit, the automatic α and its components in a heap of a fixed size: N = 2,000
 * samples of 2,008 features (one N × N double matrix is 30.5 MiB, the samples as floats
 * 15.3 MiB) in a child JVM with the serial collector (the launcher's). The live set
 * peaks at five such matrices (L, A, B, the solver's Qᵀ and M; docs/memory.md) plus the
 * JVM's own, and in memory the samples: from the Gram matrix the run completes from 176
 * MiB and is given 200; in memory from 191 MiB and is given 215. Before the solver was
 * let go for the lift (its preparation kept the reflectors, A's rows and QᵀA beside Qᵀ,
 * the affinities A's rows, and in memory LᵀL's factor was formed with the space), they
 * needed 233 and 250 MiB and ran out of memory at 229 and 245 MiB.
 */
class GramMemoryTest {

	@TempDir
	Path dir;

	@ParameterizedTest
	@CsvSource({ "gram, 200m", "memory, 215m" })
	void automaticAlphaRunsInAHeapOfFiveMatricesAndTheJvm(final String plan,
		final String heap) throws Exception
	{
		final List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty(
			"java.home"), "bin", "java").toString(), "-Xmx" + heap, "-XX:+UseSerialGC"));
		final String kernels = System.getProperty("cpca.kernels");
		if (kernels != null) cmd.add("-Dcpca.kernels=" + kernels);
		cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), GramFitProbe.class
			.getName(), "1000", plan));
		final Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir
			.resolve("out").toFile()).start();
		assertTrue(p.waitFor(600, TimeUnit.SECONDS), "the probe did not finish");
		final String out = new String(Files.readAllBytes(dir.resolve("out")),
			StandardCharsets.UTF_8);
		assertEquals(0, p.exitValue(), out);
		// the rank is N − 2 = 1,998 (the float Gram of the scalar kernels may keep one more
		// pivot at the rounding level in memory); what is tested is that the run completes
		assertTrue(out.contains(", models ") && out.contains("done"), out);
	}
}
