package org.cpca.spark;

import static org.cpca.spark.SparkTesting.MICE;
import static org.cpca.spark.SparkTesting.assertSameResults;
import static org.cpca.spark.SparkTesting.summary;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.google.gson.JsonObject;

/**
 * CSV tables named by URIs, read through Hadoop's FileSystem API by the driver (the
 * checking pass) and the executors (the lines): {@code file://} and a second scheme,
 * {@code testfs://}, registered in the Hadoop configuration for this test only (the local
 * disk behind it, every open counted), so a non-{@code file} scheme really goes through
 * the API. The results equal cpca fit's on the same table; bad input gets cpca fit's
 * message with the URI for the path.
 */
public class SparkUriTest extends LocalSparkTest {

	/** The local file system under another scheme; counts the files it opens. */
	public static final class TestFs extends RawLocalFileSystem {

		static final AtomicInteger OPENS = new AtomicInteger();

		@Override
		public URI getUri() {
			return URI.create("testfs:///");
		}

		@Override
		public String getScheme() {
			return "testfs";
		}

		@Override
		public File pathToFile(final org.apache.hadoop.fs.Path path) {
			return new File(path.toUri().getPath());
		}

		@Override
		public FSDataInputStream open(final org.apache.hadoop.fs.Path f, final int bufferSize)
			throws IOException
		{
			OPENS.incrementAndGet();
			return super.open(f, bufferSize);
		}
	}

	/** After {@link LocalSparkTest}'s start: the test scheme. */
	@BeforeAll
	static void registerTestFs() {
		sc.hadoopConfiguration().set("fs.testfs.impl", TestFs.class.getName());
		sc.hadoopConfiguration().set("fs.testfs.impl.disable.cache", "true");
	}

	/** The mouse set-up with the table named {@code table} (a path or a URI). */
	private static String[] mice(final String table, final Path out) {
		final String[] args = SparkFitTest.mice(out);
		final java.util.List<String> list = Arrays.asList(args);
		args[list.indexOf("--target") + 1] = table;
		args[list.indexOf("--background") + 1] = table;
		return args;
	}

	@Test
	public void csvByUriEqualsCpcaFit(@TempDir final Path dir) throws Exception {
		assumeTrue(Files.exists(MICE), "the mouse protein table is not on this machine");
		final SparkTesting.Run one = SparkTesting.single(mice(MICE.toString(), dir.resolve(
			"single")));
		assertEquals(0, one.code, one.err);
		final JsonObject a = summary(dir.resolve("single"));
		final String file = MICE.toUri().toString(), test = "testfs://" + MICE.toAbsolutePath();
		assertTrue(file.startsWith("file:/"), file);
		for (final String uri : new String[] { file, test }) {
			final int before = TestFs.OPENS.get();
			final Path out = dir.resolve(uri.startsWith("file") ? "file" : "testfs");
			final SparkTesting.Run many = SparkTesting.spark(sc, SparkTesting.with(mice(uri, out),
				"--partitions", "3"));
			assertEquals(0, many.code, many.err);
			final JsonObject b = summary(out);
			assertSameResults(a, b, 1e-8);
			assertEquals(uri, b.getAsJsonObject("target").get("path").getAsString());
			for (final String role : new String[] { "target", "background" })
				for (final String fact : new String[] { "samples", "features", "ignored_columns",
					"rows_read", "cells_filled" })
					assertEquals(a.getAsJsonObject(role).get(fact), b.getAsJsonObject(role).get(
						fact), role + " " + fact);
			SparkTesting.assertSameScores(dir.resolve("single"), out);
			// testfs: the driver's checking passes and the executors' splits opened through it
			if (uri.equals(test)) assertTrue(TestFs.OPENS.get() - before >= 2 + 3,
				"opens through testfs: " + (TestFs.OPENS.get() - before));
			else assertEquals(before, TestFs.OPENS.get());
		}
	}

