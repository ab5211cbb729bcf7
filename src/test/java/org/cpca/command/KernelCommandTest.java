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

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import org.cpca.core.kernel.KernelCpcaModel;
import org.cpca.core.modelfile.ModelFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scijava.module.Module;

/** Contrastive PCA... with method=kernel, headless through a real SciJava context. */
class KernelCommandTest extends CommandTestBase {

	@Test
	void kernelShowsExtremeSamplesInsteadOfEigenImages(@TempDir final Path tmp)
		throws Exception
	{
		final ImagePlus t = Synthetic.target(40, 21), b = Synthetic.background(40, 22);
		final float[][] before = Synthetic.pixels(t);
		final Map<String, Object> in = new HashMap<>();
		in.put("target", t);
		in.put("background", b);
		in.put("method", "kernel");
		in.put("kernel", "rbf");
		in.put("gamma", "1e-6"); // a wide kernel: the median heuristic is too narrow here
		in.put("alpha_mode", "fixed");
		in.put("alpha", 10.0);
		in.put("save_model", tmp.resolve("kernel.json").toFile());
		final Module m = ContrastivePcaCommandTest.run(in);
		assertFalse(canceled(m), () -> reason(m));
		assertNull(m.getOutput("eigen_images"));
		assertNull(m.getOutput("variance_pairs_plot"));
		final ImagePlus extremes = (ImagePlus) m.getOutput("extreme_samples");
		assertNotNull(extremes);
		assertTrue(extremes.getTitle().contains("no eigen-images"), extremes.getTitle());
		assertTrue(((String) extremes.getProperty("Info")).contains("extreme"));
		assertEquals(2 * 6, extremes.getStackSize());
		assertEquals(Synthetic.W, extremes.getWidth());
		assertTrue(extremes.getStack().getSliceLabel(1).startsWith("kPC1 top 1: "));
		assertNotNull(m.getOutput("scatter_plot"));
		final ContrastivePcaCommand c = (ContrastivePcaCommand) m.getDelegateObject();
		final ResultsTable scores = c.scoresTable();
		assertEquals(40, scores.size());
		assertTrue(scores.columnExists("kPC1") && scores.columnExists("gamma"));
		assertEquals("10", scores.getStringValue("alpha", 0));
		assertEquals("kernel", c.analysis().method());
		// the wide rbf kernel finds the faint class pattern under the strong shared one
		final double lda = org.cpca.core.contrast.Measures.ldaAccuracy(c.analysis().primary()
			.targetScores(), c.analysis().targetData().labels());
		assertTrue(lda >= 0.9, "LDA accuracy " + lda);
		assertTrue(Files.isRegularFile(tmp.resolve("kernel.json")));
		final KernelCpcaModel saved = (KernelCpcaModel) ModelFile.readAny(tmp.resolve(
			"kernel.json"));
		assertEquals("slices", saved.attributes().get(Analysis.SAMPLES_KEY));
		assertArrayEquals(before, Synthetic.pixels(t));
	}

	@Test
	void kernelWithPixelsAsSamplesAndNystromGivesScoreImages() throws Exception {
		final int w = 30, h = 30;
		final ij.ImageStack st = new ij.ImageStack(w, h);
		final java.util.Random r = new java.util.Random(5);
		final float[][] p = new float[3][w * h];
		for (int i = 0; i < w * h; i++)
			for (int c = 0; c < 3; c++)
				p[c][i] = (float) ((i % w < 15 ? 1 : 3) * r.nextGaussian());
		for (int s = 0; s < 3; s++)
			st.addSlice("ch" + (s + 1), new ij.process.FloatProcessor(w, h, p[s]));
		final ImagePlus t = new ImagePlus("channels", st);
		t.setRoi(new ij.gui.Roi(0, 0, 15, h));
		final Map<String, Object> in = new HashMap<>();
		in.put("target", t);
		in.put("background_source", "selection");
		in.put("samples", "pixels");
		in.put("method", "kernel");
		in.put("kernel", "poly");
		in.put("degree", 2);
		in.put("coef0", 0.0);
		in.put("landmarks", "60");
		in.put("alpha_mode", "auto");
		final Module m = ContrastivePcaCommandTest.run(in);
		assertFalse(canceled(m), () -> reason(m));
		final ImagePlus scores = (ImagePlus) m.getOutput("score_images");
		assertNotNull(scores);
		assertEquals(w, scores.getWidth());
		final Analysis a = ((ContrastivePcaCommand) m.getDelegateObject()).analysis();
		assertEquals(2 * a.models().size(), scores.getStackSize());
		assertNull(m.getOutput("loadings_plot"));
		assertTrue(String.join(" ", a.diagnostics()).contains("Nyström: 60 landmarks"));
	}

	@Test
	void badKernelSettingsCancelWithAMessage() throws Exception {
		final Map<String, Object> in = new HashMap<>();
		in.put("target", Synthetic.target(20, 23));
		in.put("background", Synthetic.background(20, 24));
		in.put("method", "kernel");
		in.put("gamma", "-1");
		Module m = ContrastivePcaCommandTest.run(in);
		assertTrue(canceled(m));
		assertTrue(reason(m).contains("gamma"), reason(m));
		in.put("gamma", "auto");
		in.put("alpha_mode", "inf");
		m = ContrastivePcaCommandTest.run(in);
		assertTrue(canceled(m));
		assertTrue(reason(m).contains("not defined for kernel"), reason(m));
		in.put("alpha_mode", "auto");
		in.put("landmarks", "lots");
		m = ContrastivePcaCommandTest.run(in);
		assertTrue(canceled(m));
		assertTrue(reason(m).contains("landmarks"), reason(m));
	}
}
