package org.cpca.spark;

import static org.cpca.spark.SparkTesting.IMAGES;
import static org.cpca.spark.SparkTesting.MICE;
import static org.cpca.spark.SparkTesting.assertSameResults;
import static org.cpca.spark.SparkTesting.summary;
import static org.cpca.spark.SparkTesting.with;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.cpca.core.gcpca.GcpcaRun;
import org.cpca.core.pcpca.PcpcaRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/**
 * gcPCA, PCPCA and cPCA++ with its default Ledoit–Wolf ridge in cpca-spark fit (local[2])
 * against cpca fit on the same data: the mouse set-up (the moments path, 1e-8) and the
 * test stacks (the Gram path, 1e-6).
 */
public class SparkMethodsTest extends LocalSparkTest {

	/** Runs both command lines on {@code args} into dir/single and dir/spark. */
	private static JsonObject[] both(final Path dir, final String name, final String[] args)
		throws Exception
	{
		final Path single = dir.resolve(name + "-single"), spark = dir.resolve(name + "-spark");
		final SparkTesting.Run one = SparkTesting.single(with(args, "--out", single.toString(),
			"--no-plots"));
		assertEquals(0, one.code, one.err);
		final SparkTesting.Run many = SparkTesting.spark(sc, with(args, "--out", spark
			.toString(), "--partitions", "3"));
		assertEquals(0, many.code, many.err);
		return new JsonObject[] { summary(single), summary(spark), model(single), model(
			spark) };
	}

	private static JsonObject model(final Path dir) throws Exception {
		return JsonParser.parseString(Files.readString(dir.resolve("model.json")))
			.getAsJsonObject();
	}

	/** The first {@code count} components of the two model files within {@code radians}. */
	private static double assertSameComponents(final JsonObject a, final JsonObject b,
		final int count, final double radians)
	{
		double max = 0;
		final JsonArray x = a.getAsJsonArray("components"), y = b.getAsJsonArray("components");
		assertEquals(x.size(), y.size());
		for (int c = 0; c < count; c++) {
			final JsonArray u = x.get(c).getAsJsonArray(), v = y.get(c).getAsJsonArray();
			double uv = 0, uu = 0, vv = 0;
			for (int j = 0; j < u.size(); j++) {
				final double p = u.get(j).getAsDouble(), q = v.get(j).getAsDouble();
				uv += p * q;
				uu += p * p;
				vv += q * q;
			}
			final double cos = Math.min(1, Math.abs(uv) / Math.sqrt(uu * vv));
			final double angle = Math.acos(cos);
			assertTrue(uv > 0 && angle < radians, "component " + (c + 1) + ": " + angle +
				" rad");
			max = Math.max(max, angle);
		}
		return max;
	}

	private static void assertSameFact(final JsonObject a, final JsonObject b,
		final String fact, final double relative)
	{
		assertNotNull(a.get(fact), fact + " in cpca fit's summary");
		final double x = a.get(fact).getAsDouble(), y = b.get(fact).getAsDouble();
		assertEquals(x, y, relative * Math.abs(x), fact);
	}

	private static boolean notes(final JsonObject summary, final String note) {
		for (final var n : summary.getAsJsonArray("diagnostics"))
			if (n.getAsString().equals(note)) return true;
		return false;
	}

	private static String[] mice(final String... more) {
		return SparkFitTest.mice(Path.of("unused"), more);
	}

	/** The mouse set-up without its --out (both() adds one). */
	private static String[] miceArgs(final String... more) {
		final String[] all = mice(more);
		final java.util.List<String> list = new java.util.ArrayList<>(java.util.List.of(all));
		final int at = list.indexOf("--out");
		list.remove(at + 1);
		list.remove(at);
		return list.toArray(new String[0]);
	}

