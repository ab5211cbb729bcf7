package org.cpca.macro;

import static org.junit.jupiter.api.Assertions.fail;

import ij.IJ;
import ij.Menus;
import ij.macro.Interpreter;

import org.cpca.QuietOutput;

import java.awt.HeadlessException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Runs ImageJ 1.x macros in-process and headless for the tests.
 * <p>
 * ImageJ's AWT menus cannot be built in a headless JVM, so the entry that ImageJ reads
 * from the jar's {@code plugins.config} is put into its command table directly; the
 * {@code plugins.config} file itself is read by a real ImageJ in
 * {@code .ci/imagej-e2e.sh}.
 * <p>
 * A macro passes only if ImageJ saw no error: no macro error, no exception given to
 * {@link IJ#handleException}, and no exception or stack trace in ImageJ's log. A
 * command that throws inside {@code run(...)} does not stop a macro: ImageJ writes
 * the stack trace to its log (headless: standard output) and the macro goes on, so
 * the log is the only place the failure shows. Standard output and error are captured
 * while a macro runs (the build stays quiet); {@link #log()} gives them to the test.
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
		Menus.getCommands().putIfAbsent("Delete Slice", "ij.plugin.StackEditor(\"delete\")");
	}

	/** A line of a Java exception as ImageJ logs it (see {@link QuietOutput}). */
	static final Pattern EXCEPTION_LINE = QuietOutput.EXCEPTION_LINE;

	/** What the last macro wrote to ImageJ's log, standard output and error. */
	private static String log = "";

	/** Exceptions ImageJ handed to its exception handler during the last macro. */
	private static final List<Throwable> exceptions = new ArrayList<>();

	private MacroRunner() {}

	/** Runs the macro in batch mode; fails the test with the macro's error message. */
	static String run(final String macro) {
		return run(macro, null);
	}

	/**
	 * Runs the macro in batch mode with an argument ({@code getArgument()}); fails the
	 * test on a macro error, an exception or a logged exception, with the log.
	 */
	static String run(final String macro, final String argument) {
		final Interpreter interp = new Interpreter();
		interp.setIgnoreErrors(true);
		final String result;
		try {
			result = capture(() -> interp.run(PROLOGUE + macro, argument));
		}
		catch (final RuntimeException e) { // e.g. "Macro canceled" after IJ.error
			throw new AssertionError("macro aborted: " + e + " (" + interp
				.getErrorMessage() + "); log:\n" + log, e);
		}
		if (interp.wasError() || interp.getErrorMessage() != null) fail("macro error: " +
			interp.getErrorMessage() + "; log:\n" + log);
		if (!exceptions.isEmpty()) {
			final AssertionError e = new AssertionError("ImageJ handled an exception: " +
				exceptions.get(0) + "; log:\n" + log, exceptions.get(0));
			throw e;
		}
		if (EXCEPTION_LINE.matcher(log).find()) fail(
			"ImageJ logged an exception:\n" + log);
		return result;
	}

	/** Standard output and error (ImageJ's log, headless) of the last macro run. */
	static String log() {
		return log;
	}

	/** Runs a macro that must fail; returns its error message. */
	static String error(final String macro) {
		final Interpreter interp = new Interpreter();
		interp.setIgnoreErrors(true);
		try {
			capture(() -> interp.run(PROLOGUE + macro, null));
		}
		catch (final RuntimeException e) {
			// aborted (e.g. an index out of range): the message says why
		}
		if (interp.getErrorMessage() == null) fail("the macro should have failed; log:\n" +
			log);
		return interp.getErrorMessage();
	}

	/**
	 * Runs {@code body} with standard output and error going to {@link #log} (ImageJ's
	 * headless log goes to standard output) and with an exception handler that keeps
	 * what ImageJ gives it in {@link #exceptions}.
	 */
	private static String capture(final java.util.function.Supplier<String> body) {
		final PrintStream out = System.out, err = System.err;
		final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
		final PrintStream to = new PrintStream(buffer, true, StandardCharsets.UTF_8);
		exceptions.clear();
		IJ.setExceptionHandler(exceptions::add);
		System.setOut(to);
		System.setErr(to);
		try {
			return body.get();
		}
		finally {
			System.setOut(out);
			System.setErr(err);
			IJ.setExceptionHandler(null);
			log = new String(buffer.toByteArray(), StandardCharsets.UTF_8);
		}
	}
}
