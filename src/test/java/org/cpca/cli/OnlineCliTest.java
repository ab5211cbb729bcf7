package org.cpca.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import ij.ImagePlus;
import ij.ImageStack;
import ij.io.FileSaver;
import ij.process.FloatProcessor;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.cpca.core.model.FittedModel;
import org.cpca.core.modelfile.ModelFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cpca fit --method online} end to end: TIFF, folder and CSV inputs streamed. */
class OnlineCliTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	@TempDir
	static Path shared;
	static Path target, background, targetFolder, targetCsv, backgroundCsv;

	@TempDir
	Path dir;

	/** Pixel of the planted target-only pattern (low background variance there). */
	static final int PLANTED = 27;

	/**
	 * 8 × 8 float slices: independent pixels with standard deviation 0.5 (1.2 at pixel 3,
	 * the second cPCA* direction), and in the target a planted pixel of standard deviation 1.5 where the
	 * background has 0.1; labelled "a"/"b" by the sign of the planted value.
	 */
	static ImagePlus slices(final long seed, final int n, final boolean isTarget) {
		final Random r = new Random(seed);
		final ImageStack s = new ImageStack(8, 8);
		for (int i = 0; i < n; i++) {
			final float[] px = new float[64];
			for (int j = 0; j < 64; j++)
				px[j] = (float) (2 + r.nextGaussian() * (j == 3 ? 1.2 : 0.5));
			final double planted = r.nextGaussian() * (isTarget ? 1.5 : 0.1);
			px[PLANTED] = (float) (2 + planted);
			s.addSlice(isTarget ? planted > 0 ? "a" : "b" : "bg", new FloatProcessor(8, 8, px));
		}
		return new ImagePlus(isTarget ? "target" : "background", s);
	}

	@BeforeAll
	static void makeInputs() throws Exception {
		final ImagePlus t = slices(1, 300, true), b = slices(2, 200, false);
		target = shared.resolve("target.tif");
		background = shared.resolve("background.tif");
		assertTrue(new FileSaver(t).saveAsTiffStack(target.toString()));
		assertTrue(new FileSaver(b).saveAsTiffStack(background.toString()));
		targetFolder = Files.createDirectory(shared.resolve("target folder"));
		for (int i = 1; i <= t.getStackSize(); i++)
			assertTrue(new FileSaver(new ImagePlus("s", t.getStack().getProcessor(i)))
				.saveAsTiff(targetFolder.resolve(String.format("t%03d.tif", i)).toString()));
		targetCsv = shared.resolve("target.csv");
		backgroundCsv = shared.resolve("background.csv");
		Files.write(targetCsv, csv(t, true).getBytes(StandardCharsets.UTF_8));
		Files.write(backgroundCsv, csv(b, false).getBytes(StandardCharsets.UTF_8));
	}

	/** The slices as a table: one row per slice, 64 feature columns and a label column. */
	static String csv(final ImagePlus imp, final boolean withLabel) {
		final StringBuilder sb = new StringBuilder("\uFEFF");
		for (int j = 0; j < 64; j++)
			sb.append("p").append(j).append(',');
		sb.append("class\n");
		for (int i = 1; i <= imp.getStackSize(); i++) {
			final float[] px = (float[]) imp.getStack().getPixels(i);
			for (int j = 0; j < 64; j++)
				sb.append(j == 5 && i % 50 == 0 ? "" : Float.toString(px[j])).append(',');
			sb.append(withLabel ? imp.getStack().getSliceLabel(i) : "bg").append('\n');
		}
		return sb.toString();
	}

	private static Object[] cpca(final String... args) {
		return CliTest.cpca(args);
	}

	private static JsonObject json(final Path p) throws Exception {
		return JsonParser.parseString(new String(Files.readAllBytes(p),
			StandardCharsets.UTF_8)).getAsJsonObject();
	}

	private static String[] args(final Path t, final Path b, final Path out,
		final String... extra)
	{
		final List<String> a = new ArrayList<>(Arrays.asList("fit", "--method", "online",
			"--target", t.toString(), "--background", b.toString(), "--seed", "3", "--out", out
				.toString()));
		a.addAll(Arrays.asList(extra));
		for (final String[] d : new String[][] { { "--beta", "0.8" } })
			if (!a.contains(d[0])) a.addAll(Arrays.asList(d));
		return a.toArray(new String[0]);
	}

	@Test
	void aTiffStreamedSliceBySliceWritesEveryOutputAndTheConvergenceCurve()
		throws Exception
	{
		final Path out = dir.resolve("tiff");
		final Object[] r = cpca(args(target, background, out));
		assertEquals(0, r[0], r[2].toString());
		assertTrue(r[1].toString().contains("online cPCA*"), r[1].toString());
		for (final String f : new String[] { "summary.json", "scores.csv", "model.json",
			"components.tif", "convergence.csv", "plots/convergence.png", "plots/scatter.png",
			"plots/eigen_images.png" })
			assertTrue(Files.isRegularFile(out.resolve(f)), f);
		final List<String> curve = Files.readAllLines(out.resolve("convergence.csv"));
		assertEquals("samples_seen,alignment,subspace_change", curve.get(0));
		assertEquals(202, curve.size());
		final String[] last = curve.get(curve.size() - 1).split(",");
		assertEquals(150000, Double.parseDouble(last[0]));
		assertTrue(Double.parseDouble(last[1]) >= 0.95, curve.get(curve.size() - 1));
		final JsonObject s = json(out.resolve("summary.json"));
		assertEquals("online", s.get("method").getAsString());
		assertEquals("slice by slice (virtual stack)", s.getAsJsonObject("target").get("read")
			.getAsString());
		final JsonObject online = s.getAsJsonObject("online");
		assertEquals(150000, online.get("samples_seen").getAsInt());
		assertTrue(online.get("converged").getAsBoolean());
		assertEquals(0.8, online.get("beta").getAsDouble());
		assertTrue(online.get("final_alignment").getAsDouble() >= 0.95);
		final FittedModel m = ModelFile.read(out.resolve("model.json"));
		assertEquals("online", m.method());
		assertEquals(3.0, m.parameters().get("eta")); // the dimensionless default
		assertEquals(10.0, m.parameters().get("tau"));
		assertEquals(300.0, m.parameters().get("epochs"));
		// the first component is the planted pixel
		final double[] v = ((org.cpca.core.model.CpcaModel) m).components()[0];
		assertTrue(v[PLANTED] > 0.95, Arrays.toString(v));
		// slice labels "a"/"b" are classes: separation is reported
		assertTrue(s.getAsJsonArray("results").get(0).getAsJsonObject().has("separation"));
	}

	@Test
	void theSameSeedWritesTheSameFilesAndAFolderEqualsTheStack() throws Exception {
		final Path a = dir.resolve("a"), b = dir.resolve("b"), f = dir.resolve("f");
		// one epoch, no reference: reading the folder opens a file per sample and pass
		assertEquals(0, cpca(args(target, background, a, "--epochs", "1", "--reference",
			"none"))[0]);
		assertEquals(0, cpca(args(target, background, b, "--epochs", "1", "--reference",
			"none"))[0]);
		assertEquals(0, cpca(args(targetFolder, background, f, "--epochs", "1", "--reference",
			"none"))[0]);
		for (final String file : new String[] { "convergence.csv", "model.json" }) {
			assertArrayEquals(Files.readAllBytes(a.resolve(file)), Files.readAllBytes(b.resolve(
				file)), file);
		}
		// a folder has no slice labels (file names are not classes); the numbers agree
		assertEquals(Files.readAllLines(a.resolve("convergence.csv")), Files.readAllLines(f
			.resolve("convergence.csv")));
		assertEquals("one file per sample", json(f.resolve("summary.json")).getAsJsonObject(
			"target").get("read").getAsString());
	}

	@Test
	void aCsvStreamedRowByRowWithoutReference() throws Exception {
		final Path out = dir.resolve("csv");
		final Object[] r = cpca(args(targetCsv, backgroundCsv, out, "--label-column", "class",
			"--missing", "mean", "--reference", "none", "--order", "sequential",
			"--centring", "pass"));
		assertEquals(0, r[0], r[2].toString());
		final List<String> curve = Files.readAllLines(out.resolve("convergence.csv"));
		assertEquals("samples_seen,subspace_change", curve.get(0));
		final JsonObject s = json(out.resolve("summary.json"));
		assertEquals("row by row", s.getAsJsonObject("target").get("read").getAsString());
		assertEquals(6, s.getAsJsonObject("target").get("cells_filled").getAsInt());
		assertFalse(s.getAsJsonObject("online").has("final_alignment"));
		assertEquals("pass", s.getAsJsonObject("online").get("centring").getAsString());
		assertTrue(Files.readString(out.resolve("model.json")).contains("table.columns"));
		assertFalse(Files.exists(out.resolve("components.tif")));
		final List<String> scores = Files.readAllLines(out.resolve("scores.csv"));
		assertEquals(301, scores.size());
		assertTrue(scores.get(1).split(",")[1].matches("[ab]"), scores.get(1));
	}

	@Test
	void standardisedAfterAFirstPass() throws Exception {
		final Path out = dir.resolve("std");
		final Object[] r = cpca(args(targetCsv, backgroundCsv, out, "--label-column", "class",
			"--missing", "mean", "--reference", "none", "--centring", "pass",
			"--standardize"));
		assertEquals(0, r[0], r[2].toString());
		final JsonObject online = json(out.resolve("summary.json")).getAsJsonObject("online");
		assertTrue(online.get("standardize").getAsBoolean());
		// convergence is OnlineCpcaStarTest's; here: the model divides new data by the
		// target's standard deviations
		assertTrue(ModelFile.read(out.resolve("model.json")).preprocessing().standardized());
	}

	@Test
	void badOnlineOptionsAreRefusedWithClearMessages() throws Exception {
		final String[][] cases = { { "--eta", "20" }, { "--tau", "0" }, { "--beta", "1.5" }, {
			"--order", "random" }, { "--centring", "median" }, { "--reference", "maybe" }, {
				"--epochs", "0" }, { "--standardize" }, { "--whiten" } };
		final String[] expected = { "0 < η < τ", "τ (tau) must be a positive", "[0, 1]",
			"sequential or shuffled", "running", "auto, offline or none", "epochs",
			"use centring pass (--centring pass)", "--whiten are not available" };
		for (int i = 0; i < cases.length; i++) {
			final Path out = dir.resolve("bad" + i);
			final Object[] r = cpca(args(target, background, out, cases[i]));
			assertEquals(1, r[0], Arrays.toString(cases[i]));
			assertTrue(r[2].toString().contains(expected[i]), r[2].toString());
			assertFalse(Files.exists(out));
		}
		// a large dimensionless step at β = 1 used to diverge; the implicit background step
		// keeps it stable (docs/math/online.md)
		final Object[] large = cpca(args(target, background, dir.resolve("large"), "--eta",
			"0.9", "--beta", "1"));
		assertEquals(0, large[0], large[2].toString());
	}
}
