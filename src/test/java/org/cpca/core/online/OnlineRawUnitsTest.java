package org.cpca.core.online;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.cpca.core.Progress;
import org.cpca.core.data.Dataset;
import org.cpca.core.data.SampleSource;
import org.cpca.core.model.CpcaModel;
import org.junit.jupiter.api.Test;

/**
 * Online cPCA* with the default η, τ and epochs on a table in raw units (issue 31: the
 * mouse table in raw units at β = 0.5 stalled at alignment 0.83–0.90). As there, the
 * variance is small against B_β's identity term and one direction carries half of it, so
 * W's dimensionless step along it, η·λ/ν̂ ≈ η/2, outran M's η/τ; before the fix these runs
 * ended at 0.48–0.55.
 */
class OnlineRawUnitsTest {

	static final int D = 40;

	/**
	 * Five shared random directions with standard deviations 1, 0.62, 0.45, 0.35, 0.22 (as
	 * the mouse table's top principal components: half of the variance in the first),
	 * small isotropic noise, and in the target two more directions of standard deviation
	 * 0.3.
	 */
	static Dataset table(final long seed, final int n, final boolean target) {
		return table(seed, n, target, 1);
	}

	/** {@link #table(long, int, boolean)} in the given unit. */
	static Dataset table(final long seed, final int n, final boolean target,
		final double unit)
	{
		final Random shape = new Random(42), r = new Random(seed);
		final double[][] dirs = new double[7][D];
		for (final double[] v : dirs) {
			double s = 0;
			for (int j = 0; j < D; j++) {
				v[j] = shape.nextGaussian();
				s += v[j] * v[j];
			}
			for (int j = 0; j < D; j++)
				v[j] /= Math.sqrt(s);
		}
		final double[] sd = { 1, 0.62, 0.45, 0.35, 0.22, target ? 0.3 : 0, target ? 0.3 : 0 };
		final double[][] x = new double[n][D];
		for (final double[] row : x) {
			for (int j = 0; j < D; j++)
				row[j] = 1 + 0.05 * r.nextGaussian();
			for (int c = 0; c < sd.length; c++) {
				final double z = sd[c] * r.nextGaussian();
				for (int j = 0; j < D; j++)
					row[j] += z * dirs[c][j];
			}
		}
		for (final double[] row : x)
			for (int j = 0; j < D; j++)
				row[j] *= unit;
		return Dataset.of(target ? "target" : "background", x);
	}

	/**
	 * Also in units of 10⁻³⁰, where the decay term 2η(1 − β)/ν̂ of raw units made the
	 * network diverge: a given β is learned on the samples divided by √s (s the
	 * background's mean feature variance) at the β of the same problem.
	 */
	@Test
	void theDefaultsConvergeAtAGivenBetaOnRawUnits() throws IOException {
		for (long seed = 0; seed < 4; seed++) {
			final double unit = seed == 3 ? 1e-30 : 1;
			final Dataset t = table(2 * seed, 270, true, unit), b = table(2 * seed + 1, 135,
				false, unit);
			final OnlineOptions o = OnlineOptions.defaults().withBeta(0.5).withSeed(seed);
			final CpcaModel offline = OnlineRun.offlineReference(SampleSource.of(t),
				SampleSource.of(b), o, Progress.NONE);
			final OnlineRun.Result r = OnlineRun.fit(SampleSource.of(t), SampleSource.of(b), o,
				offline.components(), Progress.NONE);
			assertTrue(r.finalAlignment() >= 0.95, "seed " + seed + ": alignment " + r
				.finalAlignment());
			assertNull(r.convergenceWarning(o));
		}
	}

	private static OnlineRun.Result run(final Dataset t, final Dataset b,
		final OnlineOptions o) throws IOException
	{
		final CpcaModel offline = OnlineRun.offlineReference(SampleSource.of(t), SampleSource
			.of(b), o, Progress.NONE);
		return OnlineRun.fit(SampleSource.of(t), SampleSource.of(b), o, offline.components(),
			Progress.NONE);
	}

	/** The options a warning's "run with --eta E --epochs N" asks for. */
	static OnlineOptions follow(final String warning, OnlineOptions o) {
		final String advice = warning.substring(warning.indexOf("run with"));
		final Matcher eta = Pattern.compile("run with[^(]*--eta ([0-9.eE+-]+)").matcher(
			advice), epochs = Pattern.compile("run with[^(]*--epochs (\\d+)").matcher(advice);
		assertTrue(eta.find() || epochs.find(), warning);
		eta.reset();
		epochs.reset();
		if (eta.find()) o = o.withEta(Double.parseDouble(eta.group(1)));
		if (epochs.find()) o = o.withEpochs(Integer.parseInt(epochs.group(1)));
		return o;
	}

	/**
	 * A run cut short warns, and the change its warning names makes it converge: one epoch
	 * at the default η (no annealing: the curve levels off in the step's noise) and a step
	 * too small for five epochs (still climbing).
	 */
	@Test
	void theStallWarningsAdviceIsTheChangeThatWorks() throws IOException {
		final Dataset t = table(0, 270, true), b = table(1, 135, false);
		final OnlineOptions base = OnlineOptions.defaults().withBeta(0.5);
		final OnlineOptions[] stalls = { base.withEpochs(1), base.withEta(0.003).withEpochs(5) };
		final String[] kinds = { "levelled off", "hardly moved" };
		for (int i = 0; i < stalls.length; i++) {
			final OnlineRun.Result r = run(t, b, stalls[i]);
			final String warning = r.convergenceWarning(stalls[i]);
			assertNotNull(warning, "alignment " + r.finalAlignment());
			assertTrue(warning.contains(kinds[i]), warning);
			final OnlineOptions followed = follow(warning, stalls[i]);
			final OnlineRun.Result again = run(t, b, followed);
			assertTrue(again.finalAlignment() >= OnlineOptions.CONVERGED_ALIGNMENT, warning +
				" → alignment " + again.finalAlignment());
			assertNull(again.convergenceWarning(followed));
		}
	}
}
