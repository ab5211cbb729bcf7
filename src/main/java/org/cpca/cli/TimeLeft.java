package org.cpca.cli;

import java.util.Locale;
import java.util.function.LongSupplier;

import org.cpca.core.Progress;

/**
 * Adds an estimate of the time left to each stage's text ("slice 120 of 600, about 40 s
 * left"), from the time since the first report and the fraction done: for work whose
 * parts take about the same time, such as {@code cpca generate}'s slices.
 */
final class TimeLeft implements Progress {

	private final Progress to;
	private final LongSupplier nanoTime;
	private final long start;

	TimeLeft(final Progress to) {
		this(to, System::nanoTime);
	}

	TimeLeft(final Progress to, final LongSupplier nanoTime) {
		this.to = to;
		this.nanoTime = nanoTime;
		start = nanoTime.getAsLong();
	}

	@Override
	public void stage(final String stage, final double fraction) {
		final double elapsed = (nanoTime.getAsLong() - start) / 1e9;
		to.stage(fraction > 0 && fraction < 1 ? stage + ", about " + duration(elapsed *
			(1 - fraction) / fraction) + " left" : stage, fraction);
	}

	@Override
	public boolean cancelled() {
		return to.cancelled();
	}

	/** "7 s", "3 min 20 s", "2 h 5 min". */
	static String duration(final double seconds) {
		final long s = Math.round(seconds);
		if (s < 60) return s + " s";
		if (s < 3600) return String.format(Locale.ROOT, "%d min %d s", s / 60, s % 60);
		return String.format(Locale.ROOT, "%d h %d min", s / 3600, s % 3600 / 60);
	}
}
