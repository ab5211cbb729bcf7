package org.cpca.command.ij1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;

import org.junit.jupiter.api.Test;

/**
 * The install bundles that {@code mvn package} makes (src/assembly/), checked after the
 * package phase by failsafe: what each zip holds, where, and what it must not hold.
 */
class BundlesIT {

	/** Dependencies a current Fiji ships; the Fiji bundle must not carry them. */
	private static final List<String> IN_FIJI = List.of("ij", "scijava-common",
		"parsington", "imglib2", "commons-math3", "gson");

	private static Path bundle(final String kind) throws IOException {
		final List<Path> found = new ArrayList<>();
		try (DirectoryStream<Path> d = Files.newDirectoryStream(Paths.get("target"),
			"Contrastive_PCA-*-" + kind + ".zip"))
		{
			d.forEach(found::add);
		}
		assertEquals(1, found.size(), "one " + kind + " bundle in target/: " + found);
		return found.get(0);
	}

	private static Set<String> entries(final Path zip) throws IOException {
		try (ZipFile z = new ZipFile(zip.toFile())) {
			return Collections.list(z.entries()).stream().filter(e -> !e.isDirectory()).map(
				ZipEntry::getName).collect(Collectors.toCollection(TreeSet::new));
		}
	}

	/** A file inside a jar inside a zip, or null. */
	private static String inJar(final Path zip, final String jar, final String file)
		throws IOException
	{
		try (ZipFile z = new ZipFile(zip.toFile());
				ZipInputStream in = new ZipInputStream(z.getInputStream(z.getEntry(jar))))
		{
			for (ZipEntry e; (e = in.getNextEntry()) != null;)
				if (e.getName().equals(file)) return new String(in.readAllBytes(),
					StandardCharsets.UTF_8);
		}
		return null;
	}

	private static String artifact(final String jarName) {
		return jarName.replaceAll("-\\d[^/]*\\.jar$", "");
	}

	/** The native backend's jars, which the bundles leave out (docs/install.md). */
	private static boolean nativeBackend(final String jarName) {
		return jarName.startsWith("javacpp-") || jarName.startsWith("openblas-");
	}

	/**
	 * The runtime dependencies' jar file names, from this test's class path, but the
	 * native backend's.
	 */
	/**
	 * Jars on the tests' class path that are not the plugin's: JUnit's, and PDFBox's
	 * (pom.xml: the tests parse the PDF figures with it; the plugin writes them itself).
	 */
	private static final List<String> TEST_ONLY = List.of("junit-", "opentest4j",
		"apiguardian", "pdfbox-", "fontbox-", "commons-logging-");

	private static Set<String> runtimeDependencies() {
		final Set<String> out = new TreeSet<>();
		for (final String entry : System.getProperty("java.class.path").split(
			File.pathSeparator))
		{
			final String name = Paths.get(entry).getFileName().toString();
			if (!name.endsWith(".jar") || entry.contains("target" + File.separator) ||
				TEST_ONLY.stream().anyMatch(name::startsWith) || nativeBackend(name)) continue;
			out.add(name);
		}
		return out;
	}

	private static List<String> exampleMacros() throws IOException {
		final List<String> out = new ArrayList<>();
		try (DirectoryStream<Path> d = Files.newDirectoryStream(Paths.get(
			"plugins/Scripts/Plugins/Contrastive_PCA/Examples"), "*.ijm"))
		{
			d.forEach(p -> out.add(p.getFileName().toString()));
		}
		assertFalse(out.isEmpty());
		return out;
	}