	/**
	 * gcPCA on the mouse set-up: the moments path. v1 (cPCA at α) equals cpca fit to
	 * rounding in every value and component. v2–v4 divide by B or A + B, which here have
	 * condition numbers of 2–5 × 10¹⁵ (standardised, near-collinear proteins; zero-filled
	 * cells): the core adds its ridge (docs/math/gcpca.md) and the solution depends on
	 * rounding far more than its values do: the values still agree to 1e-8 (relative to
	 * the largest), the target-enriched components to about 3e-4 rad (measured), and the
	 * background-enriched end
	 * holds near-zero ratios whose directions are not unique. The well-conditioned table
	 * below checks v2–v4 to 1e-8.
	 */
	@Test
	public void gcpcaOnTheMiceEqualsCpcaFit(@TempDir final Path dir) throws Exception {
		assumeTrue(Files.exists(MICE), "the mouse protein table is not on this machine");
		final JsonObject[] v1 = both(dir, "v1", miceArgs("--method", "gcpca", "--variant",
			"v1", "--alpha", "2"));
		assertEquals("gcpca", v1[1].get("method").getAsString());
		assertEquals("moments", v1[1].getAsJsonObject("spark").get("path").getAsString());
		assertSameResults(v1[0], v1[1], 1e-8);
		assertSameComponents(v1[2], v1[3], 4, 1e-6);
		final String[][] cases = { { "--method", "gcpca", "--shuffles", "10" }, { "--method",
			"gcpca", "--variant", "v2" }, { "--method", "gcpca", "--variant", "v3",
				"--orthogonal" } };
		for (int i = 0; i < cases.length; i++) {
			final JsonObject[] r = both(dir, "gcpca" + i, miceArgs(cases[i]));
			assertSameValues(r[0], r[1], 1e-8);
			assertSameComponents(r[2], r[3], 2, 1e-3);
			for (final String f : new String[] { "variant", "orthogonal", "component_ends" })
				assertEquals(r[0].get(f), r[1].get(f), f);
			if (i == 0) {
				// the shuffle test needs the samples: run by cpca fit, a note on Spark
				assertNotNull(r[0].get("significant_components"));
				assertFalse(r[1].has("significant_components"));
				assertTrue(notes(r[1], GcpcaRun.NO_SHUFFLES), r[1].toString());
			}
		}
	}

	/** gcPCA v2–v4 on well-conditioned tables (CSV, 12 features): 1e-8 everywhere. */
	@Test
	public void gcpcaOnATableEqualsCpcaFit(@TempDir final Path dir) throws Exception {
		final java.util.Random r = new java.util.Random(17);
		for (final String set : new String[] { "t", "b" }) {
			final StringBuilder csv = new StringBuilder();
			for (int j = 0; j < 12; j++)
				csv.append(j == 0 ? "" : ",").append("f").append(j + 1);
			csv.append('\n');
			for (int i = 0; i < (set.equals("t") ? 400 : 300); i++) {
				final double shared = 3 * r.nextGaussian(), own = set.equals("t") ? 2 * r
					.nextGaussian() : 0, only = set.equals("b") ? 1.5 * r.nextGaussian() : 0;
				for (int j = 0; j < 12; j++)
					csv.append(j == 0 ? "" : ",").append((float) (10 + shared * Math.cos(j) + own *
						Math.sin(0.7 * j) + only * Math.cos(1.3 * j + 1) + (0.2 + 0.05 * j) * r
							.nextGaussian()));
				csv.append('\n');
			}
			Files.writeString(dir.resolve(set + ".csv"), csv);
		}
		final String[] base = { "fit", "--target", dir.resolve("t.csv").toString(),
			"--background", dir.resolve("b.csv").toString(), "--method", "gcpca" };
		final String[][] cases = { { "--variant", "v2" }, { "--variant", "v3" }, {},
			{ "--orthogonal", "--standardize" } };
		for (int i = 0; i < cases.length; i++) {
			final JsonObject[] x = both(dir, "table" + i, with(base, cases[i]));
			assertEquals("moments", x[1].getAsJsonObject("spark").get("path").getAsString());
			assertSameResults(x[0], x[1], 1e-8);
			assertSameComponents(x[2], x[3], 4, 1e-6);
			assertEquals(x[0].get("ridge"), x[1].get("ridge"));
		}
	}

	/** All 2k values equal to {@code relative} of the largest. */
	private static void assertSameValues(final JsonObject a, final JsonObject b,
		final double relative)
	{
		final JsonArray x = a.getAsJsonArray("results").get(0).getAsJsonObject()
			.getAsJsonArray("eigenvalues"), y = b.getAsJsonArray("results").get(0)
				.getAsJsonObject().getAsJsonArray("eigenvalues");
		double largest = 0;
		for (int c = 0; c < x.size(); c++)
			largest = Math.max(largest, Math.abs(x.get(c).getAsDouble()));
		for (int c = 0; c < x.size(); c++)
			assertEquals(x.get(c).getAsDouble(), y.get(c).getAsDouble(), relative * largest,
				"value " + (c + 1));
	}

