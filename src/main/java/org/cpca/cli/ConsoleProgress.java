package org.cpca.cli;

import java.io.PrintStream;
import java.util.Locale;

import org.cpca.core.Progress;

/**
 * A one-line progress bar on standard error, redrawn in place; drawn only when the
 * process has a terminal, so logs and pipes stay clean.
 */
final class ConsoleProgress implements Progress {

	private final PrintStream err;
	private final boolean enabled;
	private String lastLine = "";
	private long lastDraw;

	ConsoleProgress(final PrintStream err, final boolean enabled) {
		this.err = err;
		this.enabled = enabled;
	}

	static ConsoleProgress forTerminal() {
		// the launcher runs Java in the background (no console) and tells whether standard
		// error is a terminal
		return new ConsoleProgress(System.err, Main.terminal() || "true".equals(System
			.getProperty("cpca.stderr.tty")));
	}

	@Override
	public void stage(final String stage, final double fraction) {
		if (!enabled) return;
		final long now = System.nanoTime();
		if (fraction < 1 && now - lastDraw < 100_000_000L) return;
		lastDraw = now;
		final int width = 30, done = (int) Math.round(Math.max(0, Math.min(1, fraction)) *
			width);
		final StringBuilder bar = new StringBuilder("\r[");
		for (int i = 0; i < width; i++)
			bar.append(i < done ? '#' : ' ');
		bar.append("] ").append(String.format(Locale.ROOT, "%3.0f%% ", 100 * fraction))
			.append(stage);
		final String line = bar.toString();
		final int pad = Math.max(0, lastLine.length() - line.length());
		err.print(line + " ".repeat(pad));
		err.flush();
		lastLine = line;
	}

	/** Clears the bar. */
	void done() {
		if (!enabled || lastLine.isEmpty()) return;
		err.print("\r" + " ".repeat(lastLine.length()) + "\r");
		err.flush();
		lastLine = "";
	}
}
