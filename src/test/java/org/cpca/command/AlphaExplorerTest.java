package org.cpca.command;

import org.cpca.core.run.Settings;

import org.cpca.analysis.AlphaExplorer;
import org.cpca.analysis.Analysis;
import org.cpca.analysis.AnalysisRequest;
import org.cpca.analysis.Samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;

import org.cpca.core.model.CpcaModel;
import org.cpca.core.Progress;
import org.cpca.generate.TestImageGenerator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The explorer's logic, headless (its dialog needs a display). */
class AlphaExplorerTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	private static Analysis analysis;

	@BeforeAll
	static void fit() {
		final TestImageGenerator.Result r = TestImageGenerator.generate(
			TestImageGenerator.Config.defaults().withSlices(60, 60).withSize(16, 16));
		analysis = Analysis.run(new AnalysisRequest().target(r.target()).background(r
			.background()).settings(Settings.defaults()), Progress.NONE);
	}

	@Test
	void positionsMapToAlphaBothWays() {
		assertEquals(0, AlphaExplorer.alphaAt(0));
		assertEquals(Double.POSITIVE_INFINITY, AlphaExplorer.alphaAt(AlphaExplorer
			.lastPosition()));
		assertEquals(0.01, AlphaExplorer.alphaAt(1), 1e-12);
		assertEquals(1e4, AlphaExplorer.alphaAt(AlphaExplorer.STEPS), 1e-6);
		for (int p = 0; p <= AlphaExplorer.lastPosition(); p++)
			assertEquals(p, AlphaExplorer.positionOf(AlphaExplorer.alphaAt(p)));
		for (int p = 2; p < AlphaExplorer.lastPosition(); p++)
			assertTrue(AlphaExplorer.alphaAt(p) > AlphaExplorer.alphaAt(p - 1));
	}

	@Test
	void eachPositionIsTheModelAtItsAlpha() {
		final AlphaExplorer e = new AlphaExplorer(analysis);
		assertEquals(0, e.chosenAlphas()[0]);
		final int p = AlphaExplorer.positionOf(3);
		final CpcaModel m = e.model(p);
		assertEquals(AlphaExplorer.alphaAt(p), m.alpha());
		final CpcaModel direct = analysis.cpca().model(AlphaExplorer.alphaAt(p));
		for (int c = 0; c < m.numComponents(); c++)
			assertEquals(0, org.cpca.core.contrast.Measures.principalAngles(new double[][] { m
				.components()[c] }, new double[][] { direct.components()[c] })[0], 1e-6);
		final ImagePlus scatter = e.scatter(m);
		assertTrue(scatter.getWidth() > 100);
		final ImagePlus eigen = e.eigenImages(m);
		assertNotNull(eigen);
		assertEquals(2, eigen.getStackSize());
		assertTrue(eigen.getStack().getSliceLabel(1).startsWith("cPC1 α="));
	}

	@Test
	void pcaAnalysesAreRefused() {
		final TestImageGenerator.Result r = TestImageGenerator.generate(
			TestImageGenerator.Config.defaults().withSlices(20, 20).withSize(16, 16));
		final Analysis pca = Analysis.run(new AnalysisRequest().target(r.target()).settings(
			Settings.builder().set("method", "pca").build()), Progress.NONE);
		assertThrows(IllegalArgumentException.class, () -> new AlphaExplorer(pca));
	}
}