	/** PCPCA at α = 0.5 on the mouse set-up: the same γ, σ², likelihood and model. */
	@Test
	public void pcpcaOnTheMiceEqualsCpcaFit(@TempDir final Path dir) throws Exception {
		assumeTrue(Files.exists(MICE), "the mouse protein table is not on this machine");
		final JsonObject[] r = both(dir, "pcpca", miceArgs("--method", "pcpca", "--alpha",
			"0.5"));
		assertSameResults(r[0], r[1], 1e-8);
		assertSameComponents(r[2], r[3], 2, 1e-6);
		for (final String f : new String[] { "gamma", "noise_variance", "alpha_bound",
			"log_likelihood" })
			assertSameFact(r[0], r[1], f, 1e-8);
		// held out: the same seeded split, its parts' moments from the executors
		assertSameFact(r[0], r[1], "held_out_log_likelihood", 1e-8);
		assertFalse(notes(r[1], PcpcaRun.NO_HELD_OUT), r[1].toString());
		// the loading scales (model.json) too
		final JsonArray s0 = r[2].getAsJsonObject("parameters").getAsJsonArray(
			"loading_scales"), s1 = r[3].getAsJsonObject("parameters").getAsJsonArray(
				"loading_scales");
		for (int c = 0; c < s0.size(); c++)
			assertEquals(s0.get(c).getAsDouble(), s1.get(c).getAsDouble(), 1e-8 * s0.get(c)
				.getAsDouble());
		// --missing model stays on one machine: one line
		final String[] em0 = miceArgs("--method", "pcpca", "--alpha", "0.5");
		em0[java.util.Arrays.asList(em0).indexOf("--missing") + 1] = "model";
		final SparkTesting.Run em = SparkTesting.spark(sc, with(em0, "--out", dir.resolve(
			"em").toString()));
		assertEquals(1, em.code, em.err);
		assertEquals(1, em.err.trim().split("\n").length, em.err);
		assertTrue(em.err.contains("--missing model"), em.err);
	}

	/** cPCA++ without --epsilon: the Ledoit–Wolf ridge from a fourth-moment pass. */
	@Test
	public void cpcaPlusPlusLedoitWolfOnTheMiceEqualsCpcaFit(@TempDir final Path dir)
		throws Exception
	{
		assumeTrue(Files.exists(MICE), "the mouse protein table is not on this machine");
		final JsonObject[] r = both(dir, "cpcapp", miceArgs("--method", "cpcapp"));
		assertTrue(r[0].get("regularization").getAsDouble() > 0, r[0].toString());
		assertSameFact(r[0], r[1], "regularization", 1e-8);
		assertSameResults(r[0], r[1], 1e-8);
		assertSameComponents(r[2], r[3], 2, 1e-6);
	}

	/**
	 * The test stacks (1024 pixels, 300 + 300 slices): the Gram path, as cpca fit takes
	 * its reduced space — gcPCA choosing its number of pooled components, cPCA++ with the
	 * ridge from G's diagonal, PCPCA.
	 */
	@Test
	public void imageStacksEqualCpcaFit(@TempDir final Path dir) throws Exception {
		final String[] base = { "--target", IMAGES.resolve("target.tif").toString(),
			"--background", IMAGES.resolve("background.tif").toString() };
		final String[][] cases = { { "--method", "gcpca" }, { "--method", "cpcapp" }, {
			"--method", "pcpca", "--alpha", "0.5" } };
		for (int i = 0; i < cases.length; i++) {
			final JsonObject[] r = both(dir, "images" + i, with(with(new String[] { "fit" },
				base), cases[i]));
			assertEquals("gram", r[1].getAsJsonObject("spark").get("path").getAsString());
			assertSameResults(r[0], r[1], 1e-6);
			assertSameComponents(r[2], r[3], r[2].getAsJsonArray("components").size(), 1e-4);
			if (i == 0) assertEquals(r[2].getAsJsonObject("parameters").get(
				"pooled_components"), r[3].getAsJsonObject("parameters").get(
					"pooled_components"));
			if (i == 1) assertSameFact(r[0], r[1], "regularization", 1e-6);
			if (i == 2) assertSameFact(r[0], r[1], "log_likelihood", 1e-6);
		}
	}
}
