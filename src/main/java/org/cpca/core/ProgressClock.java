package org.cpca.core;

import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * The clock behind every progress display ({@link Progress} sinks of the command line,
 * ImageJ and Spark): the time a stage has taken, an estimate of the time it has left, and
 * when a plain log line is due. It only measures; the sinks show.
 * <p>
 * A stage's clock starts when the clock is made and again whenever a report's fraction is
 * 0 or falls below the previous one (the core's stages each count from 0 to 1; a run's
 * epochs or slices may change the stage's text while the fraction goes on rising, and stay
 * one stage). The estimate of the time left is {@code elapsed · (1 − f) / f} for the
 * fraction f done in the elapsed time: exact for work whose parts take equal time, such as
 * slices or epochs. It is given only once the stage has run {@value #SHOW_AFTER_SECONDS} s
 * (before, the rate is mostly start-up) and for 0 &lt; f &lt; 1.
 */
public final class ProgressClock {

	/** Seconds of a stage before the time left is estimated, and of a run before log lines. */
	public static final double SHOW_AFTER_SECONDS = 3;

	/** Seconds between log lines within a stage. */
	public static final double LINE_SECONDS = 10;

	private final LongSupplier nanoTime;
	private final long runStart;
	private long stageStart, lastLine;
	private double lastFraction = -1;
	private boolean lineShown, newStage;

	/** A clock on {@link System#nanoTime()}, started now. */
	public ProgressClock() {
		this(System::nanoTime);
	}

	/** A clock on the given time source (nanoseconds), started now. */
	public ProgressClock(final LongSupplier nanoTime) {
		this.nanoTime = nanoTime;
		runStart = stageStart = nanoTime.getAsLong();
	}

	/** Records a report of {@code fraction} done; 0, or less than before, starts a stage. */
	public void update(final double fraction) {
		final long now = nanoTime.getAsLong();
		if (fraction <= 0 || fraction < lastFraction) {
			stageStart = now;
			newStage = true;
		}
		lastFraction = fraction;
	}

	/** @return seconds since the current stage started */
	public double stageSeconds() {
		return (nanoTime.getAsLong() - stageStart) / 1e9;
	}

	/** @return seconds since the clock was made */
	public double runSeconds() {
		return (nanoTime.getAsLong() - runStart) / 1e9;
	}

	/**
	 * @return the estimated seconds left of the current stage, {@code elapsed · (1 − f) / f};
	 *         NaN before {@value #SHOW_AFTER_SECONDS} s of the stage or unless 0 &lt; f &lt; 1
	 */
	public double secondsLeft() {
		final double elapsed = stageSeconds(), f = lastFraction;
		if (elapsed < SHOW_AFTER_SECONDS || !(f > 0 && f < 1)) return Double.NaN;
		return elapsed * (1 - f) / f;
	}

	/**
	 * @return the stage with the time taken and left once they are worth saying: "α sweep
	 *         (12 s, about 40 s left)", "writing results (5 s)", or the stage alone
	 */
	public String describe(final String stage) {
		final double elapsed = stageSeconds(), left = secondsLeft();
		if (elapsed < SHOW_AFTER_SECONDS) return stage;
		return stage + " (" + duration(elapsed) + (Double.isNaN(left) ? "" : ", about " +
			duration(left) + " left") + ")";
	}

	/**
	 * Whether a plain log line is due now, and if so counts it as written: none in a
	 * run's first {@value #SHOW_AFTER_SECONDS} s (short runs stay silent) nor for a
	 * finished stage (the next stage, or the run's end, says more); else one at
	 * the first report, at each new stage (a second after the last line at the earliest)
	 * and every {@value #LINE_SECONDS} s within a stage.
	 */
	public boolean lineDue() {
		final long now = nanoTime.getAsLong();
		if ((now - runStart) / 1e9 < SHOW_AFTER_SECONDS || lastFraction >= 1) return false;
		final double since = (now - lastLine) / 1e9;
		if (lineShown && since < (newStage ? 1 : LINE_SECONDS)) return false;
		lineShown = true;
		newStage = false;
		lastLine = now;
		return true;
	}

	/** @return whether {@link #lineDue()} has said yes at least once */
	public boolean anyLine() {
		return lineShown;
	}

	/** "7 s", "3 min 20 s", "2 h 5 min". */
	public static String duration(final double seconds) {
		final long s = Math.round(seconds);
		if (s < 60) return s + " s";
		if (s < 3600) return String.format(Locale.ROOT, "%d min %d s", s / 60, s % 60);
		return String.format(Locale.ROOT, "%d h %d min", s / 3600, s % 3600 / 60);
	}

	/** "40 %" of a fraction, for the displays. */
	public static String percent(final double fraction) {
		return String.format(Locale.ROOT, "%.0f %%", 100 * Math.max(0, Math.min(1,
			fraction)));
	}
}
