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
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.scijava.module.Module;

/** The main command run headless through a real SciJava context. */
class ContrastivePcaCommandTest extends CommandTestBase {

	/**
	 * Runs the command with pre- and postprocessing (as a menu or macro would), every
	 * input given: parameters persist between runs, so a test never relies on defaults.
	 */
	static Module run(final Map<String, Object> inputs) throws Exception {
		final Map<String, Object> all = defaults();
		all.putAll(inputs);
		return start(ContrastivePcaCommand.class, true, all).get();
	}

	/** The documented default of every non-image input. */
	static Map<String, Object> defaults() {
		final Map<String, Object> d = new HashMap<>();
		d.put("background_source", "image");
		d.put("background", null);
		d.put("more_backgrounds", "");
		d.put("stacked", false);
		d.put("k_b", "auto");
		d.put("samples", "slices");
		d.put("method", "cpca");
		d.put("alpha_mode", "auto");
		d.put("alpha", 2.0);
		d.put("beta_mode", "auto");
		d.put("beta", 0.5);
		d.put("epsilon", org.cpca.core.star.CpcaStar.DEFAULT_REGULARIZATION);
		d.put("kernel", "rbf");
		d.put("gamma", "auto");
		d.put("degree", 3);
		d.put("coef0", 1.0);
		d.put("landmarks", "auto");
		d.put("components", 2);
		d.put("standardize", false);
		d.put("whiten", false);
		d.put("bin", 1);
		d.put("missing", "drop");
		d.put("seed", 0L);
		d.put("show_images", true);
		d.put("show_plots", true);
		d.put("show_tables", true);
		d.put("save_model", null);
		return d;
	}

	@Test
	void fixedAlphaShowsEigenImagesPlotsAndTables() throws Exception {
		final ImagePlus t = Synthetic.target(40, 1), b = Synthetic.background(40, 2);
		final float[][] before = Synthetic.pixels(t);
		final Map<String, Object> in = new HashMap<>();
		in.put("target", t);
		in.put("background", b);
		in.put("alpha_mode", "fixed");
		in.put("alpha", 5.0);
		in.put("components", 2);
		final Module m = run(in);
		assertFalse(canceled(m), () -> reason(m));
		final ImagePlus eigen = (ImagePlus) m.getOutput("eigen_images");
		assertNotNull(eigen);
		assertEquals(32, eigen.getBitDepth());
		assertEquals(2, eigen.getStackSize());
		assertEquals(Synthetic.W, eigen.getWidth());
		assertEquals("cPC1 α=5 λ=", eigen.getStack().getSliceLabel(1).substring(0, 11));
		assertEquals(-eigen.getDisplayRangeMax(), eigen.getDisplayRangeMin(), 1e-9);
		assertNull(m.getOutput("score_images"));
		assertNotNull(m.getOutput("scatter_plot"));
		assertNotNull(m.getOutput("scree_plot"));
		final ContrastivePcaCommand c = (ContrastivePcaCommand) m.getDelegateObject();
		final ResultsTable scores = c.scoresTable();
		assertEquals(40, scores.size());
		assertEquals("a", scores.getStringValue("label", 0));
		assertEquals("5", scores.getStringValue("alpha", 0));
		assertTrue(scores.columnExists("cPC1") && scores.columnExists("cPC2"));
		final ResultsTable comps = c.componentsTable();
		assertEquals(2, comps.size());
		for (final String col : new String[] { "eigenvalue", "target_variance",
			"background_variance", "fraction_of_target_variance" })
			assertTrue(comps.columnExists(col), col);
		// the first contrastive direction separates the classes a / b
		double meanA = 0, meanB = 0;
		for (int i = 0; i < 40; i++)
			if (i % 2 == 0) meanA += scores.getValue("cPC1", i) / 20;
			else meanB += scores.getValue("cPC1", i) / 20;
		assertTrue(Math.abs(meanA - meanB) > 1, meanA + " vs " + meanB);
		// eigenvalue = target variance − α · background variance
		assertEquals(comps.getValue("target_variance", 0) - 5 * comps.getValue(
			"background_variance", 0), comps.getValue("eigenvalue", 0), 1e-6 * Math.abs(comps
				.getValue("target_variance", 0)));
		assertArrayEquals(before, Synthetic.pixels(t));
	}

