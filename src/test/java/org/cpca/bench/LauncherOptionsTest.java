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
		for (final String option : Bench.LAUNCHER_JVM_OPTIONS)
			assertTrue(launcher.contains(option), "the cpca launcher does not pass " + option +
				" (Bench.LAUNCHER_JVM_OPTIONS); keep the two lists in step");
		assertTrue(Bench.childJvmOptions().containsAll(Bench.LAUNCHER_JVM_OPTIONS));
	}
}
