package org.cpca.io;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;

import org.cpca.analysis.IjProgress;
import org.cpca.core.Progress;
import org.cpca.core.run.Settings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fit that is asked to stop (Esc, or an interruption of its thread) stops at its next
 * checkpoint and leaves no results folder behind.
 */
class CancellationTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	@TempDir
	Path dir;

	private Path table(final String name, final int rows, final int cols, final long seed)
		throws IOException
	{
		final Random r = new Random(seed);
		final StringBuilder sb = new StringBuilder();
		for (int c = 0; c < cols; c++)
			sb.append(c == 0 ? "" : ",").append("x").append(c);
		sb.append('\n');
		for (int i = 0; i < rows; i++) {
			for (int c = 0; c < cols; c++)
				sb.append(c == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.3f", r
					.nextGaussian()));
			sb.append('\n');
		}
		return Files.write(dir.resolve(name), sb.toString().getBytes(StandardCharsets.UTF_8));
	}

	@Test
	void aCancelledFitLeavesNoResults() throws IOException {
		final Path t = table("t.csv", 200, 30, 1), b = table("b.csv", 200, 30, 2);
		for (final int after : new int[] { 1, 3, 6 }) {
			final AtomicInteger asked = new AtomicInteger();
			final Progress stopAfter = new Progress() {

				@Override
				public void stage(final String stage, final double fraction) {}

				@Override
				public boolean cancelled() {
					return asked.incrementAndGet() > after;
				}
			};
			final Path out = dir.resolve("out" + after);
			final FitRequest r = FitRequest.builder().target(t).background(b).settings(Settings
				.builder().set("alpha", "auto").build()).out(out).build();
			assertThrows(CancellationException.class, () -> FitPipeline.run(r, stopAfter));
			assertTrue(asked.get() > after, "the fit never asked whether to stop");
			assertFalse(Files.exists(out), "a cancelled fit left " + out);
		}
	}

	@Test
	void anInterruptedThreadCancels() {
		final IjProgress p = new IjProgress();
		assertFalse(p.cancelled());
		Thread.currentThread().interrupt();
		try {
			assertTrue(p.cancelled());
			assertThrows(CancellationException.class, p::checkCancelled);
		}
		finally {
			Thread.interrupted(); // clear the flag for the next test
		}
	}
}
