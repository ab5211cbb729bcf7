package org.cpca.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import ij.IJ;
import ij.ImagePlus;
import ij.ImageStack;
import ij.io.FileSaver;
import ij.process.ByteProcessor;
import ij.process.ColorProcessor;
import ij.process.FloatProcessor;
import ij.process.ShortProcessor;

import org.cpca.core.model.CpcaModel;
import org.cpca.core.modelfile.ModelFile;
import org.cpca.generate.TestImageGenerator;
import org.cpca.render.PdfFigures;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line end to end, on real files in a temporary folder. */
class CliTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	@TempDir
	static Path shared;
	static Path images;

	@TempDir
	Path dir;

	@BeforeAll
	static void makeImages() throws Exception {
		images = shared.resolve("images");
		TestImageGenerator.write(TestImageGenerator.generate(TestImageGenerator.Config
			.defaults().withSlices(80, 80).withSize(16, 16)), images);
	}

	/** Runs the CLI, returns {exit code, stdout, stderr}. */
	static Object[] cpca(final String... args) {
		final PrintStream out = System.out, err = System.err;
		final ByteArrayOutputStream o = new ByteArrayOutputStream(),
				e = new ByteArrayOutputStream();
		try {
			System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
			System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
			final int code = Main.run(args);
			return new Object[] { code, o.toString(StandardCharsets.UTF_8), e.toString(
				StandardCharsets.UTF_8) };
		}
		finally {
			System.setOut(out);
			System.setErr(err);
		}
	}

	private static JsonObject json(final Path p) throws Exception {
		return JsonParser.parseString(new String(Files.readAllBytes(p),
			StandardCharsets.UTF_8)).getAsJsonObject();
	}

	private static List<String> lines(final Path p) throws Exception {
		return Files.readAllLines(p, StandardCharsets.UTF_8);
	}

	private String[] fitArgs(final Path out, final String... extra) {
		final List<String> a = new ArrayList<>(Arrays.asList("fit", "--target", images
			.resolve("target.tif").toString(), "--background", images.resolve(
				"background.tif").toString(), "--labels", images.resolve("target-labels.txt")
					.toString(), "--out", out.toString()));
		a.addAll(Arrays.asList(extra));
		return a.toArray(new String[0]);
	}

	@Test
	void fitAtFixedAlphaWritesEveryOutputInItsDocumentedShape() throws Exception {
		final Path out = dir.resolve("fixed");
		final Object[] r = cpca(fitArgs(out, "--alpha", "2", "--components", "3", "--figures",
			"all"));
		assertEquals(0, r[0], r[2].toString());
		assertTrue(r[1].toString().contains("Results in"), r[1].toString());
		final JsonObject s = json(out.resolve("summary.json"));
		assertEquals("cpca", s.get("method").getAsString());
		final JsonArray results = s.getAsJsonArray("results");
		assertEquals(1, results.size());
		final JsonObject first = results.get(0).getAsJsonObject();
		assertEquals(2.0, first.get("alpha").getAsDouble());
		assertEquals(3, first.getAsJsonArray("eigenvalues").size());
		assertEquals(3, first.getAsJsonArray("target_variance").size());
		assertEquals(3, first.getAsJsonArray("background_variance").size());
		assertTrue(first.getAsJsonObject("separation").has("lda_accuracy"));
		assertTrue(s.get("diagnostics").isJsonArray());
		assertTrue(s.getAsJsonObject("timings_s").has("fit"));
		final List<String> scores = lines(out.resolve("scores.csv"));
		assertEquals("sample,label,model,alpha,cPC1,cPC2,cPC3", scores.get(0));
		assertEquals(81, scores.size());
		assertTrue(scores.get(1).matches("1,[01],0,2.0,[-0-9.E]+,[-0-9.E]+,[-0-9.E]+"), scores
			.get(1));
		final CpcaModel m = ModelFile.read(out.resolve("model.json"));
		assertEquals(3, m.numComponents());
		assertEquals(256, m.features());
		final ImagePlus comps = IJ.openImage(out.resolve("components.tif").toString());
		assertEquals(3, comps.getStackSize());
		assertEquals(32, comps.getBitDepth());
		assertTrue(comps.getStack().getSliceLabel(1).startsWith("cPC1 α=2 λ="), comps
			.getStack().getSliceLabel(1));
		assertTrue(Files.size(out.resolve("plots/scatter.png")) > 1000);
		// with --figures all every figure also at high resolution and as vector graphics
		for (final String f : new String[] { "scatter", "eigenvalues", "eigen_images" }) {
			assertTrue(Files.size(out.resolve("plots/" + f + "_hires.png")) > 1000, f);
			assertTrue(Files.readString(out.resolve("plots/" + f + ".svg")).contains("</svg>"),
				f);
		}
		// and as PDF: every SVG has its PDF, one page of its size with all its text
		try (Stream<Path> svgs = Files.list(out.resolve("plots"))) {
			for (final Path svg : (Iterable<Path>) svgs.filter(p -> p.toString().endsWith(
				".svg"))::iterator)
				PdfFigures.check(svg, svg.resolveSibling(svg.getFileName().toString().replace(
					".svg", ".pdf")));
		}
		assertTrue(Files.size(out.resolve("plots/eigen_images.png")) > 1000);
		try (Stream<Path> s2 = Files.list(dir)) {
			assertEquals(1, s2.count(), "no staging folder is left behind");
		}
		// by default the PNGs only (the other formats cost about a second)
		final Path plain = dir.resolve("png-only");
		assertEquals(0, cpca(fitArgs(plain, "--alpha", "2"))[0]);
		assertTrue(Files.exists(plain.resolve("plots/scatter.png")));
		assertFalse(Files.exists(plain.resolve("plots/scatter.svg")));
		assertFalse(Files.exists(plain.resolve("plots/scatter_hires.png")));
		assertTrue(cpca(fitArgs(dir.resolve("bad-figures"), "--figures", "pdf"))[2].toString()
			.contains("--figures pdf is not known"));
	}

	@Test
	void automaticAlphaReturnsZeroFirstAndOneScoreBlockPerAlpha() throws Exception {
		final Path out = dir.resolve("auto");
		assertEquals(0, cpca(fitArgs(out))[0]);
		final JsonObject s = json(out.resolve("summary.json"));
		final JsonArray results = s.getAsJsonArray("results");
		assertTrue(results.size() >= 2 && results.size() <= 4);
		assertEquals(0.0, results.get(0).getAsJsonObject().get("alpha").getAsDouble());
		assertEquals(1 + 80 * results.size(), lines(out.resolve("scores.csv")).size());
		assertEquals(results.size(), s.getAsJsonObject("selection").getAsJsonArray("alphas")
			.size());
		assertEquals(41, s.getAsJsonObject("selection").getAsJsonArray("grid").size());
		assertTrue(Files.size(out.resolve("plots/variance_pairs.png")) > 1000);
		try (Stream<Path> models = Files.list(out.resolve("models"))) {
			assertEquals(results.size(), models.count());
		}
		// every knob of the selection is configurable
		final Path small = dir.resolve("auto-small");
		assertEquals(0, cpca(fitArgs(small, "--alpha-count", "10", "--alpha-range", "1,50",
			"--alphas-returned", "3"))[0]);
		final JsonObject sel = json(small.resolve("summary.json")).getAsJsonObject(
			"selection");
		assertEquals(11, sel.getAsJsonArray("grid").size());
		assertEquals(50, sel.getAsJsonArray("grid").get(10).getAsDouble(), 1e-9);
		assertTrue(sel.getAsJsonArray("alphas").size() <= 3);
	}

	@Test
	void pcaWritesPcColumnsAndNullAlpha() throws Exception {
		final Path out = dir.resolve("pca");
		assertEquals(0, cpca(fitArgs(out, "--method", "pca"))[0]);
		assertEquals("sample,label,model,alpha,PC1,PC2", lines(out.resolve("scores.csv")).get(0));
		assertTrue(json(out.resolve("summary.json")).getAsJsonArray("results").get(0)
			.getAsJsonObject().get("alpha").isJsonNull());
		// k from a retained-variance fraction; whitened scores have unit variance
		final Path retained = dir.resolve("retained");
		assertEquals(0, cpca(fitArgs(retained, "--method", "pca", "--retain", "0.99",
			"--whiten"))[0]);
		final JsonObject s = json(retained.resolve("summary.json"));
		final int k = s.get("components").getAsInt();
		assertTrue(k > 2, "k = " + k);
		final List<String> rows = lines(retained.resolve("scores.csv"));
		double sum = 0, sum2 = 0;
		for (int i = 1; i < rows.size(); i++) {
			final double v = Double.parseDouble(rows.get(i).split(",")[4]);
			sum += v;
			sum2 += v * v;
		}
		final int n = rows.size() - 1;
		assertEquals(1, (sum2 - sum * sum / n) / (n - 1), 1e-6);
		assertEquals(1, cpca(fitArgs(dir.resolve("x"), "--retain", "0.9"))[0]);
	}

	@Test
	void applyReproducesTheFitScoresAndReconstructs() throws Exception {
		final Path out = dir.resolve("fit");
		assertEquals(0, cpca(fitArgs(out, "--alpha", "3"))[0]);
		final Path applied = dir.resolve("applied");
		final Object[] r = cpca("apply", "--model", out.resolve("model.json").toString(),
			"--input", images.resolve("target.tif").toString(), "--out", applied.toString());
		assertEquals(0, r[0], r[2].toString());
		final List<String> a = lines(out.resolve("scores.csv")), b = lines(applied.resolve(
			"scores.csv"));
		assertEquals(a.size(), b.size());
		for (int i = 1; i < a.size(); i++) {
			final String[] x = a.get(i).split(","), y = b.get(i).split(",");
			for (int c = 4; c < x.length; c++)
				assertEquals(Double.parseDouble(x[c]), Double.parseDouble(y[c]), 1e-6 * (1 + Math
					.abs(Double.parseDouble(x[c]))));
		}
		final ImagePlus recon = IJ.openImage(applied.resolve("reconstruction.tif")
			.toString());
		assertEquals(80, recon.getStackSize());
		assertTrue(json(applied.resolve("summary.json")).has(
			"reconstruction_mean_squared_error"));
	}

	@Test
	void csvTablesWithLabelColumnMissingCellsAndIgnoredColumns() throws Exception {
		final StringBuilder t = new StringBuilder("\uFEFFid,a,b,c,group\n");
		final StringBuilder bg = new StringBuilder("id,a,b,c,group\n");
		final java.util.Random random = new java.util.Random(3);
		for (int i = 0; i < 40; i++) {
			final boolean one = i % 2 == 0;
			t.append("m").append(i).append(',').append(random.nextGaussian() * 5).append(',')
				.append(i == 7 ? "" : Double.toString(random.nextGaussian() + (one ? 3 : -3)))
				.append(',').append(random.nextGaussian()).append(',').append(one ? "x" : "y")
				.append('\n');
			bg.append("b").append(i).append(',').append(random.nextGaussian() * 5).append(',')
				.append(random.nextGaussian()).append(',').append(random.nextGaussian()).append(
					",z\n");
		}
		final Path target = dir.resolve("target.csv"), background = dir.resolve("bg.csv");
		Files.write(target, t.toString().getBytes(StandardCharsets.UTF_8));
		Files.write(background, bg.toString().getBytes(StandardCharsets.UTF_8));
		for (final String missing : new String[] { "drop", "mean", "zero" }) {
			final Path out = dir.resolve("table-" + missing);
			final Object[] r = cpca("fit", "--target", target.toString(), "--background",
				background.toString(), "--label-column", "group", "--alpha", "1", "--missing",
				missing, "--out", out.toString());
			assertEquals(0, r[0], r[2].toString());
			final JsonObject s = json(out.resolve("summary.json"));
			final JsonObject facts = s.getAsJsonObject("target");
			assertEquals("id", facts.getAsJsonArray("ignored_columns").get(0).getAsString());
			assertEquals(3, facts.get("features").getAsInt());
			assertEquals(missing.equals("drop") ? 39 : 40, facts.get("samples").getAsInt());
			assertTrue(s.getAsJsonArray("results").get(0).getAsJsonObject().getAsJsonObject(
				"separation").get("lda_accuracy").getAsDouble() > 0.9);
			assertFalse(Files.exists(out.resolve("components.tif")));
			// the scores join back to the table by its ID column (m7 lacks a cell: dropped)
			final List<String> scores = lines(out.resolve("scores.csv"));
			assertTrue(scores.get(1).startsWith("m0,x,0,1.0,"), scores.get(1));
			assertEquals(missing.equals("drop") ? "m8" : "m7", scores.get(8).split(",")[0]);
			// the column names as a JSON array, not a string holding one
			final JsonObject model = json(out.resolve("model.json"));
			assertEquals("[\"a\",\"b\",\"c\"]", model.getAsJsonObject("attributes").get(
				"table.columns").toString());
		}
		// per-dataset standardisation runs too (and is recorded)
		final Path std = dir.resolve("table-std");
		assertEquals(0, cpca("fit", "--target", target.toString(), "--background", background
			.toString(), "--alpha", "1", "--standardize", "--out", std.toString())[0]);
		assertTrue(json(std.resolve("summary.json")).get("standardize").getAsBoolean());
	}

	@Test
	void maskAndBinningChooseTheFeatures() throws Exception {
		final ByteProcessor mask = new ByteProcessor(16, 16);
		mask.setValue(255);
		mask.setRoi(0, 0, 16, 8);
		mask.fill();
		final Path maskFile = dir.resolve("mask.tif");
		assertTrue(new FileSaver(new ImagePlus("mask", mask)).saveAsTiff(maskFile
			.toString()));
		final Path masked = dir.resolve("masked");
		assertEquals(0, cpca(fitArgs(masked, "--alpha", "2", "--mask", maskFile
			.toString()))[0]);
		assertEquals(128, json(masked.resolve("summary.json")).getAsJsonObject("target").get(
			"features").getAsInt());
		final ImagePlus comps = IJ.openImage(masked.resolve("components.tif").toString());
		final float[] first = (float[]) comps.getStack().getPixels(1);
		for (int p = 8 * 16; p < 16 * 16; p++)
			assertEquals(0f, first[p], "outside the mask");
		final Path binned = dir.resolve("binned");
		assertEquals(0, cpca(fitArgs(binned, "--alpha", "2", "--bin", "2"))[0]);
		assertEquals(64, ModelFile.read(binned.resolve("model.json")).features());
		assertEquals(8, IJ.openImage(binned.resolve("components.tif").toString())
			.getWidth());
	}

	@Test
	void aFolderOfImagesIsOneStackInNameOrder() throws Exception {
		final ImagePlus t = IJ.openImage(images.resolve("target.tif").toString());
		final Path folder = dir.resolve("slices");
		Files.createDirectories(folder);
		for (int i = 1; i <= t.getStackSize(); i++)
			assertTrue(new FileSaver(new ImagePlus("s", t.getStack().getProcessor(i)))
				.saveAsTiff(folder.resolve(String.format("slice%03d.tif", i)).toString()));
		final Path fromFolder = dir.resolve("from-folder"), fromStack = dir.resolve(
			"from-stack");
		assertEquals(0, cpca("fit", "--target", folder.toString(), "--background", images
			.resolve("background.tif").toString(), "--alpha", "2", "--out", fromFolder
				.toString())[0]);
		assertEquals(0, cpca("fit", "--target", images.resolve("target.tif").toString(),
			"--background", images.resolve("background.tif").toString(), "--alpha", "2",
			"--out", fromStack.toString())[0]);
		final List<String> a = lines(fromFolder.resolve("scores.csv")), b = lines(fromStack
			.resolve("scores.csv"));
		assertEquals(a.size(), b.size());
		for (int i = 1; i < a.size(); i++) {
			final String[] x = a.get(i).split(","), y = b.get(i).split(",");
			for (int c = 3; c < x.length; c++)
				assertEquals(Double.parseDouble(y[c]), Double.parseDouble(x[c]), 1e-6 * (1 + Math
					.abs(Double.parseDouble(y[c]))));
		}
	}

	@Test
	void demoRunsOnAFolderOfTestImages() {
		final Object[] r = cpca("demo", "--images", images.toString(), "--out", dir.resolve(
			"demo").toString());
		assertEquals(0, r[0], r[2].toString());
		assertTrue(r[1].toString().contains("scatter.png"));
		assertTrue(Files.exists(dir.resolve("demo/components.tif")));
	}

	// ---- bad input: a clear one-line message, exit code 1, nothing written or changed

	private Path image(final String name, final ImageStack stack) {
		final Path p = dir.resolve(name);
		final FileSaver saver = new FileSaver(new ImagePlus(name, stack));
		assertTrue(stack.getSize() > 1 ? saver.saveAsTiffStack(p.toString()) : saver
			.saveAsTiff(p.toString()));
		return p;
	}

	private static ImageStack stack(final int w, final int h, final int n,
		final java.util.function.IntFunction<ij.process.ImageProcessor> slice)
	{
		final ImageStack s = new ImageStack(w, h);
		for (int i = 0; i < n; i++)
			s.addSlice("s" + i, slice.apply(i));
		return s;
	}

	private static ij.process.ImageProcessor noise(final ij.process.ImageProcessor ip,
		final long seed)
	{
		final java.util.Random r = new java.util.Random(seed);
		for (int p = 0; p < ip.getPixelCount(); p++)
			ip.setf(p, 10 + r.nextInt(100));
		return ip;
	}

	private void expectFailure(final String[] args, final String... parts)
		throws Exception
	{
		final List<Path> inputs = new ArrayList<>();
		for (int i = 0; i + 1 < args.length; i++)
			if (!args[i].equals("--out") && Files.isRegularFile(Path.of(args[i + 1]))) inputs
				.add(Path.of(args[i + 1]));
		final List<String> before = new ArrayList<>();
		for (final Path p : inputs)
			before.add(digest(p));
		final Object[] r = cpca(args);
		final String err = r[2].toString().trim();
		assertEquals(1, r[0], "exit code; stderr: " + err);
		assertEquals(1, err.split("\n").length, "one line: " + err);
		assertTrue(err.startsWith("cpca: "), err);
		for (final String part : parts)
			assertTrue(err.contains(part), "'" + err + "' lacks '" + part + "'");
		for (int i = 0; i < inputs.size(); i++)
			assertEquals(before.get(i), digest(inputs.get(i)), "input changed");
		for (int i = 0; i + 1 < args.length; i++)
			if (args[i].equals("--out")) assertFalse(Files.exists(Path.of(args[i + 1])),
				"no output folder after a failure");
		try (Stream<Path> s = Files.list(dir)) {
			assertTrue(s.noneMatch(p -> p.getFileName().toString().contains(".partial-")),
				"no staging folder left");
		}
	}

	private static String digest(final Path p) throws Exception {
		return Arrays.toString(MessageDigest.getInstance("SHA-256").digest(Files
			.readAllBytes(p)));
	}

	private String out() {
		return dir.resolve("out").toString();
	}

	@Test
	void differentImageSizes() throws Exception {
		final Path t = image("t.tif", stack(16, 16, 5, i -> noise(new ByteProcessor(16, 16),
			i)));
		final Path b = image("b.tif", stack(20, 16, 5, i -> noise(new ByteProcessor(20, 16),
			i)));
		expectFailure(new String[] { "fit", "--target", t.toString(), "--background", b
			.toString(), "--alpha", "1", "--out", out() }, "20×16", "same width × height");
	}

	@Test
	void differentBitDepthsAndRgb() throws Exception {
		final Path t = image("t8.tif", stack(16, 16, 5, i -> noise(new ByteProcessor(16, 16),
			i)));
		final Path b = image("b16.tif", stack(16, 16, 5, i -> noise(new ShortProcessor(16,
			16), i)));
		expectFailure(new String[] { "fit", "--target", t.toString(), "--background", b
			.toString(), "--alpha", "1", "--out", out() }, "16-bit", "same type");
		final Path rgb = image("rgb.tif", stack(16, 16, 5, i -> new ColorProcessor(16, 16)));
		expectFailure(new String[] { "fit", "--target", rgb.toString(), "--background", b
			.toString(), "--alpha", "1", "--out", out() }, "RGB");
	}

	@Test
	void nanPixels() throws Exception {
		final Path t = image("nan.tif", stack(16, 16, 5, i -> {
			final FloatProcessor fp = (FloatProcessor) noise(new FloatProcessor(16, 16), i);
			if (i == 3) fp.setf(17, Float.NaN);
			return fp;
		}));
		final Path b = image("b32.tif", stack(16, 16, 5, i -> noise(new FloatProcessor(16,
			16), i + 9)));
		expectFailure(new String[] { "fit", "--target", t.toString(), "--background", b
			.toString(), "--alpha", "1", "--out", out() }, "missing value (NaN)", "sample 4",
			"feature 18", "--method pcpca --missing model");
	}

	@Test
	void emptySingleSampleAndConstantData() throws Exception {
		final Path b = image("b.tif", stack(16, 16, 5, i -> noise(new ByteProcessor(16, 16),
			i)));
		final Path one = image("one.tif", stack(16, 16, 1, i -> noise(new ByteProcessor(16,
			16), i)));
		expectFailure(new String[] { "fit", "--target", one.toString(), "--background", b
			.toString(), "--alpha", "1", "--out", out() }, "only 1 sample");
		final Path flat = image("flat.tif", stack(16, 16, 4, i -> new ByteProcessor(16,
			16)));
		expectFailure(new String[] { "fit", "--target", flat.toString(), "--background", b
			.toString(), "--alpha", "1", "--out", out() }, "constant");
		final Path empty = dir.resolve("empty.csv");
		Files.write(empty, "a,b\n".getBytes(StandardCharsets.UTF_8));
		expectFailure(new String[] { "fit", "--target", empty.toString(), "--method", "pca",
			"--out", out() }, "no data rows");
		final Path words = dir.resolve("words.csv");
		Files.write(words, "name,kind\na,x\nb,y\nc,x\n".getBytes(StandardCharsets.UTF_8));
		expectFailure(new String[] { "fit", "--target", words.toString(), "--method", "pca",
			"--out", out() }, "no numeric column", "name, kind");
		final Path inf = dir.resolve("inf.csv");
		Files.write(inf, "a,b\n1,2\n3,Infinity\n5,1\n".getBytes(StandardCharsets.UTF_8));
		expectFailure(new String[] { "fit", "--target", inf.toString(), "--method", "pca",
			"--out", out() }, "row 3", "column b", "not a finite number");
	}

	@Test
	void tooManyComponentsAndNegativeAlpha() throws Exception {
		final Path t = image("t.tif", stack(16, 16, 5, i -> noise(new ByteProcessor(16, 16),
			i)));
		final Path b = image("b.tif", stack(16, 16, 5, i -> noise(new ByteProcessor(16, 16),
			i + 50)));
		expectFailure(new String[] { "fit", "--target", t.toString(), "--background", b
			.toString(), "--alpha", "1", "-k", "20", "--out", out() }, "k = 20", "at most 8");
		expectFailure(new String[] { "fit", "--target", t.toString(), "--background", b
			.toString(), "--alpha", "-1", "--out", out() }, "≥ 0");
	}

	@Test
	void corruptOrMismatchedModelAndMissingPaths() throws Exception {
		final Path bad = dir.resolve("model.json");
		Files.write(bad, "{\"format\": \"contrastive-pca-model\", \"version\": 1".getBytes(
			StandardCharsets.UTF_8));
		expectFailure(new String[] { "apply", "--model", bad.toString(), "--input", images
			.resolve("target.tif").toString(), "--out", out() }, "not valid JSON");
		final Path fit = dir.resolve("fit");
		assertEquals(0, cpca(fitArgs(fit, "--alpha", "1"))[0]);
		final Path other = image("big.tif", stack(20, 20, 3, i -> noise(new ByteProcessor(20,
			20), i)));
		expectFailure(new String[] { "apply", "--model", fit.resolve("model.json")
			.toString(), "--input", other.toString(), "--out", out() }, "20");
		expectFailure(new String[] { "fit", "--target", dir.resolve("nope.tif").toString(),
			"--background", other.toString(), "--out", out() }, "does not exist");
		expectFailure(new String[] { "apply", "--model", dir.resolve("none.json").toString(),
			"--input", other.toString(), "--out", out() }, "does not exist");
	}

	@Test
	void usageErrorsExitWithTwo() {
		final Object[] r = cpca("fit", "--target");
		assertEquals(2, r[0]);
		assertNotNull(r[2]);
		assertEquals(0, cpca("--help")[0]);
		assertTrue(cpca("fit", "--help")[1].toString().contains("--missing"));
	}

	@Test
	void existingOutputFolderIsUntouchedOnFailure() throws Exception {
		final Path out = dir.resolve("kept");
		Files.createDirectories(out);
		final Path note = out.resolve("note.txt");
		Files.write(note, "keep me".getBytes(StandardCharsets.UTF_8));
		final Object[] r = cpca(fitArgs(out, "--alpha", "-3"));
		assertEquals(1, r[0]);
		try (Stream<Path> s = Files.list(out)) {
			assertEquals(1, s.count());
		}
		assertArrayEquals("keep me".getBytes(StandardCharsets.UTF_8), Files.readAllBytes(
			note));
	}
}