	@Test
	void automaticAlphaGivesOnePanelPerAlpha() throws Exception {
		final Map<String, Object> in = new HashMap<>();
		in.put("target", Synthetic.target(40, 3));
		in.put("background", Synthetic.background(40, 4));
		in.put("alpha_mode", "auto");
		final Module m = run(in);
		assertFalse(canceled(m), () -> reason(m));
		final Analysis a = ((ContrastivePcaCommand) m.getDelegateObject()).analysis();
		final int alphas = a.models().size();
		assertTrue(alphas >= 2);
		assertEquals(0, a.models().get(0).alpha());
		final ImagePlus eigen = (ImagePlus) m.getOutput("eigen_images");
		assertEquals(2 * alphas, eigen.getStackSize());
		final ImagePlus scatter = (ImagePlus) m.getOutput("scatter_plot");
		// a real plot (values readable, axes rescalable), not a flattened picture: the
		// main model's; one such plot per α
		assertTrue(scatter.getProperty(ij.gui.Plot.PROPERTY_KEY) instanceof ij.gui.Plot);
		assertEquals(600, scatter.getWidth());
		final java.util.List<ImagePlus> plots = a.views().scatterPlots();
		assertEquals(alphas, plots.size());
		for (int i = 0; i < alphas; i++) {
			final ij.gui.Plot p = (ij.gui.Plot) plots.get(i).getProperty(
				ij.gui.Plot.PROPERTY_KEY);
			assertNotNull(p, plots.get(i).getTitle());
			// the plotted points are the scores of that α (traces: the legend's title, then
			// one per class in sorted order): the first sample's is among them
			final double[] first = a.models().get(i).targetScores()[0];
			boolean found = false;
			for (int o = 0; o < p.getNumPlotObjects(); o++) {
				final float[][] d = p.getDataObjectArrays(o);
				if (d == null || d[0] == null) continue;
				for (int j = 0; j < d[0].length; j++)
					found |= Math.abs(d[0][j] - first[0]) <= 1e-5 * (1 + Math.abs(first[0])) &&
						Math.abs(d[1][j] - first[1]) <= 1e-5 * (1 + Math.abs(first[1]));
			}
			assertTrue(found, "the first sample's scores at α " + i);
		}
		assertEquals(alphas, plots.stream().map(ImagePlus::getTitle).distinct().count());
		assertEquals(40 * alphas, ((ContrastivePcaCommand) m.getDelegateObject())
			.scoresTable().size());
	}

