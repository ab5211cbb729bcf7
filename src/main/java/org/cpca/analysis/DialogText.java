package org.cpca.analysis;

import ij.IJ;

/**
 * Messages for ImageJ's dialogs (errors, the macro error dialog): a one-line message
 * that names the problem and the fix can be longer than a screen is wide (a refusal that
 * names a path and the memory, an unknown macro key with the list of the known ones), so
 * it is wrapped at spaces into lines of at most {@value #WIDTH} characters. A word longer
 * than that (a path) keeps its own line, whole; line breaks already there are kept.
 */
public final class DialogText {

	/** Most characters per line. */
	public static final int WIDTH = 80;

	private DialogText() {}

	/** {@code message} wrapped at {@value #WIDTH} characters. */
	public static String wrap(final String message) {
		return wrap(message, WIDTH);
	}

	/**
	 * A macro error's message: wrapped when ImageJ's window is open (the macro error
	 * dialog shows it), unchanged without it (ImageJ -batch, tests: the message is read,
	 * not shown).
	 */
	public static String forMacroError(final String message) {
		return IJ.getInstance() == null ? message : wrap(message);
	}

	/** {@code message} wrapped at spaces into lines of at most {@code width} characters. */
	static String wrap(final String message, final int width) {
		if (message == null) return null;
		final StringBuilder out = new StringBuilder();
		final String[] lines = message.split("\n", -1);
		for (int l = 0; l < lines.length; l++) {
			if (l > 0) out.append('\n');
			int length = -1; // nothing on this line yet
			for (final String word : lines[l].split(" ", -1)) {
				if (length >= 0 && length + 1 + word.length() > width && length > 0) {
					out.append('\n');
					length = 0;
				}
				else if (length >= 0) {
					out.append(' ');
					length++;
				}
				else length = 0;
				out.append(word);
				length += word.length();
			}
		}
		return out.toString();
	}
}
