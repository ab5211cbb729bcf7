package org.cpca.command;

import org.cpca.core.run.Settings;

import org.cpca.analysis.Analysis;
import org.cpca.analysis.AnalysisRequest;
import org.cpca.analysis.Samples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;
import ij.ImageStack;
import ij.gui.Overlay;
import ij.gui.Roi;
import ij.macro.Interpreter;
import ij.process.FloatProcessor;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.cpca.core.model.CpcaModel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.scijava.module.Module;

/**
 * Contrastive PCA... with UCA and rPCA and several backgrounds, through a real SciJava
 * context: further background images by title, and ROIs of the target's overlay.
 */
class UcaCommandTest extends CommandTestBase {

	private static final int W = 12, H = 12;

	/** Open images are looked up by title: batch mode holds them in this headless JVM. */
	private static void open(final ImagePlus... images) {
		Interpreter.batchMode = true;
		for (final ImagePlus imp : images)
			Interpreter.addBatchModeImage(imp);
	}

	@AfterEach
	void closeAll() {
		for (final int id : Interpreter.getBatchModeImageIDs())
			Interpreter.removeBatchModeImage(ij.WindowManager.getImage(id));
		Interpreter.batchMode = false;
	}

	/** Slices: Σ_q sd_q z_q pattern_q + noise. */
	private static ImagePlus stack(final String title, final Random r,
		final float[][] pattern, final double... sd)
	{
		final ImageStack st = new ImageStack(W, H);
		for (int s = 0; s < 30; s++) {
			final float[] px = new float[W * H];
			for (int q = 0; q < pattern.length; q++) {
				final double z = sd[q] * r.nextGaussian();
				for (int i = 0; i < px.length; i++)
					px[i] += (float) (z * pattern[q][i]);
			}
			for (int i = 0; i < px.length; i++)
				px[i] += (float) (0.05 * r.nextGaussian());
			st.addSlice(new FloatProcessor(W, H, px));
		}
		return new ImagePlus(title, st);
	}

	private static Map<String, Object> inputs() {
		final Map<String, Object> in = new HashMap<>();
		in.put("components", 1);
		in.put("show_images", true);
		in.put("show_plots", false);
		in.put("show_tables", false);
		return in;
	}

	private static double cosine(final double[] a, final float[] b) {
		double d = 0, na = 0, nb = 0;
		for (int i = 0; i < a.length; i++) {
			d += a[i] * b[i];
			na += a[i] * a[i];
			nb += b[i] * b[i];
		}
		return Math.abs(d) / Math.sqrt(na * nb);
	}

	@Test
	void ucaWithFurtherBackgroundImagesByTitle() throws Exception {
		final Random r = new Random(3);
		final float[][] pattern = new float[4][W * H];
		for (final float[] p : pattern)
			for (int i = 0; i < p.length; i++)
				p[i] = (float) r.nextGaussian();
		final ImagePlus t = stack("target", r, pattern, 1, 6, 5, 4);
		final ImagePlus b1 = stack("b1", r, pattern, 0, 6, 0, 0);
		final ImagePlus b2 = stack("b 2.tif", r, pattern, 0, 0, 5, 0);
		final ImagePlus b3 = stack("b3.tif", r, pattern, 0, 0, 0, 4);
		open(t, b1, b2, b3);
		final Map<String, Object> in = inputs();
		in.put("target", t);
		in.put("background", b1);
		in.put("more_backgrounds", "b 2.tif, b3.tif");
		in.put("method", "uca");
		final Module m = ContrastivePcaCommandTest.run(in);
		assertFalse(canceled(m), () -> reason(m));
		final CpcaModel model = ((ContrastivePcaCommand) m.getDelegateObject()).analysis()
			.solution().linearModels().get(0);
		assertEquals("uca", model.method());
		assertEquals(3, ((double[]) model.parameters().get("lambda")).length);
		assertTrue(cosine(model.components()[0], pattern[0]) > 0.95);
		assertNotNull(m.getOutput("eigen_images"));
		assertTrue(model.diagnostics().stream().anyMatch(s -> s.contains("UCA: λ")));
		// stacked: one pooled background
		in.put("stacked", true);
		final Module s = ContrastivePcaCommandTest.run(in);
		assertFalse(canceled(s), () -> reason(s));
		final CpcaModel pooled = ((ContrastivePcaCommand) s.getDelegateObject()).analysis()
			.solution().linearModels().get(0);
		assertEquals(1, ((double[]) pooled.parameters().get("lambda")).length);
		assertEquals(3.0, (Double) pooled.parameters().get("stacked"));
		// rPCA with one background component removed from each
		in.put("stacked", false);
		in.put("method", "rpca");
		in.put("k_b", "1");
		final Module rp = ContrastivePcaCommandTest.run(in);
		assertFalse(canceled(rp), () -> reason(rp));
		final CpcaModel rm = ((ContrastivePcaCommand) rp.getDelegateObject()).analysis()
			.solution().linearModels().get(0);
		assertArrayEquals(new double[] { 1, 1, 1 }, (double[]) rm.parameters().get("k_b"),
			0);
		assertTrue(cosine(rm.components()[0], pattern[0]) > 0.95);
		// a title that is not open
		in.put("more_backgrounds", "b3.tif,nope.tif");
		final Module bad = ContrastivePcaCommandTest.run(in);
		assertTrue(canceled(bad));
		assertTrue(reason(bad).contains("'nope.tif'"), reason(bad));
		// cPCA with several backgrounds says to use UCA
		in.put("more_backgrounds", "b3.tif");
		in.put("method", "cpca");
		in.put("alpha_mode", "fixed");
		final Module cpca = ContrastivePcaCommandTest.run(in);
		assertTrue(canceled(cpca));
		assertTrue(reason(cpca).contains("uca"), reason(cpca));
	}

