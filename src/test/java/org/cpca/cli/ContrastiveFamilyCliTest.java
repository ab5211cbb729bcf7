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

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import org.cpca.core.model.FittedModel;
import org.cpca.core.modelfile.ModelFile;
import org.cpca.core.pcpca.PcpcaModel;
import org.cpca.generate.TestImageGenerator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cpca fit --method gcpca | pcpca} and {@code --sparsity} end to end, and apply. */
class ContrastiveFamilyCliTest {

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
	void gcpcaWritesBothEndsAndTheShuffleTest() throws Exception {
		final Path out = dir.resolve("gc");
		final Object[] r = CliTest.cpca(fitArgs(out, "--method", "gcpca", "--shuffles", "5",
			"--orthogonal"));
		assertEquals(0, r[0], r[2].toString());
		final JsonObject s = json(out.resolve("summary.json"));
		assertEquals("gcpca", s.get("method").getAsString());
		assertEquals("v4", s.get("variant").getAsString());
		assertEquals(4, s.getAsJsonArray("component_ends").size());
		assertEquals("background-enriched", s.getAsJsonArray("component_ends").get(3)
			.getAsString());
		assertTrue(s.has("significant_components"));
		final JsonObject e = s.getAsJsonArray("results").get(0).getAsJsonObject();
		assertEquals(4, e.getAsJsonArray("eigenvalues").size());
		assertEquals(4, e.getAsJsonArray("significant").size());
		assertTrue(Files.exists(out.resolve("components.tif")));
		// eigen-image labels say the end (and star significant components)
		final FittedModel m = ModelFile.readAny(out.resolve("model.json"));
		assertTrue(org.cpca.render.ModelViews.componentLabel(m, 0).startsWith("gcPC1 (target)"));
		assertTrue(org.cpca.render.ModelViews.componentLabel(m, 3).startsWith(
			"gcPC4 (background)"));
		final Path applied = dir.resolve("gc-apply");
		assertEquals(0, CliTest.cpca("apply", "--model", out.resolve("model.json").toString(),
			"--input", images.resolve("background.tif").toString(), "--out", applied
				.toString())[0]);
	}

	@Test
	void pcpcaWritesTheNoiseVarianceAndApplyUsesThePosteriorMean() throws Exception {
		final Path out = dir.resolve("pc");
		final Object[] r = CliTest.cpca(fitArgs(out, "--method", "pcpca", "--alpha", "0.5"));
		assertEquals(0, r[0], r[2].toString());
		final JsonObject s = json(out.resolve("summary.json"));
		final JsonObject e = s.getAsJsonArray("results").get(0).getAsJsonObject();
		assertTrue(e.get("noise_variance").getAsDouble() > 0);
		assertEquals(0.5, e.get("gamma").getAsDouble(), 1e-12);
		assertTrue(s.has("held_out_log_likelihood"));
		final FittedModel m = ModelFile.readAny(out.resolve("model.json"));
		assertTrue(m instanceof PcpcaModel);
		final Path applied = dir.resolve("pc-apply");
		assertEquals(0, CliTest.cpca("apply", "--model", out.resolve("model.json").toString(),
			"--input", images.resolve("target.tif").toString(), "--out", applied
				.toString())[0]);
		assertTrue(Files.exists(applied.resolve("reconstruction.tif")));
		final Object[] above = CliTest.cpca(fitArgs(dir.resolve("x"), "--method", "pcpca",
			"--alpha", "3"));
		assertEquals(1, above[0]);
		assertTrue(above[2].toString().contains("α <"), above[2].toString());
	}

