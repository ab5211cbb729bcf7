package org.cpca.core;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The layers hold (docs/architecture.md): the core is mathematics only, with its method
 * families above the shared packages; the front ends (command, macro, cli) use the
 * library layers and never each other. Every package below {@code src/main/java/org/cpca}
 * is searched, subpackages included.
 */
class ArchitectureTest {

	private static final Path ROOT = Paths.get("src/main/java/org/cpca");
	private static final Pattern IMPORT = Pattern.compile(
		"^\\s*import\\s+(?:static\\s+)?([\\w.]+)\\s*;", Pattern.MULTILINE);
	private static final Pattern UI = Pattern.compile(
		"^(ij|org\\.scijava|net\\.imglib2|java\\.awt|javax\\.swing|picocli)\\..*");
	/** A fully qualified name in code: lower-case package parts, then a type. */
	private static final Pattern QUALIFIED = Pattern.compile(
		"(?<![\\w.])((?:org\\.cpca|ij|org\\.scijava|net\\.imglib2|java\\.awt|javax\\.swing|picocli)(?:\\.[a-z_][\\w]*)*\\.[A-Z]\\w*)");

	/** For each package: the project packages it must not import (prefix match). */
	private static final Map<String, List<String>> FORBIDDEN = new LinkedHashMap<>();
	static {
		final List<String> aboveCore = Arrays.asList("org.cpca.io", "org.cpca.image",
			"org.cpca.analysis",
			"org.cpca.render", "org.cpca.command", "org.cpca.macro", "org.cpca.cli",
			"org.cpca.bench", "org.cpca.generate");
		FORBIDDEN.put("org.cpca.core", aboveCore);
		final List<String> families = Arrays.asList("org.cpca.core.contrast",
			"org.cpca.core.star", "org.cpca.core.kernel", "org.cpca.core.online",
			"org.cpca.core.uca", "org.cpca.core.rpca", "org.cpca.core.model",
			"org.cpca.core.run");
		FORBIDDEN.put("org.cpca.core.linalg", families);
		FORBIDDEN.put("org.cpca.core.data", concat(families, "org.cpca.core.linalg"));
		// fitted models sit below every family that makes them; the model file, which
		// reads and writes them all, sits above (no package cycle)
		FORBIDDEN.put("org.cpca.core.model", Arrays.asList("org.cpca.core.contrast",
			"org.cpca.core.star", "org.cpca.core.kernel", "org.cpca.core.online",
			"org.cpca.core.uca", "org.cpca.core.rpca", "org.cpca.core.gcpca",
			"org.cpca.core.pcpca", "org.cpca.core.sparse", "org.cpca.core.run",
			"org.cpca.core.modelfile"));
		// the seam every family plugs into sits below them all and the registry above it
		FORBIDDEN.put("org.cpca.core.family", Arrays.asList("org.cpca.core.cpca",
			"org.cpca.core.star", "org.cpca.core.kernel", "org.cpca.core.online",
			"org.cpca.core.uca", "org.cpca.core.rpca", "org.cpca.core.gcpca",
			"org.cpca.core.pcpca", "org.cpca.core.sparse", "org.cpca.core.run"));
		// sparse loadings build on gcPCA, not the other way round (no package cycle)
		FORBIDDEN.put("org.cpca.core.gcpca", Arrays.asList("org.cpca.core.sparse"));
		FORBIDDEN.put("org.cpca.io", Arrays.asList("org.cpca.analysis", "org.cpca.command",
			"org.cpca.macro",
			"org.cpca.cli", "org.cpca.bench", "org.cpca.flags"));
		FORBIDDEN.put("org.cpca.analysis", Arrays.asList("org.cpca.command",
			"org.cpca.macro", "org.cpca.cli", "org.cpca.bench", "org.cpca.flags"));
		FORBIDDEN.put("org.cpca.image", Arrays.asList("org.cpca.io", "org.cpca.render",
			"org.cpca.analysis",
			"org.cpca.command", "org.cpca.macro", "org.cpca.cli", "org.cpca.bench"));
		FORBIDDEN.put("org.cpca.render", Arrays.asList("org.cpca.io", "org.cpca.analysis",
			"org.cpca.command",
			"org.cpca.macro", "org.cpca.cli", "org.cpca.bench"));
		FORBIDDEN.put("org.cpca.command", Arrays.asList("org.cpca.macro", "org.cpca.cli",
			"org.cpca.bench"));
		FORBIDDEN.put("org.cpca.macro", Arrays.asList("org.cpca.command", "org.cpca.cli",
			"org.cpca.bench"));
		FORBIDDEN.put("org.cpca.cli", Arrays.asList("org.cpca.command", "org.cpca.macro"));
		// the flags shared by cpca fit and cpca-spark fit: below both, so knowing neither
		FORBIDDEN.put("org.cpca.flags", Arrays.asList("org.cpca.analysis", "org.cpca.command",
			"org.cpca.macro", "org.cpca.cli", "org.cpca.bench", "org.cpca.spark"));
	}

