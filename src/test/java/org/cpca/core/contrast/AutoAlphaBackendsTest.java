package org.cpca.core.contrast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;

import org.cpca.core.FamilyPropertyTest;
import org.cpca.core.Progress;
import org.cpca.core.data.Dataset;
import org.cpca.core.linalg.Backend;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.model.FittedModel;
import org.cpca.core.result.Solution;
import org.cpca.core.run.MethodRunner;
import org.cpca.core.run.Settings;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Automatic α on a hard input for the solver's exactness: more features than samples
 * (150 + 150 samples × 400 features, the reduced space of rank 298), noise of nine
 * different scales and a target-only direction; at large α the top two eigenvalues of
 * the contrast lie close together. Every returned model must be the same on the native
 * backend and on the Java kernels (eigenvalues within 10⁻¹⁰ relative, subspaces within
 * 10⁻⁸°): at the residual test's former 3·10⁻¹¹ · ‖S‖ they differed by 4.2·10⁻⁸°, at
 * today's 10⁻¹² by 1.6·10⁻⁹° (docs/math/solvers.md).
 */
class AutoAlphaBackendsTest {

	@Test
	void everyReturnedModelIsTheSameOnBothBackends() {
		Assumptions.assumeTrue(Backend.isNative(), "the native backend is not in use");
		final Dataset target = data(11, true), background = data(12, false);
		final Settings s = Settings.builder().set("alpha", "auto").set("components", 2)
			.build();
		final Solution onNative = MethodRunner.run(s, target, List.of(background),
			Progress.NONE);
		final Solution onJava = Backend.onJava(() -> MethodRunner.run(s, target, List.of(
			background), Progress.NONE));
		final List<FittedModel> a = onNative.models(), b = onJava.models();
		assertEquals(b.size(), a.size());
		assertTrue(a.size() >= 3, a.size() + " models");
		double worst = 0;
		for (int i = 0; i < a.size(); i++) {
			final CpcaModel x = (CpcaModel) a.get(i), y = (CpcaModel) b.get(i);
			assertEquals(y.alpha(), x.alpha(), 0, "model " + i + "'s α");
			double scale = 0;
			for (final double v : y.eigenvalues())
				scale = Math.max(scale, Math.abs(v));
			for (int c = 0; c < x.eigenvalues().length; c++)
				assertEquals(y.eigenvalues()[c], x.eigenvalues()[c], 1e-10 * scale, "model " +
					i + ", eigenvalue " + c);
			worst = Math.max(worst, FamilyPropertyTest.largestAngleDegrees(x.components(), y
				.components()));
		}
		assertEquals(0, worst, 1e-8, "largest principal angle over the models (degrees)");
	}

	/** 150 samples × 400 features; the target also varies along e₁₀ − e₂₀₀. */
	private static Dataset data(final long seed, final boolean target) {
		final Random r = new Random(seed);
		final float[][] x = new float[150][400];
		for (final float[] row : x) {
			for (int j = 0; j < row.length; j++)
				row[j] = (float) (r.nextGaussian() * (1 + j % 9));
			if (target) {
				final double z = 4 * r.nextGaussian();
				row[10] += z;
				row[200] -= z;
			}
		}
		return Dataset.wrap(target ? "target" : "background", x);
	}
}
