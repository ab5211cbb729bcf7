package org.cpca.cli;

import static org.cpca.cli.CliTest.cpca;
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

import ij.IJ;
import ij.ImagePlus;

import org.cpca.core.model.FittedModel;
import org.cpca.core.kernel.KernelCpcaModel;
import org.cpca.core.modelfile.ModelFile;
import org.cpca.generate.TestImageGenerator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cpca fit --method kernel} and {@code cpca apply} with a kernel model, end to end. */
class KernelCliTest {

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

	private static List<String> lines(final Path p) throws Exception {
		return Files.readAllLines(p, StandardCharsets.UTF_8);
	}

	private static String[] fit(final Path out, final String... extra) {
		final List<String> a = new ArrayList<>(Arrays.asList("fit", "--method", "kernel",
			"--target", images.resolve("target.tif").toString(), "--background", images
				.resolve("background.tif").toString(), "--labels", images.resolve(
					"target-labels.txt").toString(), "--out", out.toString()));
		a.addAll(Arrays.asList(extra));
		return a.toArray(new String[0]);
	}

	@Test
	void fixedAlphaWritesScoresModelAndExtremesButNoComponents() throws Exception {
		final Path out = dir.resolve("rbf");
		final Object[] r = cpca(fit(out, "--kernel", "rbf", "--gamma", "auto", "--alpha",
			"3"));
		assertEquals(0, r[0], r[2].toString());
		assertTrue(r[1].toString().contains("extremes.tif"), r[1].toString());
		final JsonObject s = json(out.resolve("summary.json"));
		assertEquals("kernel", s.get("method").getAsString());
		assertEquals("fixed", s.get("alpha_mode").getAsString());
		final JsonObject kernel = s.getAsJsonObject("kernel");
		assertEquals("rbf", kernel.get("kernel").getAsString());
		assertEquals("exact", kernel.get("path").getAsString());
		assertTrue(kernel.get("gamma").getAsDouble() > 0);
		assertEquals(118, kernel.get("rank").getAsInt()); // 120 samples, centred per dataset
		final JsonObject first = s.getAsJsonArray("results").get(0).getAsJsonObject();
		assertEquals(3.0, first.get("alpha").getAsDouble());
		assertEquals("rbf", first.get("kernel").getAsString());
		assertEquals(2, first.getAsJsonArray("eigenvalues").size());
		assertTrue(first.getAsJsonObject("separation").has("lda_accuracy"));
		final String diagnostics = s.getAsJsonArray("diagnostics").toString();
		assertTrue(diagnostics.contains("no components.tif"), diagnostics);
		assertTrue(diagnostics.contains("kernel cPCA, exact"), diagnostics);
		final List<String> scores = lines(out.resolve("scores.csv"));
		assertEquals("sample,label,model,alpha,gamma,kPC1,kPC2", scores.get(0));
		assertEquals(61, scores.size());
		assertFalse(Files.exists(out.resolve("components.tif")));
		assertFalse(Files.exists(out.resolve("plots/eigen_images.png")));
		final ImagePlus extremes = IJ.openImage(out.resolve("extremes.tif").toString());
		assertEquals(2 * 2 * 3, extremes.getStackSize()); // k × (top 3 + bottom 3)
		assertEquals(16, extremes.getWidth());
		assertTrue(extremes.getStack().getSliceLabel(1).startsWith("kPC1 top 1: "), extremes
			.getStack().getSliceLabel(1));
		assertTrue(extremes.getStack().getSliceLabel(4).startsWith("kPC1 bottom 1: "));
		assertTrue(Files.size(out.resolve("plots/extremes.png")) > 1000);
		assertTrue(Files.size(out.resolve("plots/scatter.png")) > 1000);
		final FittedModel m = ModelFile.readAny(out.resolve("model.json"));
		assertTrue(m instanceof KernelCpcaModel);
		assertEquals(256, m.features());
		assertEquals("16", m.attributes().get("image.width"));

		// cpca apply: the model centres new samples as in training, so the target's
		// scores come back
		final Path applied = dir.resolve("applied");
		final Object[] a = cpca("apply", "--model", out.resolve("model.json").toString(),
			"--input", images.resolve("target.tif").toString(), "--out", applied.toString());
		assertEquals(0, a[0], a[2].toString());
		final List<String> again = lines(applied.resolve("scores.csv"));
		assertEquals("sample,label,model,alpha,kPC1,kPC2", again.get(0));
		for (int i = 1; i < scores.size(); i++) {
			final String[] x = scores.get(i).split(","), y = again.get(i).split(",");
			for (int c = 0; c < 2; c++)
				assertEquals(Double.parseDouble(x[5 + c]), Double.parseDouble(y[4 + c]), 1e-6 *
					(1 + Math.abs(Double.parseDouble(x[5 + c]))));
		}
		assertFalse(Files.exists(applied.resolve("reconstruction.tif")));
		assertTrue(json(applied.resolve("summary.json")).get("note").getAsString().contains(
			"no reconstruction"));
	}

