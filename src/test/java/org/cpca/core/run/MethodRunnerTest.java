package org.cpca.core.run;

import org.cpca.core.family.Choice;

import org.cpca.core.result.Method;
import org.cpca.core.result.Solution;

import org.cpca.core.Curve;
import org.cpca.core.Progress;
import org.cpca.core.TestData;
import org.cpca.core.contrast.ContrastiveSpace;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import org.cpca.core.linalg.SymmetricEigen;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.modelfile.ModelFile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shared method switch, solutions, method parameters in model files, curves. */
class MethodRunnerTest {

	@TempDir
	Path dir;

	private static final Dataset T = Dataset.of("target", TestData.gaussian(1, 40, 6, 3, 2,
		1));
	private static final Dataset B = Dataset.of("background", TestData.gaussian(2, 30, 6,
		3));
	private static final Dataset B2 = Dataset.of("background 2", TestData.gaussian(3, 30,
		6, 1, 2));

	private static Solution run(final Settings s, final List<Dataset> backgrounds) {
		return MethodRunner.run(s, T, backgrounds, CpcaOptions.defaults(), Progress.NONE);
	}

	@Test
	void cpcaAtFixedAlphaEqualsTheFitsModel() {
		final Solution s = run(Settings.builder().set("alpha", 2.5).build(), List.of(B));
		assertEquals("fixed", s.alphaMode());
		assertEquals(1, s.models().size());
		assertSame(s.models().get(0), s.primary());
		final CpcaModel direct = Cpca.fit(T, B, CpcaOptions.defaults(), Progress.NONE).model(
			2.5);
		assertArrayEquals(direct.eigenvalues(), s.primary().eigenvalues(), 0);
		assertTrue(s.linear());
		assertTrue(s.diagnostics().containsAll(s.fit().diagnostics()));
	}

	@Test
	void automaticAlphaPutsAlphaZeroFirstAndTheLargestEigengapAsPrimary() {
		final Solution s = run(Settings.builder().build(), List.of(B));
		assertEquals("auto", s.alphaMode());
		assertEquals(0, s.models().get(0).alpha());
		// no labels: the default model is the chosen α with the largest contrast eigengap
		final double[] gaps = s.selection().contrastGaps();
		int best = 1;
		for (int i = 2; i < gaps.length; i++)
			if (gaps[i] > gaps[best]) best = i;
		assertSame(s.models().get(best), s.primary());
		assertTrue(s.diagnostics().stream().anyMatch(d -> d.startsWith("default model")));
		assertEquals(s.selection().alphas().length, s.models().size());
	}

	@Test
	void pcaHasNoAlphaMode() {
		final Solution s = run(Settings.builder().set("method", "pca").build(), List.of());
		assertNull(s.alphaMode());
		assertEquals("PC", Method.of(s.primary()).prefix);
	}

