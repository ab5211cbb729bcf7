package org.cpca.core;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.cpca.core.family.Family;
import org.cpca.core.result.Method;
import org.cpca.core.run.Families;
import org.junit.jupiter.api.Test;

/**
 * Every family of the registry ({@link Families}) is checked by at least one {@link
 * FamilyPropertyTest}: a family registered without one fails the build. The property
 * tests are found in the test sources and asked which method their settings run.
 */
class FamilyCoverageTest {

	private static final Path TESTS = Paths.get("src/test/java");
	private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;",
		Pattern.MULTILINE);
	private static final Pattern SUBCLASS = Pattern.compile(
		"class\\s+(\\w+)\\s+extends\\s+FamilyPropertyTest\\b");

	@Test
	void everyRegisteredFamilyHasAPropertyTest() throws Exception {
		final Set<Method> covered = EnumSet.noneOf(Method.class);
		final List<String> found = new ArrayList<>();
		for (final Class<?> c : propertyTests()) {
			final Constructor<?> k = c.getDeclaredConstructor();
			k.setAccessible(true);
			final FamilyPropertyTest test = (FamilyPropertyTest) k.newInstance();
			covered.add(test.settings().method());
			found.add(c.getSimpleName());
		}
		assertTrue(found.size() >= Families.all().size(), "property tests found: " + found);
		final List<String> missing = new ArrayList<>();
		for (final Family<?> f : Families.all())
			if (!covered.contains(f.method())) missing.add(f.method().id);
		assertTrue(missing.isEmpty(), "registered families without a FamilyPropertyTest: " +
			missing + " (write one: a class extending FamilyPropertyTest whose settings run " +
			"the family)");
	}

	private static List<Class<?>> propertyTests() throws IOException, ClassNotFoundException {
		assertTrue(Files.isDirectory(TESTS), "run from the project folder");
		final List<Path> files;
		try (Stream<Path> s = Files.walk(TESTS)) {
			files = s.filter(p -> p.toString().endsWith(".java")).collect(Collectors.toList());
		}
		final List<Class<?>> out = new ArrayList<>();
		for (final Path f : files) {
			final String text = new String(Files.readAllBytes(f), StandardCharsets.UTF_8);
			final Matcher m = SUBCLASS.matcher(text), p = PACKAGE.matcher(text);
			while (m.find())
				if (p.find(0)) out.add(Class.forName(p.group(1) + "." + m.group(1)));
		}
		return out;
	}
}