	@Test
	void automaticAlphaAndTheOtherKernelsAndPaths() throws Exception {
		final Path out = dir.resolve("auto");
		assertEquals(0, cpca(fit(out, "--kernel", "poly", "--degree", "2", "--coef0", "0.5",
			"--landmarks", "50", "--alpha-count", "12"))[0]);
		final JsonObject s = json(out.resolve("summary.json"));
		assertEquals("auto", s.get("alpha_mode").getAsString());
		// γ and α automatic: the (γ, α) selection (docs/math/kernel.md) lists its pairs
		final JsonObject kernel = s.getAsJsonObject("kernel");
		assertEquals(13, kernel.getAsJsonArray("alpha_grid").size());
		assertEquals(11, kernel.getAsJsonArray("gamma_grid").size());
		final JsonArray pairs = kernel.getAsJsonArray("pairs");
		assertEquals(0, pairs.get(0).getAsJsonObject().get("alpha").getAsDouble());
		assertEquals(pairs.size(), s.getAsJsonArray("results").size());
		int limit = 0;
		for (int i = 0; i < pairs.size(); i++) {
			final double gamma = pairs.get(i).getAsJsonObject().get("gamma").getAsDouble();
			final JsonObject result = s.getAsJsonArray("results").get(i).getAsJsonObject();
			// γ = 0: the limit γ → 0, linear cPCA on the same inputs (poly with c₀ > 0)
			if (gamma == 0) {
				limit++;
				assertEquals("linear", result.get("kernel").getAsString());
			}
			else assertEquals(gamma, result.get("gamma").getAsDouble(), 0);
		}
		assertTrue(limit >= 1, "the linear limit's automatic α");
		final JsonArray alphas = pairs;
		assertEquals("poly", kernel.get("kernel").getAsString());
		assertEquals("nystrom", kernel.get("path").getAsString());
		assertEquals(50, kernel.get("landmarks").getAsInt());
		assertEquals(2.0, kernel.get("degree").getAsDouble());
		assertEquals(0.5, kernel.get("coef0").getAsDouble());
		assertEquals(alphas.size(), Files.list(out.resolve("models")).count());
		assertFalse(Files.exists(out.resolve("plots/variance_pairs.png")));
		final KernelCpcaModel m = (KernelCpcaModel) ModelFile.readAny(out.resolve(
			"model.json"));
		assertEquals(50, m.supportSize());
		// the linear kernel, exact: a table, no images at all
		final StringBuilder t = new StringBuilder("a,b,c\n"), b = new StringBuilder(
			"a,b,c\n");
		final java.util.Random random = new java.util.Random(4);
		for (int i = 0; i < 30; i++) {
			t.append(random.nextGaussian() * 3).append(',').append(random.nextGaussian())
				.append(',').append(random.nextGaussian() * 2).append('\n');
			b.append(random.nextGaussian() * 3).append(',').append(random.nextGaussian() * 0.1)
				.append(',').append(random.nextGaussian()).append('\n');
		}
		final Path target = dir.resolve("t.csv"), background = dir.resolve("b.csv");
		Files.write(target, t.toString().getBytes(StandardCharsets.UTF_8));
		Files.write(background, b.toString().getBytes(StandardCharsets.UTF_8));
		final Path table = dir.resolve("table");
		assertEquals(0, cpca("fit", "--method", "kernel", "--kernel", "linear", "--alpha", "1",
			"--target", target.toString(), "--background", background.toString(), "--out",
			table.toString())[0]);
		assertFalse(Files.exists(table.resolve("extremes.tif")));
		assertEquals("linear", json(table.resolve("summary.json")).getAsJsonObject("kernel")
			.get("kernel").getAsString());
	}

	@Test
	void badKernelOptionsFailWithClearMessages() throws Exception {
		expect(fit(dir.resolve("a"), "--alpha", "inf"), "not defined for kernel");
		expect(fit(dir.resolve("b"), "--gamma", "0"), "--gamma", "> 0");
		expect(fit(dir.resolve("c"), "--gamma", "wide"), "--gamma", "not a number");
		expect(fit(dir.resolve("d"), "--kernel", "poly", "--degree", "0"), "degree");
		expect(fit(dir.resolve("e"), "--kernel", "poly", "--degree", "1.5"), "degree",
			"whole number");
		expect(fit(dir.resolve("f"), "--kernel", "poly", "--coef0", "-1"), "coef0");
		expect(fit(dir.resolve("g"), "--kernel", "sigmoid"), "unknown kernel");
		expect(fit(dir.resolve("h"), "--landmarks", "1", "--alpha", "1"), "1 landmarks",
			"k = 2");
		expect(fit(dir.resolve("i"), "--landmarks", "many"), "--landmarks", "auto");
		final Object[] r = cpca("fit", "--method", "cpca", "--kernel", "rbf", "--target",
			images.resolve("target.tif").toString(), "--background", images.resolve(
				"background.tif").toString(), "--out", dir.resolve("j").toString());
		assertEquals(1, r[0]);
		assertTrue(r[2].toString().contains("--method kernel only"), r[2].toString());
	}

	private static void expect(final String[] args, final String... parts) {
		final Object[] r = cpca(args);
		final String err = r[2].toString().trim();
		assertEquals(1, r[0], "exit code; stderr: " + err);
		assertTrue(err.startsWith("cpca: "), err);
		for (final String part : parts)
			assertTrue(err.contains(part), "'" + err + "' lacks '" + part + "'");
	}
}
