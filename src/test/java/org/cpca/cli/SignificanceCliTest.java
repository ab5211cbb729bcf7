package org.cpca.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import org.cpca.core.TestData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cpca fit --significance N} (issue 34, docs/math/significance.md): each result of
 * the summary gets the permutation test of its own parameters, the console one line per
 * result; methods it does not cover are refused before any input is read.
 */
class SignificanceCliTest {

	@TempDir
	Path dir;

	/** A planted table: 2 target-only directions, 8 features in all. */
	private Path[] tables() throws Exception {
		final float[][][] p = TestData.planted(5, 150, 150, 8, 2, 2, 1.0);
		return new Path[] { table(dir.resolve("target.csv"), p[0]), table(dir.resolve(
			"background.csv"), p[1]) };
	}

	/** The rows as a CSV table with a header f0, f1, … (written to {@code file}). */
	static Path table(final Path file, final float[][] rows) throws Exception {
		final int d = rows[0].length;
		final StringBuilder s = new StringBuilder("f0");
		for (int j = 1; j < d; j++)
			s.append(",f").append(j);
		s.append('\n');
		for (final float[] row : rows) {
			for (int j = 0; j < d; j++)
				s.append(j == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.7g", row[j]));
			s.append('\n');
		}
		Files.write(file, s.toString().getBytes(StandardCharsets.UTF_8));
		return file;
	}

	static JsonObject summary(final Path out) throws Exception {
		return JsonParser.parseString(new String(Files.readAllBytes(out.resolve(
			"summary.json")), StandardCharsets.UTF_8)).getAsJsonObject();
	}

	@Test
	void eachResultGetsItsPermutationTestAndThePlantedComponentsAreSignificant()
		throws Exception
	{
		final Path[] t = tables();
		// the shared directions (variance 100 and 50 in both) are no contrast at these
		// settings; the two target-only ones (9 and 6.25) are
		for (final String[] how : new String[][] { { "cpca", "--alpha", "5" }, { "star",
			"--beta", "0.9" }, { "uca", "--seed", "0" }, { "rpca", "--k-b", "2" } })
		{
			final String method = how[0];
			final Path out = dir.resolve("out-" + method);
			final Object[] r = CliTest.cpca("fit", "--target", t[0].toString(), "--background",
				t[1].toString(), "--method", method, how[1], how[2], "-k", "3", "--significance",
				"99", "--out", out.toString());
			assertEquals(0, r[0], method + ": " + r[2]);
			final JsonObject s = summary(out);
			final JsonObject result = s.getAsJsonArray("results").get(0).getAsJsonObject();
			final JsonObject sig = result.getAsJsonObject("significance");
			assertEquals(99, sig.get("permutations").getAsInt(), method);
			assertEquals(0, sig.get("seed").getAsLong(), method);
			final JsonArray p = sig.getAsJsonArray("p_values");
			assertEquals(3, p.size(), method);
			// rPCA's second planted component is not found: the max-statistic's null is
			// inflated by the first (docs/math/significance.md, power)
			final boolean both = !method.equals("rpca");
			assertTrue(p.get(0).getAsDouble() <= 0.02 && (!both || p.get(1)
				.getAsDouble() <= 0.02), method + ": the planted components have p " + p);
			assertTrue(p.get(2).getAsDouble() > 0.05, method + ": the third is noise, p " + p);
			assertTrue(r[1].toString().contains("permutation test p = "), r[1].toString());
			assertTrue(r[1].toString().contains(both ? "components 1, 2 significant"
				: "component 1 significant"), method + ": " + r[1]);
		}
	}

	@Test
	void theSameSeedGivesTheSamePValuesAndWithoutTheKeyTheSummaryHasNone()
		throws Exception
	{
		final Path[] t = tables();
		final String[] p = new String[2];
		for (int i = 0; i < 2; i++) {
			final Path out = dir.resolve("seed-" + i);
			assertEquals(0, CliTest.cpca("fit", "--target", t[0].toString(), "--background", t[1]
				.toString(), "--alpha", "1", "--significance", "49", "--seed", "3", "--out", out
					.toString())[0]);
			p[i] = summary(out).getAsJsonArray("results").get(0).getAsJsonObject().get(
				"significance").toString();
		}
		assertEquals(p[0], p[1]);
		final Path plain = dir.resolve("plain");
		assertEquals(0, CliTest.cpca("fit", "--target", t[0].toString(), "--background", t[1]
			.toString(), "--alpha", "1", "--out", plain.toString())[0]);
		assertFalse(summary(plain).toString().contains("significance"));
	}

	@Test
	void methodsItDoesNotCoverAreRefusedInOneLineBeforeReading() throws Exception {
		final Path[] t = tables();
		for (final String[] how : new String[][] { { "--method", "online" }, {
			"--significance", "2000000" } })
		{
			final Path out = dir.resolve("refused-" + how[1]);
			final String[] base = { "fit", "--target", t[0].toString(), "--background", t[1]
				.toString(), "--significance", "9", "--out", out.toString() };
			final String[] args = new String[base.length + 2];
			System.arraycopy(base, 0, args, 0, base.length);
			System.arraycopy(how, 0, args, base.length, 2);
			final Object[] r = CliTest.cpca(args);
			assertTrue((int) r[0] != 0, String.join(" ", how));
			final String err = r[2].toString().trim();
			assertTrue(err.contains("significance"), err);
			assertEquals(1, err.lines().count(), err);
			assertFalse(Files.exists(out), "nothing written for " + String.join(" ", how));
		}
	}

	@Test
	void reselectingAutomaticAlphaTestsEveryChosenAlphaAgainstTheWholeSelection()
		throws Exception
	{
		final Path[] t = tables();
		final Path out = dir.resolve("reselect");
		final Object[] r = CliTest.cpca("fit", "--target", t[0].toString(), "--background", t[1]
			.toString(), "--alpha", "auto", "-k", "2", "--significance", "19",
			"--significance-reselect", "--out", out.toString());
		assertEquals(0, r[0], r[2].toString());
		final JsonArray results = summary(out).getAsJsonArray("results");
		assertTrue(results.size() >= 2, "automatic α returns several: " + results.size());
		boolean planted = false;
		for (int i = 0; i < results.size(); i++) {
			final JsonObject sig = results.get(i).getAsJsonObject().getAsJsonObject(
				"significance");
			assertTrue(sig.get("statistic").getAsString().contains("chosen again"), sig
				.toString());
			assertEquals(2, sig.getAsJsonArray("p_values").size());
			planted |= sig.getAsJsonArray("p_values").get(0).getAsDouble() <= 0.05;
		}
		assertTrue(planted, "the planted contrast is significant at some chosen α: " + results);
		// refused in one line where there is no automatic α to choose again
		// ... and with sparse loadings, before anything is read
		for (final String[] how : new String[][] { { "--alpha", "1", "--significance", "9" },
			{ "--alpha", "auto", "--significance", "0" }, { "--alpha", "auto", "--significance",
				"9", "--sparsity", "0.1" } })
		{
			final Path no = dir.resolve("no-reselect" + how[1] + how[3] + how.length);
			final List<String> args = new ArrayList<>(List.of("fit", "--target", t[0]
				.toString(), "--background", t[1].toString(), "--significance-reselect", "--out",
				no.toString()));
			args.addAll(List.of(how));
			final Object[] e = CliTest.cpca(args.toArray(new String[0]));
			assertTrue((int) e[0] != 0);
			assertTrue(e[2].toString().trim().contains("significance-reselect") && e[2]
				.toString().trim().lines().count() == 1, e[2].toString());
			assertFalse(Files.exists(no));
		}
	}

	@Test
	void kernelCpcaIsTestedWithItsKernelFrozen() throws Exception {
		final Path[] t = tables();
		// the linear kernel is cPCA: the planted components are found
		final Path linear = dir.resolve("kernel-linear");
		final Object[] r = CliTest.cpca("fit", "--target", t[0].toString(), "--background", t[1]
			.toString(), "--method", "kernel", "--kernel", "linear", "--alpha", "5", "-k", "3",
			"--significance", "19", "--out", linear.toString());
		assertEquals(0, r[0], r[2].toString());
		final JsonObject sig = summary(linear).getAsJsonArray("results").get(0)
			.getAsJsonObject().getAsJsonObject("significance");
		final JsonArray p = sig.getAsJsonArray("p_values");
		assertTrue(p.get(0).getAsDouble() <= 0.05 && p.get(1).getAsDouble() <= 0.05 && p.get(2)
			.getAsDouble() > 0.05, sig.toString());
		// rbf with γ by the heuristic: the refits use the γ the fit chose
		final Path rbf = dir.resolve("kernel-rbf");
		assertEquals(0, CliTest.cpca("fit", "--target", t[0].toString(), "--background", t[1]
			.toString(), "--method", "kernel", "--kernel", "rbf", "--alpha", "1",
			"--significance", "9", "--out", rbf.toString())[0]);
		final JsonObject result = summary(rbf).getAsJsonArray("results").get(0)
			.getAsJsonObject();
		final String statistic = result.getAsJsonObject("significance").get("statistic")
			.getAsString();
		assertTrue(statistic.contains("rbf") && !statistic.contains("auto"), statistic);
	}

	@Test
	void sparseLoadingsAreTestedAtTheSparsityTheFitChose() throws Exception {
		final Path[] t = tables();
		final Path out = dir.resolve("sparse");
		final Object[] r = CliTest.cpca("fit", "--target", t[0].toString(), "--background", t[1]
			.toString(), "--alpha", "5", "--sparsity", "auto", "-k", "3", "--significance",
			"39", "--bootstrap", "5", "--out", out.toString());
		assertEquals(0, r[0], r[2].toString());
		final JsonObject result = summary(out).getAsJsonArray("results").get(0)
			.getAsJsonObject();
		final JsonObject sig = result.getAsJsonObject("significance");
		final String statistic = sig.get("statistic").getAsString();
		assertTrue(statistic.contains("sparse loading") && statistic.contains("sparsity ") &&
			!statistic.contains("NaN"), statistic);
		final JsonArray p = sig.getAsJsonArray("p_values");
		assertEquals(3, p.size());
		assertTrue(p.get(0).getAsDouble() <= 0.05 && p.get(1).getAsDouble() <= 0.05 && p.get(2)
			.getAsDouble() > 0.05, sig.toString());
		assertEquals(0, sig.get("refits_not_converged").getAsInt(), sig.toString());
		assertEquals(0, result.getAsJsonObject("bootstrap").get("refits_not_converged")
			.getAsInt());
		assertTrue(r[1].toString().contains("permutation test p = "), r[1].toString());
		// sparse gcPCA: both ends, 2k p-values
		final Path gc = dir.resolve("sparse-gcpca");
		assertEquals(0, CliTest.cpca("fit", "--target", t[0].toString(), "--background", t[1]
			.toString(), "--method", "gcpca", "--sparsity", "0.001", "-k", "2",
			"--significance", "9", "--out", gc.toString())[0]);
		assertEquals(4, summary(gc).getAsJsonArray("results").get(0).getAsJsonObject()
			.getAsJsonObject("significance").getAsJsonArray("p_values").size());
	}

	@Test
	void pcaWithoutABackgroundShufflesEachFeature() throws Exception {
		final Path[] t = tables();
		final Path out = dir.resolve("pca");
		final Object[] r = CliTest.cpca("fit", "--target", t[0].toString(), "--method", "pca",
			"-k", "2", "--significance", "19", "--out", out.toString());
		assertEquals(0, r[0], r[2].toString());
		final JsonObject sig = summary(out).getAsJsonArray("results").get(0).getAsJsonObject()
			.getAsJsonObject("significance");
		assertEquals(2, sig.getAsJsonArray("p_values").size());
		assertTrue(sig.get("statistic").getAsString().contains("C_t"), sig.toString());
	}
}
