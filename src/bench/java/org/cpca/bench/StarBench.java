package org.cpca.bench;

import java.io.PrintStream;
import java.util.List;

import org.cpca.core.star.BetaSelection;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.star.CpcaPlusPlus;
import org.cpca.core.star.CpcaStar;
import org.cpca.core.data.Dataset;
import org.cpca.core.Progress;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.Locale;

/**
 * The {@code star} benchmark group ({@code cpca bench --only star}): offline cPCA* and
 * cPCA++ on the seeded synthetic data of {@link SyntheticData}.
 */
final class StarBench {

	private StarBench() {}

	static void run(final PrintStream out, final List<Bench.Row> rows) {
		final float[][][] data = SyntheticData.contrastive(1, 5000, 5000, 784);
		final Dataset t = Dataset.wrap("target", data[0]);
		final Dataset b = Dataset.wrap("background", data[1]);
		final CpcaOptions o = CpcaOptions.defaults();
		final String shape = "5000+5000×784";

		final double[] fit = new double[2];
		final double one = Bench.median(() -> {
			final double c0 = processCpu();
			final long t0 = System.nanoTime();
			final Cpca c = Cpca.fit(t, b, o, Progress.NONE);
			final long t1 = System.nanoTime();
			CpcaStar.of(c).model(0.9);
			fit[0] = (t1 - t0) / 1e9;
			fit[1] = processCpu() - c0;
			return (System.nanoTime() - t0) / 1e9;
		});
		rows.add(Bench.print(out, new Bench.Row("star one β " + shape + " (fit included)",
			shape, one, 0.5, String.format(Locale.ROOT, "β = 0.9, k = 2; last run: fit %.3f s, process " +
				"CPU %.2f s", fit[0], fit[1]))));

		final Cpca fitted = Cpca.fit(t, b, o, Progress.NONE);
		final double solve = Bench.median(() -> {
			final long t0 = System.nanoTime();
			CpcaStar.of(fitted).model(0.5);
			return (System.nanoTime() - t0) / 1e9;
		});
		rows.add(Bench.print(out, new Bench.Row("star model(β) on a fitted Cpca 784", shape,
			solve, Double.NaN, "Cholesky of B_β, two triangular solves, top-k")));

		final double pp = Bench.median(() -> {
			final long t0 = System.nanoTime();
			CpcaPlusPlus.of(fitted).model();
			return (System.nanoTime() - t0) / 1e9;
		});
		rows.add(Bench.print(out, new Bench.Row("cpcapp on a fitted Cpca 784", shape, pp,
			Double.NaN, "β = 1: singularity check + the same solve")));

		final int[] grid = new int[1];
		final double auto = Bench.median(() -> {
			final long t0 = System.nanoTime();
			final BetaSelection s = CpcaStar.of(fitted).automatic(Progress.NONE);
			grid[0] = s.grid().length;
			return (System.nanoTime() - t0) / 1e9;
		});
		rows.add(Bench.print(out, new Bench.Row("star automatic β after fit " + shape, shape,
			auto, Double.NaN, grid[0] + " β (tridiagonal C_b once, warm-started), 4 " +
				"returned")));

		rows.add(Bench.print(out, images()));
	}

	/**
	 * CPU seconds used by this process so far (all threads), or NaN where the JVM does
	 * not say: on a shared machine it shows the work done independently of the wait.
	 */
	static double processCpu() {
		final OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
		return os instanceof com.sun.management.OperatingSystemMXBean
			? ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime() / 1e9
			: Double.NaN;
	}

	/** The image case: the exact reduced space (r ≈ 998 of d = 65536). */
	private static Bench.Row images() {
		final String shape = "500+500×65536";
		float[][][] data = SyntheticData.contrastive(2, 500, 500, 65536, 12, 3, 1.0);
		final Dataset t = Dataset.wrap("target", data[0]);
		final Dataset b = Dataset.wrap("background", data[1]);
		data = null;
		final double time = Bench.median(() -> {
			final long t0 = System.nanoTime();
			final Cpca c = Cpca.fit(t, b, CpcaOptions.defaults(), Progress.NONE);
			CpcaStar.of(c).model(0.9);
			if (!c.reducedSpace()) throw new IllegalStateException("expected reduced space");
			return (System.nanoTime() - t0) / 1e9;
		});
		return new Bench.Row("star one β " + shape + " (reduced space)", shape, time,
			Double.NaN, "fit included; β = 0.9");
	}
}
