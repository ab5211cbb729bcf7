package org.cpca.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import ij.IJ;
import ij.ImagePlus;
import ij.ImageStack;
import ij.process.FloatProcessor;

import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/** Shared by the Spark tests: a local context, runs of both command lines, summaries. */
final class SparkTesting {

	/**
	 * The mouse protein table (Higuera et al.; docs/references.md), from the shared data
	 * folder beside the project (or this workplace's copy); tests that need it are skipped
	 * where it is absent.
	 */
	static final Path MICE = mice();

	private static Path mice() {
		final Path beside = Path.of("..", "..", "shared", "data", "Data_Cortex_Nuclear.csv")
			.toAbsolutePath().normalize();
		return java.nio.file.Files.isRegularFile(beside) ? beside : Path.of(
			"/work/shared/data/Data_Cortex_Nuclear.csv");
	}
	/** The project's test stacks (300 slices of 32 × 32 pixels each). */
	static final Path IMAGES = Path.of("..", "test-images").toAbsolutePath().normalize();

	private SparkTesting() {}

	/** A local context as the tests use it: UI off, bound to 127.0.0.1. */
	static JavaSparkContext context(final String master) {
		final SparkConf conf = new SparkConf().setMaster(master).setAppName("cpca-spark test")
			.set("spark.ui.enabled", "false").set("spark.driver.host", "127.0.0.1").set(
				"spark.driver.bindAddress", "127.0.0.1").set("spark.sql.shuffle.partitions",
					"2");
		final JavaSparkContext sc = new JavaSparkContext(conf);
		sc.setLogLevel("WARN");
		return sc;
	}

	/**
	 * A float stack of five 4 × 4 slices with one NaN pixel (slice 4, feature 6), which
	 * an executor finds.
	 */
	static Path nanStack(final Path file) {
		final ImageStack s = new ImageStack(4, 4);
		for (int i = 0; i < 5; i++) {
			final float[] px = new float[16];
			for (int j = 0; j < 16; j++)
				px[j] = (float) Math.sin(i * 16 + j);
			if (i == 3) px[5] = Float.NaN;
			s.addSlice(new FloatProcessor(4, 4, px));
		}
		IJ.saveAsTiff(new ImagePlus("nan", s), file.toString());
		return file;
	}

	/** Exit code, standard output and standard error of one run. */
	static final class Run {

		final int code;
		final String out, err;

		Run(final int code, final String out, final String err) {
			this.code = code;
			this.out = out;
			this.err = err;
		}
	}

	static Run spark(final JavaSparkContext sc, final String... args) {
		final StringWriter out = new StringWriter(), err = new StringWriter();
		final int code = SparkMain.run(sc, new PrintWriter(out), new PrintWriter(err), args);
		return new Run(code, out.toString(), err.toString());
	}

	static Run single(final String... args) {
		final StringWriter out = new StringWriter(), err = new StringWriter();
		final int code = org.cpca.cli.Main.run(new PrintWriter(out), new PrintWriter(err),
			args);
		return new Run(code, out.toString(), err.toString());
	}

	/** args followed by more. */
	static String[] with(final String[] args, final String... more) {
		final List<String> all = new ArrayList<>(List.of(args));
		all.addAll(List.of(more));
		return all.toArray(new String[0]);
	}

	static JsonObject summary(final Path dir) throws IOException {
		return JsonParser.parseString(new String(Files.readAllBytes(dir.resolve(
			"summary.json")), StandardCharsets.UTF_8)).getAsJsonObject();
	}

	/**
	 * The two results folders have the same scores.csv: the same header and columns
	 * label, model and α, the scores equal to 1e-6 row by row. (The sample column differs:
	 * one machine names a table's rows by its ID column, Spark by their position.)
	 */
	static void assertSameScores(final Path single, final Path spark) throws IOException {
		final List<String> s1 = Files.readAllLines(single.resolve("scores.csv")), s2 = Files
			.readAllLines(spark.resolve("scores.csv"));
		assertEquals(s1.size(), s2.size());
		assertEquals(s1.get(0), s2.get(0));
		for (int i = 1; i < s1.size(); i++) {
			final String[] x = s1.get(i).split(","), y = s2.get(i).split(",");
			for (int c = 1; c < 4; c++)
				assertEquals(x[c], y[c]);
			for (int c = 4; c < x.length; c++)
				assertEquals(Double.parseDouble(x[c]), Double.parseDouble(y[c]), 1e-6 * (1 + Math
					.abs(Double.parseDouble(x[c]))), "scores.csv line " + (i + 1));
		}
	}

	/**
	 * The two summaries have the same results: the same α (or other setting) per result,
	 * eigenvalues equal to {@code relative}, and the same automatic α set.
	 */
	static void assertSameResults(final JsonObject single, final JsonObject spark,
		final double relative)
	{
		final JsonArray a = single.getAsJsonArray("results"), b = spark.getAsJsonArray(
			"results");
		assertEquals(a.size(), b.size(), "number of results");
		for (int r = 0; r < a.size(); r++) {
			final JsonObject x = a.get(r).getAsJsonObject(), y = b.get(r).getAsJsonObject();
			assertEquals(x.get("alpha"), y.get("alpha"), "alpha of result " + r);
			final JsonArray ex = x.getAsJsonArray("eigenvalues"), ey = y.getAsJsonArray(
				"eigenvalues");
			assertEquals(ex.size(), ey.size());
			// a value that is 0 in exact arithmetic (gcPCA's ratio where the target has no
			// variance) is rounding on either side: errors scale with the largest value
			double largest = 0;
			for (int c = 0; c < ex.size(); c++)
				largest = Math.max(largest, Math.abs(ex.get(c).getAsDouble()));
			for (int c = 0; c < ex.size(); c++) {
				final double u = ex.get(c).getAsDouble(), v = ey.get(c).getAsDouble();
				assertEquals(u, v, relative * (Math.abs(u) + 1e-3 * largest), "eigenvalue " + c +
					" of result " + r + " (α = " + x.get("alpha") + ")");
			}
			for (final String key : new String[] { "target_variance", "background_variance" }) {
				final JsonElement tx = x.get(key), ty = y.get(key);
				if (tx == null || tx.isJsonNull()) continue;
				for (int c = 0; c < tx.getAsJsonArray().size(); c++) {
					final double u = tx.getAsJsonArray().get(c).getAsDouble(), v = ty
						.getAsJsonArray().get(c).getAsDouble();
					// values that are 0 in exact arithmetic (α = ∞) agree in absolute terms
					assertEquals(u, v, 1e3 * relative * Math.abs(u) + 1e-9, key + " " + c);
				}
			}
		}
		assertEquals(single.get("selection") == null ? null : single.getAsJsonObject(
			"selection").get("alphas"), spark.get("selection") == null ? null : spark
				.getAsJsonObject("selection").get("alphas"), "automatic α set");
	}
}