	@Test
	void wrongBackgroundCountsAndUnknownMethodsSayWhatToDo() {
		final IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
			() -> run(Settings.builder().set("alpha", 1).build(), List.of()));
		assertTrue(none.getMessage().contains("needs a background"), none.getMessage());
		final IllegalArgumentException two = assertThrows(IllegalArgumentException.class,
			() -> run(Settings.builder().set("alpha", 1).build(), List.of(B, B2)));
		assertTrue(two.getMessage().contains("2 were given") && two.getMessage().contains(
			"uca"), two.getMessage());
		final IllegalArgumentException unknown = assertThrows(
			IllegalArgumentException.class, () -> Method.parse("ica"));
		assertTrue(unknown.getMessage().contains("cpca"), unknown.getMessage());
		assertEquals(Method.STAR, Method.parse(" STAR "));
		assertEquals(Double.POSITIVE_INFINITY, Choice.parse("∞", Choice.Range.ALPHA, "--alpha ").value());
		assertTrue(Choice.parse("Auto", Choice.Range.ALPHA, "--alpha ").isAuto());
		assertThrows(IllegalArgumentException.class, () -> Choice.parse("-1",
			Choice.Range.ALPHA, "--alpha "));
	}

	@Test
	void severalBackgroundsShareOneSpaceAndEachHasItsOwnCovariance() {
		for (final boolean features : new boolean[] { true, false }) {
			final Cpca fit = Cpca.fit(T, List.of(B, B2), CpcaOptions.defaults()
				.withFeatureSpace(features), Progress.NONE);
			assertEquals(!features, fit.reducedSpace());
			assertEquals(2, fit.backgroundCount());
			final ContrastiveSpace space = fit.space();
			// the quadratic form of each background along the space's directions equals the
			// sample variance of that background's projections
			final double[] w = SymmetricEigen.of(space.a, space.m).vectors(2);
			final double[][] v = space.components(w.clone(), 2);
			for (int j = 0; j < 2; j++) {
				final Dataset x = j == 0 ? B : B2;
				final double[] q = space.quadratics(space.backgrounds[j], w, 2);
				for (int c = 0; c < 2; c++) {
					final double norm = norm(w, c, 2);
					assertEquals(variance(x, v[c]), q[c] / (norm * norm), 1e-9 * (1 + q[c]));
				}
			}
			final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
				() -> fit.model(1));
			assertTrue(e.getMessage().contains("UCA"), e.getMessage());
		}
	}

	private static double norm(final double[] w, final int c, final int k) {
		double s = 0;
		for (int i = c; i < w.length; i += k)
			s += w[i] * w[i];
		return Math.sqrt(s);
	}

	/** Sample variance (n − 1) of x's rows projected on the unit vector v. */
	private static double variance(final Dataset x, final double[] v) {
		final int n = x.samples();
		final double[] p = new double[n];
		double mean = 0;
		for (int i = 0; i < n; i++) {
			final float[] r = x.row(i);
			for (int j = 0; j < v.length; j++)
				p[i] += r[j] * v[j];
			mean += p[i] / n;
		}
		double s = 0;
		for (final double y : p)
			s += (y - mean) * (y - mean);
		return s / (n - 1);
	}

	@Test
	void methodParametersRoundTripThroughModelFiles() throws Exception {
		final Cpca fit = Cpca.fit(T, List.of(B, B2), CpcaOptions.defaults(), Progress.NONE);
		final ContrastiveSpace space = fit.space();
		final SymmetricEigen e = SymmetricEigen.of(space.a, space.m);
		final Map<String, Object> p = new LinkedHashMap<>();
		p.put("lambda", new double[] { 0.25, 0 });
		p.put("beta", 0.5);
		p.put("limit", Double.POSITIVE_INFINITY);
		final CpcaModel m = fit.build("uca", Double.NaN, p, java.util.Arrays.copyOf(e
			.values(), 2), e.vectors(2), 2, List.of("a note"));
		final Path f = dir.resolve("uca.json");
		ModelFile.write(m, f);
		final CpcaModel r = ModelFile.read(f);
		assertEquals("uca", r.method());
		assertEquals(List.of("lambda", "beta", "limit"), List.copyOf(r.parameters()
			.keySet()));
		assertArrayEquals(new double[] { 0.25, 0 }, (double[]) r.parameters().get("lambda"));
		assertEquals(0.5, r.parameters().get("beta"));
		assertEquals(Double.POSITIVE_INFINITY, r.parameters().get("limit"));
		assertTrue(r.diagnostics().contains("a note"));
	}

	@Test
	void curvesCheckTheirShapeAndWriteCsv() {
		final Map<String, double[]> series = new LinkedHashMap<>();
		series.put("lda_accuracy", new double[] { 0.5, 0.9 });
		series.put("kl, symmetric", new double[] { 1, Double.NaN });
		final Curve c = new Curve("separation_vs_beta", "separation", "beta", "value", false,
			new double[] { 0, 0.5 }, series);
		assertEquals("beta,lda_accuracy,kl  symmetric\n0.0,0.5,1.0\n0.5,0.9,\n", c.csv());
		assertThrows(IllegalArgumentException.class, () -> new Curve("x", "x", "x", "y",
			false, new double[] { 1 }, series));
	}
}
