package org.cpca.render;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;
import ij.process.ImageProcessor;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.cpca.core.model.CpcaModel;
import org.cpca.core.Curve;
import org.cpca.core.modelfile.ModelFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Names of models of every method, and curves as plots. */
class MethodViewsTest {

	@TempDir
	Path dir;

	/** A two-feature, one-component model file of the given method and parameters. */
	private CpcaModel model(final String method, final String alpha,
		final String parameters) throws Exception
	{
		final Path f = dir.resolve(method + ".json");
		Files.write(f, ("{\"format\": \"contrastive-pca-model\", \"version\": 1, " +
			"\"method\": \"" + method + "\", \"alpha\": " + alpha + ", \"parameters\": " +
			parameters + ", \"components\": [[1, 0]], \"eigenvalues\": [0.125], " +
			"\"target_variance\": [1], \"background_variance\": [null], " +
			"\"target_total_variance\": 2, \"mean\": [0, 0], \"scale\": null}").getBytes(
				StandardCharsets.UTF_8));
		return ModelFile.read(f);
	}

	@Test
	void titlesAndKeysNameEachMethodBySetting() throws Exception {
		final CpcaModel cpca = model("cpca", "2.5", "{}");
		assertEquals("cPCA α = 2.5", ModelViews.title(cpca));
		assertEquals("alpha_2.5", ModelViews.settingKey(cpca, 0, 1));
		assertEquals("cPC1 α=2.5 λ=0.125", ModelViews.componentLabel(cpca, 0));
		assertEquals("α = 0 (PCA)", ModelViews.title(model("cpca", "0", "{}")));
		assertEquals("PCA", ModelViews.title(model("pca", "null", "{}")));
		final CpcaModel star = model("star", "null", "{\"beta\": 0.5}");
		assertEquals("cPCA* β = 0.5", ModelViews.title(star));
		assertEquals("beta_0.5", ModelViews.settingKey(star, 0, 1));
		assertEquals("cPC1 β=0.5 λ=0.125", ModelViews.componentLabel(star, 0));
		final CpcaModel uca = model("uca", "null", "{\"lambda\": [0.25, 0], \"dual\": 3}");
		assertEquals("UCA λ = 0.25, 0", ModelViews.title(uca));
		assertEquals("uca", ModelViews.settingKey(uca, 0, 1));
		assertEquals("UC1 lambda=0.25,0 λ=0.125", ModelViews.componentLabel(uca, 0));
		assertEquals("cPCA++", ModelViews.title(model("cpcapp", "null", "{}")));
	}

	@Test
	void figuresShowAlphaToThreeDigitsAndFileNamesKeepTheModelIndex() throws Exception {
		// the demo's α once showed as 119.378 and 5.54102 in titles and file names
		assertEquals("119", ModelViews.alphaLabel(119.37812));
		assertEquals("5.54", ModelViews.alphaLabel(5.541020330009492));
		assertEquals("0.00123", ModelViews.alphaLabel(0.0012345));
		assertEquals("1.23e6", ModelViews.alphaLabel(1234567));
		assertEquals("1.00e-5", ModelViews.alphaLabel(1e-5));
		assertEquals("inf", ModelViews.alphaLabel(Double.POSITIVE_INFINITY));
		assertEquals("0", ModelViews.alphaLabel(0));
		final CpcaModel m = model("cpca", "5.541020330009492", "{}");
		assertEquals("cPCA α = 5.54", ModelViews.title(m));
		assertEquals("alpha_2_5.54", ModelViews.settingKey(m, 2, 4));
		// one number form on one figure: not "4.303e+05" beside "8055"
		assertArrayEquals(new String[] { "4.30e5", "8.06e3" }, ModelViews.numbers(430312,
			8055.4));
		assertArrayEquals(new String[] { "7030", "2500", "0.125" }, ModelViews.numbers(7025,
			2504, 0.125));
	}

	@Test
	void curvePlotDrawsEverySeriesInItsColour() {
		final Map<String, double[]> series = new LinkedHashMap<>();
		series.put("LDA accuracy", new double[] { 0.5, 0.7, 0.9, 0.95 });
		series.put("silhouette", new double[] { 0.1, 0.2, 0.4, 0.3 });
		final ImagePlus imp = CurvePlot.render(new Curve("c", "separation against β", "β",
			"value", false, new double[] { 0, 0.3, 0.6, 0.9 }, series));
		assertEquals(ScatterPlot.WIDTH, imp.getWidth());
		final ImageProcessor ip = imp.getProcessor();
		for (int c = 0; c < 2; c++)
			assertTrue(RenderTest.count(ip, Palette.color(c)) > 20, "series " + c);
		final ImagePlus log = CurvePlot.render(new Curve("c", "convergence",
			"samples seen", "alignment", true, new double[] { 10, 100, 1000 }, Map.of(
				"alignment", new double[] { 0.2, 0.6, 0.99 })));
		assertTrue(RenderTest.count(log.getProcessor(), Palette.color(0)) > 20);
	}
}
