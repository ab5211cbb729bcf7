package org.cpca.core.contrast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.cpca.core.Progress;
import org.cpca.core.TestData;
import org.cpca.core.data.Dataset;
import org.cpca.core.linalg.SymmetricEigen;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.result.Solution;
import org.cpca.core.run.MethodRunner;
import org.cpca.core.run.Settings;
import org.junit.jupiter.api.Test;

/**
 * The automatic α selection starts the primary model's spectrum (the scree plot's
 * eigenvalues) on another core while it builds the models
 * ({@link ContrastiveSpace#spectrumAhead}); the spectrum asked for afterwards is the one
 * computed now, bit for bit.
 */
class SpectrumAheadTest {

	private static Cpca fit(final long seed, final List<String> labels) {
		Dataset t = Dataset.of("target", TestData.gaussian(seed, 120, 30, 6, 5, 4, 3, 2));
		if (labels != null) t = t.withLabels(labels);
		final Dataset b = Dataset.of("background", TestData.gaussian(seed + 1, 110, 30, 5, 1, 4));
		return Cpca.fit(t, b, CpcaOptions.defaults().withComponents(3), Progress.NONE);
	}

	/** Every eigenvalue of A − αB, computed here. */
	private static double[] direct(final ContrastiveSpace s, final double alpha) {
		final double[] c = new double[s.m * s.m];
		for (int i = 0; i < c.length; i++)
			c[i] = s.a[i] - alpha * s.b[i];
		return SymmetricEigen.values(c, s.m);
	}

	@Test
	void theSelectionStartsThePrimaryModelsSpectrum() {
		for (long seed = 1; seed <= 3; seed++) {
			final Cpca cpca = fit(seed, null);
			cpca.spectrumAhead();
			final AlphaSelection<CpcaModel> selection = cpca.automatic(Progress.NONE);
			final int primary = AlphaSelection.largestGap(selection.contrastGaps());
			final double alpha = selection.models().get(primary > 0 ? primary : 1).alpha();
			assertTrue(cpca.space().spectrumStarted(alpha), "seed " + seed);
			// the values waited for are the ones computed now, to the bit
			assertArrayEquals(direct(cpca.space(), alpha), cpca.space().spectrum(alpha), 0);
			// another α is computed now, not taken from the one ahead
			assertArrayEquals(direct(cpca.space(), 0), cpca.space().spectrum(0), 0);
		}
	}

	@Test
	void nothingIsStartedWhenClassLabelsMayPickAnotherModel() {
		final List<String> labels = new ArrayList<>();
		for (int i = 0; i < 120; i++)
			labels.add(i % 2 == 0 ? "a" : "b");
		final Cpca cpca = fit(4, labels);
		cpca.spectrumAhead();
		final AlphaSelection<CpcaModel> selection = cpca.automatic(Progress.NONE);
		for (final CpcaModel m : selection.models())
			assertFalse(cpca.space().spectrumStarted(m.alpha()));
	}

	@Test
	void theAutomaticCpcaRunStartsItsPrimaryModelsSpectrum() {
		final Dataset t = Dataset.of("target", TestData.gaussian(6, 120, 30, 6, 5, 4, 3, 2));
		final Dataset b = Dataset.of("background", TestData.gaussian(7, 110, 30, 5, 1, 4));
		final Solution s = MethodRunner.run(Settings.builder().build(), t, List.of(b),
			CpcaOptions.defaults(), Progress.NONE);
		assertEquals("auto", s.alphaMode());
		final double alpha = s.primary().alpha();
		assertTrue(s.fit().space().spectrumStarted(alpha));
		assertArrayEquals(direct(s.fit().space(), alpha), s.fit().space().spectrum(alpha), 0);
	}

	@Test
	void nothingIsStartedUnlessTheSpectrumWillBeDrawn() {
		final Cpca cpca = fit(5, null);
		final AlphaSelection<CpcaModel> selection = cpca.automatic(Progress.NONE);
		for (final CpcaModel m : selection.models())
			assertFalse(cpca.space().spectrumStarted(m.alpha()));
	}

	@Test
	void largestGapSkipsTheBaselineAndUndefinedGaps() {
		final double inf = Double.NEGATIVE_INFINITY;
		assertEquals(2, AlphaSelection.largestGap(new double[] { 9, 0.1, 0.3, 0.3 }));
		assertEquals(3, AlphaSelection.largestGap(new double[] { 9, inf, inf, 0 }));
		assertEquals(-1, AlphaSelection.largestGap(new double[] { 9, inf }));
		assertEquals(-1, AlphaSelection.largestGap(new double[] { 9 }));
	}
}
