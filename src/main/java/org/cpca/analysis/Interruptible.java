package org.cpca.analysis;

import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.cpca.core.Progress;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Runs a long computation so that Esc or an interruption of the calling thread stops it
 * within about a second, even inside a step that has no checkpoint of its own (an
 * eigensolver): the work runs on a worker thread while the caller polls
 * {@link Progress#cancelled()} and its own interruption every {@value #POLL_MS} ms. On
 * cancel the caller returns at once with {@link CancellationException}; the worker is
 * interrupted and stops within a moment too (the progress checkpoints see the
 * interruption, and the eigensolvers' inner loops call
 * {@link Progress#checkInterrupted()}), so it does not go on using the processors; its
 * result, if any, is dropped, so no output is made from it. Errors of the work ({@link OutOfMemoryError} included) reach the caller
 * unchanged.
 */
public final class Interruptible {

	/** How often the caller looks for Esc, in milliseconds. */
	static final long POLL_MS = 100;

	private Interruptible() {}

	/**
	 * @throws CancellationException if {@code progress} says so or the calling thread is
	 *           interrupted before the work is done
	 */
	public static <T> T call(final Callable<T> work, final Progress progress) {
		final FutureTask<T> task = new FutureTask<>(work);
		final Thread worker = new Thread(task, "Contrastive PCA: " + Thread.currentThread()
			.getName());
		worker.setDaemon(true);
		worker.start();
		try {
			while (true) {
				try {
					return task.get(POLL_MS, TimeUnit.MILLISECONDS);
				}
				catch (final TimeoutException e) {
					if (progress.cancelled()) {
						task.cancel(true);
						throw new CancellationException("cancelled by the user");
					}
				}
			}
		}
		catch (final InterruptedException e) {
			task.cancel(true);
			Thread.currentThread().interrupt();
			throw new CancellationException("cancelled (the thread was interrupted)");
		}
		catch (final ExecutionException e) {
			final Throwable cause = e.getCause();
			if (cause instanceof RuntimeException) throw (RuntimeException) cause;
			if (cause instanceof Error) throw (Error) cause;
			if (cause instanceof IOException) throw new UncheckedIOException(
				(IOException) cause);
			throw new IllegalStateException(cause.getMessage(), cause);
		}
	}
}
