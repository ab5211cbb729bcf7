package org.cpca.macro;

import static org.junit.jupiter.api.Assertions.fail;

import ij.IJ;
import ij.Menus;
import ij.macro.Interpreter;

import java.awt.HeadlessException;

/**
 * Runs ImageJ 1.x macros in-process and headless for the tests.
 * <p>
 * ImageJ's AWT menus cannot be built in a headless JVM, so the entry that ImageJ reads
 * from the jar's {@code plugins.config} is put into its command table directly; the
 * {@code plugins.config} file itself is read by a real ImageJ in
 * {@code .ci/imagej-e2e.sh}.
 */
final class MacroRunner {

	/** Batch mode, and no image left over from an earlier macro of the same JVM. */
	private static final String PROLOGUE = "setBatchMode(true);\nclose(\"*\");\n";

	static final String RUN_LINE = "run(\"Contrastive PCA Macro Functions\");";

	static {
		// ImageJ builds its command table on first use and then fails on the AWT menus of
		// a headless JVM; the table exists afterwards, which is all the macros here need
		if (Menus.getCommands() == null) try {
			IJ.run("Close All");
		}
		catch (final HeadlessException e) {
			// expected
		}
		// what ImageJ reads from the jar's plugins.config
		Menus.getCommands().put("Contrastive PCA Macro Functions",
			CpcaMacroFunctions.class.getName());
		// standard commands the example macros use that the interrupted start left out
		// (as in ImageJ's IJ_Props.txt and Menus)
		Menus.getCommands().putIfAbsent("PNG...", "ij.plugin.filter.Writer(\"png\")");
		Menus.getCommands().putIfAbsent("Duplicate...", "ij.plugin.Duplicator");
		Menus.getCommands().putIfAbsent("Clear Results", "ij.plugin.filter.Analyzer(\"clear\")");
	}

	private MacroRunner() {}

	/** Runs the macro in batch mode; fails the test with the macro's error message. */
	static String run(final String macro) {
		return run(macro, null);
	}

	/** Runs the macro in batch mode with an argument ({@code getArgument()}). */
	static String run(final String macro, final String argument) {
		final Interpreter interp = new Interpreter();
		interp.setIgnoreErrors(true);
		final String result = interp.run(PROLOGUE + macro, argument);
		if (interp.wasError() || interp.getErrorMessage() != null) fail("macro error: " +
			interp.getErrorMessage());
		return result;
	}

	/** Runs a macro that must fail; returns its error message. */
	static String error(final String macro) {
		final Interpreter interp = new Interpreter();
		interp.setIgnoreErrors(true);
		interp.run(PROLOGUE + macro, null);
		if (interp.getErrorMessage() == null) fail("the macro should have failed");
		return interp.getErrorMessage();
	}
}
