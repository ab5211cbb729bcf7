package org.cpca.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/**
 * The bench's child JVMs are timed as command-line runs: they must get the options the
 * {@code cpca} launcher gives those runs.
 */
class LauncherOptionsTest {

	@Test
	void theLauncherGivesEveryRunTheOptionsTheBenchGivesItsChildren() throws IOException {
		final String launcher = Files.readString(Path.of("cpca"));
		final java.util.List<String> all = new java.util.ArrayList<>(Bench.LAUNCHER_JVM_OPTIONS);
		all.addAll(Bench.VECTOR_JVM_OPTIONS);
		for (final String option : all)
			assertTrue(launcher.contains(option), "the cpca launcher does not pass " + option +
				" (Bench.LAUNCHER_JVM_OPTIONS, VECTOR_JVM_OPTIONS); keep them in step");
		assertTrue(Bench.childJvmOptions().containsAll(Bench.LAUNCHER_JVM_OPTIONS));
	}
}
