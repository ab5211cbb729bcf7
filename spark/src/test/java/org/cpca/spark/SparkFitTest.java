package org.cpca.spark;

import static org.cpca.spark.SparkTesting.IMAGES;
import static org.cpca.spark.SparkTesting.MICE;
import static org.cpca.spark.SparkTesting.assertSameResults;
import static org.cpca.spark.SparkTesting.summary;
import static org.cpca.spark.SparkTesting.with;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.google.gson.JsonObject;

import ij.IJ;
import ij.ImagePlus;
import ij.ImageStack;
import ij.process.FloatProcessor;

/**
 * cpca-spark fit in local mode (local[2]) against cpca fit on the same data: the mouse
 * protein table and the test stacks, automatic α; bad input.
 */
public class SparkFitTest {

	private static JavaSparkContext sc;

	@BeforeAll
	static void start() {
		sc = SparkTesting.context("local[2]");
	}

	@AfterAll
	static void stop() {
		sc.stop();
	}

	/** The mouse set-up of the cPCA paper, standardised, missing cells → 0. */
	/**
	 * The mouse set-up with automatic α over [0.1, 300]. Above α ≈ 600 this problem has no
	 * positive contrast (top eigenvalue ≈ −3e-14): the top-k subspace there is not unique,
	 * so rounding alone decides it and with it the affinities and clustering of that end
	 * of the grid (measured: the same code chose α = 623.6 on one machine and 1000 on
	 * Spark). Over [0.1, 300] every α has positive contrast and the α sets agree exactly.
	 */
	static String[] mice(final Path out, final String... more) {
		return with(new String[] { "fit", "--alpha-range", "0.1,300", "--target", MICE.toString(), "--target-where",
			"Behavior=S/C", "--target-where", "Treatment=Saline", "--background", MICE
				.toString(), "--background-where", "Behavior=C/S", "--background-where",
			"Treatment=Saline", "--background-where", "Genotype=Control", "--label-column",
			"Genotype", "--missing", "zero", "--standardize", "--out", out.toString() }, more);
	}

	@Test
	public void miceTableEqualsCpcaFit(@TempDir final Path dir) throws Exception {
		assumeTrue(Files.exists(MICE), "the mouse protein table is not on this machine");
		final SparkTesting.Run one = SparkTesting.single(mice(dir.resolve("single")));
		assertEquals(0, one.code, one.err);
		final SparkTesting.Run many = SparkTesting.spark(sc, with(mice(dir.resolve(
			"spark")), "--partitions", "3"));
		assertEquals(0, many.code, many.err);
		final JsonObject a = summary(dir.resolve("single")), b = summary(dir.resolve(
			"spark"));
		assertEquals("auto", b.get("alpha_mode").getAsString());
		assertTrue(b.getAsJsonObject("selection").getAsJsonArray("alphas").size() > 1);
		assertSameResults(a, b, 1e-8);
		assertEquals(a.getAsJsonObject("target").get("samples"), b.getAsJsonObject("target")
			.get("samples"));
		assertEquals("moments", b.getAsJsonObject("spark").get("path").getAsString());
		for (final String f : List.of("scores.csv", "model.json", "plots/scatter.png",
			"plots/eigenvalues.png"))
			assertTrue(Files.size(dir.resolve("spark").resolve(f)) > 0, f);
		// the scores (second pass) equal the single machine's, row by row
		final List<String> s1 = Files.readAllLines(dir.resolve("single/scores.csv")), s2 = Files
			.readAllLines(dir.resolve("spark/scores.csv"));
		assertEquals(s1.size(), s2.size());
		assertEquals(s1.get(0), s2.get(0));
		for (int i = 1; i < s1.size(); i++) {
			final String[] x = s1.get(i).split(","), y = s2.get(i).split(",");
			for (int c = 0; c < 3; c++)
				assertEquals(x[c], y[c]);
			for (int c = 3; c < x.length; c++)
				assertEquals(Double.parseDouble(x[c]), Double.parseDouble(y[c]), 1e-6 * (1 + Math
					.abs(Double.parseDouble(x[c]))), "scores.csv line " + (i + 1));
		}
	}

	@Test
	public void imageStacksEqualCpcaFit(@TempDir final Path dir) throws Exception {
		final String[] args = { "fit", "--target", IMAGES.resolve("target.tif").toString(),
			"--background", IMAGES.resolve("background.tif").toString(), "--labels", IMAGES
				.resolve("target-labels.txt").toString() };
		final SparkTesting.Run one = SparkTesting.single(with(args, "--out", dir.resolve(
			"single").toString()));
		assertEquals(0, one.code, one.err);
		final SparkTesting.Run many = SparkTesting.spark(sc, with(args, "--out", dir.resolve(
			"spark").toString()));
		assertEquals(0, many.code, many.err);
		final JsonObject single = summary(dir.resolve("single")), spark = summary(dir.resolve(
			"spark"));
		// 1024 pixels, 600 slices: the Gram path, as cpca fit takes its reduced space
		assertEquals("gram", spark.getAsJsonObject("spark").get("path").getAsString());
		assertEquals("reduced", spark.get("space").getAsString());
		assertSameResults(single, spark, 1e-6);
		assertTrue(Files.size(dir.resolve("spark/components.tif")) > 0);
		final ImagePlus c1 = IJ.openImage(dir.resolve("single/components.tif").toString()),
			c2 = IJ.openImage(dir.resolve("spark/components.tif").toString());
		assertEquals(c1.getStackSize(), c2.getStackSize());
		final float[] p1 = (float[]) c1.getStack().getPixels(2), p2 = (float[]) c2.getStack()
			.getPixels(2);
		for (int i = 0; i < p1.length; i++)
			assertEquals(p1[i], p2[i], 1e-4, "eigen-image pixel " + i);
	}

