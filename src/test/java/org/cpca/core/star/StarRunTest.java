package org.cpca.core.star;

import org.cpca.core.Curve;
import org.cpca.core.Progress;
import org.cpca.core.TestData;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.result.Method;
import org.cpca.core.run.MethodRunner;
import org.cpca.core.family.Choice;
import org.cpca.core.run.Settings;
import org.cpca.core.result.Solution;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** cPCA* and cPCA++ through the shared method switch. */
class StarRunTest {

	private static final Dataset T = Dataset.of("target", TestData.gaussian(1, 40, 6, 3, 2,
		1));
	private static final Dataset B = Dataset.of("background", TestData.gaussian(2, 30, 6,
		3));

	private static Solution run(final Settings s, final Dataset target) {
		return MethodRunner.run(s, target, List.of(B), CpcaOptions.defaults(),
			Progress.NONE);
	}

	@Test
	void fixedBetaIsTheCoreModelWithoutCurvesWhenThereAreNoClasses() {
		final Solution s = run(Settings.builder().set("method", "star").set("beta", 0.3).build(), T);
		assertNull(s.alphaMode());
		assertEquals(1, s.models().size());
		final CpcaModel direct = CpcaStar.of(Cpca.fit(T, B, CpcaOptions.defaults(),
			Progress.NONE)).model(0.3);
		assertArrayEquals(direct.eigenvalues(), s.primary().eigenvalues(), 0);
		assertEquals(Map.of("beta", 0.3), s.primary().parameters());
		assertTrue(Double.isNaN(s.primary().alpha()));
		assertEquals("fixed", s.facts().get("beta_mode"));
		assertTrue(s.curves().isEmpty());
		assertNull(s.facts().get("separation_vs_beta"));
	}

	@Test
	void automaticBetaWithClassesReportsTheSelectionAndTheSeparationCurves() {
		final List<String> labels = new ArrayList<>();
		for (int i = 0; i < T.samples(); i++)
			labels.add(i % 2 == 0 ? "a" : "b");
		final Settings settings = Settings.builder().set("method", "star").set("beta_count", 10)
			.set("betas_returned", 3).build();
		final Solution s = run(settings, T.withLabels(labels));
		assertEquals("auto", s.facts().get("beta_mode"));
		@SuppressWarnings("unchecked")
		final Map<String, Object> sel = (Map<String, Object>) s.facts().get(
			"beta_selection");
		assertEquals(12, ((double[]) sel.get("grid")).length);
		final double[] betas = (double[]) sel.get("betas");
		assertEquals(betas.length, s.models().size());
		assertTrue(betas.length <= 3);
		assertEquals(0.0, s.models().get(0).parameters().get("beta"));
		assertEquals(2, s.curves().size());
		for (final Curve c : s.curves()) {
			assertArrayEquals((double[]) sel.get("grid"), c.x());
			assertEquals(1, c.series().size());
		}
		assertEquals("beta,lda_accuracy", s.curves().get(0).csv().split("\n")[0]);
	}

	@Test
	void cpcaPlusPlusReportsItsRegularisation() {
		// by default the Ledoit–Wolf shrinkage ridge, whether or not C_b is singular
		assertTrue((Double) run(Settings.builder().set("method", "cpcapp").build(), T).facts()
			.get(
			"regularization") > 0);
		final Solution s = run(Settings.builder().set("method", "cpcapp").set("epsilon", 1e-6).build(), T);
		assertEquals("cpcapp", s.primary().method());
		// with a given ε: 30 background samples ≥ 6 + 1, C_b is invertible, no ridge
		assertEquals(0.0, s.facts().get("regularization"));
		assertEquals(Map.of("regularization", 0.0), s.primary().parameters());
		assertTrue(s.curves().isEmpty());
	}

	@Test
	void badBetaAndWrongBackgroundsSayWhatToDo() {
		final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
			() -> StarRun.star(Cpca.fit(T, B, CpcaOptions.defaults(), Progress.NONE), 1.5,
				Double.NaN, 40, 4, Progress.NONE));
		assertTrue(e.getMessage().contains("β must be in [0, 1]"), e.getMessage());
		// the settings refuse it before any data are read
		TestData.assertMessage(() -> Settings.builder().set("method", "star").set("beta",
			1.5).build(), "beta must be in [0, 1]");
		final IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
			() -> MethodRunner.run(Settings.builder().set("method", "cpcapp").build(), T, List
				.of(),
				CpcaOptions.defaults(), Progress.NONE));
		assertTrue(none.getMessage().contains("cPCA++ needs a background"), none
			.getMessage());
		assertEquals(0.25, Choice.parse(" 0.25 ", Choice.Range.BETA, "--beta ").value());
		assertTrue(Choice.parse("AUTO", Choice.Range.BETA, "--beta ").isAuto());
		for (final String bad : new String[] { "1.01", "-1", "x", "inf", "NaN" })
			assertThrows(IllegalArgumentException.class, () -> Choice.parse(bad, Choice.Range.BETA,
				"--beta"), bad);
		assertEquals(0.0, Choice.parse("-0", Choice.Range.BETA, "--beta ").value());
	}
}
