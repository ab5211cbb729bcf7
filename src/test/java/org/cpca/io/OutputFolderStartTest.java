package org.cpca.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opening, filling and committing a results folder in a fresh JVM loads none of the JDK's
 * security providers (docs/speed.md, the start and the exit): the lock's name is the JDK's
 * checksums of the path ({@link FolderLock#digest}), the staging names come from a plain
 * random source. The folder's checks
 * are those of {@code OutputSafetyTest}; this one watches the classes a run loads.
 */
class OutputFolderStartTest {

	@TempDir
	Path dir;

	@Test
	void openingAResultsFolderLoadsNoSecurityProvider() throws Exception {
		final Path out = dir.resolve("results");
		final Path input = Files.write(dir.resolve("input.csv"), "a,b\n1,2\n".getBytes(
			StandardCharsets.UTF_8));
		final Process p = new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin",
			"java").toString(), "-Xshare:off", "-verbose:class", "-cp", System.getProperty(
				"java.class.path"), Child.class.getName(), out.toString(), input.toString())
			.redirectErrorStream(true).start();
		final List<String> lines = new ArrayList<>();
		try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
			StandardCharsets.UTF_8)))
		{
			for (String l; (l = r.readLine()) != null;)
				lines.add(l);
		}
		assertEquals(0, p.waitFor(), () -> String.join("\n", lines.subList(Math.max(0, lines
			.size() - 20), lines.size())));
		assertTrue(lines.contains("committed"), "the child did not finish");
		assertTrue(Files.isRegularFile(out.resolve("scores.csv")), "no results");
		final List<String> security = lines.stream().filter(l -> l.contains(
			" java.security.MessageDigest ") || l.contains(" java.security.SecureRandom ") || l
				.contains(" java.security.Security ") || l.contains(" sun.security.jca.Providers "))
			.collect(Collectors.toList());
		assertEquals(List.of(), security, "security classes loaded by opening a folder");
	}

	/** A child JVM: opens the folder of args[0] (input args[1]), writes and commits. */
	public static final class Child {

		private Child() {}

		public static void main(final String[] args) throws Exception {
			try (OutputFolder out = OutputFolder.open(Paths.get(args[0]), List.of(Paths.get(
				args[1])), false))
			{
				Files.write(out.file("scores.csv"), "sample\n".getBytes(StandardCharsets.UTF_8));
				out.commit();
			}
			System.out.println("committed");
		}
	}
}
