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

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.google.gson.JsonObject;

import org.cpca.io.LoadedData;

import ij.IJ;
import ij.ImagePlus;
import ij.process.FloatProcessor;

/**
 * cpca-spark fit in local mode (local[2]) against cpca fit on the same data: the mouse
 * protein table and the test stacks, automatic α; bad input.
 */
public class SparkFitTest extends LocalSparkTest {

	/** A folder for results that several tests compare with. */
	@TempDir
	static Path shared;

	private static Path singleMice;

	/** cpca fit on the mouse set-up, run once for the tests that compare with it. */
	static synchronized Path singleMice() {
		if (singleMice == null) {
			final Path dir = shared.resolve("single-mice");
			final SparkTesting.Run one = SparkTesting.single(mice(dir));
			assertEquals(0, one.code, one.err);
			singleMice = dir;
		}
		return singleMice;
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
		return mice(MICE, out, more);
	}

	/** The same set-up on another copy of the table (e.g. Parquet). */
	static String[] mice(final Path table, final Path out, final String... more) {
		return with(new String[] { "fit", "--alpha-range", "0.1,300", "--target", table.toString(), "--target-where",
			"Behavior=S/C", "--target-where", "Treatment=Saline", "--background", table
				.toString(), "--background-where", "Behavior=C/S", "--background-where",
			"Treatment=Saline", "--background-where", "Genotype=Control", "--label-column",
			"Genotype", "--missing", "zero", "--standardize", "--out", out.toString() }, more);
	}

	@Test
	public void miceTableEqualsCpcaFit(@TempDir final Path dir) throws Exception {
		assumeTrue(Files.exists(MICE), "the mouse protein table is not on this machine");
		final SparkTesting.Run many = SparkTesting.spark(sc, with(mice(dir.resolve(
			"spark")), "--partitions", "3"));
		assertEquals(0, many.code, many.err);
		final JsonObject a = summary(singleMice()), b = summary(dir.resolve("spark"));
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
		SparkTesting.assertSameScores(singleMice(), dir.resolve("spark"));
		// the same main model (model.json), chosen by the same rule
		assertEquals(modelAlpha(singleMice()), modelAlpha(dir.resolve("spark")), 1e-9);
	}

	private static double modelAlpha(final Path folder) throws Exception {
		return com.google.gson.JsonParser.parseString(Files.readString(folder.resolve(
			"model.json"))).getAsJsonObject().get("alpha").getAsDouble();
	}

