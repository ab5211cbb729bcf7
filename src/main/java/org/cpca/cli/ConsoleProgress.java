package org.cpca.cli;

import java.io.PrintStream;
import java.util.function.LongSupplier;

import org.cpca.core.Progress;
import org.cpca.core.ProgressClock;

/**
 * Progress on standard error, with the time taken and an estimate of the time left
 * ({@link ProgressClock}): on a terminal one line with a bar, redrawn in place; elsewhere
 * (logs, pipes, {@code nohup}) plain lines, one per stage and every few seconds, none in
 * a run's first seconds; nothing with {@code --quiet}.
 */
final class ConsoleProgress implements Progress {

	/** How progress is shown. */
	enum Mode {
		/** one line redrawn in place */
		TERMINAL,
		/** plain lines, for logs */
		LINES,
		/** nothing */
		QUIET
	}

	private static final long REDRAW_NANOS = 100_000_000L;

	/** Characters of the redrawn line at most ("\r" included): less than 80 columns. */
	static final int WIDTH = 80;

	private final PrintStream err;
	private final Mode mode;
	private final ProgressClock clock;
	private final LongSupplier nanoTime;
	private String lastLine = "";
	private long lastDraw;
	private boolean finished;

	ConsoleProgress(final PrintStream err, final Mode mode,
		final LongSupplier nanoTime)
	{
		this.err = err;
		this.mode = mode;
		this.nanoTime = nanoTime;
		clock = new ProgressClock(nanoTime);
		lastDraw = nanoTime.getAsLong() - REDRAW_NANOS;
	}

	/**
	 * The system property that turns progress off for a whole JVM when set to "off": the
	 * test runs set it (pom.xml), so that in-process runs of the command line print no
	 * progress into the build log; the launcher never sets it.
	 */
	static final String PROPERTY = "cpca.progress";

	/**
	 * Progress for this process: quiet when asked (or when {@value #PROPERTY} is "off"), a
	 * redrawn line when standard error is a terminal, plain lines otherwise.
	 */
	static ConsoleProgress of(final boolean quiet) {
		// the launcher runs Java in the background (no console) and tells whether standard
		// error is a terminal
		final boolean terminal = Main.terminal() || "true".equals(System.getProperty(
			"cpca.stderr.tty"));
		return new ConsoleProgress(System.err, mode(quiet, terminal, System.getProperty(
			PROPERTY)), System::nanoTime);
	}

	/** The mode for {@code --quiet}, a terminal or not, and {@value #PROPERTY}'s value. */
	static Mode mode(final boolean quiet, final boolean terminal, final String property) {
		return quiet || "off".equals(property) ? Mode.QUIET : terminal ? Mode.TERMINAL
			: Mode.LINES;
	}

	@Override
	public void stage(final String stage, final double fraction) {
		if (mode == Mode.QUIET) return;
		clock.update(fraction);
		if (mode == Mode.LINES) {
			if (clock.lineDue()) {
				err.println("cpca: " + clock.describe(stage + ", " + ProgressClock.percent(
					fraction)));
				err.flush();
			}
			return;
		}
		final long now = nanoTime.getAsLong();
		if (fraction < 1 && now - lastDraw < REDRAW_NANOS) return;
		lastDraw = now;
		final int width = 30, done = (int) Math.round(Math.max(0, Math.min(1, fraction)) *
			width);
		final StringBuilder bar = new StringBuilder("\r[");
		for (int i = 0; i < width; i++)
			bar.append(i < done ? '#' : ' ');
		bar.append("] ").append(ProgressClock.percent(fraction)).append(' ').append(clock
			.describe(stage));
		// a line longer than the terminal would wrap, and \r would redraw only its end
		final String line = bar.length() > WIDTH ? bar.substring(0, WIDTH - 1) + "…" : bar
			.toString();
		final int pad = Math.max(0, lastLine.length() - line.length());
		err.print(line + " ".repeat(pad));
		err.flush();
		lastLine = line;
	}

	/** Clears the bar; after plain lines, says how long the whole run took (once). */
	void done() {
		if (finished) return;
		finished = true;
		if (mode == Mode.LINES && clock.anyLine()) {
			err.println("cpca: done in " + ProgressClock.duration(clock.runSeconds()));
			err.flush();
		}
		if (mode != Mode.TERMINAL || lastLine.isEmpty()) return;
		err.print("\r" + " ".repeat(lastLine.length()) + "\r");
		err.flush();
		lastLine = "";
	}
}
