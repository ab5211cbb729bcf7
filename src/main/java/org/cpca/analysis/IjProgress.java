package org.cpca.analysis;

import ij.IJ;

import java.util.function.Consumer;

import org.cpca.core.Progress;
import org.cpca.core.ProgressClock;

/**
 * Bridges the core's progress to ImageJ: the stage, with the time taken and left
 * ({@link ProgressClock}), goes to the status bar, the fraction to the progress bar, and
 * long runs leave lines in ImageJ's Log (one per stage and every 10 s, none in the first
 * 3 s); Esc ({@link IJ#escapePressed()}) or an interruption of the computing thread
 * (SciJava's cancel) cancels the computation.
 */
public final class IjProgress implements Progress {

	private static final long STATUS_NANOS = 250_000_000L;

	private final ProgressClock clock;
	private final Consumer<String> log;
	private String lastStatus = "", statusStage = "";
	private long lastStatusTime;
	private boolean finished;

	/** Resets the Esc flag, so that an earlier Esc does not cancel this run. */
	public IjProgress() {
		this(new ProgressClock(), IJ::log);
		IJ.resetEscape();
	}

	/** Progress timed by {@code clock}, its log lines to {@code log} (for tests). */
	IjProgress(final ProgressClock clock, final Consumer<String> log) {
		this.clock = clock;
		this.log = log;
		lastStatusTime = System.nanoTime() - STATUS_NANOS;
	}

	@Override
	public void stage(final String stage, final double fraction) {
		clock.update(fraction);
		final String status = "Contrastive PCA: " + clock.describe(stage);
		final long now = System.nanoTime();
		// a new stage at once, the time left a few times a second
		if (!status.equals(lastStatus) && (!stage.equals(statusStage) ||
			now - lastStatusTime >= STATUS_NANOS))
		{
			IJ.showStatus(status + " (Esc cancels)");
			lastStatus = status;
			statusStage = stage;
			lastStatusTime = now;
		}
		IJ.showProgress(Math.max(0, Math.min(1, fraction)));
		if (clock.lineDue()) log.accept(status + ", " + ProgressClock.percent(fraction));
	}

	@Override
	public boolean cancelled() {
		return IJ.escapePressed() || Thread.currentThread().isInterrupted();
	}

	/** Clears the progress bar and the status line; after log lines, logs the run's time. */
	public void done() {
		IJ.showProgress(1.0);
		IJ.showStatus("");
		if (finished) return;
		finished = true;
		if (clock.anyLine()) log.accept("Contrastive PCA: done in " + ProgressClock.duration(
			clock.runSeconds()));
	}
}
