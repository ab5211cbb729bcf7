package org.cpca.io;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CancellationException;

/**
 * The pieces of a results folder written side by side: jobs that each write their own
 * files (a table, the model files, one figure), run on the calling thread and up to
 * {@link #threads()} − 1 helper threads, in the order they were added; a running job may
 * add more (a figure drawn hands its encoding on, so that the next one is drawn
 * meanwhile). What a job writes depends only on its own inputs, never on the order or
 * the thread the jobs run on: the files are the same bytes as written one after the
 * other (ResultsConcurrencyTest).
 * <p>
 * A failure stops the jobs not yet started; {@link #run} returns only after every
 * started job has ended (a job still writing while the caller removes the staging folder
 * would leave a file behind) and then throws the first failure, the others added as
 * suppressed. Interrupting the caller does not cut that wait short; the interrupt is
 * kept for the caller.
 * <p>
 * Each job passes a {@link Gate} first (the results folder's: {@link OutputFolder}):
 * once the folder is being removed (a kill), no job starts, and the removal waits for
 * the jobs running, so that none re-creates a file in the folder it removed.
 */
final class WriteJobs {

	/** One piece of the results. */
	@FunctionalInterface
	interface Job {

		void run() throws IOException;
	}

	/** Whether a job may start now ({@link #enter}), and its end ({@link #leave}). */
	interface Gate {

		/** Whether a job may start; if so, {@link #leave} follows when it ends. */
		boolean enter();

		void leave();
	}

	/** The gate that lets every job start. */
	private static final Gate OPEN = new Gate() {

		@Override
		public boolean enter() {
			return true;
		}

		@Override
		public void leave() {}
	};

	private final Gate gate;

	/** Jobs that always start (no folder to watch). */
	WriteJobs() {
		this(OPEN);
	}

	/** Jobs that start only while the gate lets them. */
	WriteJobs(final Gate gate) {
		this.gate = gate;
	}

	/**
	 * The system property giving the most threads that write (1: one after the other,
	 * on the calling thread); the number of cores without it.
	 */
	static final String THREADS = "cpca.write.threads";

	private final Deque<Job> queue = new ArrayDeque<>();
	private final List<Throwable> failures = new ArrayList<>();
	/** Jobs taken from the queue and not yet ended. */
	private int running;

	/** The most threads that write: {@value #THREADS}, else the number of cores. */
	static int threads() {
		return Math.max(1, Integer.getInteger(THREADS, Runtime.getRuntime()
			.availableProcessors()));
	}

	/** Adds a job; from a running job, it runs after those already waiting. */
	synchronized void add(final Job job) {
		queue.add(job);
		notifyAll();
	}

	/**
	 * Runs every job (and those they add) and returns when all have ended.
	 *
	 * @throws IOException the first failure of a job (its unchecked failures as they are)
	 */
	void run() throws IOException {
		final int helpers;
		synchronized (this) {
			helpers = Math.min(threads(), queue.size()) - 1;
		}
		final List<Thread> started = new ArrayList<>();
		for (int i = 0; i < helpers; i++) {
			final Thread t = new Thread(this::work, "cpca results writer " + (i + 1));
			t.setDaemon(true);
			t.start();
			started.add(t);
		}
		work();
		boolean interrupted = false;
		for (final Thread t : started)
			while (t.isAlive())
				try {
					t.join();
				}
				catch (final InterruptedException e) {
					interrupted = true; // the helpers' files must be complete before we return
				}
		if (interrupted) Thread.currentThread().interrupt();
		final Throwable first;
		synchronized (this) {
			if (failures.isEmpty()) return;
			first = failures.get(0);
			for (final Throwable other : failures.subList(1, failures.size()))
				if (other != first) first.addSuppressed(other);
		}
		if (first instanceof IOException) throw (IOException) first;
		if (first instanceof RuntimeException) throw (RuntimeException) first;
		if (first instanceof Error) throw (Error) first;
		throw new IOException(first);
	}

	/** Takes jobs until none is waiting and none running could add more, or one failed. */
	private void work() {
		boolean interrupted = false;
		while (true) {
			final Job job;
			synchronized (this) {
				while (queue.isEmpty() && running > 0 && failures.isEmpty())
					try {
						wait();
					}
					catch (final InterruptedException e) {
						interrupted = true; // a job still running may add work: keep waiting for it
					}
				if (queue.isEmpty() || !failures.isEmpty()) {
					notifyAll();
					if (interrupted) Thread.currentThread().interrupt();
					return;
				}
				job = queue.poll();
				running++;
			}
			Throwable failure = null;
			if (!gate.enter()) failure = new CancellationException("stopped: the results " +
				"are being removed");
			else try {
				job.run();
			}
			catch (final Throwable e) {
				failure = e;
			}
			finally {
				gate.leave();
			}
			synchronized (this) {
				running--;
				if (failure != null) failures.add(failure);
				notifyAll();
			}
		}
	}
}