	@Test
	void fijiBundle() throws IOException {
		final Path zip = bundle("fiji");
		final String version = zip.getFileName().toString().replaceAll(
			"^Contrastive_PCA-(.*)-fiji\\.zip$", "$1");
		final Set<String> files = entries(zip);
		final String jar = "Fiji.app/plugins/Contrastive_PCA_-" + version + ".jar";
		assertTrue(files.stream().noneMatch(f -> nativeBackend(Paths.get(f).getFileName()
			.toString())), "no native backend in the bundle: " + files);
		assertTrue(files.contains(jar), jar + " in " + files);
		for (final String f : files) {
			assertTrue(f.startsWith("Fiji.app/"), f);
			assertFalse(f.contains("-ij1"), "the ImageJ 1.x menus are not for Fiji (each " +
				"command would be listed twice): " + f);
			if (f.startsWith("Fiji.app/jars/")) assertFalse(IN_FIJI.contains(artifact(f
				.substring("Fiji.app/jars/".length()))), "Fiji ships " + f);
			else if (!f.startsWith("Fiji.app/scripts/Plugins/Contrastive_PCA/Examples/"))
				assertEquals(jar, f, "only the plugin jar, jars/ and scripts/");
		}
		final Set<String> needed = new TreeSet<>();
		for (final String dep : runtimeDependencies())
			if (!IN_FIJI.contains(artifact(dep))) needed.add("Fiji.app/jars/" + dep);
		assertEquals(needed, files.stream().filter(f -> f.startsWith("Fiji.app/jars/"))
			.collect(Collectors.toCollection(TreeSet::new)),
			"every runtime dependency Fiji lacks (picocli), nothing else");
		assertTrue(needed.stream().anyMatch(f -> f.contains("picocli")), "" + needed);
		for (final String m : exampleMacros())
			assertTrue(files.contains("Fiji.app/scripts/Plugins/Contrastive_PCA/Examples/" + m), m);
		final String config = inJar(zip, jar, "plugins.config");
		assertTrue(config != null && config.contains("org.cpca.command.ij1.SampleData"),
			"the plugin jar's plugins.config has Sample Data");
		assertFalse(config.contains("CommandBridge"), "no bridge entries in Fiji");
		final String index = inJar(zip, jar, "META-INF/json/org.scijava.plugin.Plugin");
		assertTrue(index != null && index.contains("org.cpca.command.ContrastivePcaCommand"),
			"the plugin jar lists its SciJava commands");
	}

	@Test
	void imageJBundle() throws IOException {
		final Path zip = bundle("imagej");
		final String version = zip.getFileName().toString().replaceAll(
			"^Contrastive_PCA-(.*)-imagej\\.zip$", "$1");
		final Set<String> files = entries(zip);
		final String jar = "plugins/Contrastive_PCA_-" + version + ".jar";
		assertTrue(files.stream().noneMatch(f -> nativeBackend(Paths.get(f).getFileName()
			.toString())), "no native backend in the bundle: " + files);
		final String menus = "plugins/Contrastive_PCA_-" + version + "-ij1.jar";
		assertTrue(files.contains(jar), jar + " in " + files);
		assertTrue(files.contains(menus), menus + " in " + files);
		final Set<String> deps = new TreeSet<>();
		for (final String dep : runtimeDependencies())
			if (!artifact(dep).equals("ij")) deps.add("plugins/jars/" + dep);
		assertTrue(deps.size() >= 5, "the runtime dependencies: " + deps);
		assertEquals(deps, files.stream().filter(f -> f.startsWith("plugins/jars/")).collect(
			Collectors.toCollection(TreeSet::new)), "every runtime dependency but ImageJ");
		// no plugins/ subfolder of macros: ImageJ would make a second menu of it
		// ("Contrastive_PCA"); the menu jar holds the examples for its Examples entries
		for (final String f : files)
			assertTrue(f.equals(jar) || f.equals(menus) || f.startsWith("plugins/jars/"),
				"unexpected " + f);
		final String config = inJar(zip, menus, "plugins.config");
		assertTrue(config != null && config.contains(
			"org.cpca.command.ij1.CommandBridge(\"org.cpca.command.ContrastivePcaCommand\")"),
			"the menu jar's plugins.config opens the commands through the bridge");
		try (InputStream in = Files.newInputStream(Paths.get("src/main/ij1/plugins.config"))) {
			assertEquals(new String(in.readAllBytes(), StandardCharsets.UTF_8), config);
		}
		for (final String m : exampleMacros()) {
			assertTrue(config.contains("Plugins>Contrastive PCA>Examples, \"" + m.replace(
				".ijm", "").replace('_', ' ') + "\", ij.plugin.Macro_Runner(\"JAR:" +
				"cpca-examples/" + m + "\")"), m + " in the Examples menu");
			assertEquals(new String(Files.readAllBytes(Paths.get(
				"plugins/Scripts/Plugins/Contrastive_PCA/Examples", m)), StandardCharsets.UTF_8),
				inJar(zip, menus, "cpca-examples/" + m), m + " in the menu jar");
		}
	}
}
