package org.cpca.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.cpca.core.Progress;
import org.cpca.generate.TestImageGenerator;
import org.cpca.generate.TestImageGenerator.Config;

/**
 * {@code cpca bench --only generate}: {@code cpca generate --target-slices 3000
 * --background-slices 3000 --size 256} in this process, the stacks made and their two TIFF
 * files (393 MB) written to a temporary folder. One run, as a user's one command pays it
 * (no warm-up: the work is long enough for the JIT). The goal is a minute on the
 * developer's machine: a test-data tool should be bound by its writing, not by its
 * drawing (docs/cli-reference.md, cpca generate).
 */
final class GenerateBench {

	static final double GOAL_SECONDS = 60;

	private GenerateBench() {}

	static void run(final PrintStream out, final List<Bench.Row> rows) {
		final Config c = Config.defaults().withSlices(3000, 3000).withSize(256, 256);
		Path dir = null;
		try {
			dir = Files.createTempDirectory("cpca-generate-");
			final long cpu0 = cpuNanos(), t0 = System.nanoTime();
			final TestImageGenerator.Result r = TestImageGenerator.generate(c, Progress.NONE);
			final long t1 = System.nanoTime();
			TestImageGenerator.write(r, dir);
			final double seconds = (System.nanoTime() - t0) / 1e9, cpu = (cpuNanos() - cpu0) /
				1e9;
			rows.add(Bench.print(out, new Bench.Row("cpca generate 3000+3000 slices 256×256",
				"6000×65536 8-bit", seconds, GOAL_SECONDS, String.format(Locale.ROOT,
					"drawing %.1f s, writing %.1f s; %.1f CPU-s on %d processors; texture bank of %d",
					(t1 - t0) / 1e9, seconds - (t1 - t0) / 1e9, cpu, Runtime.getRuntime()
						.availableProcessors(), c.textureBank()))));
		}
		catch (final IOException e) {
			throw new UncheckedIOException(e);
		}
		finally {
			if (dir != null) OneShotBench.delete(dir);
		}
	}

	/** CPU time of every live thread of this process. */
	private static long cpuNanos() {
		final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		long sum = 0;
		for (final long id : threads.getAllThreadIds())
			sum += Math.max(0, threads.getThreadCpuTime(id));
		return sum;
	}
}
