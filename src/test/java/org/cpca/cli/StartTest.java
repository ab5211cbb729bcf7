package org.cpca.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.cpca.core.linalg.Backend;
import org.junit.jupiter.api.Test;

import picocli.CommandLine;

/**
 * The start of a one-shot run (docs/speed.md, one-shot runs): {@code fit} loads the
 * backend on a thread of its own that ends, with the choice the backend makes itself;
 * nothing is loaded ahead for help or other commands. A run builds the picocli model of
 * the subcommand it names only, with the same options and help, and a fit's flags for
 * the settings only when an argument could name one.
 */
class StartTest {

	@Test
	void aRunBuildsTheSubcommandItNamesOnly() {
		final List<String> all = Arrays.asList("fit", "apply", "generate", "demo", "bench",
			"help");
		assertEquals(all, names(Main.commandLine()));
		for (final String[] args : new String[][] { {}, { "--help" }, { "-V" }, { "help",
			"fit" }, { "fti", "--out", "x" }, { "--help", "fit" } })
			assertEquals(all, names(Main.commandLine(args)), String.join(" ", args));
		for (final String name : Main.SUBCOMMANDS)
			assertEquals(List.of(name), names(Main.commandLine(name, "--out", "x")), name);
		// the same options and the same help as the subcommand among all the others
		for (final String name : Main.SUBCOMMANDS) {
			final CommandLine one = Main.commandLine(name, "--help").getSubcommands().get(name);
			final CommandLine among = Main.commandLine().getSubcommands().get(name);
			assertEquals(one.getCommandSpec().optionsMap().keySet(), among.getCommandSpec()
				.optionsMap().keySet(), name);
			assertEquals(usage(among), usage(one), name);
		}
	}

	@Test
	void aFitGivenOnlyDeclaredOptionsGetsNoSettingFlags() {
		// the flags SettingFlags adds: those of the whole command that fit does not declare
		final Set<String> declared = new CommandLine(new FitCommand()).getCommandSpec()
			.optionsMap().keySet();
		final List<String> added = new ArrayList<>(Main.commandLine().getSubcommands().get(
			"fit").getCommandSpec().optionsMap().keySet());
		added.removeAll(declared);
		assertTrue(added.size() >= 1, "setting flags: " + added);
		final String flag = added.get(0);
		assertEquals(Set.of(), added(new String[] { "fit", "--target", "t.tif", "--background",
			"b.tif", "--alpha=2", "-k", "3", "--target-where", "a=b", "--out", "r" }, added));
		assertEquals(Set.of(), added(new String[] { "fit" }, added));
		for (final String[] args : new String[][] { { "fit", "--help" }, { "fit", "-h" }, {
			"fit", "-V" }, { "fit", "--out", "r", "@more.txt" }, { "fit", "-k3" }, { "fit",
				"--alpha", "-1" }, { "fit", "--taget", "t.tif" }, { "fit", "--out", "r", flag,
					"1" }, { "fit", flag + "=1" }, { "fit", "--out", "r", "--" } })
			assertEquals(Set.copyOf(added), added(args, added), String.join(" ", args));
	}

	/** Which of {@code flags} the command line for {@code args} has. */
	private static Set<String> added(final String[] args, final List<String> flags) {
		final Set<String> have = new HashSet<>(Main.commandLine(args).getSubcommands().get(
			"fit").getCommandSpec().optionsMap().keySet());
		have.retainAll(flags);
		return have;
	}

	private static List<String> names(final CommandLine cl) {
		return List.copyOf(cl.getSubcommands().keySet());
	}

	private static String usage(final CommandLine cl) {
		final StringWriter w = new StringWriter();
		cl.usage(new PrintWriter(w), CommandLine.Help.Ansi.OFF);
		return w.toString();
	}

	@Test
	void fitLoadsTheBackendAheadOnAThreadThatEnds() throws InterruptedException {
		for (final String[] args : new String[][] { {}, { "demo" }, { "generate", "--out",
			"x" }, { "apply", "--model", "m.json" }, { "fit", "--help" }, { "fit", "-h" }, {
				"fit", "-V" }, { "--help", "fit" } })
			assertNull(Main.loadBackendAhead(args), String.join(" ", args));
		final Thread t = Main.loadBackendAhead("fit", "--target", "t.tif");
		assertNotNull(t);
		assertTrue(t.isDaemon());
		t.join(120_000);
		assertFalse(t.isAlive(), "the loading thread ended");
		// the outcome is the backend's own choice: native exactly when wanted and loaded
		final String wanted = System.getProperty("cpca.kernels", "").trim().toLowerCase(
			Locale.ROOT);
		final boolean nativeWanted = wanted.isEmpty() || wanted.equals("native");
		assertEquals(nativeWanted && Backend.diagnostic() == null, Backend.isNative());
		assertEquals(!nativeWanted, Backend.diagnostic() == null && !Backend.isNative());
	}
}