	private static List<String> concat(final List<String> a, final String... b) {
		final List<String> out = new ArrayList<>(a);
		out.addAll(Arrays.asList(b));
		return out;
	}

	@Test
	void layersHold() throws IOException {
		assertTrue(Files.isDirectory(ROOT), "run from the project folder");
		final List<Path> files;
		try (Stream<Path> s = Files.walk(ROOT)) {
			files = s.filter(p -> p.toString().endsWith(".java")).collect(Collectors
				.toList());
		}
		final TreeSet<String> corePackages = new TreeSet<>();
		final List<String> violations = new ArrayList<>();
		for (final Path f : files) {
			final String pkg = ROOT.relativize(f.getParent()).toString().replace('/', '.');
			final String fqPkg = pkg.isEmpty() ? "org.cpca" : "org.cpca." + pkg;
			final String text = new String(Files.readAllBytes(f), StandardCharsets.UTF_8);
			if (isCore(fqPkg)) corePackages.add(fqPkg);
			violations.addAll(violations(f.toString(), fqPkg, text));
		}
		assertTrue(violations.isEmpty(), String.join("\n", violations));
		assertTrue(corePackages.size() >= 6, "the core is split by concern: " +
			corePackages);
	}

	private static boolean isCore(final String fqPkg) {
		return fqPkg.equals("org.cpca.core") || fqPkg.startsWith("org.cpca.core.");
	}

	/**
	 * The rule breaks of one source file: its imports, and the fully qualified names in
	 * its code (comments and string literals left out), which an import-only check misses.
	 */
	static List<String> violations(final String file, final String fqPkg,
		final String text)
	{
		final boolean core = isCore(fqPkg);
		final List<String> used = usedNames(text);
		final List<String> out = new ArrayList<>();
		for (final String imp : used) {
			if (core && UI.matcher(imp).matches()) out.add(file + " uses " + imp +
				": the core is mathematics only");
			for (final Map.Entry<String, List<String>> rule : FORBIDDEN.entrySet()) {
				if (!(fqPkg.equals(rule.getKey()) || fqPkg.startsWith(rule.getKey() + ".")))
					continue;
				for (final String bad : rule.getValue())
					if (imp.startsWith(bad + ".")) out.add(file + " (" + fqPkg + ") uses " +
						imp + ": " + rule.getKey() + " must not use " + bad);
			}
		}
		if (core && (text.contains("System.out") || text.contains("System.err"))) out.add(
			file + " prints: the core never prints; return diagnostics");
		return out;
	}

	/** The names a source file uses: its imports and the qualified names in its code. */
	static List<String> usedNames(final String text) {
		final List<String> used = new ArrayList<>();
		final Matcher m = IMPORT.matcher(text);
		while (m.find())
			used.add(m.group(1));
		final Matcher q = QUALIFIED.matcher(code(text).replaceAll(
			"(?m)^\\s*(package|import)\\s[^;]*;", ""));
		while (q.find())
			used.add(q.group(1));
		return used;
	}

	/** The text with comments, string and character literals blanked out. */
	static String code(final String text) {
		final StringBuilder out = new StringBuilder(text.length());
		int i = 0;
		final int n = text.length();
		while (i < n) {
			final char c = text.charAt(i);
			if (text.startsWith("//", i)) {
				while (i < n && text.charAt(i) != '\n')
					i++;
			}
			else if (text.startsWith("/*", i)) {
				final int end = text.indexOf("*/", i + 2);
				i = end < 0 ? n : end + 2;
				out.append(' ');
			}
			else if (text.startsWith("\"\"\"", i)) {
				final int end = text.indexOf("\"\"\"", i + 3);
				i = end < 0 ? n : end + 3;
				out.append("\"\"");
			}
			else if (c == '"' || c == '\'') {
				i++;
				while (i < n && text.charAt(i) != c && text.charAt(i) != '\n')
					i += text.charAt(i) == '\\' ? 2 : 1;
				i++;
				out.append(c).append(c);
			}
			else {
				out.append(c);
				i++;
			}
		}
		return out.toString();
	}

