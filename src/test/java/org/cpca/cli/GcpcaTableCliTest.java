package org.cpca.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import org.cpca.core.TestData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cpca fit --method gcpca --variant v2 -k 2 --standardize --missing zero} (and
 * {@code --variant v4 --orthogonal}) on a table with a duplicated column and a few empty
 * cells, target and background chosen by {@code --target-where}/{@code --background-where}
 * (issue 31): no ridge, no component with variances at rounding level.
 */
class GcpcaTableCliTest {

	@TempDir
	Path dir;

	static Path table(final Path dir) throws Exception {
		final float[][][] p = TestData.planted(11, 150, 120, 8, 3, 2, 1.0);
		// group: T (target) or B (background); half: a or b, alternating
		final StringBuilder s = new StringBuilder("group,half");
		for (int j = 0; j < 9; j++)
			s.append(",f").append(j);
		s.append('\n');
		for (int set = 0; set < 2; set++)
			for (int i = 0; i < p[set].length; i++) {
				s.append(set == 0 ? "T" : "B").append(i % 2 == 0 ? ",a" : ",b");
				for (int j = 0; j < 9; j++) {
					// f8 repeats f1; a few cells of f3 are empty
					final float v = p[set][i][j == 8 ? 1 : j];
					s.append(',');
					if (!(j == 3 && i % 37 == 5)) s.append(String.format(Locale.ROOT, "%.6g", v));
				}
				s.append('\n');
			}
		final Path t = dir.resolve("t.csv");
		Files.write(t, s.toString().getBytes(StandardCharsets.UTF_8));
		return t;
	}

	@Test
	void aDuplicatedColumnGivesNoComponentWithoutVariance() throws Exception {
		final Path t = table(dir);
		for (final String[] variant : new String[][] { { "--variant", "v2" }, { "--variant",
			"v4", "--orthogonal" } })
		{
			final Path out = dir.resolve("out-" + variant[1] + variant.length);
			final String[] base = { "fit", "--method", "gcpca", "-k", "2", "--standardize",
				"--missing", "zero", "--target", t.toString(), "--target-where", "group=T",
				"--background", t.toString(), "--background-where", "group=B", "--out", out
					.toString() };
			final String[] args = new String[base.length + variant.length];
			System.arraycopy(base, 0, args, 0, base.length);
			System.arraycopy(variant, 0, args, base.length, variant.length);
			final Object[] r = CliTest.cpca(args);
			assertEquals(0, r[0], r[2].toString());
			assertTrue(!r[1].toString().contains("ridge"), r[1].toString());
			final JsonObject s = JsonParser.parseString(new String(Files.readAllBytes(out
				.resolve("summary.json")), StandardCharsets.UTF_8)).getAsJsonObject();
			final JsonObject result = s.getAsJsonArray("results").get(0).getAsJsonObject();
			final JsonArray tv = result.getAsJsonArray("target_variance"), bv = result
				.getAsJsonArray("background_variance");
			for (int c = 0; c < 4; c++)
				assertTrue(tv.get(c).getAsDouble() > 1e-3 && bv.get(c).getAsDouble() > 1e-3,
					String.join(" ", variant) + ": component " + c + " has variances " + tv.get(
						c) + " / " + bv.get(c));
		}
	}
}
