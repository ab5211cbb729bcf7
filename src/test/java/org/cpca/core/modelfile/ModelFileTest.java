package org.cpca.core.modelfile;

import org.cpca.core.model.CpcaModel;
import org.cpca.core.Progress;
import org.cpca.core.TestData;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import org.cpca.core.pcpca.Pcpca;
import org.cpca.core.pcpca.PcpcaModel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.io.TempDir;

class ModelFileTest {

	@TempDir
	Path dir;

	private static CpcaModel fitted(final double alpha, final boolean standardize) {
		final Dataset t = Dataset.of("target", TestData.gaussian(1, 40, 6, 3, 2, 1));
		final Dataset b = Dataset.of("background", TestData.gaussian(2, 4, 6, 3));
		return Cpca.fit(t, b, CpcaOptions.defaults().withStandardize(standardize),
			Progress.NONE).model(alpha).withAttributes(Map.of("image.width", "3"));
	}

	@Test
	void roundTripPreservesEverythingAndTransformsAlike() throws Exception {
		for (final double alpha : new double[] { 0, 2.5, Double.POSITIVE_INFINITY }) {
			final CpcaModel m = fitted(alpha, alpha == 2.5);
			final Path f = dir.resolve("model.json");
			ModelFile.write(m, f);
			final CpcaModel r = ModelFile.read(f);
			assertEquals(m.alpha(), r.alpha());
			assertEquals(m.method(), r.method());
			assertArrayEquals(m.eigenvalues(), r.eigenvalues());
			assertArrayEquals(m.targetMean(), r.targetMean());
			for (int c = 0; c < m.numComponents(); c++)
				assertArrayEquals(m.components()[c], r.components()[c]);
			assertEquals("3", r.attributes().get("image.width"));
			assertEquals(m.preprocessing().standardized(), r.preprocessing().standardized());
			final Dataset x = Dataset.of("new", TestData.gaussian(3, 5, 6));
			final double[][] a = m.transform(x), b = r.transform(x);
			for (int i = 0; i < a.length; i++)
				assertArrayEquals(a[i], b[i], 0);
			assertNull(r.targetScores());
		}
	}

	@Test
	void pcaWithoutBackgroundHasNullAlphaAndUnknownBackgroundVariance() throws Exception {
		final CpcaModel m = Cpca.fit(Dataset.of("target", TestData.gaussian(4, 20, 4, 2)),
			(Dataset) null, CpcaOptions.defaults(), Progress.NONE).pca();
		final Path f = dir.resolve("pca.json");
		ModelFile.write(m, f);
		final String text = new String(Files.readAllBytes(f), StandardCharsets.UTF_8);
		assertTrue(text.contains("\"alpha\": null"), text);
		final CpcaModel r = ModelFile.read(f);
		assertTrue(Double.isNaN(r.alpha()));
		assertTrue(Double.isNaN(r.backgroundVariance()[0]));
	}

	@Test
	void corruptMismatchedOrMissingFilesAreRejectedClearly() throws Exception {
		final Path good = dir.resolve("model.json");
		ModelFile.write(fitted(1, false), good);
		final String text = new String(Files.readAllBytes(good), StandardCharsets.UTF_8);
		expect(dir.resolve("nothing.json"), "does not exist");
		expect(write("garbage.json", "{not json"), "not valid JSON");
		expect(write("other.json", "{\"format\": \"something-else\"}"), "format");
		expect(write("v9.json", text.replace("\"version\": 1", "\"version\": 9")),
			"version 9");
		expect(write("short.json", text.replaceFirst("\"eigenvalues\": \\[[^\\]]*\\]",
			"\"eigenvalues\": [1.0]")), "eigenvalues");
		expect(write("truncated.json", text.substring(0, text.length() / 2)),
			"not valid JSON");
		// the good file is untouched by failed reads
		assertEquals(text, new String(Files.readAllBytes(good), StandardCharsets.UTF_8));
	}