	/**
	 * The test stacks (TIFF, 300 + 300 slices of 32 × 32, slice labels) by URI: the
	 * driver reads the headers, the executors their slice ranges, through the FileSystem
	 * API; equal to cpca fit on the paths, labels included.
	 */
	@Test
	public void tiffStacksByUriEqualCpcaFit(@TempDir final Path dir) throws Exception {
		final Path t = SparkTesting.IMAGES.resolve("target.tif"), b = SparkTesting.IMAGES
			.resolve("background.tif");
		final SparkTesting.Run one = SparkTesting.single("fit", "--target", t.toString(),
			"--background", b.toString(), "--alpha", "2", "--out", dir.resolve("single")
				.toString());
		assertEquals(0, one.code, one.err);
		final JsonObject a = summary(dir.resolve("single"));
		for (final String scheme : new String[] { "file", "testfs" }) {
			final int before = TestFs.OPENS.get();
			final Path out = dir.resolve(scheme);
			final String tu = scheme.equals("file") ? t.toUri().toString() : "testfs://" + t,
				bu = scheme.equals("file") ? b.toUri().toString() : "testfs://" + b;
			for (final String path : new String[] { "gram", "moments" }) {
				final Path o = out.resolve(path);
				final SparkTesting.Run many = SparkTesting.spark(sc, "fit", "--target", tu,
					"--background", bu, "--alpha", "2", "--partitions", "3", "--path", path,
					"--out", o.toString());
				assertEquals(0, many.code, many.err);
				final JsonObject x = summary(o);
				assertSameResults(a, x, 1e-6);
				assertEquals(tu, x.getAsJsonObject("target").get("path").getAsString());
				assertEquals(path, x.getAsJsonObject("spark").get("path").getAsString());
				SparkTesting.assertSameScores(dir.resolve("single"), o);
			}
			if (scheme.equals("testfs")) assertTrue(TestFs.OPENS.get() - before >= 2 * (2 + 3),
				"opens through testfs: " + (TestFs.OPENS.get() - before));
		}
		// a truncated stack: cpca fit's message, with the URI
		final byte[] all = Files.readAllBytes(t);
		final Path cut = dir.resolve("cut.tif");
		Files.write(cut, Arrays.copyOf(all, all.length / 2));
		final SparkTesting.Run one2 = SparkTesting.single("fit", "--target", cut.toString(),
			"--method", "pca", "--out", dir.resolve("x").toString());
		assertEquals(1, one2.code, one2.err);
		final String uri = "testfs://" + cut;
		final SparkTesting.Run many = SparkTesting.spark(sc, "fit", "--target", uri,
			"--method", "pca", "--out", dir.resolve("x").toString());
		assertEquals(1, many.code, many.err);
		assertEquals(one2.err.replace("cpca: ", "cpca-spark: ").replace(cut.toString(), uri),
			many.err);
	}

	/** Bad tables by URI: cpca fit's one line, with the URI where it names the path. */
	@Test
	public void badTablesByUriAsTheSingleMachine(@TempDir final Path dir) throws Exception {
		final Path bad = dir.resolve("bad.csv"), huge = dir.resolve("huge.csv"), empty = dir
			.resolve("empty.csv"), missing = dir.resolve("none.csv");
		Files.writeString(bad, "a,b,c\n1,2,3\n4,5\n7,8,9\n");
		Files.writeString(huge, "a,b,c\n1,2,3\n4,1e99,6\n7,8,9\n");
		Files.writeString(empty, "a,b,c\n");
		final Path out = dir.resolve("out");
		for (final Path table : new Path[] { bad, huge, empty, missing }) {
			final SparkTesting.Run one = SparkTesting.single("fit", "--target", table.toString(),
				"--method", "pca", "--out", out.toString());
			assertEquals(1, one.code, one.err);
			for (final String uri : new String[] { table.toUri().toString(), "testfs://" + table
				.toAbsolutePath() })
			{
				final SparkTesting.Run many = SparkTesting.spark(sc, "fit", "--target", uri,
					"--method", "pca", "--out", out.toString());
				assertEquals(1, many.code, many.err);
				assertEquals(one.err.replace("cpca: ", "cpca-spark: ").replace(table.toString(),
					uri), many.err, uri);
			}
		}
		// other images by URI stay refused, with one line that says what is read from URIs
		final SparkTesting.Run png = SparkTesting.spark(sc, "fit", "--target",
			"testfs:///data/t.png", "--out", out.toString());
		assertEquals(1, png.code, png.err);
		assertEquals(1, png.err.trim().split("\n").length, png.err);
		assertTrue(png.err.contains("reads CSV and TSV tables (*.csv, *.tsv), TIFF stacks"),
			png.err);
		assertFalse(Files.exists(out));
	}
}
