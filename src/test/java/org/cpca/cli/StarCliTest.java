package org.cpca.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import org.cpca.core.model.CpcaModel;
import org.cpca.core.modelfile.ModelFile;
import org.cpca.generate.TestImageGenerator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cpca fit --method star} and {@code --method cpcapp} end to end. */
class StarCliTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	@TempDir
	static Path shared;
	static Path images;

	@TempDir
	Path dir;

	@BeforeAll
	static void makeImages() throws Exception {
		images = shared.resolve("images");
		TestImageGenerator.write(TestImageGenerator.generate(TestImageGenerator.Config
			.defaults().withSlices(60, 60).withSize(16, 16)), images);
	}

	private static JsonObject json(final Path p) throws Exception {
		return JsonParser.parseString(new String(Files.readAllBytes(p),
			StandardCharsets.UTF_8)).getAsJsonObject();
	}

	private static String[] fitArgs(final Path out, final String... extra) {
		final List<String> a = new ArrayList<>(Arrays.asList("fit", "--target", images
			.resolve("target.tif").toString(), "--background", images.resolve(
				"background.tif").toString(), "--labels", images.resolve("target-labels.txt")
					.toString(), "--out", out.toString()));
		a.addAll(Arrays.asList(extra));
		return a.toArray(new String[0]);
	}

	@Test
	void starAtFixedBetaWritesBetaAndTheSeparationCurve() throws Exception {
		final Path out = dir.resolve("star");
		final Object[] r = CliTest.cpca(fitArgs(out, "--method", "star", "--beta", "0.5"));
		assertEquals(0, r[0], r[2].toString());
		assertTrue(r[1].toString().contains("cPCA* β = 0.5"), r[1].toString());
		final JsonObject s = json(out.resolve("summary.json"));
		assertEquals("star", s.get("method").getAsString());
		assertTrue(s.get("alpha_mode").isJsonNull());
		assertEquals("fixed", s.get("beta_mode").getAsString());
		assertEquals("reduced", s.get("space").getAsString());
		final JsonArray results = s.getAsJsonArray("results");
		assertEquals(1, results.size());
		final JsonObject e = results.get(0).getAsJsonObject();
		assertTrue(e.get("alpha").isJsonNull());
		assertEquals(0.5, e.get("beta").getAsDouble());
		assertTrue(e.getAsJsonObject("separation").has("lda_accuracy"));
		// the separation along the whole β grid: 0, 40 values, 1
		final JsonObject curve = s.getAsJsonObject("separation_vs_beta");
		assertEquals(42, curve.getAsJsonArray("beta").size());
		assertEquals(0, curve.getAsJsonArray("beta").get(0).getAsDouble());
		assertEquals(1, curve.getAsJsonArray("beta").get(41).getAsDouble());
		assertEquals(42, curve.getAsJsonArray("lda_accuracy").size());
		assertEquals(42, curve.getAsJsonArray("symmetrized_kl").size());
		final List<String> csv = Files.readAllLines(out.resolve(
			"separation_vs_beta_lda.csv"));
		assertEquals("beta,lda_accuracy", csv.get(0));
		assertEquals(43, csv.size());
		assertTrue(Files.size(out.resolve("plots/separation_vs_beta_lda.png")) > 1000);
		assertTrue(Files.size(out.resolve("plots/separation_vs_beta_kl.png")) > 1000);
		final List<String> scores = Files.readAllLines(out.resolve("scores.csv"));
		assertEquals("sample,label,model,alpha,beta,cPC1,cPC2", scores.get(0));
		assertTrue(scores.get(1).startsWith("1,"), scores.get(1));
		assertTrue(scores.get(1).contains(",,0.5,"), scores.get(1));
		final CpcaModel m = ModelFile.read(out.resolve("model.json"));
		assertEquals("star", m.method());
		assertEquals(0.5, m.parameters().get("beta"));
		assertTrue(Files.exists(out.resolve("components.tif")));
		// PCA mixes the digits, cPCA* separates them along the upper half of the grid
		final JsonArray lda = curve.getAsJsonArray("lda_accuracy");
		int separated = 0;
		for (int i = 1; i < 42; i++)
			if (lda.get(i).getAsDouble() >= 0.9) separated++;
		assertTrue(lda.get(0).getAsDouble() < 0.9, lda.toString());
		assertTrue(separated >= 20, lda.toString());
		assertTrue(lda.get(41).getAsDouble() >= 0.9, lda.toString());
	}

	@Test
	void automaticBetaReturnsZeroFirstAndOneModelFilePerBeta() throws Exception {
		final Path out = dir.resolve("auto");
		final Object[] r = CliTest.cpca(fitArgs(out, "--method", "star", "--beta-count",
			"12", "--betas-returned", "3"));
		assertEquals(0, r[0], r[2].toString());
		final JsonObject s = json(out.resolve("summary.json"));
		assertEquals("auto", s.get("beta_mode").getAsString());
		final JsonObject sel = s.getAsJsonObject("beta_selection");
		assertEquals(14, sel.getAsJsonArray("grid").size());
		assertEquals(14, sel.getAsJsonArray("clusters").size());
		final JsonArray betas = sel.getAsJsonArray("betas");
		final JsonArray results = s.getAsJsonArray("results");
		assertEquals(betas.size(), results.size());
		assertTrue(results.size() >= 2 && results.size() <= 3);
		assertEquals(0, results.get(0).getAsJsonObject().get("beta").getAsDouble());
		for (int i = 0; i < results.size(); i++) {
			final JsonObject e = results.get(i).getAsJsonObject();
			assertTrue(e.get("alpha").isJsonNull());
			assertEquals(betas.get(i).getAsDouble(), e.get("beta").getAsDouble());
			assertTrue(Files.exists(out.resolve("models/beta_" + i + "_" + org.cpca.render
				.ModelViews.alphaLabel(e.get("beta").getAsDouble()) + ".json")));
		}
		// model.json is the default model: with labels, the best-separating β > 0
		final double saved = (Double) ModelFile.read(out.resolve("model.json")).parameters()
			.get("beta");
		int best = 1;
		for (int i = 2; i < results.size(); i++)
			if (lda(results, i) > lda(results, best)) best = i;
		assertEquals(betas.get(best).getAsDouble(), saved);
	}

	@Test
	void cpcaPlusPlusRecordsItsRegularisation() throws Exception {
		final Path out = dir.resolve("pp");
		final Object[] r = CliTest.cpca(fitArgs(out, "--method", "cpcapp", "-k", "3"));
		assertEquals(0, r[0], r[2].toString());
		final JsonObject s = json(out.resolve("summary.json"));
		assertEquals("cpcapp", s.get("method").getAsString());
		// 256 pixels, 60 background slices: C_b is singular, so it was regularised
		assertTrue(s.get("regularization").getAsDouble() > 0);
		final JsonObject e = s.getAsJsonArray("results").get(0).getAsJsonObject();
		assertTrue(e.get("alpha").isJsonNull());
		assertFalse(e.has("beta"));
		assertEquals(s.get("regularization").getAsDouble(), e.get("regularization")
			.getAsDouble());
		assertEquals(3, e.getAsJsonArray("eigenvalues").size());
		assertTrue(s.getAsJsonArray("diagnostics").toString().contains("regularised"));
		assertEquals("cpcapp", ModelFile.read(out.resolve("model.json")).method());
		assertEquals("sample,label,model,alpha,regularization,cPC1,cPC2,cPC3", Files.readAllLines(
			out.resolve("scores.csv")).get(0));
	}

	@Test
	void epsilonSetsTheRegularisation() throws Exception {
		// δ = ε·trace(C_b)/d: the same data with ε 1000 times larger gives δ 1000 times
		// larger, and cPCA* at β = 1 regularises the same way
		final Path small = dir.resolve("e6"), large = dir.resolve("e3"), star = dir.resolve(
			"s3");
		assertEquals(0, CliTest.cpca(fitArgs(small, "--method", "cpcapp", "--epsilon",
			"1e-6"))[0]);
		assertEquals(0, CliTest.cpca(fitArgs(large, "--method", "cpcapp", "--epsilon",
			"1e-3"))[0]);
		assertEquals(0, CliTest.cpca(fitArgs(star, "--method", "star", "--beta", "1",
			"--epsilon", "1e-3"))[0]);
		final double d6 = json(small.resolve("summary.json")).get("regularization")
			.getAsDouble();
		final double d3 = json(large.resolve("summary.json")).get("regularization")
			.getAsDouble();
		assertEquals(1000, d3 / d6, 1e-9);
		assertEquals(d3, json(star.resolve("summary.json")).getAsJsonArray("results").get(0)
			.getAsJsonObject().get("regularization").getAsDouble(), 1e-12 * d3);
		// auto is the default, spelled out: the Ledoit–Wolf ridge, as without the flag
		final Path auto = dir.resolve("auto"), omitted = dir.resolve("omitted");
		assertEquals(0, CliTest.cpca(fitArgs(auto, "--method", "cpcapp", "--epsilon",
			"auto"))[0]);
		assertEquals(0, CliTest.cpca(fitArgs(omitted, "--method", "cpcapp"))[0]);
		final double dAuto = json(auto.resolve("summary.json")).get("regularization")
			.getAsDouble();
		assertTrue(dAuto > 0 && dAuto != d6 && dAuto != d3, "Ledoit–Wolf ridge " + dAuto);
		assertEquals(dAuto, json(omitted.resolve("summary.json")).get("regularization")
			.getAsDouble(), 0);
		for (final String[] bad : new String[][] { { "cpcapp", "-1e-6",
			"--epsilon must be auto (or 0) or > 0" }, { "cpca", "1e-3",
				"--epsilon applies to --method star and cpcapp" } })
		{
			final Path out = dir.resolve("bad-epsilon");
			final Object[] r = CliTest.cpca(fitArgs(out, "--method", bad[0], "--epsilon",
				bad[1]));
			assertEquals(1, r[0]);
			assertTrue(r[2].toString().contains(bad[2]), r[2].toString());
			assertFalse(Files.exists(out));
		}
	}

	@Test
	void badBetaSaysWhatToDo() {
		for (final String[] bad : new String[][] { { "1.5", "--beta must be in [0, 1]" }, {
			"-0.2", "--beta must be in [0, 1]" }, { "NaN", "is not a number" }, {
				"abc", "is not a number" } })
		{
			final Path out = dir.resolve("bad");
			final Object[] r = CliTest.cpca(fitArgs(out, "--method", "star", "--beta",
				bad[0]));
			assertEquals(1, r[0]);
			assertTrue(r[2].toString().contains(bad[1]), r[2].toString());
			assertFalse(Files.exists(out));
		}
		final Object[] count = CliTest.cpca(fitArgs(dir.resolve("c"), "--method", "star",
			"--betas-returned", "1"));
		assertEquals(1, count[0]);
		assertTrue(count[2].toString().contains("--betas-returned"), count[2].toString());
	}

	private static double lda(final JsonArray results, final int i) {
		final JsonObject sep = results.get(i).getAsJsonObject().getAsJsonObject("separation");
		return sep == null ? Double.NaN : sep.get("lda_accuracy").getAsDouble();
	}
}
