package org.cpca.command;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scijava.module.Module;

/** Apply Model... headless through a SciJava context. */
class ApplyModelCommandTest extends CommandTestBase {

	private static Module apply(final Path model, final ImagePlus input)
		throws Exception
	{
		final Map<String, Object> in = new HashMap<>();
		in.put("model", model.toFile());
		in.put("input", input);
		in.put("show_reconstruction", true);
		in.put("show_background_removed", true);
		in.put("show_scores", true);
		return start(ApplyModelCommand.class, true, in).get();
	}

	@Test
	void backgroundPcaIsRemovedFromTheTarget(@TempDir final Path tmp) throws Exception {
		final ImagePlus t = Synthetic.target(40, 21), b = Synthetic.background(40, 22);
		final float[][] before = Synthetic.pixels(t);
		// PCA of the background: its two strong directions
		final Map<String, Object> fit = ContrastivePcaCommandTest.defaults();
		fit.put("target", b);
		fit.put("method", "pca");
		fit.put("save_model", tmp.resolve("background-pca.json").toFile());
		fit.put("show_images", false);
		fit.put("show_plots", false);
		fit.put("show_tables", false);
		assertFalse(canceled(start(ContrastivePcaCommand.class, true, fit).get()));
		assertTrue(Files.isRegularFile(tmp.resolve("background-pca.json")));

		final Module m = apply(tmp.resolve("background-pca.json"), t);
		assertFalse(canceled(m), () -> reason(m));
		final ImagePlus recon = (ImagePlus) m.getOutput("reconstruction");
		final ImagePlus removed = (ImagePlus) m.getOutput("background_removed");
		assertEquals(40, recon.getStackSize());
		assertEquals(40, removed.getStackSize());
		assertEquals(32, removed.getBitDepth());
		assertEquals(40, ((ApplyModelCommand) m.getDelegateObject()).scoresTable().size());
		// the background-removed stack has no component along the model's directions
		final Module again = apply(tmp.resolve("background-pca.json"), removed);
		final ij.measure.ResultsTable s = ((ApplyModelCommand) again.getDelegateObject())
			.scoresTable();
		final ij.measure.ResultsTable s0 = ((ApplyModelCommand) m.getDelegateObject())
			.scoresTable();
		for (int i = 0; i < 40; i++) {
			assertEquals(0, s.getValue("PC1", i), 1e-3 * Math.abs(s0.getValue("PC1", i)) +
				1e-3);
			assertEquals(0, s.getValue("PC2", i), 1e-3 * Math.abs(s0.getValue("PC2", i)) +
				1e-3);
		}
		// and most of the target's variance (the shared texture) is gone
		assertTrue(variance(removed) < 0.2 * variance(t), variance(removed) + " vs " +
			variance(t));
		assertArrayEquals(before, Synthetic.pixels(t));
	}

	private static double variance(final ImagePlus imp) {
		final float[][] px = Synthetic.pixels(imp);
		double total = 0;
		for (int j = 0; j < px[0].length; j++) {
			double mean = 0;
			for (final float[] p : px)
				mean += p[j] / px.length;
			for (final float[] p : px)
				total += (p[j] - mean) * (p[j] - mean);
		}
		return total;
	}

	@Test
	void pixelModelGivesScoreImages(@TempDir final Path tmp) throws Exception {
		final ImagePlus t = Synthetic.target(4, 23), b = Synthetic.background(4, 24);
		final Map<String, Object> fit = ContrastivePcaCommandTest.defaults();
		fit.put("target", t);
		fit.put("background", b);
		fit.put("samples", "pixels");
		fit.put("alpha_mode", "fixed");
		fit.put("alpha", 1.0);
		fit.put("save_model", tmp.resolve("px.json").toFile());
		final Module f = start(ContrastivePcaCommand.class, true, fit).get();
		assertFalse(canceled(f), () -> reason(f));
		final Module m = apply(tmp.resolve("px.json"), t);
		assertFalse(canceled(m), () -> reason(m));
		final ImagePlus scores = (ImagePlus) m.getOutput("score_images");
		assertNotNull(scores);
		assertEquals(2, scores.getStackSize());
		assertEquals(4, ((ImagePlus) m.getOutput("background_removed")).getStackSize());
	}

	@Test
	void kernelModelGivesScoresOnly(@TempDir final Path tmp) throws Exception {
		final ImagePlus t = Synthetic.target(30, 27), b = Synthetic.background(30, 28);
		final float[][] before = Synthetic.pixels(t);
		final Map<String, Object> fit = ContrastivePcaCommandTest.defaults();
		fit.put("target", t);
		fit.put("background", b);
		fit.put("method", "kernel");
		fit.put("gamma", "1e-6");
		fit.put("alpha_mode", "fixed");
		fit.put("alpha", 10.0);
		fit.put("show_images", false);
		fit.put("show_plots", false);
		fit.put("save_model", tmp.resolve("kernel.json").toFile());
		final Module f = start(ContrastivePcaCommand.class, true, fit).get();
		assertFalse(canceled(f), () -> reason(f));
		final ij.measure.ResultsTable trained = ((ContrastivePcaCommand) f
			.getDelegateObject()).scoresTable();

		final Module m = apply(tmp.resolve("kernel.json"), t);
		assertFalse(canceled(m), () -> reason(m));
		assertNull(m.getOutput("reconstruction"));
		assertNull(m.getOutput("background_removed"));
		final ij.measure.ResultsTable s = ((ApplyModelCommand) m.getDelegateObject())
			.scoresTable();
		assertEquals(30, s.size());
		// the training target, projected again, has its training scores
		double scale = 0;
		for (int i = 0; i < 30; i++)
			scale = Math.max(scale, Math.abs(trained.getValue("kPC1", i)));
		for (int i = 0; i < 30; i++)
			for (final String c : new String[] { "kPC1", "kPC2" })
				assertEquals(trained.getValue(c, i), s.getValue(c, i), 1e-6 * scale, c +
					" of sample " + i);
		assertArrayEquals(before, Synthetic.pixels(t));
	}

	@Test
	void wrongInputsCancelWithAMessage(@TempDir final Path tmp) throws Exception {
		final ImagePlus t = Synthetic.target(10, 25);
		Module m = apply(tmp.resolve("missing.json"), t);
		assertTrue(canceled(m));
		assertTrue(reason(m).contains("does not exist"), reason(m));
		Files.write(tmp.resolve("bad.json"), "{ not json".getBytes("UTF-8"));
		m = apply(tmp.resolve("bad.json"), t);
		assertTrue(canceled(m));
		assertTrue(reason(m).contains("bad.json"), reason(m));

		final Map<String, Object> fit = ContrastivePcaCommandTest.defaults();
		fit.put("target", t);
		fit.put("background", Synthetic.background(10, 26));
		fit.put("alpha_mode", "fixed");
		fit.put("save_model", tmp.resolve("m.json").toFile());
		assertFalse(canceled(start(ContrastivePcaCommand.class, true, fit).get()));
		m = apply(tmp.resolve("m.json"), new ImagePlus("other", new ij.process.FloatProcessor(
			7, 7)));
		assertTrue(canceled(m));
		assertTrue(reason(m).contains("same width × height"), reason(m));
	}
}
