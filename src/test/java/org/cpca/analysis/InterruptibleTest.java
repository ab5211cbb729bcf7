package org.cpca.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.cpca.core.Progress;
import org.cpca.core.linalg.Backend;
import org.cpca.core.linalg.SymmetricEigen;
import org.junit.jupiter.api.Test;

/** Esc or an interruption stops a long step within about a second, checkpoints or not. */
class InterruptibleTest {

	/** A progress that says "cancel" once {@link #cancel} is set. */
	private static Progress cancelWhen(final AtomicBoolean cancel) {
		return new Progress() {

			@Override
			public void stage(final String stage, final double fraction) {}

			@Override
			public boolean cancelled() {
				return cancel.get();
			}
		};
	}

	/** Busy work without any checkpoint, until interrupted (or 30 s). */
	private static Integer spin(final CountDownLatch started, final AtomicBoolean stopped) {
		started.countDown();
		final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		double x = 0;
		while (System.nanoTime() < end && !Thread.currentThread().isInterrupted())
			x += Math.sqrt(x + 1);
		stopped.set(true);
		return (int) x;
	}

	@Test
	void escStopsAStepWithoutCheckpointsWithinASecond() throws Exception {
		final AtomicBoolean cancel = new AtomicBoolean(), stopped = new AtomicBoolean();
		final CountDownLatch started = new CountDownLatch(1);
		new Thread(() -> {
			try {
				started.await();
				Thread.sleep(200);
			}
			catch (final InterruptedException e) {
				return;
			}
			cancel.set(true); // the user presses Esc
		}).start();
		final long t0 = System.nanoTime();
		assertThrows(CancellationException.class, () -> Interruptible.call(() -> spin(
			started, stopped), cancelWhen(cancel)));
		final double seconds = (System.nanoTime() - t0) / 1e9;
		assertTrue(seconds < 5, "took " + seconds + " s"); // about 0.3 s; generous for load
		// the worker was told to stop too
		for (int i = 0; i < 100 && !stopped.get(); i++)
			Thread.sleep(50);
		assertTrue(stopped.get());
	}

	@Test
	void interruptingTheCallerStopsIt() throws Exception {
		final AtomicBoolean stopped = new AtomicBoolean();
		final CountDownLatch started = new CountDownLatch(1);
		final Throwable[] thrown = new Throwable[1];
		final Thread caller = new Thread(() -> {
			try {
				Interruptible.call(() -> spin(started, stopped), Progress.NONE);
			}
			catch (final Throwable t) {
				thrown[0] = t;
			}
		});
		caller.start();
		started.await();
		caller.interrupt(); // SciJava's cancel, or a macro thread being stopped
		caller.join(5000);
		assertTrue(thrown[0] instanceof CancellationException, String.valueOf(thrown[0]));
		for (int i = 0; i < 100 && !stopped.get(); i++)
			Thread.sleep(50);
		assertTrue(stopped.get());
	}

	/**
	 * A real step without a progress listener, the full eigendecomposition of a
	 * 1400 × 1400 matrix (seconds): cancelled after 0.3 s, its worker thread stops within
	 * a second, instead of finishing the decomposition (issue 14). On the Java solver: with
	 * the native backend the decomposition ends before the cancel comes.
	 */
	@Test
	void aCancelledEigensolverStopsPromptly() throws Exception {
		final int m = 1400;
		final double[] s = new double[m * m];
		final java.util.Random random = new java.util.Random(3);
		for (int i = 0; i < m; i++)
			for (int j = 0; j <= i; j++)
				s[i * m + j] = s[j * m + i] = random.nextGaussian();
		final AtomicBoolean cancel = new AtomicBoolean();
		final java.util.concurrent.atomic.AtomicLong ended = new java.util.concurrent.atomic.AtomicLong();
		final CountDownLatch started = new CountDownLatch(1);
		final long[] cancelledAt = new long[1];
		new Thread(() -> {
			try {
				started.await();
				Thread.sleep(300);
			}
			catch (final InterruptedException e) {
				return;
			}
			cancelledAt[0] = System.nanoTime();
			cancel.set(true);
		}).start();
		assertThrows(CancellationException.class, () -> Interruptible.call(() -> {
			started.countDown();
			try {
				// the Java solver, which checks for cancellation between sweeps; LAPACK's is
				// one native call (about 0.1 s at this size here) that runs to its end
				return Backend.onJava(() -> SymmetricEigen.of(s, m));
			}
			finally {
				ended.set(System.nanoTime());
			}
		}, cancelWhen(cancel)));
		for (int i = 0; i < 200 && ended.get() == 0; i++)
			Thread.sleep(25);
		assertTrue(ended.get() != 0, "the worker is still computing after 5 s");
		final double late = (ended.get() - cancelledAt[0]) / 1e9;
		assertTrue(late < 1, "the worker went on for " + late + " s after the cancel");
	}

	@Test
	void resultsAndErrorsPassThrough() {
		assertEquals(42, Interruptible.call(() -> 42, Progress.NONE));
		final IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
			() -> Interruptible.call(() -> {
				throw new IllegalArgumentException("k = 9 is too many");
			}, Progress.NONE));
		assertEquals("k = 9 is too many", bad.getMessage());
		assertThrows(OutOfMemoryError.class, () -> Interruptible.call(() -> {
			throw new OutOfMemoryError("Java heap space");
		}, Progress.NONE));
		assertThrows(UncheckedIOException.class, () -> Interruptible.call(() -> {
			throw new IOException("disk full");
		}, Progress.NONE));
	}
}