	/** Folders of images (one file per sample), α fixed and α = ∞. */
	@Test
	public void imageFoldersEqualCpcaFit(@TempDir final Path dir) throws Exception {
		final java.util.Random r = new java.util.Random(7);
		for (final String set : new String[] { "t", "b" }) {
			Files.createDirectories(dir.resolve(set));
			for (int i = 0; i < 30; i++) {
				final float[] px = new float[36];
				final double shared = 5 * r.nextGaussian(), own = set.equals("t") ? 2 * r
					.nextGaussian() : 0;
				for (int j = 0; j < 36; j++)
					px[j] = (float) (shared * Math.cos(j) + own * Math.sin(0.5 * j) + (j < 30 ? 0.3 *
						r.nextGaussian() : 0));
				IJ.saveAsTiff(new ImagePlus("s", new FloatProcessor(6, 6, px)), dir.resolve(set)
					.resolve(String.format("s%02d.tif", i)).toString());
			}
		}
		// the moments path at α = 1.5 and ∞, and the gram path (forced) standardised
		for (final String alpha : new String[] { "1.5", "inf", "gram" }) {
			final String[] base = { "fit", "--target", dir.resolve("t").toString(),
				"--background", dir.resolve("b").toString() };
			final String[] args = alpha.equals("gram") ? with(base, "--alpha", "1.5",
				"--standardize") : with(base, "--alpha", alpha);
			final SparkTesting.Run one = SparkTesting.single(with(args, "--out", dir.resolve(
				"single" + alpha).toString()));
			assertEquals(0, one.code, one.err);
			final SparkTesting.Run many = SparkTesting.spark(sc, with(args, "--out", dir
				.resolve("spark" + alpha).toString(), "--partitions", "3", "--path", alpha.equals(
					"gram") ? "gram" : "auto"));
			assertEquals(0, many.code, many.err);
			assertSameResults(summary(dir.resolve("single" + alpha)), summary(dir.resolve(
				"spark" + alpha)), 1e-6);
			assertEquals(alpha.equals("gram") ? "gram" : "moments", summary(dir.resolve("spark" +
				alpha)).getAsJsonObject("spark").get("path").getAsString());
		}
	}

	/** The same one-line messages as cpca fit, and no results folder. */
	@Test
	public void badInputAsTheSingleMachine(@TempDir final Path dir) throws Exception {
		final Path out = dir.resolve("out");
		final String target = IMAGES.resolve("target.tif").toString();
		final String[][] cases = { { "fit", "--target", dir.resolve("missing.tif").toString(),
			"--out", out.toString() }, { "fit", "--target", target, "--background", target,
				"--alpha", "-1", "--out", out.toString() }, { "fit", "--target", target,
					"--background", MICE.toString(), "--out", out.toString() }, { "fit",
						"--target", target, "--missing", "often", "--out", out.toString() } };
		for (final String[] c : cases) {
			final SparkTesting.Run one = SparkTesting.single(c), many = SparkTesting.spark(sc, c);
			assertEquals(1, many.code, many.err);
			assertEquals(one.err.replace("cpca: ", "cpca-spark: "), many.err, String.join(" ",
				c));
			assertFalse(many.err.contains("\tat "), many.err);
		}
		final SparkTesting.Run kernel = SparkTesting.spark(sc, "fit", "--target", target,
			"--background", target, "--method", "kernel", "--out", out.toString());
		assertEquals(1, kernel.code);
		assertTrue(kernel.err.contains("--method kernel does not run on Spark"), kernel.err);
		// a NaN pixel is found by an executor: one line naming dataset, sample and feature
		final ImageStack s = new ImageStack(4, 4);
		for (int i = 0; i < 5; i++) {
			final float[] px = new float[16];
			for (int j = 0; j < 16; j++)
				px[j] = (float) Math.sin(i * 16 + j);
			if (i == 3) px[5] = Float.NaN;
			s.addSlice(new FloatProcessor(4, 4, px));
		}
		final Path nan = dir.resolve("nan.tif");
		IJ.saveAsTiff(new ImagePlus("nan", s), nan.toString());
		final SparkTesting.Run bad = SparkTesting.spark(sc, "fit", "--target", nan.toString(),
			"--method", "pca", "--out", out.toString());
		assertEquals(1, bad.code, bad.err);
		assertTrue(bad.err.startsWith("cpca-spark: target has a non-finite value (NaN) at " +
			"slice 4, feature 6"), bad.err);
		assertEquals(1, bad.err.trim().split("\n").length, bad.err);
		assertFalse(Files.exists(out));
	}
}
