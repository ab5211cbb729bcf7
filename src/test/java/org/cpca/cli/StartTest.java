package org.cpca.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.cpca.core.linalg.Backend;
import org.junit.jupiter.api.Test;

import picocli.CommandLine;

/**
 * The start of a one-shot run (docs/speed.md, one-shot runs): a run that names its
 * subcommand builds that subcommand only, with the same help as the whole command line
 * gives it; {@code fit} loads the backend on a thread of its own that ends, with the
 * choice the backend makes itself; nothing is loaded ahead for help or other commands.
 */
class StartTest {

	private static String help(final CommandLine cl) {
		final StringWriter s = new StringWriter();
		cl.usage(new PrintWriter(s), CommandLine.Help.Ansi.OFF);
		return s.toString();
	}

	@Test
	void aRunBuildsOnlyItsSubcommandWithTheSameHelp() {
		final CommandLine all = Main.commandLine();
		assertEquals(List.of("fit", "apply", "generate", "demo", "bench", "help"), List.copyOf(
			all.getSubcommands().keySet()));
		for (final String name : List.of("fit", "apply", "generate", "demo", "bench")) {
			final CommandLine one = Main.commandLine(name, "--out", "somewhere");
			assertEquals(Set.of(name), one.getSubcommands().keySet(), name);
			assertEquals(help(all.getSubcommands().get(name)), help(one.getSubcommands().get(
				name)), name);
		}
		// anything else gets every subcommand (help, suggestions for a mistyped one)
		for (final String first : List.of("--help", "help", "fti", "-V"))
			assertEquals(all.getSubcommands().keySet(), Main.commandLine(first).getSubcommands()
				.keySet(), first);
		assertEquals(help(all), help(Main.commandLine()));
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
