package org.cpca.command;

import ij.IJ;
import ij.measure.ResultsTable;

import java.awt.GraphicsEnvironment;
import java.util.concurrent.CancellationException;

import org.cpca.analysis.DialogText;
import org.scijava.Cancelable;
import org.cpca.core.Memory;

/**
 * How the commands talk to the user: a failure cancels the command with a message that
 * names the problem and the fix (also shown in an ImageJ error dialog unless headless),
 * and tables are shown in their own windows unless headless.
 */
final class Feedback {

	static final String TITLE = "Contrastive PCA";

	private Feedback() {}

	/** Cancels {@code command} with the message of {@code e}. */
	static void fail(final Cancelable command, final RuntimeException e) {
		final String message;
		if (e instanceof CancellationException) message = "Contrastive PCA was cancelled " +
			"(Esc); no output was made";
		else if (e instanceof IllegalArgumentException || e instanceof IllegalStateException)
			message = e.getMessage();
		else message = "unexpected error: " + e + " (please report it with the macro " +
			"recorder's line for this run)";
		command.cancel(message);
		IJ.showProgress(1.0);
		IJ.showStatus("");
		if (GraphicsEnvironment.isHeadless()) return;
		// a macro without ImageJ's window (ImageJ -batch): a modal dialog would wait for
		// ever, so the message goes to the Log (printed on the console there)
		if (IJ.getInstance() == null && IJ.isMacro()) IJ.log(TITLE + ": " + message);
		else IJ.error(TITLE, DialogText.wrap(message));
	}

	/** The line for an {@link OutOfMemoryError}: what the JVM had, and the fixes. */
	static String outOfMemory() {
		return Memory.outOfMemory("bin the images or use a mask or a " +
			"selection (fewer features), fewer landmarks for kernel cPCA, or the Online " +
			"cPCA* command (streams the inputs)");
	}

	/**
	 * A line in ImageJ's Log window (Fiji and plain ImageJ alike; on standard output
	 * without ImageJ's window), where the user of a dialog looks, not the terminal.
	 */
	static void log(final String line) {
		IJ.log(line);
	}

	/** Shows the table under {@code title} unless running headless. */
	static void show(final ResultsTable table, final String title) {
		if (table != null && !GraphicsEnvironment.isHeadless()) table.show(title);
	}
}
