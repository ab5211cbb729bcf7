package org.cpca.core;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/** The core holds only mathematics: no ImageJ, SciJava, ImgLib2 or AWT. */
class ArchitectureTest {

	private static final Pattern FORBIDDEN = Pattern.compile(
		"^\\s*import\\s+(static\\s+)?(ij\\.|org\\.scijava\\.|net\\.imglib2\\.|java\\.awt\\.|javax\\.swing\\.)",
		Pattern.MULTILINE);

	@Test
	void coreHasNoUserInterfaceImports() throws IOException {
		final Path core = Paths.get("src/main/java/org/cpca/core");
		assertTrue(Files.isDirectory(core), "run from the project folder");
		final List<Path> files;
		try (Stream<Path> s = Files.list(core)) {
			files = s.filter(p -> p.toString().endsWith(".java")).collect(Collectors
				.toList());
		}
		assertTrue(files.size() > 5);
		for (final Path f : files) {
			final String text = new String(Files.readAllBytes(f), StandardCharsets.UTF_8);
			final Matcher m = FORBIDDEN.matcher(text);
			assertTrue(!m.find(), f + " imports " + (m.hitEnd() ? "" : m.group()) +
				": keep the core free of UI and image libraries");
			assertTrue(!text.contains("System.out") && !text.contains("System.err"), f +
				" prints: the core never prints; return diagnostics instead");
		}
	}
}
