package org.cpca.core.modelfile;

import org.cpca.core.model.CpcaModel;
import org.cpca.core.Progress;
import org.cpca.core.TestData;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
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
