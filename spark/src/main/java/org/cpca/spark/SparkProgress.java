package org.cpca.spark;

import java.io.PrintWriter;
import java.util.function.Consumer;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.cpca.core.Progress;
import org.cpca.core.ProgressClock;

/**
 * The stages of a {@code cpca-spark} run as log lines: one when a stage starts, with the
 * run's time so far, and every 10 s within a stage that reports its fraction, with the
 * time it has left ({@link ProgressClock}). They go to the log file (INFO of this class,
 * conf/log4j2.properties) and, when standard error is a terminal, to the console.
 */
final class SparkProgress implements Progress {

	private final ProgressClock clock;
	private final Consumer<String> lines;
	private String last = "";

	SparkProgress(final ProgressClock clock, final Consumer<String> lines) {
		this.clock = clock;
		this.lines = lines;
	}

	/** To the log file, and to {@code console} too when it is a terminal's. */
	static SparkProgress of(final PrintWriter console, final boolean terminal) {
		final Logger log = LogManager.getLogger(SparkProgress.class);
		return new SparkProgress(new ProgressClock(), line -> {
			log.info(line);
			if (terminal) {
				console.println("cpca-spark: " + line);
				console.flush();
			}
		});
	}

	@Override
	public void stage(final String stage, final double fraction) {
		clock.update(fraction);
		final boolean started = !stage.equals(last);
		last = stage;
		// asked at every report: a line now also restarts its 10 s
		final boolean due = clock.lineDue();
		if (started || due) lines.accept(started ? "[" +
			ProgressClock.duration(clock.runSeconds()) + "] " + stage : clock.describe(stage +
				", " + ProgressClock.percent(fraction)));
	}

	/** The run's end, with its time. */
	void done() {
		lines.accept("done in " + ProgressClock.duration(clock.runSeconds()));
	}
}
