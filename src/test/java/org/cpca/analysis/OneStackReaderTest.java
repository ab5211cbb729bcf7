package org.cpca.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Slices as samples are read by one reader, {@code image.StackReader}, in every front end
 * (the command line, the Fiji commands and Apply Model…, the macros, online cPCA*): no
 * source outside {@code image/} reads a stack's axes or slices by the steps it wraps.
 */
class OneStackReaderTest {

	private static final Pattern BYPASS = Pattern.compile(
		"\\b(StackSamples\\.(toDataset|values|filled)|Axes\\.apply)\\(");

	@Test
	void noFrontEndReadsSlicesAroundTheStackReader() throws IOException {
		final Path main = Paths.get("src/main/java/org/cpca");
		final List<String> bypasses;
		try (Stream<Path> files = Files.walk(main)) {
			bypasses = files.filter(p -> p.toString().endsWith(".java") && !p.startsWith(main
				.resolve("image"))).filter(OneStackReaderTest::bypasses).map(Path::toString)
				.collect(Collectors.toList());
		}
		assertEquals(List.of(), bypasses);
	}

	private static boolean bypasses(final Path p) {
		try {
			return BYPASS.matcher(new String(Files.readAllBytes(p), StandardCharsets.UTF_8))
				.find();
		}
		catch (final IOException e) {
			throw new IllegalStateException(e);
		}
	}
}
