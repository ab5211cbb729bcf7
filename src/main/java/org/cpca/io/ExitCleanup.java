package org.cpca.io;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;

/**
 * What a run made that must go when the JVM is stopped (SIGINT/SIGTERM): one shutdown
 * hook undoes it, newest first. Making and registering are one step ({@link #make}), and
 * the hook waits for a step in progress, so nothing made in the moment the signal arrives
 * (a lock, a staging folder) is left behind; after the signal nothing new is made.
 */
final class ExitCleanup {

	/** Makes something on disk. */
	@FunctionalInterface
	interface Maker<T> {

		T make() throws IOException;
	}

	/** How long the hook waits for a step in progress to finish. */
	private static final long WAIT_MS = 2_000;
	private static final Object LOCK = new Object();
	private static final Map<Object, Runnable> PENDING = new LinkedHashMap<>();
	private static boolean exiting;
	private static int making;

	static {
		Runtime.getRuntime().addShutdownHook(new Thread(ExitCleanup::run,
			"cpca output cleanup"));
	}

	private ExitCleanup() {}

	/**
	 * Makes something and registers how to undo it under {@code key}, as one step.
	 *
	 * @param stopped the message when the JVM is already stopping (nothing is made then)
	 * @throws CancellationException when the JVM is stopping
	 */
	static <T> T make(final Object key, final Maker<T> maker, final Runnable undo,
		final String stopped) throws IOException
	{
		synchronized (LOCK) {
			if (exiting) throw new CancellationException(stopped);
			making++;
		}
		boolean made = false;
		try {
			final T t = maker.make();
			made = true;
			return t;
		}
		finally {
			synchronized (LOCK) {
				making--;
				if (made) PENDING.put(key, undo);
				LOCK.notifyAll();
			}
		}
	}

	/** Registers (or replaces) an undo that needs no making first. */
	static void register(final Object key, final Runnable undo, final String stopped) {
		synchronized (LOCK) {
			if (exiting) throw new CancellationException(stopped);
			PENDING.put(key, undo);
		}
	}

	/** The thing under {@code key} was handed on or is gone: nothing to undo. */
	static void forget(final Object key) {
		synchronized (LOCK) {
			PENDING.remove(key);
		}
	}

	private static void run() {
		final List<Runnable> todo;
		synchronized (LOCK) {
			exiting = true;
			final long end = System.currentTimeMillis() + WAIT_MS;
			for (long left = WAIT_MS; making > 0 && left > 0; left = end - System
				.currentTimeMillis())
			{
				try {
					LOCK.wait(left);
				}
				catch (final InterruptedException e) {
					break;
				}
			}
			todo = new ArrayList<>(PENDING.values());
			PENDING.clear();
		}
		Collections.reverse(todo);
		for (final Runnable r : todo)
			try {
				r.run();
			}
			catch (final RuntimeException e) {
				// the JVM is exiting: the next run into the folder sweeps what remains
			}
	}
}
