package org.cpca.command.ij1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.scijava.Context;
import org.scijava.command.Command;
import org.scijava.module.ModuleInfo;
import org.scijava.plugin.PluginInfo;
import org.scijava.plugin.PluginService;

/**
 * ImageJ 1.x reads macro files as Latin-1, so everything that can appear in a macro is
 * ASCII: every shipped .ijm file, every menu label a recorded macro names
 * ({@code run("Explore Alpha...", ...)}), every macro key and every choice value. The
 * plain-ImageJ menus ({@code src/main/ij1/plugins.config}) list every command under the
 * same name as Fiji, so a recorded macro runs in both.
 */
class RecordableNamesTest {

	private static Context context;

	@BeforeAll
	static void start() {
		System.setProperty("java.awt.headless", "true");
		context = new Context(PluginService.class);
	}

	@AfterAll
	static void stop() {
		context.dispose();
	}

	/** This plugin's commands by menu label, e.g. "Contrastive PCA..." → class. */
	private static Map<String, String> commands() {
		final Map<String, String> out = new TreeMap<>();
		for (final PluginInfo<Command> info : context.service(PluginService.class)
			.getPluginsOfType(Command.class))
		{
			if (!info.getClassName().startsWith("org.cpca.")) continue;
			out.put(info.getMenuPath().getLeaf().getName(), info.getClassName());
		}
		return out;
	}

	private static List<String> nonAscii(final String s) {
		final List<String> bad = new ArrayList<>();
		for (int i = 0; i < s.length(); i++)
			if (s.charAt(i) > 127) bad.add("'" + s.charAt(i) + "' at " + i);
		return bad;
	}

	@Test
	void everyShippedMacroIsAscii() throws IOException {
		final List<Path> macros;
		try (Stream<Path> s = Files.walk(Paths.get("plugins"))) {
			macros = s.filter(p -> p.toString().endsWith(".ijm")).collect(Collectors
				.toList());
		}
		assertTrue(macros.size() >= 6, "the example macros are found: " + macros);
		for (final Path p : macros) {
			final byte[] bytes = Files.readAllBytes(p);
			for (int i = 0, line = 1; i < bytes.length; i++) {
				if (bytes[i] == '\n') line++;
				assertTrue(bytes[i] >= 0, p + " line " + line + " has a non-ASCII byte: " +
					"ImageJ 1.x would read it as Latin-1 (write alpha, not \u03b1)");
			}
		}
	}

	@Test
	void menuLabelsKeysAndChoicesAreAscii() throws Exception {
		final Map<String, String> commands = commands();
		assertTrue(commands.keySet().containsAll(List.of("Contrastive PCA...",
			"Explore Alpha...", "Online cPCA star...", "Apply Model...", "Batch...")),
			"the commands: " + commands.keySet());
		for (final Map.Entry<String, String> e : commands.entrySet()) {
			assertEquals(List.of(), nonAscii(e.getKey()), "menu label of " + e.getValue());
			final Class<? extends Command> type = Class.forName(e.getValue()).asSubclass(
				Command.class);
			// the choices as the ImageJ 1.x dialog shows them: from the fields' declarations
			final ModuleInfo info = CommandBridge.describe(type, type.getDeclaredConstructor()
				.newInstance());
			for (final Field f : CommandBridge.inputs(type)) {
				assertEquals(List.of(), nonAscii(f.getName()), "macro key " + f.getName());
				final List<?> choices = info.getInput(f.getName()).getChoices();
				if (choices != null) for (final Object choice : choices)
					assertEquals(List.of(), nonAscii(String.valueOf(choice)), e.getKey() + " " + f
						.getName() + "=" + choice);
			}
		}
	}

	@Test
	void imageJMenusListEveryCommandUnderFijisName() throws IOException {
		final Pattern entry = Pattern.compile(
			"^Plugins>Contrastive PCA, \"([^\"]+)\", ([\\w.]+)(?:\\(\"([\\w.]+)\"\\))?$");
		// the example macros: one entry each in Plugins > Contrastive PCA > Examples, run
		// from the menu jar (no plugins/ subfolder, which would be a second menu)
		final Pattern example = Pattern.compile("^Plugins>Contrastive PCA>Examples, " +
			"\"([^\"]+)\", ij\\.plugin\\.Macro_Runner\\(\"JAR:cpca-examples/(\\w+\\.ijm)\"\\)$");
		final Map<String, String> examples = new TreeMap<>(), expected = new TreeMap<>();
		try (Stream<Path> d = Files.list(Paths.get(
			"plugins/Scripts/Plugins/Contrastive_PCA/Examples")))
		{
			d.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".ijm")).forEach(
				n -> expected.put(n.replace(".ijm", "").replace('_', ' '), n));
		}
		final Map<String, String> ij1 = new TreeMap<>();
		final List<String> labels = new ArrayList<>();
		for (final String file : new String[] { "src/main/ij1/plugins.config",
			"src/main/resources/plugins.config" })
			for (final String line : Files.readAllLines(Paths.get(file),
				StandardCharsets.UTF_8))
			{
				if (line.isEmpty() || line.startsWith("#")) continue;
				final Matcher x = example.matcher(line);
				if (x.matches()) {
					assertEquals(null, examples.put(x.group(1), x.group(2)), line);
					continue;
				}
				final Matcher m = entry.matcher(line);
				assertTrue(m.matches(), file + ": " + line);
				assertEquals(List.of(), nonAscii(m.group(1)), line);
				assertFalse(labels.contains(m.group(1)), "listed twice: " + m.group(1));
				labels.add(m.group(1));
				if (m.group(2).equals(CommandBridge.class.getName())) ij1.put(m.group(1), m
					.group(3));
			}
		assertEquals(commands(), ij1, "src/main/ij1/plugins.config: one bridge entry per " +
			"command, under the command's Fiji menu label");
		assertFalse(expected.isEmpty());
		assertEquals(expected, examples, "src/main/ij1/plugins.config: one Examples entry " +
			"per example macro");
	}

	@Test
	void bridgeTitleIsTheMenuLabel() {
		assertEquals("Explore Alpha...", CommandBridge.title(
			org.cpca.command.ExploreAlphaCommand.class));
	}
}
