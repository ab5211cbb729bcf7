package org.cpca.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import org.cpca.core.TestData;
import org.cpca.core.contrast.Measures;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.modelfile.ModelFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PCPCA with missing pixels (NaN in 32-bit TIFF stacks, {@code --missing model}) end to
 * end on real files: a case solved on paper, the complete-data subspace recovered with
 * 10–30 % of the pixels missing, and the refusals of the other methods.
 */
class MissingPixelsCliTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	@TempDir
	Path dir;

	private static Path tiff(final Path file, final float[][] rows, final int width) {
		return MissingPixelsData.tiff(file, rows, width);
	}

	private static JsonObject json(final Path p) throws Exception {
		return JsonParser.parseString(new String(Files.readAllBytes(p),
			StandardCharsets.UTF_8)).getAsJsonObject();
	}

	private Object[] fit(final Path t, final Path b, final Path out, final String... extra) {
		final String[] base = { "fit", "--target", t.toString(), "--background", b.toString(),
			"--out", out.toString() };
		final String[] all = java.util.Arrays.copyOf(base, base.length + extra.length);
		System.arraycopy(extra, 0, all, base.length, extra.length);
		return CliTest.cpca(all);
	}

	/** The case of {@link MissingPixelsData#paperCase}: σ² = 0.8 and λ₁ = 124 on paper. */
	@Test
	void aCaseSolvedOnPaper() throws Exception {
		MissingPixelsData.paperCase(dir);
		final Path t = dir.resolve("t.tif"), b = dir.resolve("b.tif");
		final byte[] before = Files.readAllBytes(t);
		final Path out = dir.resolve("paper");
		final Object[] r = fit(t, b, out, "--method", "pcpca", "--alpha", "0.5", "-k", "1",
			"--missing", "model");
		assertEquals(0, r[0], r[2].toString());
		final JsonObject s = json(out.resolve("summary.json"));
		final JsonObject e = s.getAsJsonArray("results").get(0).getAsJsonObject();
		assertEquals(0.8, e.get("noise_variance").getAsDouble(), 1e-6, s.toString());
		assertEquals(0.5, e.get("gamma").getAsDouble(), 1e-12);
		assertEquals(124.0 / 7, e.getAsJsonArray("eigenvalues").get(0).getAsDouble(), 1e-6);
		final CpcaModel m = (CpcaModel) ModelFile.readAny(out.resolve("model.json"));
		assertArrayEquals(new double[] { 1, 0, 0, 0 }, m.components()[0], 1e-6);
		assertTrue(s.getAsJsonArray("diagnostics").toString().contains("2 of 32 target"), s
			.toString());
		assertArrayEquals(before, Files.readAllBytes(t), "the input is not modified");
		// filling the pixels instead (--missing zero) is the other answer
		final Path zero = dir.resolve("zero");
		assertEquals(0, fit(t, b, zero, "--method", "pcpca", "--alpha", "0.5", "-k", "1",
			"--missing", "zero")[0]);
		assertEquals(8.0 / 12, json(zero.resolve("summary.json")).getAsJsonArray("results")
			.get(0).getAsJsonObject().get("noise_variance").getAsDouble(), 1e-6);
	}

	/**
	 * Seeded planted problems on 16 × 16 images (256 pixels, 200 + 200 slices): with 10,
	 * 20 and 30 % of the pixels missing at random in both stacks, the EM fit's subspace
	 * is close to the complete-data fit's (largest principal angle below 0.1 rad) and
	 * closer than filling the pixels with their means.
	 */
	@Test
	void missingPixelsRecoverTheCompleteDataSubspace() throws Exception {
		final double[] rates = { 0.1, 0.2, 0.3 };
		for (int c = 0; c < rates.length; c++) {
			final float[][][] p = TestData.planted(70 + c, 200, 200, 256, 2, 2, 0.5);
			final Path t = tiff(dir.resolve("t" + c + ".tif"), p[0], 16), b = tiff(dir.resolve(
				"b" + c + ".tif"), p[1], 16);
			final float[][][] holes = TestData.withHoles(p, rates[c], new Random(100 + c));
			final Path th = tiff(dir.resolve("th" + c + ".tif"), holes[0], 16), bh = tiff(dir
				.resolve("bh" + c + ".tif"), holes[1], 16);
			final String[] args = { "--method", "pcpca", "--alpha", "0.2", "-k", "2" };
			final Path complete = dir.resolve("complete" + c), em = dir.resolve("em" + c),
				mean = dir.resolve("mean" + c);
			assertEquals(0, fit(t, b, complete, args)[0]);
			final Object[] r = fit(th, bh, em, concat(args, "--missing", "model"));
			assertEquals(0, r[0], r[2].toString());
			assertEquals(0, fit(th, bh, mean, concat(args, "--missing", "mean"))[0]);
			final double[][] u = components(complete);
			final double emAngle = largest(u, components(em)), meanAngle = largest(u,
				components(mean));
			assertTrue(emAngle < 0.1, rates[c] + ": largest principal angle " + emAngle);
			assertTrue(emAngle < meanAngle, rates[c] + ": EM " + emAngle + " vs mean " +
				meanAngle);
		}
	}

	private static String[] concat(final String[] a, final String... b) {
		final String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
		System.arraycopy(b, 0, all, a.length, b.length);
		return all;
	}

	private static double[][] components(final Path out) throws Exception {
		return ((CpcaModel) ModelFile.readAny(out.resolve("model.json"))).components();
	}

	private static double largest(final double[][] a, final double[][] b) {
		final double[] angles = Measures.principalAngles(a, b);
		return angles[angles.length - 1];
	}

	/** Other methods refuse NaN pixels with one line that names PCPCA or the fill. */
	@Test
	void otherMethodsRefuseNanPixels() {
		final float[][][] p = TestData.planted(3, 20, 20, 16, 1, 1, 0.5);
		p[0][2][5] = Float.NaN;
		final Path t = tiff(dir.resolve("nan.tif"), p[0], 4), b = tiff(dir.resolve("b.tif"),
			p[1], 4);
		final Object[] plain = fit(t, b, dir.resolve("g"), "--method", "gcpca");
		assertEquals(1, plain[0]);
		final String err = plain[2].toString();
		assertTrue(err.contains("missing value (NaN) at sample 3, feature 6") && err.contains(
			"--method pcpca --missing model"), err);
		assertEquals(1, err.trim().split("\n").length, err);
		final Object[] model = fit(t, b, dir.resolve("g2"), "--method", "gcpca", "--missing",
			"model");
		assertEquals(1, model[0]);
		assertTrue(model[2].toString().contains("(--method pcpca)"), model[2].toString());
		assertFalse(model[2].toString().contains("Exception"), model[2].toString());
		// filled, gcPCA runs
		assertEquals(0, fit(t, b, dir.resolve("g3"), "--method", "gcpca", "--missing",
			"mean")[0]);
	}
}
