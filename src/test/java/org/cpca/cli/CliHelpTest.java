package org.cpca.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The command line's help and error messages: suggestions for typos, grouped and
 * exemplified {@code fit --help}, honest {@code bench --help}, no ANSI escapes when the
 * output is not a terminal (as in every test).
 */
class CliHelpTest {

	@Test
	void aMistypedSubcommandOrOptionGetsOneLineWithASuggestion() {
		final Object[] r = CliTest.cpca("fti");
		assertEquals(2, r[0]);
		final String err = r[2].toString().trim();
		assertEquals(1, err.lines().count(), err);
		assertTrue(err.contains("did you mean fit?"), err);
		final Object[] o = CliTest.cpca("fit", "--alpah", "2", "--target", "t.tif", "--out",
			"o");
		assertEquals(2, o[0]);
		assertTrue(o[2].toString().contains("did you mean --alpha"), o[2].toString());
		assertTrue(o[2].toString().contains("(see: cpca fit --help)"), o[2].toString());
	}

	@Test
	void aMistypedRequiredOptionIsNamedNotReportedMissing() {
		// "--taget" once gave "Missing required option: '--target=PATH'", no suggestion
		final Object[] r = CliTest.cpca("fit", "--taget", "t.tif", "--background", "b.tif",
			"--out", "o");
		assertEquals(2, r[0]);
		assertEquals("cpca: Unknown option '--taget'; did you mean --target? (see: cpca fit " +
			"--help)", r[2].toString().trim());
	}

	@Test
	void editDistanceCountsASwapAsOneEdit() {
		assertEquals(1, Main.editDistance("fti", "fit"));
		assertEquals(1, Main.editDistance("aplha", "alpha"));
		assertEquals(3, Main.editDistance("", "fit"));
		assertEquals(0, Main.editDistance("bench", "bench"));
	}

	@Test
	void fitHelpIsGroupedInOrderAndEndsWithExamples() {
		final String help = CliTest.cpca("fit", "--help")[1].toString();
		final List<String> headings = List.of("Input:", "Method:",
			"Kernel cPCA (--method kernel):", "Online cPCA* (--method online):", "Output:",
			"Help:", "Examples:");
		int at = -1;
		for (final String h : headings) {
			final int i = help.indexOf("\n" + h + "\n");
			assertTrue(i > at, h + " after the previous heading in\n" + help);
			at = i;
		}
		// every option is listed exactly once, in its group
		for (final String flag : List.of("--target=", "--background=", "--alpha=", "--eta=",
			"--kernel=", "--out=", "--seed=")) {
			// (counted in the option list: the synopsis above wraps wherever it fits)
			final String list = help.substring(help.indexOf("\nInput:\n"));
			assertEquals(1, list.split(java.util.regex.Pattern.quote("  " + flag), -1).length -
				1, flag + " once in\n" + help);
		}
		assertTrue(help.indexOf("      --target=") < help.indexOf("\nMethod:"));
		assertTrue(help.indexOf("      --out=") > help.indexOf("\nOutput:"));
		assertTrue(help.indexOf("      --eta=") > help.indexOf("\nOnline cPCA*"));
		assertTrue(help.trim().endsWith("docs/workflows/."), help);
		assertTrue(help.contains("cpca fit --target target.tif --background background.tif " +
			"--out results"));
		// no line wider than 80 columns
		help.lines().forEach(l -> assertTrue(l.length() <= 80, l));
	}

	@Test
	void benchHelpSaysMedian() {
		final String help = CliTest.cpca("bench", "--help")[1].toString();
		assertTrue(help.contains("median"), help);
		assertFalse(help.contains("best of"), help);
	}

	@Test
	void noAnsiEscapesWithoutATerminal() {
		for (final String[] args : new String[][] { { "--help" }, { "fit", "--help" }, {
			"fti" }, { "fit" } })
		{
			final Object[] r = CliTest.cpca(args);
			assertFalse(r[1].toString().contains("\u001b[") || r[2].toString().contains(
				"\u001b["), String.join(" ", args));
		}
	}
}