	/**
	 * The mouse table written as Parquet (by Spark SQL, in row groups of about 100 rows,
	 * so that it splits into several partitions): the same columns, filters, labels and
	 * missing cells as the CSV, and the same results as cpca fit on the CSV.
	 */
	@Test
	public void parquetTableEqualsCpcaFitOnTheCsv(@TempDir final Path dir) throws Exception {
		assumeTrue(Files.exists(MICE), "the mouse protein table is not on this machine");
		final org.apache.spark.sql.SparkSession spark = org.apache.spark.sql.SparkSession
			.builder().getOrCreate();
		final Path parquet = dir.resolve("mice.parquet");
		spark.read().option("header", "true").option("inferSchema", "true").csv(MICE
			.toString()).coalesce(1).write().option("parquet.block.size", "16384").parquet(
				parquet.toString());
		// the table named by a file: URI, and the results folder too: the code path of
		// hdfs://, s3a://, … (Hadoop's FileSystem), with the local file system behind it
		final String[] args = mice(parquet, dir.resolve("spark"), "--partitions", "3");
		args[java.util.Arrays.asList(args).indexOf("--target") + 1] = parquet.toUri()
			.toString();
		final String outUri = dir.resolve("spark").toUri().toString();
		assertTrue(outUri.startsWith("file:/"), outUri);
		args[java.util.Arrays.asList(args).indexOf("--out") + 1] = outUri;
		final SparkTesting.Run many = SparkTesting.spark(sc, args);
		assertEquals(0, many.code, many.err);
		assertTrue(many.out.contains("Results in " + outUri + " ("), many.out);
		final JsonObject a = summary(singleMice()), b = summary(dir.resolve("spark"));
		assertEquals(parquet.toUri().toString(), b.getAsJsonObject("target").get("path")
			.getAsString());
		try (java.util.stream.Stream<Path> left = Files.list(dir)) {
			assertTrue(left.noneMatch(f -> f.getFileName().toString().contains(".partial-")),
				"no staging folder left");
		}
		try (java.util.stream.Stream<Path> written = Files.list(dir.resolve("spark"))) {
			assertTrue(written.noneMatch(f -> f.getFileName().toString().endsWith(".crc")),
				"no checksum files among the results");
		}
		assertSameResults(a, b, 1e-8);
		for (final String role : List.of("target", "background"))
			for (final String fact : List.of("samples", "features", "ignored_columns",
				"rows_read", "cells_filled"))
				assertEquals(a.getAsJsonObject(role).get(fact), b.getAsJsonObject(role).get(fact),
					role + " " + fact);
		assertTrue(b.getAsJsonObject("target").get("read").getAsString().startsWith(
			"Parquet"));
		SparkTesting.assertSameScores(singleMice(), dir.resolve("spark"));
		// the table came in several partitions, in order
		final LoadedData.Reading how = new LoadedData.Reading();
		assertTrue(SparkParquet.open(sc, "target", parquet.toString(), parquet, how, 3,
			false).rows
			.getNumPartitions() > 1);
		// bad input: one line, no results folder
		final Path out = dir.resolve("bad");
		final String[][] cases = { { "fit", "--target", dir.resolve("none.parquet").toString(),
			"--out", out.toString() }, { "fit", "--target", parquet.toString(), "--label-column",
				"Colour", "--out", out.toString() }, { "fit", "--target", parquet.toString(),
					"--target-where", "Behavior=X", "--out", out.toString() } };
		final String[] expected = { "does not exist", "has no column 'Colour' (--label-column)",
			"no row matches Behavior=X" };
		// a folder of images by URI, and a results folder URI that is taken: one line each
		final SparkTesting.Run csv = SparkTesting.spark(sc, "fit", "--target", IMAGES.toUri()
			.toString(), "--out", out.toString());
		assertEquals(1, csv.code, csv.err);
		assertTrue(csv.err.contains("and Parquet tables (*.parquet)"), csv.err);
		final SparkTesting.Run taken = SparkTesting.spark(sc, "fit", "--target", parquet
			.toString(), "--out", dir.resolve("spark").toUri().toString());
		assertEquals(1, taken.code, taken.err);
		assertTrue(taken.err.contains("exists and is not an empty folder"), taken.err);
		assertEquals(1, csv.err.trim().split("\n").length, csv.err);
		assertEquals(1, taken.err.trim().split("\n").length, taken.err);
		final SparkTesting.Run labels = SparkTesting.spark(sc, "fit", "--target", parquet
			.toString(), "--labels", "hdfs://namenode/labels.txt", "--out", out.toString());
		assertEquals(1, labels.code, labels.err);
		assertEquals("cpca-spark: --labels hdfs://namenode/labels.txt is a URI: give it as a " +
			"path on a file system the driver reads (the driver reads it itself)", labels.err
				.trim());
		for (int i = 0; i < cases.length; i++) {
			final SparkTesting.Run bad = SparkTesting.spark(sc, cases[i]);
			assertEquals(1, bad.code, bad.err);
			assertTrue(bad.err.contains(expected[i]), bad.err);
			assertEquals(1, bad.err.trim().split("\n").length, bad.err);
		}
		assertFalse(Files.exists(out));
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
		assertEquals(modelAlpha(dir.resolve("single")), modelAlpha(dir.resolve("spark")), 1e-9);
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
						"--target", target, "--missing", "often", "--out", out.toString() }, {
							"fit", "--target", target, "--background", target, "--out", out
								.toString() } };
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
		final Path nan = SparkTesting.nanStack(dir.resolve("nan.tif"));
		final SparkTesting.Run bad = SparkTesting.spark(sc, "fit", "--target", nan.toString(),
			"--method", "pca", "--out", out.toString());
		assertEquals(1, bad.code, bad.err);
		assertTrue(bad.err.startsWith("cpca-spark: target has a non-finite value (NaN) at " +
			"slice 4, feature 6"), bad.err);
		assertEquals(1, bad.err.trim().split("\n").length, bad.err);
		assertFalse(Files.exists(out));
	}
}
