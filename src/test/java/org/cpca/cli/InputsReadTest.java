package org.cpca.cli;

import static org.cpca.cli.BadInputsTest.hyperstack;
import static org.cpca.cli.BadInputsTest.stack;
import static org.cpca.cli.BadInputsTest.table;
import static org.cpca.cli.BadInputsTest.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inputs that are unusual but valid are read completely and the summary says how: CSV
 * separators and decimal marks, hyperstack axes, files skipped in a folder, and
 * {@code cpca apply} reading new data with the model's missing-value rule.
 */
class InputsReadTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	@TempDir
	Path dir;

	private static JsonObject summary(final Path out) throws Exception {
		return JsonParser.parseString(new String(Files.readAllBytes(out.resolve(
			"summary.json")), StandardCharsets.UTF_8)).getAsJsonObject();
	}

	private static void ok(final Object[] r) {
		assertEquals(0, r[0], "stderr: " + r[2]);
	}

	private static String read(final Path p) throws Exception {
		return new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
	}

	@Test
	void europeanAndTabSeparatedTablesGiveTheSameScores() throws Exception {
		final Path t = table(dir.resolve("t.csv"), 30, 4, 1), b = table(dir.resolve("b.csv"),
			30, 4, 2);
		ok(CliTest.cpca("fit", "--target", t.toString(), "--background", b.toString(),
			"--alpha", "2", "--out", dir.resolve("dot").toString()));
		// the same numbers with ';' and decimal commas, and with tabs
		for (final String[] form : new String[][] { { ";", "," }, { "\t", "." } }) {
			final String name = form[0].equals(";") ? "eu" : "tab";
			for (final Path p : List.of(t, b))
				write(dir.resolve(name + "_" + p.getFileName()), read(p).replace(",", "#")
					.replace(".", form[1]).replace("#", form[0]));
			final Path out = dir.resolve(name);
			ok(CliTest.cpca("fit", "--target", dir.resolve(name + "_t.csv").toString(),
				"--background", dir.resolve(name + "_b.csv").toString(), "--alpha", "2",
				"--out", out.toString()));
			assertEquals(read(dir.resolve("dot/scores.csv")), read(out.resolve("scores.csv")),
				name);
			final JsonObject target = summary(out).getAsJsonObject("target");
			assertEquals(form[0].equals("\t") ? "tab" : ";", target.get("separator")
				.getAsString());
			assertEquals(form[1], target.get("decimal_mark").getAsString());
			assertEquals(4, target.get("features").getAsInt());
		}
	}

	@Test
	void hyperstackAxesAreExplicitAndReported() throws Exception {
		final Path t = hyperstack(dir.resolve("t.tif"), 2, 3, 4);
		final Path b = hyperstack(dir.resolve("b.tif"), 2, 3, 4, 4);
		// auto: channels side by side as features, slices × frames as samples
		ok(CliTest.cpca("fit", "--target", t.toString(), "--background", b.toString(),
			"--alpha", "1", "--out", dir.resolve("auto").toString()));
		JsonObject s = summary(dir.resolve("auto"));
		assertEquals(12, s.getAsJsonObject("target").get("samples").getAsInt());
		assertEquals(2 * 64, s.getAsJsonObject("target").get("features").getAsInt());
		assertEquals("channels", s.getAsJsonObject("target").get("axes").getAsString());
		assertTrue(s.get("diagnostics").toString().contains(
			"target axes (channels): channels → features (2 channels side by side)"), s.get(
				"diagnostics").toString());
		// every plane a sample, when asked for
		ok(CliTest.cpca("fit", "--target", t.toString(), "--background", b.toString(),
			"--alpha", "1", "--axes", "planes", "--out", dir.resolve("planes").toString()));
		s = summary(dir.resolve("planes"));
		assertEquals(24, s.getAsJsonObject("target").get("samples").getAsInt());
		assertTrue(s.get("diagnostics").toString().contains("channels → samples"));
		// one channel
		ok(CliTest.cpca("fit", "--target", t.toString(), "--background", b.toString(),
			"--alpha", "1", "--axes", "c2", "--out", dir.resolve("c2").toString()));
		s = summary(dir.resolve("c2"));
		assertEquals(12, s.getAsJsonObject("target").get("samples").getAsInt());
		assertEquals(64, s.getAsJsonObject("target").get("features").getAsInt());
		assertTrue(s.get("diagnostics").toString().contains("only channel 2 of 2"));
		// the model remembers the axes: apply reads a new hyperstack the same way
		ok(CliTest.cpca("apply", "--model", dir.resolve("auto/model.json").toString(),
			"--input", t.toString(), "--out", dir.resolve("applied").toString()));
		assertEquals(13, Files.readAllLines(dir.resolve("applied/scores.csv")).size());
	}

	@Test
	void filesSkippedInAFolderAreListed() throws Exception {
		for (int i = 1; i <= 6; i++) {
			stack(dir.resolve("t/img" + i + ".tif"), 1, 8, 8, 32, i);
			stack(dir.resolve("b/img" + i + ".tif"), 1, 8, 8, 32, 10 + i);
		}
		write(dir.resolve("t/notes.txt"), "not an image");
		ok(CliTest.cpca("fit", "--target", dir.resolve("t").toString(), "--background", dir
			.resolve("b").toString(), "--alpha", "1", "--out", dir.resolve("out").toString()));
		final JsonObject s = summary(dir.resolve("out"));
		assertEquals(6, s.getAsJsonObject("target").get("samples").getAsInt());
		assertEquals("notes.txt", s.getAsJsonObject("target").getAsJsonArray("skipped_files")
			.get(0).getAsString());
		assertTrue(s.get("diagnostics").toString().contains(
			"1 file was not read as images: notes.txt"), s.get("diagnostics").toString());
	}

	@Test
	void applyReadsNewDataWithTheModelsMissingRule() throws Exception {
		final Path t = write(dir.resolve("t.csv"), withGaps(read(table(dir.resolve("t0.csv"),
			40, 4, 1))));
		final Path b = table(dir.resolve("b.csv"), 40, 4, 2);
		ok(CliTest.cpca("fit", "--target", t.toString(), "--background", b.toString(),
			"--alpha", "2", "--missing", "zero", "--out", dir.resolve("fit").toString()));
		// no --missing: the model's rule (zero) keeps every row
		final Object[] r = CliTest.cpca("apply", "--model", dir.resolve("fit/model.json")
			.toString(), "--input", t.toString(), "--out", dir.resolve("a1").toString());
		ok(r);
		assertEquals(41, Files.readAllLines(dir.resolve("a1/scores.csv")).size());
		assertTrue(!r[1].toString().contains("note:"));
		// another --missing: still the model's rule, and said so
		final Object[] r2 = CliTest.cpca("apply", "--model", dir.resolve("fit/model.json")
			.toString(), "--input", t.toString(), "--missing", "drop", "--out", dir.resolve(
				"a2").toString());
		ok(r2);
		assertEquals(41, Files.readAllLines(dir.resolve("a2/scores.csv")).size());
		assertTrue(r2[1].toString().contains("--missing drop was not used: the model was " +
			"fitted with --missing zero"), r2[1].toString());
		assertTrue(summary(dir.resolve("a2")).get("missing_note").getAsString().contains(
			"--missing zero"));
	}

	/** Empties the first cell of every third data row. */
	private static String withGaps(final String csv) {
		final String[] lines = csv.split("\n");
		final StringBuilder sb = new StringBuilder(lines[0]).append('\n');
		for (int i = 1; i < lines.length; i++)
			sb.append(i % 3 == 0 ? lines[i].substring(lines[i].indexOf(',')) : lines[i]).append(
				'\n');
		return sb.toString();
	}

	@Test
	void aTruncatedTiffIsRefusedWhenStreamedToo() throws Exception {
		final Path t = stack(dir.resolve("t.tif"), 20, 8, 8, 32, 1);
		BadInputsTest.truncated(t, 20 * 64 * 4 * 3 / 4);
		final Path b = stack(dir.resolve("b.tif"), 20, 8, 8, 32, 2);
		final Object[] r = CliTest.cpca("fit", "--target", t.toString(), "--background", b
			.toString(), "--method", "online", "--beta", "0.5", "--out", dir.resolve("out")
			.toString());
		assertEquals(1, r[0]);
		assertTrue(r[2].toString().contains("is truncated or damaged"), r[2].toString());
	}
}
