package org.cpca.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;
import ij.gui.Plot;
import ij.process.ColorProcessor;

import java.awt.Color;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.cpca.analysis.Analysis;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.model.FittedModel;
import org.cpca.render.ModelViews;
import org.cpca.render.PlotFiles;
import org.junit.jupiter.api.Test;
import org.scijava.module.Module;

/**
 * The Fiji figures of Contrastive PCA... (issue 16): the eigen-images with a colour bar,
 * the scree plot of the full spectrum, the α = 0 panel's axes named PC1/PC2, and Explore
 * Alpha's status line naming each eigenvalue. Run through a real SciJava context on
 * real ImageJ images.
 */
class FigureOutputsTest extends CommandTestBase {

	private static Module fit(final String alphaMode) throws Exception {
		final Map<String, Object> in = new HashMap<>();
		in.put("target", Synthetic.target(40, 5));
		in.put("background", Synthetic.background(40, 6));
		in.put("alpha_mode", alphaMode);
		in.put("alpha", 3.0);
		final Module m = ContrastivePcaCommandTest.run(in);
		assertFalse(canceled(m), () -> reason(m));
		return m;
	}

	@Test
	void eigenImagesComeAlsoAsAFigureWithAColourBar() throws Exception {
		final Module m = fit("fixed");
		final ImagePlus eigen = (ImagePlus) m.getOutput("eigen_images");
		final ImagePlus figure = (ImagePlus) m.getOutput("eigen_image_figure");
		assertNotNull(figure);
		assertEquals("Eigen-image figure of target", figure.getTitle());
		assertEquals(ImagePlus.COLOR_RGB, figure.getType());
		assertTrue(figure.getWidth() > 2 * eigen.getWidth());
		// the colour bar: the table's ends (blue, red) in a column right of the tiles
		// (a column of pixels holding both, among the last 160: the bar's column is as wide
		// as its numbers or its title)
		final ColorProcessor cp = (ColorProcessor) figure.getProcessor();
		int blue = 0, red = 0;
		for (int x = figure.getWidth() - 160; x < figure.getWidth() && (blue <= 5 ||
			red <= 5); x++)
		{
			blue = 0;
			red = 0;
			for (int y = 0; y < figure.getHeight(); y++) {
				final Color c = new Color(cp.getPixel(x, y));
				if (c.getBlue() > 150 && c.getRed() < 100) blue++;
				if (c.getRed() > 150 && c.getBlue() < 100) red++;
			}
		}
		assertTrue(blue > 5 && red > 5, "no colour bar: blue " + blue + ", red " + red);
	}

	@Test
	void screePlotShowsTheFullSpectrumBehindTheKeptComponents() throws Exception {
		final Module m = fit("fixed");
		final FittedModel model = ((ContrastivePcaCommand) m.getDelegateObject()).analysis()
			.primary();
		final Plot p = PlotFiles.plotOf((ImagePlus) m.getOutput("scree_plot"));
		assertNotNull(p);
		float[][] spectrum = null, kept = null;
		for (int i = 0; i < p.getNumPlotObjects(); i++) {
			final float[][] o = p.getDataObjectArrays(i);
			if (o == null) continue;
			if (o[0].length == 2 && o[0][0] == 1) kept = o;
			else if (o[0].length > 2) spectrum = o;
		}
		assertNotNull(kept, "the kept components");
		assertNotNull(spectrum, "the full spectrum");
		// more eigenvalues than components: the positive ones of C_t − αC_b in the space
		assertTrue(spectrum[0].length > 10, "" + spectrum[0].length);
		assertTrue(p.getLimits()[1] >= spectrum[0].length);
		// its first k are the model's eigenvalues, and it falls, staying above 0
		final double[] ev = model.eigenvalues();
		for (int c = 0; c < ev.length; c++)
			assertEquals(ev[c], spectrum[1][c], 1e-4 * Math.abs(ev[0]));
		for (int i = 1; i < spectrum[1].length; i++)
			assertTrue(spectrum[1][i] <= spectrum[1][i - 1] + 1e-3 * Math.abs(ev[0]));
		assertTrue(spectrum[1][spectrum[1].length - 1] > 0);
		// the negative end (α = 3 subtracts more background than there is target in
		// some directions) is counted in the title, not drawn
		final String title = String.join(" ", texts(p));
		assertTrue(title.matches(".*spectrum \\(the (first )?" + spectrum[0].length +
			"( > 0)? of \\d+\\) kept \\(k = 2\\).*"), title);
	}

	/** The text labels of a plot (its title among them). */
	private static java.util.List<String> texts(final Plot p) {
		final java.util.List<String> out = new java.util.ArrayList<>();
		final String svg = org.cpca.render.PlotSvg.svg(p, 600, 450);
		final java.util.regex.Matcher m = java.util.regex.Pattern.compile(">([^<>]+)</text>")
			.matcher(svg);
		while (m.find())
			out.add(m.group(1).replace("&gt;", ">").replace("&lt;", "<").replace("&amp;", "&"));
		return out;
	}

	@Test
	void thePcaPanelOfAutomaticAlphaIsLabelledPc() throws Exception {
		final Module m = fit("auto");
		final Analysis a = ((ContrastivePcaCommand) m.getDelegateObject()).analysis();
		final List<ImagePlus> plots = a.views().scatterPlots();
		assertEquals(0, a.models().get(0).alpha());
		final Plot pca = PlotFiles.plotOf(plots.get(0));
		assertEquals("PC1", pca.getLabel('x'));
		assertEquals("PC2", pca.getLabel('y'));
		final Plot contrastive = PlotFiles.plotOf(plots.get(1));
		assertEquals("cPC1", contrastive.getLabel('x'));
		assertEquals("cPC2", contrastive.getLabel('y'));
	}

	@Test
	void exploreAlphasStatusNamesEachEigenvalue() throws Exception {
		final Module m = fit("fixed");
		final CpcaModel model = (CpcaModel) ((ContrastivePcaCommand) m.getDelegateObject())
			.analysis().primary();
		final String s = ExploreAlphaCommand.label(model);
		assertTrue(s.startsWith(ModelViews.title(model) + ": cPC1 λ = "), s);
		assertTrue(s.contains(", cPC2 λ = "), s);
	}
}
