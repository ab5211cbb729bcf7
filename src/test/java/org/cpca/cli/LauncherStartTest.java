package org.cpca.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.FileTime;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The way of the real {@code cpca} launcher to the JVM when its jar is up to date
 * (docs/speed.md, the start and the exit): it starts no program but {@code find} (are the
 * sources newer than the jar?), {@code readlink} (where is the JDK?) and {@code cat} (the
 * filter of the JVM's incubator note), and still finds the jar, reads the JDK's version
 * from its release file and maps the subcommand's class archive; a source newer than
 * the jar still sends it to Maven. The launcher runs with only those programs (and bash)
 * on its PATH, and a stand-in for {@code java} that writes down its arguments.
 */
class LauncherStartTest {

	@TempDir
	Path dir;

	@Test
	void anUpToDateJarStartsTheJvmWithFewPrograms() throws Exception {
		final Object[] r = launch(false);
		final String out = (String) r[1];
		assertEquals(0, r[0], out);
		assertEquals("", out, "the launcher's own output (e.g. a program it could not find)");
		final List<String> jvm = Files.readAllLines(dir.resolve("args.txt"),
			StandardCharsets.UTF_8);
		final Path target = dir.resolve("home/target");
		assertTrue(jvm.contains("-XX:SharedArchiveFile=" + target.resolve(
			"Contrastive_PCA_-0-cli-java17.0.99-fit.jsa")), jvm::toString);
		assertTrue(jvm.contains("--add-modules"), jvm::toString);
		assertEquals(List.of("-jar", target.resolve("Contrastive_PCA_-0-cli.jar").toString(),
			"fit", "--out", "r"), jvm.subList(jvm.size() - 5, jvm.size()), jvm::toString);
	}

	@Test
	void aSourceNewerThanTheJarStillRebuildsIt() throws Exception {
		final Object[] r = launch(true);
		final String out = (String) r[1];
		assertEquals(1, r[0], out);
		assertTrue(out.contains("the sources changed: rebuilding"), out);
		assertTrue(out.contains("Maven (mvn) is not installed"), out); // none on this PATH
		assertFalse(Files.exists(dir.resolve("args.txt")), "the JVM was started");
	}

	/** A build that says it succeeded but made no jar: one line, and no JVM started. */
	@Test
	void aBuildThatMadeNoJarSaysSo() throws Exception {
		final Object[] r = launch(true, true);
		final String out = (String) r[1];
		assertEquals(1, r[0], out);
		assertTrue(out.contains("cpca: the build made no command-line jar in "), out);
		assertFalse(Files.exists(dir.resolve("args.txt")), "the JVM was started");
	}

	/**
	 * Runs a copy of the launcher as {@code cpca fit --out r} with only bash, find,
	 * readlink and cat on its PATH, a stand-in JDK 17.0.99 and a jar with its class
	 * archive; {@code stale}: a source file newer than the jar. Returns the exit code and
	 * the output.
	 */
	private Object[] launch(final boolean stale) throws Exception {
		return launch(stale, false);
	}

	/**
	 * {@link #launch(boolean)}, or with {@code lostJar}: a stand-in Maven on the PATH (with
	 * the programs a build's output goes through) that removes the jar and says "BUILD
	 * SUCCESS".
	 */
	private Object[] launch(final boolean stale, final boolean lostJar) throws Exception {
		final Path bin = Files.createDirectories(dir.resolve("bin"));
		final List<String> tools = lostJar ? List.of("bash", "find", "readlink", "cat",
			"mktemp", "tee", "grep", "rm", "tail") : List.of("bash", "find", "readlink", "cat");
		try {
			for (final String tool : tools) {
				final Path p = onPath(tool);
				assumeTrue(p != null, tool + " is not on this machine's PATH");
				Files.createSymbolicLink(bin.resolve(tool), p);
			}
			if (lostJar) {
				Files.write(bin.resolve("mvn"), ("#!" + onPath("bash") + "\nrm -f \"" + dir
					.resolve("home/target/Contrastive_PCA_-0-cli.jar") + "\"\n" +
					"echo '[INFO] BUILD SUCCESS'\n").getBytes(StandardCharsets.UTF_8));
				bin.resolve("mvn").toFile().setExecutable(true);
			}
			return launch(bin, stale);
		}
		finally { // the links themselves, before the folder is cleaned up
			for (final String tool : tools)
				Files.deleteIfExists(bin.resolve(tool));
		}
	}

	private Object[] launch(final Path bin, final boolean stale) throws Exception {
		final Path home = Files.createDirectories(dir.resolve("home"));
		Files.copy(Paths.get("cpca"), home.resolve("cpca"));
		home.resolve("cpca").toFile().setExecutable(true);
		final Path source = Files.write(Files.createDirectories(home.resolve(
			"src/main/java")).resolve("A.java"), new byte[0]);
		Files.write(home.resolve("pom.xml"), new byte[0]);
		final Path target = Files.createDirectories(home.resolve("target"));
		final Path jar = Files.write(target.resolve("Contrastive_PCA_-0-cli.jar"), new byte[0]);
		Files.write(target.resolve("Contrastive_PCA_-0-cli-java17.0.99-fit.jsa"), new byte[0]);
		final long now = System.currentTimeMillis();
		for (final Path p : List.of(source, home.resolve("pom.xml")))
			Files.setLastModifiedTime(p, FileTime.fromMillis(now - 60_000));
		Files.setLastModifiedTime(jar, FileTime.fromMillis(now - 30_000));
		if (stale) Files.setLastModifiedTime(source, FileTime.fromMillis(now - 10_000));
		final Path jdk = Files.createDirectories(dir.resolve("jdk/bin"));
		Files.write(jdk.getParent().resolve("release"), ("IMPLEMENTOR=\"test\"\n" +
			"JAVA_VERSION=\"17.0.99\"\nJAVA_RUNTIME_VERSION=\"17.0.99+1\"\n").getBytes(
				StandardCharsets.UTF_8));
		Files.write(jdk.resolve("java"), ("#!" + onPath("bash") + "\nfor a; do echo \"$a\"; " +
			"done >\"" + dir.resolve("args.txt") + "\"\n").getBytes(StandardCharsets.UTF_8));
		jdk.resolve("java").toFile().setExecutable(true);
		final ProcessBuilder pb = new ProcessBuilder(home.resolve("cpca").toString(), "fit",
			"--out", "r");
		pb.environment().put("PATH", bin.toString());
		pb.environment().put("JAVA_HOME", jdk.getParent().toString());
		pb.environment().remove("CPCA_CDS");
		pb.environment().remove("CPCA_VECTOR");
		pb.environment().remove("CPCA_JAVA_OPTS");
		pb.redirectErrorStream(true);
		final Process p = pb.start();
		final String out = new String(p.getInputStream().readAllBytes(),
			StandardCharsets.UTF_8);
		return new Object[] { p.waitFor(), out };
	}

	/** The program {@code name} on this process's PATH, or null. */
	private static Path onPath(final String name) {
		final String path = System.getenv("PATH");
		if (path == null) return null;
		for (final String d : path.split(File.pathSeparator)) {
			final Path p = Paths.get(d.isEmpty() ? "." : d, name);
			if (Files.isExecutable(p) && !Files.isDirectory(p)) return p;
		}
		return null;
	}
}
