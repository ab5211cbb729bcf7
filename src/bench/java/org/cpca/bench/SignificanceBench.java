package org.cpca.bench;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

import org.cpca.core.Progress;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import org.cpca.core.significance.GramCpca;
import org.cpca.core.significance.PermutationTest;
import org.cpca.core.significance.Significance;
import org.cpca.generate.TestImageGenerator;
import org.cpca.generate.TestImageGenerator.Config;
import org.cpca.image.FeatureLayout;
import org.cpca.image.StackSamples;

import ij.ImagePlus;

/**
 * The {@code significance} benchmark group ({@code cpca bench --only significance}): the
 * permutation test of cPCA at one α by re-partitioning the joint moments
 * (docs/math/significance.md#reusing-the-joint-gram), on the bundled images (regenerated
 * bit-identically) against one fit's time, and on 2,000 + 2,000 digits of 28 × 28 pixels.
 */
final class SignificanceBench {

	private static final int PERMUTATIONS = 1000;
	private static final double ALPHA = 2;
	/** The goals: 1,000 permutations in 20 fits' time; the digits in 60 s. */
	private static final double FITS = 20, DIGITS_SECONDS = 60;

	private SignificanceBench() {}

	static void run(final PrintStream out, final List<Bench.Row> rows) {
		final Dataset[] images = datasets(Config.defaults());
		final CpcaOptions o = CpcaOptions.defaults();
		// wall-clock medians, and the process CPU time of the last run: on a shared machine
		// the ratio of CPU times shows the work whatever else runs
		final double[] cpu = new double[2];
		final double fit = Bench.median(() -> {
			final double c0 = StarBench.processCpu();
			final long t0 = System.nanoTime();
			Cpca.fit(images[0], images[1], o, Progress.NONE).model(ALPHA);
			cpu[0] = StarBench.processCpu() - c0;
			return (System.nanoTime() - t0) / 1e9;
		});
		final String shape = shape(images);
		rows.add(Bench.print(out, new Bench.Row("cpca one α, bundled images", shape, fit,
			Double.NaN, String.format(Locale.ROOT, "α = 2, k = 2: the unit of the next goal; " +
				"process CPU %.3f s", cpu[0]))));
		final double[] p = new double[1];
		final double test = Bench.median(() -> {
			final double c0 = StarBench.processCpu();
			final long t0 = System.nanoTime();
			p[0] = permutations(images, o)[0];
			cpu[1] = StarBench.processCpu() - c0;
			return (System.nanoTime() - t0) / 1e9;
		});
		rows.add(Bench.print(out, new Bench.Row("significance 1000 permutations, images",
			shape, test, FITS * fit, String.format(Locale.ROOT, "= %.1f fits' time (goal ≤ " +
				"%.0f); process CPU %.2f s = %.1f fits' CPU; joint Gram included; p = %.4f",
				test / fit, FITS, cpu[1], cpu[1] / cpu[0], p[0]))));

		final Dataset[] digits = datasets(Config.defaults().withSlices(2000, 2000).withSize(
			28, 28));
		final double c0 = StarBench.processCpu();
		final long t0 = System.nanoTime(); // once: a run is long, and warm from the above
		final double pd = permutations(digits, o)[0];
		rows.add(Bench.print(out, new Bench.Row("significance 1000 permutations, digits",
			shape(digits), (System.nanoTime() - t0) / 1e9, DIGITS_SECONDS, String.format(Locale.ROOT,
				"one run; process CPU %.1f s; features < samples: M formed from the smaller " +
					"part's rows; p = %.4f", StarBench.processCpu() - c0, pd))));
	}

	private static double[] permutations(final Dataset[] data, final CpcaOptions o) {
		final Significance s = PermutationTest.run(data[0], List.of(data[1]), new GramCpca(o,
			ALPHA), PERMUTATIONS, 1, Progress.NONE);
		return s.pValues();
	}

	private static Dataset[] datasets(final Config config) {
		final TestImageGenerator.Result r = TestImageGenerator.generate(config);
		return new Dataset[] { dataset("target", r.target()), dataset("background", r
			.background()) };
	}

	private static Dataset dataset(final String name, final ImagePlus imp) {
		return StackSamples.toDataset(name, imp, FeatureLayout.full(imp.getWidth(), imp
			.getHeight(), 1));
	}

	private static String shape(final Dataset[] data) {
		return data[0].samples() + "+" + data[1].samples() + "×" + data[0].features();
	}
}