	/**
	 * Forged or edited files: each refused in one line naming the field, never read as
	 * something else (a method that does not exist, a PCPCA model labelled cPCA, "yes"
	 * read as false, 1.5 read as version 1, 1e400 as version 0, arrays inside the
	 * components' arrays read as their first number, a missing field as a null pointer).
	 */
	@Test
	void forgedFieldsAreRefusedByName() throws Exception {
		final String text = new String(Files.readAllBytes(good()), StandardCharsets.UTF_8);
		expect(write("bogus.json", text.replace("\"method\": \"cpca\"",
			"\"method\": \"bogus\"")), "its method \"bogus\" is not known (pca, cpca");
		expect(write("five.json", text.replace("\"method\": \"cpca\"", "\"method\": 5")),
			"the field \"method\" holds the number 5 where a text is expected");
		expect(write("yes.json", text.replace("\"whiten\": false", "\"whiten\": \"yes\"")),
			"the field \"whiten\" holds the text \"yes\" where true or false is expected");
		expect(write("v15.json", text.replace("\"version\": 1", "\"version\": 1.5")),
			"it has version 1.5 but this release reads version 1");
		expect(write("v400.json", text.replace("\"version\": 1", "\"version\": 1e400")),
			"it has version 1E+400 but");
		final JsonObject json = JsonParser.parseString(text)
			.getAsJsonObject();
		final JsonArray nested = new JsonArray();
		for (final JsonElement c : json.getAsJsonArray("components")) {
			final JsonArray wrapped = new JsonArray();
			for (final JsonElement v : c.getAsJsonArray()) {
				final JsonArray one = new JsonArray();
				one.add(v);
				wrapped.add(one);
			}
			nested.add(wrapped);
		}
		json.add("components", nested);
		expect(write("nested.json", json.toString()), "\"components\" holds an array of arrays or objects at " +
			"position 1 where an array of numbers is expected");
		expect(write("nested-mean.json", text.replaceFirst("\"mean\": \\[",
			"\"mean\": [[1.0], ")), "the field \"mean\" holds an array of arrays or objects " +
				"where an array of numbers is expected");
		expect(write("missing.json", text.replaceFirst("\"target_total_variance\": [^,]*,",
			"")), "the field \"target_total_variance\" is missing");
		expect(write("huge.json", text.replaceFirst("\"eigenvalues\": \\[\\s*[^,\\]]*",
			"\"eigenvalues\": [1e400")), "not valid JSON (1e400 is beyond the range");
		// a PCPCA model labelled cpca
		final Dataset t = Dataset.of("target", TestData.gaussian(1, 40, 6, 3, 2, 1));
		final Dataset b = Dataset.of("background", TestData.gaussian(2, 40, 6, 3));
		final Path pcpca = dir.resolve("pcpca.json");
		ModelFile.write(Pcpca.fit(Cpca.fit(t, b, CpcaOptions.defaults(), Progress.NONE), 0.5),
			pcpca);
		final String p = new String(Files.readAllBytes(pcpca), StandardCharsets.UTF_8);
		assertTrue(ModelFile.read(pcpca) instanceof PcpcaModel);
		expect(write("label.json", p.replace("\"method\": \"pcpca\"", "\"method\": \"cpca\"")),
			"its parameter \"noise_variance\" belongs to method pcpca, not to its method " +
				"\"cpca\"");
		// attributes: texts, numbers and lists (a table's column names) are read as text
		final JsonObject attributes = new JsonObject();
		attributes.addProperty("image.width", 3);
		final JsonArray columns = new JsonArray();
		columns.add("x1");
		columns.add("temp \"C\"");
		attributes.add("table.columns", columns);
		final JsonObject withList = JsonParser.parseString(text).getAsJsonObject();
		withList.add("attributes", attributes);
		final Map<String, String> read = ModelFile.read(write("list.json", withList
			.toString())).attributes();
		assertEquals("3", read.get("image.width"));
		assertEquals(columns.toString(), read.get("table.columns"));
		attributes.add("nested", new JsonObject());
		expect(write("object.json", withList.toString()), "its attribute \"nested\" holds " +
			"an object where a text or a list is expected");
		for (final String name : new String[] { "bogus.json", "five.json", "yes.json",
			"missing.json" })
			assertTrue(!message(dir.resolve(name)).contains("Exception") && !message(dir
				.resolve(name)).contains("null"), name);
	}

	private Path good() throws Exception {
		final Path good = dir.resolve("model.json");
		ModelFile.write(fitted(1, false), good);
		return good;
	}

	/**
	 * A 63 MB model file is read in a JVM with a 128 MB heap: the file is streamed and its
	 * numbers take 8 bytes each (a JSON tree of it does not fit).
	 */
	@Test
	void aLargeModelIsReadInASmallHeap() throws Exception {
		final int d = 1_000_000;
		final Path f = dir.resolve("large.json");
		final Random r = new Random(7);
		try (Writer w = Files.newBufferedWriter(f, StandardCharsets.UTF_8)) {
			w.write("{\"format\": \"contrastive-pca-model\", \"version\": 1, \"method\": " +
				"\"cpca\", \"alpha\": 2.0, \"parameters\": {}, \"components\": [");
			for (int c = 0; c < 2; c++) {
				w.write(c == 0 ? "[" : ", [");
				for (int j = 0; j < d; j++)
					w.write((j == 0 ? "" : ",") + r.nextGaussian() / 1000);
				w.write("]");
			}
			w.write("], \"eigenvalues\": [2.0, 1.0], \"target_variance\": [3.0, 2.0], " +
				"\"background_variance\": [1.0, 1.0], \"target_total_variance\": 9.0, \"mean\": [");
			for (int j = 0; j < d; j++)
				w.write((j == 0 ? "" : ",") + r.nextGaussian());
			w.write("], \"scale\": null, \"whiten\": false}");
		}
		assertTrue(Files.size(f) > 60_000_000L, Files.size(f) + " bytes");
		final Process p = new ProcessBuilder(Paths.get(System.getProperty(
			"java.home"), "bin", "java").toString(), "-Xmx128m", "-cp", System.getProperty(
				"java.class.path"), ReadInSmallHeap.class.getName(), f.toString())
			.redirectErrorStream(true).start();
		final String out = new String(p.getInputStream().readAllBytes(),
			StandardCharsets.UTF_8).trim();
		assertEquals(0, p.waitFor(), out);
		assertEquals("read 2 components of 1000000 features", out);
	}

	/** Reads a model file and says its shape (run in a JVM of its own). */
	static final class ReadInSmallHeap {

		public static void main(final String[] args) {
			final CpcaModel m = ModelFile.read(Paths.get(args[0]));
			System.out.println("read " + m.numComponents() + " components of " + m
				.features() + " features");
		}
	}

	private static String message(final Path p) {
		return assertThrows(IllegalArgumentException.class, () -> ModelFile.read(p))
			.getMessage();
	}

	private Path write(final String name, final String content) throws Exception {
		final Path p = dir.resolve(name);
		Files.write(p, content.getBytes(StandardCharsets.UTF_8));
		return p;
	}

	private static void expect(final Path p, final String part) {
		final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
			() -> ModelFile.read(p));
		assertTrue(e.getMessage().contains(part), e.getMessage());
	}
}