	@Test
	void fullyQualifiedNamesCountAsUses() {
		final String src = "package org.cpca.core.gcpca;\n" +
			"/** See {@link org.cpca.core.sparse.Sparse}. */\n" +
			"class A { String s = \"org.cpca.cli.Main\"; // java.awt.Color\n" +
			"  Object x = org.cpca.core.sparse.Sparse.of(1); }\n";
		final List<String> v = violations("A.java", "org.cpca.core.gcpca", src);
		assertTrue(v.size() == 1 && v.get(0).contains("org.cpca.core.sparse.Sparse"),
			v.toString());
		final List<String> ui = violations("B.java", "org.cpca.core.linalg",
			"package org.cpca.core.linalg;\nclass B { java.awt.Color c; }\n");
		assertTrue(ui.size() == 1 && ui.get(0).contains("mathematics only"), ui
			.toString());
		assertTrue(violations("C.java", "org.cpca.core.linalg",
			"package org.cpca.core.linalg;\nclass C { double ij = 1; int k = this.ij > 0 ? 1 : 0; }\n")
			.isEmpty());
	}

	/** The Spark module's sources (a second Maven module beside the plugin). */
	private static final Path SPARK = Paths.get("spark/src/main/java/org/cpca/spark");

	/**
	 * The Spark front end ({@code spark/}) is a front end like {@code cli}: it uses
	 * {@code io}, {@code flags} and the core, and no other front end nor the ImageJ-side
	 * analysis ({@code SparkBench} compares with {@code cpca fit} through {@code io}'s
	 * pipeline, not the command line).
	 */
	@Test
	void sparkModuleHoldsTheLayers() throws IOException {
		assertTrue(Files.isDirectory(SPARK), "run from the project folder");
		final List<String> forbidden = Arrays.asList("org.cpca.command", "org.cpca.macro",
			"org.cpca.analysis", "org.cpca.bench", "org.cpca.cli");
		final List<String> violations = new ArrayList<>();
		int files = 0;
		try (Stream<Path> s = Files.walk(SPARK)) {
			for (final Path f : s.filter(p -> p.toString().endsWith(".java")).collect(
				Collectors.toList()))
			{
				files++;
				final String text = new String(Files.readAllBytes(f), StandardCharsets.UTF_8);
				for (final String used : usedNames(text))
					for (final String bad : forbidden)
						if (used.startsWith(bad + "."))
							violations.add(f + " uses " + used + ": org.cpca.spark must not use " +
								bad);
			}
		}
		assertTrue(files >= 5, "Spark sources found: " + files);
		assertTrue(violations.isEmpty(), String.join("\n", violations));
	}

	/**
	 * No package cycles (a package that uses another, directly or through others, is never
	 * used back): the layers are a graph without cycles, so each package can be read and
	 * tested from those below it.
	 */
	@Test
	void noPackageCycles() throws IOException {
		final Map<String, java.util.Set<String>> uses = new java.util.TreeMap<>();
		try (Stream<Path> s = Files.walk(ROOT)) {
			for (final Path f : s.filter(p -> p.toString().endsWith(".java")).collect(
				Collectors.toList()))
			{
				final String pkg = "org.cpca." + ROOT.relativize(f.getParent()).toString()
					.replace('/', '.');
				final java.util.Set<String> out = uses.computeIfAbsent(pkg,
					k -> new TreeSet<>());
				for (final String name : usedNames(new String(Files.readAllBytes(f),
					StandardCharsets.UTF_8)))
				{
					final String other = packageOf(name);
					if (other.startsWith("org.cpca.") && !other.equals(pkg)) out.add(other);
				}
			}
		}
		final String cycle = cycle(uses);
		assertTrue(cycle == null, "package cycle: " + cycle);
		assertTrue(uses.size() >= 20, "packages found: " + uses.keySet());
		// the check itself finds a cycle, and through a third package
		assertTrue(cycle(Map.of("a", java.util.Set.of("b"), "b", java.util.Set.of("c"), "c",
			java.util.Set.of("a"))) != null);
		assertTrue(cycle(Map.of("a", java.util.Set.of("b"), "b", java.util.Set.of("c"))) ==
			null);
	}

	/** The package part of a qualified name (up to the first upper-case part). */
	private static String packageOf(final String name) {
		final String[] parts = name.split("\\.");
		final StringBuilder sb = new StringBuilder();
		for (final String part : parts) {
			if (!part.isEmpty() && Character.isUpperCase(part.charAt(0))) break;
			sb.append(sb.length() == 0 ? "" : ".").append(part);
		}
		return sb.toString();
	}

