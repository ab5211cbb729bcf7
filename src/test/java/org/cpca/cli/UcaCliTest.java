package org.cpca.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import ij.IJ;
import ij.ImagePlus;
import ij.ImageStack;
import ij.io.FileSaver;
import ij.process.FloatProcessor;

import org.cpca.core.model.CpcaModel;
import org.cpca.core.modelfile.ModelFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cpca fit --method uca|rpca} end to end, on real files with several backgrounds. */
class UcaCliTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	@TempDir
	Path dir;

	private static JsonObject json(final Path p) throws Exception {
		return JsonParser.parseString(new String(Files.readAllBytes(p),
			StandardCharsets.UTF_8)).getAsJsonObject();
	}

	/**
	 * One table holding the target (group "target", classes x and y apart along feature
	 * a) and three backgrounds (groups bg1, bg2, bg3), each with a loud nuisance feature of
	 * its own (b, c, d) that the target has too.
	 */
	private Path table() throws Exception {
		final StringBuilder sb = new StringBuilder("\uFEFFid,a,b,c,d,e,group,kind\n");
		final Random r = new Random(5);
		for (int i = 0; i < 240; i++) {
			final int g = i % 4; // 0: target, 1..3: backgrounds
			final boolean x = (i / 4) % 2 == 0;
			final double[] v = new double[5];
			for (int f = 0; f < 5; f++)
				v[f] = 0.3 * r.nextGaussian();
			if (g == 0) {
				v[0] += x ? 1.2 : -1.2;
				v[1] += 5 * r.nextGaussian();
				v[2] += 4 * r.nextGaussian();
				v[3] += 3 * r.nextGaussian();
			}
			else v[g] += 2 * (6 - g) * r.nextGaussian();
			sb.append("s").append(i);
			for (final double f : v)
				sb.append(',').append(i == 9 && f == v[4] ? "" : Double.toString(f));
			sb.append(',').append(g == 0 ? "target" : "bg" + g).append(',').append(g == 0 ? x
				? "x" : "y" : "none").append('\n');
		}
		final Path p = dir.resolve("mice.csv");
		Files.write(p, sb.toString().getBytes(StandardCharsets.UTF_8));
		return p;
	}

	private static List<String> fit(final Path table, final Path out, final String... extra) {
		final List<String> args = new ArrayList<>(List.of("fit", "--target", table.toString(),
			"--target-where", "group=target", "--label-column", "kind", "--missing", "mean",
			"--out", out.toString()));
		for (int j = 1; j <= 3; j++) {
			args.add("--background");
			args.add(table.toString());
			args.add("--background-where");
			args.add(j + ":group=bg" + j);
		}
		args.addAll(List.of(extra));
		return args;
	}

	private static Object[] run(final List<String> args) {
		return CliTest.cpca(args.toArray(new String[0]));
	}

	@Test
	void ucaWithThreeBackgroundsFromOneTable() throws Exception {
		final Path table = table(), out = dir.resolve("uca");
		final Object[] r = run(fit(table, out, "--method", "uca"));
		assertEquals(0, r[0], r[2].toString());
		assertTrue(r[1].toString().contains("UCA λ = "), r[1].toString());
		final JsonObject s = json(out.resolve("summary.json"));
		assertEquals("uca", s.get("method").getAsString());
		final JsonArray bs = s.getAsJsonArray("backgrounds");
		assertEquals(3, bs.size());
		for (int j = 0; j < 3; j++) {
			assertEquals(60, bs.get(j).getAsJsonObject().get("samples").getAsInt());
			assertEquals("group=bg" + (j + 1), bs.get(j).getAsJsonObject().getAsJsonArray(
				"where").get(0).getAsString());
		}
		final JsonObject result = s.getAsJsonArray("results").get(0).getAsJsonObject();
		assertTrue(result.get("alpha").isJsonNull());
		final JsonArray lambda = result.getAsJsonArray("lambda");
		assertEquals(3, lambda.size());
		for (int j = 0; j < 3; j++)
			assertTrue(lambda.get(j).getAsDouble() > 0, lambda.toString());
		assertTrue(result.get("dual").getAsDouble() > 0);
		// the three nuisances are removed: the classes separate
		assertTrue(result.getAsJsonObject("separation").get("lda_accuracy")
			.getAsDouble() > 0.9, result.toString());
		final CpcaModel m = ModelFile.read(out.resolve("model.json"));
		assertEquals("uca", m.method());
		assertEquals(3, ((double[]) m.parameters().get("lambda")).length);
		final List<String> scores = Files.readAllLines(out.resolve("scores.csv"));
		assertEquals(61, scores.size());
		assertTrue(Files.exists(out.resolve("plots/scatter.png")) || Files.list(out.resolve(
			"plots")).findAny().isPresent());
		// PCA cannot separate them (the nuisances dominate)
		final Path pca = dir.resolve("pca");
		assertEquals(0, CliTest.cpca("fit", "--target", table.toString(), "--target-where",
			"group=target", "--label-column", "kind", "--missing", "mean", "--method", "pca",
			"--out", pca.toString())[0]);
		assertTrue(json(pca.resolve("summary.json")).getAsJsonArray("results").get(0)
			.getAsJsonObject().getAsJsonObject("separation").get("lda_accuracy")
			.getAsDouble() < 0.8);
	}

	@Test
	void stackedAndRpca() throws Exception {
		final Path table = table();
		final Path stacked = dir.resolve("stacked");
		assertEquals(0, run(fit(table, stacked, "--method", "uca", "--stacked"))[0]);
		final JsonObject s = json(stacked.resolve("summary.json")).getAsJsonArray("results")
			.get(0).getAsJsonObject();
		assertEquals(1, s.getAsJsonArray("lambda").size());
		assertEquals(3, s.get("stacked").getAsInt());
		final Path rpca = dir.resolve("rpca");
		final Object[] r = run(fit(table, rpca, "--method", "rpca",
			"--background-components", "1,auto,1"));
		assertEquals(0, r[0], r[2].toString());
		final JsonObject rp = json(rpca.resolve("summary.json")).getAsJsonArray("results").get(
			0).getAsJsonObject();
		assertTrue(rp.get("alpha").isJsonNull());
		final JsonArray kb = rp.getAsJsonArray("k_b");
		assertEquals(3, kb.size());
		assertEquals(1, kb.get(0).getAsInt());
		assertEquals(1, kb.get(2).getAsInt());
		assertTrue(rp.getAsJsonObject("separation").get("lda_accuracy").getAsDouble() > 0.9);
		assertTrue(json(rpca.resolve("summary.json")).getAsJsonArray("diagnostics")
			.toString().contains("elbow rule"));
	}

	@Test
	void severalBackgroundImages() throws Exception {
		// target: slices vary along three patterns, each background along one of them
		final int w = 12, h = 12, n = 30;
		final Random r = new Random(7);
		final float[][] pattern = new float[4][w * h];
		for (final float[] p : pattern)
			for (int i = 0; i < p.length; i++)
				p[i] = (float) r.nextGaussian();
		final Path t = stack("target.tif", n, r, pattern, 1, 6, 5, 4);
		final Path b1 = stack("b1.tif", n, r, pattern, 0, 6, 0, 0);
		final Path b2 = stack("b2.tif", n, r, pattern, 0, 0, 5, 0);
		final Path b3 = stack("b3.tif", n, r, pattern, 0, 0, 0, 4);
		final Path out = dir.resolve("images");
		final Object[] res = CliTest.cpca("fit", "--target", t.toString(), "--background", b1
			.toString(), "--background", b2.toString(), "--background", b3.toString(),
			"--method", "uca", "-k", "1", "--out", out.toString());
		assertEquals(0, res[0], res[2].toString());
		final ImagePlus eigen = IJ.openImage(out.resolve("components.tif").toString());
		assertEquals(1, eigen.getStackSize());
		// the first component is the target's own pattern 0
		final float[] v = (float[]) eigen.getStack().getPixels(1);
		double dot = 0, nv = 0, np = 0;
		for (int i = 0; i < v.length; i++) {
			dot += v[i] * pattern[0][i];
			nv += v[i] * v[i];
			np += pattern[0][i] * pattern[0][i];
		}
		assertTrue(Math.abs(dot) / Math.sqrt(nv * np) > 0.95, "cos " + dot / Math.sqrt(nv *
			np));
	}

	private Path stack(final String name, final int n, final Random r,
		final float[][] pattern, final double... sd) throws Exception
	{
		final int size = pattern[0].length;
		final ImageStack st = new ImageStack(12, 12);
		for (int s = 0; s < n; s++) {
			final float[] px = new float[size];
			for (int q = 0; q < pattern.length; q++) {
				final double z = sd[q] * r.nextGaussian();
				for (int i = 0; i < size; i++)
					px[i] += (float) (z * pattern[q][i]);
			}
			for (int i = 0; i < size; i++)
				px[i] += (float) (0.05 * r.nextGaussian());
			st.addSlice(new FloatProcessor(12, 12, px));
		}
		final Path p = dir.resolve(name);
		assertTrue(new FileSaver(new ImagePlus(name, st)).saveAsTiffStack(p.toString()));
		return p;
	}

	@Test
	void badInputSaysWhatToDo() throws Exception {
		final Path table = table();
		expect(run(fit(table, dir.resolve("a"), "--method", "uca", "--background-where",
			"4:group=bg1")), "names background 4", "3 --background were given");
		expect(run(fit(table, dir.resolve("b"), "--method", "cpca", "--stacked")),
			"--stacked applies to --method uca and rpca");
		expect(run(fit(table, dir.resolve("c"), "--method", "rpca",
			"--background-components", "-1")), "negative");
		expect(run(fit(table, dir.resolve("d"), "--method", "rpca",
			"--background-components", "two")), "'two' is not a whole number");
		expect(run(fit(table, dir.resolve("e"), "--method", "rpca",
			"--background-components", "1,2")), "2 values", "3 backgrounds");
		expect(run(fit(table, dir.resolve("f"), "--method", "cpca", "--alpha", "1")),
			"3 were given", "uca");
		expect(CliTest.cpca("fit", "--target", table.toString(), "--method", "uca", "--out",
			dir.resolve("g").toString()), "UCA needs a background");
		for (final String f : new String[] { "a", "b", "c", "d", "e", "f", "g" })
			assertFalse(Files.exists(dir.resolve(f)));
	}

	private static void expect(final Object[] r, final String... parts) {
		final String err = r[2].toString().trim();
		assertEquals(1, r[0], err);
		assertTrue(err.startsWith("cpca: "), err);
		for (final String p : parts)
			assertTrue(err.contains(p), "'" + err + "' lacks '" + p + "'");
	}
}
