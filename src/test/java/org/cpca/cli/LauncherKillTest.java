package org.cpca.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@code cpca} launcher, killed outright ({@code kill -9} of its process id, as
 * a job scheduler or a closed terminal does): the JVM it started must not live on and
 * write results after the caller saw exit code 137, and nothing of the launcher may stay
 * in {@code $TMPDIR} or beside the jar. The launcher runs a small jar (a copy of the
 * script in a folder of its own, with {@link LauncherChild} as the jar), so the test
 * needs no build of the command-line jar; both of its ways to start the JVM are tried:
 * in place of the script (no class archive to make) and as a child (the first run, whose
 * loaded classes become the archive).
 */
class LauncherKillTest {

	@TempDir
	Path dir;

	@Test
	void killingTheLauncherKillsTheRunAndLeavesNothing() throws Exception {
		kill9(Map.of("CPCA_CDS", "off"));
	}

	@Test
	void killingTheLauncherOnARecordingRunKillsTheRunAndLeavesNothing() throws Exception {
		kill9(Map.of());
	}

	private void kill9(final Map<String, String> env) throws Exception {
		final Path home = Files.createDirectories(dir.resolve("home"));
		Files.copy(Paths.get("cpca"), home.resolve("cpca"));
		home.resolve("cpca").toFile().setExecutable(true);
		jar(Files.createDirectories(home.resolve("target")).resolve(
			"Contrastive_PCA_-0-cli.jar"));
		final Path tmp = Files.createDirectories(dir.resolve("tmp"));
		final Path results = dir.resolve("results.txt");
		final ProcessBuilder pb = new ProcessBuilder(home.resolve("cpca").toString(), results
			.toString(), "4000");
		pb.environment().put("TMPDIR", tmp.toString());
		pb.environment().putAll(env);
		pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
		final Process launcher = pb.start();
		final BufferedReader err = new BufferedReader(new InputStreamReader(launcher
			.getErrorStream(), StandardCharsets.UTF_8));
		assertEquals("ready", err.readLine(), "the launcher did not start the JVM");
		final List<ProcessHandle> before = descendants(launcher);
		new ProcessBuilder("kill", "-9", Long.toString(launcher.pid())).start().waitFor();
		launcher.waitFor();
		assertEquals(137, launcher.exitValue());
		// the JVM (and any helper of the launcher) ends soon, and never writes its results
		final long end = System.currentTimeMillis() + 10_000;
		while (before.stream().anyMatch(ProcessHandle::isAlive) && System
			.currentTimeMillis() < end)
			Thread.sleep(50);
		assertFalse(before.stream().anyMatch(ProcessHandle::isAlive), () -> "still running " +
			"after the launcher was killed: " + before.stream().filter(ProcessHandle::isAlive)
				.map(p -> p.pid() + " " + p.info().commandLine().orElse("")).collect(Collectors
					.joining("; ")));
		Thread.sleep(4500); // past the moment the run would have written its results
		assertFalse(Files.exists(results), "the JVM wrote its results after the launcher " +
			"was killed");
		assertEquals(List.of(), list(tmp), "left in $TMPDIR");
		final List<String> target = list(home.resolve("target"));
		assertEquals(List.of("Contrastive_PCA_-0-cli.jar"), target, "left beside the jar");
	}

	private static List<ProcessHandle> descendants(final Process p) {
		final List<ProcessHandle> all = p.descendants().collect(Collectors.toList());
		all.add(p.toHandle());
		return all;
	}

	private static List<String> list(final Path d) throws Exception {
		try (Stream<Path> s = Files.list(d)) {
			return s.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
		}
	}

	/** A jar whose main class is {@link LauncherChild}. */
	private static void jar(final Path jar) throws Exception {
		final Manifest m = new Manifest();
		m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
		m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, LauncherChild.class.getName());
		final String entry = LauncherChild.class.getName().replace('.', '/') + ".class";
		try (OutputStream o = Files.newOutputStream(jar);
			JarOutputStream j = new JarOutputStream(o, m))
		{
			j.putNextEntry(new JarEntry(entry));
			j.write(LauncherChild.class.getResourceAsStream("/" + entry).readAllBytes());
			j.closeEntry();
		}
	}
}