	@Test
	void pixelsAsSamplesWithSelectionAsBackground() throws Exception {
		// 3 planes; inside the selection only planes 1 and 2 vary (together); outside,
		// plane 3 varies as well
		final int w = 20, h = 20;
		final ij.ImageStack st = new ij.ImageStack(w, h);
		final java.util.Random r = new java.util.Random(7);
		final float[][] p = new float[3][w * h];
		for (int i = 0; i < w * h; i++) {
			final double common = 5 * r.nextGaussian();
			p[0][i] = (float) (common + 0.1 * r.nextGaussian());
			p[1][i] = (float) (common + 0.1 * r.nextGaussian());
			p[2][i] = (float) ((i % w) < 10 ? 0.1 * r.nextGaussian() : 3 * r.nextGaussian());
		}
		for (int s = 0; s < 3; s++)
			st.addSlice("ch" + (s + 1), new ij.process.FloatProcessor(w, h, p[s]));
		final ImagePlus t = new ImagePlus("channels", st);
		t.getCalibration().pixelWidth = 0.5;
		t.setRoi(new ij.gui.Roi(0, 0, 10, h));
		final Map<String, Object> in = new HashMap<>();
		in.put("target", t);
		in.put("background_source", "selection");
		in.put("samples", "pixels");
		in.put("alpha_mode", "fixed");
		in.put("alpha", 10.0);
		in.put("components", 1);
		final Module m = run(in);
		assertFalse(canceled(m), () -> reason(m));
		final ImagePlus scoresImp = (ImagePlus) m.getOutput("score_images");
		assertNotNull(scoresImp);
		assertEquals(w, scoresImp.getWidth());
		assertEquals(1, scoresImp.getStackSize());
		assertEquals(0.5, scoresImp.getCalibration().pixelWidth);
		assertNull(m.getOutput("eigen_images"));
		assertNotNull(m.getOutput("loadings_plot"));
		// the contrastive direction is plane 3
		final double[] v = ((ContrastivePcaCommand) m.getDelegateObject()).analysis()
			.solution().linearModels().get(0).components()[0];
		assertEquals(1, Math.abs(v[2]), 1e-2);
		assertNotNull(t.getRoi(), "the input's selection is kept");
		// the same region given as a mask image instead of a selection
		final ij.process.ByteProcessor mask = new ij.process.ByteProcessor(w, h);
		mask.setValue(255);
		mask.setRoi(0, 0, 10, h);
		mask.fill();
		t.deleteRoi();
		in.put("background_source", "mask");
		in.put("background_mask", new ImagePlus("mask", mask));
		final Module withMask = run(in);
		assertFalse(canceled(withMask), () -> reason(withMask));
		final double[] u = ((ContrastivePcaCommand) withMask.getDelegateObject()).analysis()
			.solution().linearModels().get(0).components()[0];
		assertArrayEquals(v, u, 1e-9);
		in.put("background_mask", new ImagePlus("small", new ij.process.ByteProcessor(5,
			5)));
		final Module wrong = run(in);
		assertTrue(canceled(wrong));
		assertTrue(reason(wrong).contains("target's size"), reason(wrong));
	}

	@Test
	void pcaNeedsNoBackground() throws Exception {
		final Map<String, Object> in = new HashMap<>();
		in.put("target", Synthetic.target(30, 5));
		in.put("method", "pca");
		final Module m = run(in);
		assertFalse(canceled(m), () -> reason(m));
		assertEquals("PC1 λ=", ((ImagePlus) m.getOutput("eigen_images")).getStack()
			.getSliceLabel(1).substring(0, 6));
	}

	@Test
	void errorsCancelWithAMessageAndChangeNothing() throws Exception {
		final ImagePlus t = Synthetic.target(20, 1);
		final float[][] before = Synthetic.pixels(t);
		final Map<String, Object> in = new HashMap<>();
		in.put("target", t);
		Module m = run(in);
		assertTrue(canceled(m));
		assertTrue(reason(m).contains("needs a background"), reason(m));

		final ImagePlus small = new ImagePlus("small", new ij.process.FloatProcessor(5, 5));
		in.put("background", small);
		m = run(in);
		assertTrue(canceled(m));
		assertTrue(reason(m).contains("same width × height"), reason(m));

		in.put("background", Synthetic.background(20, 2));
		in.put("background_source", "selection");
		m = run(in);
		assertTrue(canceled(m));
		assertTrue(reason(m).contains("samples=pixels"), reason(m));

		in.put("background_source", "image");
		in.put("components", 500);
		m = run(in);
		assertTrue(canceled(m));
		assertTrue(reason(m).contains("choose k"), reason(m));

		// a copy of the target chosen as background (another window, the same pixels)
		in.put("components", 2);
		in.put("background", t.duplicate());
		m = run(in);
		assertTrue(canceled(m));
		assertTrue(reason(m).contains("holds the same values as"), reason(m));
		assertNull(m.getOutput("eigen_images"));
		assertArrayEquals(before, Synthetic.pixels(t));
	}
}
