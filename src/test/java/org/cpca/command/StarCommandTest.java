package org.cpca.command;

import org.cpca.analysis.Analysis;
import org.cpca.analysis.AnalysisRequest;
import org.cpca.analysis.Samples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;
import ij.measure.ResultsTable;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.cpca.core.model.CpcaModel;
import org.cpca.core.model.FittedModel;
import org.junit.jupiter.api.Test;
import org.scijava.module.Module;

/** Contrastive PCA... with method=star (cPCA*) and method=cpcapp (cPCA++), headless. */
class StarCommandTest extends CommandTestBase {

	private static Module run(final Map<String, Object> inputs) throws Exception {
		final Map<String, Object> all = ContrastivePcaCommandTest.defaults();
		all.putAll(inputs);
		return start(ContrastivePcaCommand.class, true, all).get();
	}

	private static Map<String, Object> images(final long seed) {
		final Map<String, Object> in = new HashMap<>();
		in.put("target", Synthetic.target(40, seed));
		in.put("background", Synthetic.background(40, seed + 1));
		return in;
	}

	@Test
	void fixedBetaShowsEigenImagesTablesAndTheSeparationCurve() throws Exception {
		final Map<String, Object> in = images(21);
		final float[][] before = Synthetic.pixels((ImagePlus) in.get("target"));
		in.put("method", "star");
		in.put("beta_mode", "fixed");
		in.put("beta", 0.8);
		final Module m = run(in);
		assertFalse(canceled(m), () -> reason(m));
		final ContrastivePcaCommand c = (ContrastivePcaCommand) m.getDelegateObject();
		final List<FittedModel> models = c.analysis().models();
		assertEquals(1, models.size());
		assertEquals("star", models.get(0).method());
		assertEquals(0.8, models.get(0).parameters().get("beta"));
		final ImagePlus eigen = (ImagePlus) m.getOutput("eigen_images");
		assertTrue(eigen.getStack().getSliceLabel(1).startsWith("cPC1 β=0.8 λ="), eigen
			.getStack().getSliceLabel(1));
		final ResultsTable scores = c.scoresTable();
		assertEquals("0.8", scores.getStringValue("beta", 0));
		assertEquals("", scores.getStringValue("alpha", 0));
		// unit components; the first separates the classes a / b
		final double[] v = ((CpcaModel) models.get(0)).components()[0];
		double norm = 0;
		for (final double x : v)
			norm += x * x;
		assertEquals(1, norm, 1e-9);
		double meanA = 0, meanB = 0;
		for (int i = 0; i < 40; i++)
			if (i % 2 == 0) meanA += scores.getValue("cPC1", i) / 20;
			else meanB += scores.getValue("cPC1", i) / 20;
		assertTrue(Math.abs(meanA - meanB) > 1, meanA + " vs " + meanB);
		// the slices have classes: separation along the β grid, shown as a curve plot
		assertNotNull(c.analysis().solution().facts().get("separation_vs_beta"));
		final ImagePlus curves = (ImagePlus) m.getOutput("curve_plot");
		assertNotNull(curves);
		// a real plot (LDA accuracy against β, log β axis); the KL curve is a second plot
		final ij.gui.Plot plot = (ij.gui.Plot) curves.getProperty(ij.gui.Plot.PROPERTY_KEY);
		assertNotNull(plot);
		assertEquals("β", plot.getLabel('x'));
		assertEquals(2, c.analysis().views().curvePlots().size());
		assertNull(m.getOutput("variance_pairs_plot"));
		assertArrayEquals(before, Synthetic.pixels((ImagePlus) in.get("target")));
	}

	@Test
	void automaticBetaGivesBetaZeroFirst() throws Exception {
		final Map<String, Object> in = images(23);
		in.put("method", "star");
		in.put("beta_mode", "auto");
		final Module m = run(in);
		assertFalse(canceled(m), () -> reason(m));
		final List<FittedModel> models = ((ContrastivePcaCommand) m.getDelegateObject())
			.analysis().models();
		assertTrue(models.size() >= 2);
		assertEquals(0.0, models.get(0).parameters().get("beta"));
		for (int i = 1; i < models.size(); i++)
			assertTrue((Double) models.get(i).parameters().get("beta") > (Double) models.get(
				i - 1).parameters().get("beta"));
		assertEquals(2 * models.size(), ((ImagePlus) m.getOutput("eigen_images"))
			.getStackSize());
	}

	@Test
	void cpcaPlusPlusRunsAndRecordsItsRegularisation() throws Exception {
		final Map<String, Object> in = images(25);
		in.put("method", "cpcapp");
		final Module m = run(in);
		assertFalse(canceled(m), () -> reason(m));
		final Analysis a = ((ContrastivePcaCommand) m.getDelegateObject()).analysis();
		assertEquals("cpcapp", a.primary().method());
		// 120 pixels, 40 background slices: C_b is singular and was regularised
		assertTrue((Double) a.primary().parameters().get("regularization") > 0);
		assertTrue(a.diagnostics().stream().anyMatch(s -> s.contains("regularised")), a
			.diagnostics().toString());
		assertTrue(((ImagePlus) m.getOutput("eigen_images")).getStack().getSliceLabel(1)
			.startsWith("cPC1 λ="));
		// the dialog's ε: δ = ε·trace(C_b)/d, so 1000 times the default ε gives 1000 times δ
		final Map<String, Object> larger = images(25);
		larger.put("method", "cpcapp");
		larger.put("epsilon", 1e-3);
		final Module m3 = run(larger);
		assertFalse(canceled(m3), () -> reason(m3));
		assertEquals(1000, (Double) ((ContrastivePcaCommand) m3.getDelegateObject())
			.analysis().primary().parameters().get("regularization") / (Double) a.primary()
				.parameters().get("regularization"), 1e-9);
	}

	@Test
	void badBetaCancelsWithAMessage() throws Exception {
		for (final double beta : new double[] { 1.5, -0.1, Double.NaN }) {
			final Map<String, Object> in = images(27);
			in.put("method", "star");
			in.put("beta_mode", "fixed");
			in.put("beta", beta);
			final Module m = run(in);
			assertTrue(canceled(m), "β = " + beta);
			assertTrue(reason(m).contains("beta must be in [0, 1]"), reason(m));
		}
		final Map<String, Object> in = images(27);
		in.put("method", "star");
		in.put("beta_mode", "maybe");
		final Module m = run(in);
		assertTrue(canceled(m));
		assertTrue(reason(m).contains("beta_mode=maybe"), reason(m));
	}

	@Test
	void batchRunsCpcaStarAtAFixedBeta(@org.junit.jupiter.api.io.TempDir final java.nio.file.Path tmp)
		throws Exception
	{
		final Map<String, Object> args = BatchCommandTest.defaults();
		args.put("target", BatchCommandTest.save(Synthetic.target(30, 41), tmp.resolve(
			"t.tif")));
		args.put("background", BatchCommandTest.save(Synthetic.background(30, 42), tmp
			.resolve("b.tif")));
		args.put("out", tmp.resolve("out").toFile());
		args.put("method", "star");
		args.put("beta_mode", "fixed");
		args.put("beta", 0.25);
		final Module m = start(BatchCommand.class, true, args).get();
		assertFalse(canceled(m), () -> reason(m));
		final String summary = new String(java.nio.file.Files.readAllBytes(tmp.resolve(
			"out/summary.json")), java.nio.charset.StandardCharsets.UTF_8);
		assertTrue(summary.contains("\"method\": \"star\""), summary);
		assertTrue(summary.contains("\"beta\": 0.25"), summary);
	}
}
