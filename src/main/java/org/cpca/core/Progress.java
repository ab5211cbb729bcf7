package org.cpca.core;

import java.util.concurrent.CancellationException;

/**
 * Receives progress from long computations and tells them whether to stop.
 * <p>
 * The core calls {@link #stage} between stages and {@link #checkCancelled} between
 * blocks of work; a cancelled computation throws {@link CancellationException} and
 * leaves nothing behind (the core never writes files).
 */
public interface Progress {

	/** A listener that ignores progress and never cancels. */
	Progress NONE = new Progress() {

		@Override
		public void stage(final String stage, final double fraction) {}
	};

	/**
	 * @param stage what is being done, e.g. "covariance"
	 * @param fraction of that stage done, in [0, 1]
	 */
	void stage(String stage, double fraction);

	/** @return whether the user asked to stop */
	default boolean cancelled() {
		return false;
	}

	/**
	 * Throws {@link CancellationException} if the current thread was interrupted: the
	 * inner loops of long steps without a progress listener (eigensolvers) call it, so
	 * that a cancelled worker thread stops at once instead of finishing the step.
	 */
	static void checkInterrupted() {
		if (Thread.currentThread().isInterrupted()) throw new CancellationException(
			"cancelled (the thread was interrupted)");
	}

	/** Throws {@link CancellationException} if {@link #cancelled()}. */
	default void checkCancelled() {
		if (cancelled()) throw new CancellationException("cancelled by the user");
	}
}