	/** Empty CSV cells modelled by PCPCA's EM (--missing model); other methods refuse it. */
	@Test
	void pcpcaModelsEmptyCells() throws Exception {
		final java.util.Random r = new java.util.Random(9);
		final StringBuilder csv = new StringBuilder("group,a,b,c,d,e,f\n");
		for (int i = 0; i < 160; i++) {
			final boolean target = i < 80;
			final double z = r.nextGaussian(), u = 3 * r.nextGaussian();
			csv.append(target ? "t" : "b");
			for (int j = 0; j < 6; j++) {
				final double v = u * (j % 2 == 0 ? 1 : -1) + (target && j < 2 ? 2 * z : 0) + 0.3 *
					r.nextGaussian();
				csv.append(',').append(r.nextDouble() < 0.1 ? "" : Double.toString(v));
			}
			csv.append('\n');
		}
		final Path table = dir.resolve("holes.csv");
		Files.write(table, csv.toString().getBytes(StandardCharsets.UTF_8));
		final Path out = dir.resolve("em");
		final Object[] ok = CliTest.cpca("fit", "--target", table.toString(), "--target-where",
			"group=t", "--background", table.toString(), "--background-where", "group=b",
			"--method", "pcpca", "--alpha", "0.3", "--missing", "model", "-k", "1", "--out", out
				.toString());
		assertEquals(0, ok[0], ok[2].toString());
		final JsonObject s = json(out.resolve("summary.json"));
		assertTrue(s.getAsJsonArray("diagnostics").toString().contains("EM over the observed"),
			s.toString());
		assertTrue(s.getAsJsonArray("results").get(0).getAsJsonObject().get("noise_variance")
			.getAsDouble() > 0);
		final Object[] refused = CliTest.cpca("fit", "--target", table.toString(),
			"--target-where", "group=t", "--background", table.toString(),
			"--background-where", "group=b", "--alpha", "0.3", "--missing", "model", "--out",
			dir.resolve("no").toString());
		assertEquals(1, refused[0]);
		assertTrue(refused[2].toString().contains("--missing model"), refused[2].toString());
	}

	@Test
	void sparsityReportsTheFractionOfZeros() throws Exception {
		final Path out = dir.resolve("sp");
		final Object[] r = CliTest.cpca(fitArgs(out, "--alpha", "2", "--sparsity", "0.01"));
		assertEquals(0, r[0], r[2].toString());
		final JsonObject e = json(out.resolve("summary.json")).getAsJsonArray("results").get(
			0).getAsJsonObject();
		assertTrue(e.get("zero_fraction").getAsDouble() > 0);
		assertEquals(0.01, e.get("sparsity").getAsDouble(), 1e-15);
	}

	@Test
	void aSparsityThatZeroesEveryLoadingStillWritesTheResults() throws Exception {
		// at α = 0 the threshold removes every entry: the scores
		// do not vary, so the divergence between the classes has no value (NaN), written null
		final Path out = dir.resolve("empty");
		final Object[] r = CliTest.cpca(fitArgs(out, "--alpha", "0", "--sparsity", "0.5", "-k",
			"2"));
		assertEquals(0, r[0], r[2].toString());
		final JsonObject first = json(out.resolve("summary.json")).getAsJsonArray("results")
			.get(0).getAsJsonObject();
		assertEquals(1.0, first.get("zero_fraction").getAsDouble(), 0);
		assertTrue(first.getAsJsonObject("separation").get("symmetrized_kl").isJsonNull(),
			first.toString());
		assertTrue(r[1].toString().contains("is zero at this sparsity; lower it"), r[1]
			.toString());
	}

	@Test
	void badParametersGiveOneClearLine() {
		final String[][] cases = { { "--method", "gcpca", "--variant", "v7" }, { "--method",
			"gcpca", "--shuffles", "-2" }, { "--sparsity", "-1" }, { "--method", "pca",
				"--sparsity", "0.1" }, { "--method", "cpca", "--shuffles", "3" }, { "--method",
					"pcpca" } };
		final String[] expected = { "variant 'v7'", "--shuffles must be ≥ 0",
			"--sparsity must be ≥ 0", "--sparsity applies to", "applies to --method gcpca",
			"PCPCA needs a fixed α" };
		for (int i = 0; i < cases.length; i++) {
			final Object[] r = CliTest.cpca(fitArgs(dir.resolve("bad" + i), cases[i]));
			assertEquals(1, r[0], Arrays.toString(cases[i]));
			final String err = r[2].toString();
			assertTrue(err.contains(expected[i]), err);
			assertFalse(err.contains("Exception"), err);
		}
	}
}
