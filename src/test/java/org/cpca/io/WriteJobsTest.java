package org.cpca.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The jobs of a results folder: all run, those added by running jobs too, on as many
 * threads as asked (one: in order, on the caller's thread); a failure is thrown only
 * after every started job has ended, and stops the jobs not yet started.
 */
class WriteJobsTest {

	@AfterEach
	void threadsAsBefore() {
		System.clearProperty(WriteJobs.THREADS);
	}

	@Test
	void oneThreadRunsTheJobsInOrderOnTheCaller() throws IOException {
		System.setProperty(WriteJobs.THREADS, "1");
		final List<String> ran = new ArrayList<>();
		final Thread caller = Thread.currentThread();
		final WriteJobs jobs = new WriteJobs();
		jobs.add(() -> {
			ran.add("a");
			jobs.add(() -> ran.add("a's"));
		});
		jobs.add(() -> ran.add("b"));
		jobs.add(() -> assertSame(caller, Thread.currentThread()));
		jobs.run();
		assertEquals(List.of("a", "b", "a's"), ran);
	}

	@Test
	void jobsRunSideBySideAndAddedOnesRunToo() throws IOException {
		System.setProperty(WriteJobs.THREADS, "2");
		final CountDownLatch both = new CountDownLatch(2);
		final List<String> ran = Collections.synchronizedList(new ArrayList<>());
		final WriteJobs jobs = new WriteJobs();
		for (final String name : new String[] { "a", "b" })
			jobs.add(() -> {
				both.countDown();
				try { // each waits for the other: only side by side do both end
					assertTrue(both.await(10, TimeUnit.SECONDS), "the jobs ran one after the other");
				}
				catch (final InterruptedException e) {
					throw new IllegalStateException(e);
				}
				jobs.add(() -> ran.add(name + "'s"));
			});
		jobs.run();
		Collections.sort(ran);
		assertEquals(List.of("a's", "b's"), ran);
	}

	/**
	 * Two jobs side by side: the one on the caller's thread fails at once, the helper's
	 * writes on for a while; the failure comes only after the helper's job ended.
	 */
	@Test
	void aFailureWaitsForTheRunningJobsAndStopsTheRest() {
		System.setProperty(WriteJobs.THREADS, "2");
		final Thread caller = Thread.currentThread();
		final AtomicBoolean slowEnded = new AtomicBoolean(), laterRan = new AtomicBoolean();
		final CountDownLatch both = new CountDownLatch(2);
		final WriteJobs jobs = new WriteJobs();
		for (int i = 0; i < 2; i++)
			jobs.add(() -> {
				both.countDown();
				try {
					assertTrue(both.await(10, TimeUnit.SECONDS));
					if (Thread.currentThread() == caller) throw new IOException("disk full");
					Thread.sleep(300);
				}
				catch (final InterruptedException e) {
					throw new IllegalStateException(e);
				}
				slowEnded.set(true);
			});
		jobs.add(() -> laterRan.set(true));
		final IOException e = assertThrows(IOException.class, jobs::run);
		assertEquals("disk full", e.getMessage());
		assertTrue(slowEnded.get(), "returned while a job was still writing");
		assertEquals(false, laterRan.get(), "a job after the failure ran");
	}

	/**
	 * The gate closes (the folder is being removed) while the first job runs: no job
	 * starts after it, every job that entered left, and the run ends stopped.
	 */
	@Test
	void aClosedGateStartsNoFurtherJob() {
		System.setProperty(WriteJobs.THREADS, "1");
		final AtomicBoolean open = new AtomicBoolean(true);
		final int[] inside = new int[1];
		final List<String> ran = new ArrayList<>();
		final WriteJobs jobs = new WriteJobs(new WriteJobs.Gate() {

			@Override
			public boolean enter() {
				if (!open.get()) return false;
				inside[0]++;
				return true;
			}

			@Override
			public void leave() {
				inside[0]--;
			}
		});
		jobs.add(() -> {
			ran.add("first");
			open.set(false);
		});
		jobs.add(() -> ran.add("second"));
		assertThrows(CancellationException.class, jobs::run);
		assertEquals(List.of("first"), ran);
		assertEquals(0, inside[0], "a job that entered did not leave");
	}
}
