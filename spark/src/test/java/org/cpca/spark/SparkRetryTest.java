package org.cpca.spark;

import static org.cpca.spark.SparkTesting.MICE;
import static org.cpca.spark.SparkTesting.with;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A failed executor task is retried and the result does not change: with master
 * local[2,2] (two attempts per task), the first attempt of partition 0 of every pass
 * throws; the run succeeds and its results equal, bit for bit, those of a run without
 * failures.
 */
public class SparkRetryTest {

	private static JavaSparkContext sc;

	private static final AtomicInteger failed = new AtomicInteger();

	@BeforeAll
	static void start() {
		sc = SparkTesting.context("local[2,2]");
		sc.sc().addSparkListener(new SparkListener() {

			@Override
			public void onTaskEnd(final SparkListenerTaskEnd end) {
				if (end.taskInfo().failed()) failed.incrementAndGet();
			}
		});
	}

	@AfterAll
	static void stop() {
		sc.stop();
	}

	@Test
	public void aFailedTaskIsRetriedWithTheSameResult(@TempDir final Path dir)
		throws Exception
	{
		assumeTrue(Files.exists(MICE), "the mouse protein table is not on this machine");
		final SparkTesting.Run clean = SparkTesting.spark(sc, with(SparkFitTest.mice(dir
			.resolve("clean")), "--alpha", "2", "--partitions", "3"));
		assertEquals(0, clean.code, clean.err);
		assertEquals(0, failed.get());
		final SparkTesting.Run failing = SparkTesting.spark(sc, with(SparkFitTest.mice(dir
			.resolve("failing")), "--alpha", "2", "--partitions", "3",
			"--fail-first-attempt"));
		assertEquals(0, failing.code, failing.err);
		assertArrayEquals(Files.readAllBytes(dir.resolve("clean/scores.csv")), Files
			.readAllBytes(dir.resolve("failing/scores.csv")));
		assertEquals(SparkTesting.summary(dir.resolve("clean")).get("results"), SparkTesting
			.summary(dir.resolve("failing")).get("results"));
		// the failures did happen (listener events arrive asynchronously)
		for (int i = 0; i < 100 && failed.get() == 0; i++)
			Thread.sleep(50);
		assertTrue(failed.get() > 0, "no task failed: the injection did not happen");
	}
}
