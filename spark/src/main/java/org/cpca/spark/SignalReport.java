package org.cpca.spark;

import java.io.PrintWriter;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Prints a run's one-line error exactly once, also when Ctrl-C or a termination signal
 * ends the JVM under it. Spark's own shutdown hook then stops the context, the running
 * job fails and the run's error handler reports it; this class's hook waits a little for
 * that report (the JVM exits as soon as every hook has returned) and, if the run is busy
 * outside Spark, prints the line itself. The results folder is never half written: it
 * is staged and removed on exit by {@link org.cpca.io.OutputFolder}.
 */
final class SignalReport implements AutoCloseable {

	/** How long the hook waits for the run to report its end. */
	private static final long WAIT_SECONDS = 10;

	private final PrintWriter err;
	private final AtomicBoolean reported = new AtomicBoolean();
	private final CountDownLatch done = new CountDownLatch(1);
	private final Thread hook;

	SignalReport(final PrintWriter err, final boolean install) {
		this.err = err;
		hook = install ? new Thread(this::onExit, "cpca-spark signal report") : null;
		if (hook != null) Runtime.getRuntime().addShutdownHook(hook);
	}

	/** Prints the run's error line, unless one was printed already. */
	void report(final String line) {
		if (reported.compareAndSet(false, true)) {
			err.println(line);
			err.flush();
		}
		done.countDown();
	}

	private void onExit() {
		try {
			if (done.await(WAIT_SECONDS, TimeUnit.SECONDS)) return;
		}
		catch (final InterruptedException e) {
			Thread.currentThread().interrupt();
		}
		report("cpca-spark: " + SparkFailures.message(new IllegalStateException(
			"the JVM is exiting")));
	}

	/** The run ended: the hook has nothing left to report. */
	@Override
	public void close() {
		done.countDown();
		if (hook == null) return;
		try {
			Runtime.getRuntime().removeShutdownHook(hook);
		}
		catch (final IllegalStateException e) {
			// shutting down: the hook runs, finds the run ended and returns
		}
	}
}
