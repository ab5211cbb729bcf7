package org.cpca;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Numbers the product writes (notes, summaries, tables, labels) read the same in every
 * default locale: a German default would otherwise write "0,5" for 0.5, which in a list
 * such as "λ = [0,5, 2]" cannot even be read back. Every format call names its locale.
 */
class LocaleIndependenceTest {

	/** A format call whose first argument is not a locale. */
	static final Pattern UNLOCALISED = Pattern.compile(
		"(?:String\\s*\\.\\s*format|\\.printf|\\.formatted)\\(\\s*(?!(?:java\\.util\\.)?Locale\\.)");

	@Test
	void everyFormatCallNamesItsLocale() throws IOException {
		final Path main = Paths.get("src/main/java");
		assertTrue(Files.isDirectory(main), "run from the project folder");
		final List<Path> files;
		try (Stream<Path> s = Files.walk(main)) {
			files = s.filter(p -> p.toString().endsWith(".java")).collect(Collectors
				.toList());
		}
		assertTrue(files.size() > 20, "found the sources");
		final List<String> found = new ArrayList<>();
		for (final Path f : files) {
			final String text = new String(Files.readAllBytes(f), StandardCharsets.UTF_8);
			final Matcher m = UNLOCALISED.matcher(text);
			while (m.find())
				found.add(f + ":" + (1 + text.substring(0, m.start()).split("\n", -1).length -
					1) + ": " + m.group());
		}
		assertEquals(List.of(), found, "format with Locale.ROOT");
	}

	@Test
	void thePatternSeesWhatItShould() {
		assertTrue(UNLOCALISED.matcher("String.format(\"%.2f\", x)").find());
		assertTrue(UNLOCALISED.matcher("s = String\n\t\t.format(\"%.2f\", x)").find());
		assertTrue(UNLOCALISED.matcher("out.printf(\"%d%n\", n)").find());
		assertFalse(UNLOCALISED.matcher("String.format(Locale.ROOT, \"%.2f\", x)").find());
		assertFalse(UNLOCALISED.matcher("String.format(java.util.Locale.ROOT,\n\"%g\", x)")
			.find());
		// why: the default locale changes the decimal separator
		assertEquals("0,5", String.format(Locale.GERMANY, "%.1f", 0.5));
	}
}