	/** One cycle of the graph as "a → b → a", or null (depth-first search). */
	private static String cycle(final Map<String, java.util.Set<String>> uses) {
		final Map<String, Integer> state = new java.util.HashMap<>(); // 1 open, 2 done
		final java.util.Deque<String> path = new java.util.ArrayDeque<>();
		for (final String start : uses.keySet()) {
			final String c = visit(start, uses, state, path);
			if (c != null) return c;
		}
		return null;
	}

	private static String visit(final String p, final Map<String, java.util.Set<String>> uses,
		final Map<String, Integer> state, final java.util.Deque<String> path)
	{
		final Integer st = state.get(p);
		if (st != null && st == 2) return null;
		if (st != null && st == 1) {
			final List<String> loop = new ArrayList<>();
			boolean in = false;
			for (final java.util.Iterator<String> it = path.descendingIterator(); it
				.hasNext();)
			{
				final String q = it.next();
				if (q.equals(p)) in = true;
				if (in) loop.add(q);
			}
			loop.add(p);
			return String.join(" → ", loop);
		}
		state.put(p, 1);
		path.push(p);
		for (final String q : uses.getOrDefault(p, java.util.Set.of())) {
			final String c = visit(q, uses, state, path);
			if (c != null) return c;
		}
		path.pop();
		state.put(p, 2);
		return null;
	}

	private static final Path BENCH = Paths.get("src/bench/java/org/cpca/bench");

	/**
	 * The benchmarks are their own source set (src/bench/java), outside the plugin jar: no
	 * plugin source is in their package or imports them, and they hold the same rules.
	 */
	@Test
	void benchIsOutsideThePlugin() throws IOException {
		assertTrue(Files.isDirectory(BENCH), "run from the project folder");
		final List<String> violations = new ArrayList<>();
		try (Stream<Path> s = Files.walk(ROOT)) {
			for (final Path f : s.filter(p -> p.toString().endsWith(".java")).collect(
				Collectors.toList()))
				for (final String name : usedNames(new String(Files.readAllBytes(f),
					StandardCharsets.UTF_8)))
					if (packageOf(name).equals("org.cpca.bench")) violations.add(f + " uses " +
						name + ": the plugin must not need the bench");
		}
		assertTrue(!Files.exists(ROOT.resolve("bench")), "src/main/java/org/cpca/bench " +
			"exists: the benchmarks belong in src/bench/java");
		try (Stream<Path> s = Files.walk(BENCH)) {
			for (final Path f : s.filter(p -> p.toString().endsWith(".java")).collect(
				Collectors.toList()))
				violations.addAll(violations(f.toString(), "org.cpca.bench", new String(Files
					.readAllBytes(f), StandardCharsets.UTF_8)));
		}
		assertTrue(violations.isEmpty(), String.join("\n", violations));
	}

	/** Every package says what lives there. */
	@Test
	void everyPackageHasPackageInfo() throws IOException {
		final List<String> missing = new ArrayList<>();
		try (Stream<Path> s = Files.walk(ROOT)) {
			for (final Path dir : s.filter(Files::isDirectory).collect(Collectors
				.toList()))
			{
				boolean hasJava;
				try (Stream<Path> l = Files.list(dir)) {
					hasJava = l.anyMatch(p -> p.toString().endsWith(".java"));
				}
				if (hasJava && !Files.exists(dir.resolve("package-info.java"))) missing.add(
					dir.toString());
			}
		}
		assertTrue(missing.isEmpty(), "no package-info.java in " + missing);
	}

	/** Lines above which a class of the core says in its javadoc why it is that long. */
	static final int LONG_CLASS = 500;

	/**
	 * No class of the core is over {@value #LONG_CLASS} lines unless its class javadoc says
	 * why (a sentence that gives its length: "Length …" or "… 500 lines …").
	 */
	@Test
	void longCoreClassesSayWhy() throws IOException {
		final Pattern says = Pattern.compile("Length|\\d+ lines");
		final List<String> silent = new ArrayList<>();
		try (Stream<Path> s = Files.walk(ROOT.resolve("core"))) {
			for (final Path f : s.filter(p -> p.toString().endsWith(".java")).collect(
				Collectors.toList()))
			{
				final List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
				if (lines.size() <= LONG_CLASS) continue;
				final String text = String.join("\n", lines);
				final Matcher type = Pattern.compile("(?m)^(public |final |abstract )*" +
					"(class|interface|enum) ").matcher(text);
				final int end = type.find() ? type.start() : text.length();
				final int doc = text.lastIndexOf("/**", end);
				if (doc < 0 || !says.matcher(text.substring(doc, end)).find()) silent.add(f +
					" (" + lines.size() + " lines)");
			}
		}
		assertTrue(silent.isEmpty(), "over " + LONG_CLASS + " lines without saying why in " +
			"the class javadoc: " + silent);
	}
}