	/**
	 * Pixels as samples, 4 planes: in region 1 planes 1–2 vary together, in region 2
	 * planes 3–4; elsewhere plane 1 alone varies too (the target's own direction).
	 */
	static ImagePlus channels(final Random r) {
		final ImageStack st = new ImageStack(W, H);
		final float[][] p = new float[4][W * H];
		for (int i = 0; i < W * H; i++) {
			final int x = i % W;
			final double a = 4 * r.nextGaussian(), b = 4 * r.nextGaussian();
			final double own = x >= 8 ? 2 * r.nextGaussian() : 0;
			p[0][i] = (float) (a + own + 0.05 * r.nextGaussian());
			p[1][i] = (float) (a + 0.05 * r.nextGaussian());
			p[2][i] = (float) (b + 0.05 * r.nextGaussian());
			p[3][i] = (float) (-b + 0.05 * r.nextGaussian());
		}
		for (int c = 0; c < 4; c++)
			st.addSlice("ch" + (c + 1), new FloatProcessor(W, H, p[c]));
		return new ImagePlus("channels", st);
	}

	@Test
	void overlayRoisAreSeparateBackgrounds() throws Exception {
		final ImagePlus t = channels(new Random(4));
		final Overlay o = new Overlay();
		final Roi left = new Roi(0, 0, 4, H), middle = new Roi(4, 0, 4, H);
		left.setName("left");
		middle.setName("middle");
		o.add(left);
		o.add(middle);
		t.setOverlay(o);
		final Map<String, Object> in = inputs();
		in.put("target", t);
		in.put("background_source", "overlay");
		in.put("samples", "pixels");
		in.put("method", "uca");
		in.put("standardize", false);
		final Module m = ContrastivePcaCommandTest.run(in);
		assertFalse(canceled(m), () -> reason(m));
		final ContrastivePcaCommand c = (ContrastivePcaCommand) m.getDelegateObject();
		final CpcaModel model = c.analysis().solution().linearModels().get(0);
		assertEquals(2, ((double[]) model.parameters().get("lambda")).length);
		assertNotNull(m.getOutput("score_images"));
		assertEquals(W * H, c.analysis().targetData().samples());
		assertEquals("background 1 (left)", c.analysis().targetData().labels().get(0));
		assertEquals("outside ROIs", c.analysis().targetData().labels().get(W - 1));
		// the target's own direction is mostly plane 1 (UCA's constraint leaves some of the
		// backgrounds' variance in it)
		final double[] v = model.components()[0];
		assertTrue(Math.abs(v[0]) > 0.8, java.util.Arrays.toString(v));
		// a target without overlay, slices with ROI backgrounds: messages
		t.setOverlay(null);
		final Module none = ContrastivePcaCommandTest.run(in);
		assertTrue(canceled(none));
		assertTrue(reason(none).contains("no overlay ROIs"), reason(none));
		t.setOverlay(o);
		in.put("samples", "slices");
		final Module slices = ContrastivePcaCommandTest.run(in);
		assertTrue(canceled(slices));
		assertTrue(reason(slices).contains("ROIs cannot be backgrounds"), reason(slices));
	}

	@Test
	void requestTakesRoisDirectly() {
		// the same regions given as a list (what the ROI Manager source hands over)
		final ImagePlus t = channels(new Random(5));
		final Analysis a = Analysis.run(new AnalysisRequest().target(t).samples(
			Samples.PIXELS).settings(Settings.builder().set("method", "rpca").set("k_b", "1,1")
				.set("components", 1).build())
			.backgroundsFromRois(List.of(new Roi(0, 0, 4, H), new Roi(4, 0, 4, H))),
			org.cpca.core.Progress.NONE);
		final CpcaModel m = a.solution().linearModels().get(0);
		assertArrayEquals(new double[] { 1, 1 }, (double[]) m.parameters().get("k_b"), 0);
		// removing the (a, a) and (b, −b) directions leaves plane 1 − plane 2 and 3 + 4:
		// the target's own variance lies along plane 1 − plane 2
		final double[] v = m.components()[0];
		assertEquals(1 / Math.sqrt(2), Math.abs(v[0]), 0.05);
		assertEquals(-v[0], v[1], 0.05);
	}
}
