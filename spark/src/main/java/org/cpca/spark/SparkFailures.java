package org.cpca.spark;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.concurrent.CancellationException;

import org.apache.logging.log4j.LogManager;

/**
 * Turns a failure of a run into the one line that {@code cpca-spark} prints: the message of
 * the root cause, also when an executor threw it (Spark wraps it in its own exceptions,
 * the executor's stack trace in their text), never a trace. The trace goes to the log
 * (docs/spark.md "Messages and the log"), as do Spark's own warnings.
 */
final class SparkFailures {

	/** The system property naming the log file (set by the cpca-spark script). */
	static final String LOG_PROPERTY = "cpca.spark.log";

	private SparkFailures() {}

	/** The line to print for {@code e} (without the "cpca-spark: " prefix). */
	static String message(final Throwable e) {
		if (stopping() || stoppedContext(e)) return "stopped (Ctrl-C or a termination " +
			"signal): the run was cancelled and no results were written";
		final String user = userMessage(e);
		if (user != null) return user;
		LogManager.getLogger(SparkFailures.class).error("cpca-spark failed", e);
		final Throwable root = root(e);
		final String where = System.getProperty(LOG_PROPERTY) == null ? "run again with " +
			"--verbose for Spark's messages" : "details in " + System.getProperty(LOG_PROPERTY);
		if (root instanceof IOException) return "could not read or write a file: " +
			firstLine(root) + " (" + where + ")";
		return "failed: " + root.getClass().getSimpleName() + ": " + firstLine(root) + " (" +
			where + ")";
	}

	/**
	 * The one-line message of a failure caused by the input or the settings, also when it
	 * happened in an executor (Spark wraps it, with the remote stack trace in its
	 * message); null for anything else.
	 */
	static String userMessage(final Throwable e) {
		for (Throwable c = e; c != null; c = c.getCause()) {
			if (c instanceof IllegalArgumentException || c instanceof ArithmeticException ||
				c instanceof CancellationException || c instanceof NoSuchFileException)
				return firstLine(c);
			if (c.getCause() == c) break;
		}
		final String m = e.getMessage();
		final String marker = "java.lang.IllegalArgumentException: ";
		if (m != null && m.contains(marker)) return firstLine(m.substring(m.indexOf(marker) +
			marker.length()));
		return null;
	}

	/** The innermost cause. */
	static Throwable root(final Throwable e) {
		Throwable r = e;
		while (r.getCause() != null && r.getCause() != r)
			r = r.getCause();
		return r;
	}

	/** The first line of a throwable's message (its class name when it has none). */
	static String firstLine(final Throwable e) {
		return e.getMessage() == null || e.getMessage().isBlank() ? e.getClass().getName()
			: firstLine(e.getMessage());
	}

	private static String firstLine(final String m) {
		final int nl = m.indexOf('\n');
		return (nl < 0 ? m : m.substring(0, nl)).strip();
	}

	/** Whether the JVM is shutting down (a signal, Ctrl-C or System.exit elsewhere). */
	static boolean stopping() {
		final Thread probe = new Thread(() -> {});
		try {
			Runtime.getRuntime().addShutdownHook(probe);
			Runtime.getRuntime().removeShutdownHook(probe);
			return false;
		}
		catch (final IllegalStateException e) {
			return true;
		}
	}

	/** Whether Spark failed because its context was stopped under the run. */
	private static boolean stoppedContext(final Throwable e) {
		for (Throwable c = e; c != null; c = c.getCause()) {
			final String m = String.valueOf(c.getMessage());
			if (m.contains("SparkContext was shut down") || m.contains(
				"stopped SparkContext")) return true;
			if (c.getCause() == c) break;
		}
		return false;
	}
}
