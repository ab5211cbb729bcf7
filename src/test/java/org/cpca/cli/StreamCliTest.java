package org.cpca.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;
import ij.ImageStack;
import ij.io.FileSaver;
import ij.process.ByteProcessor;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import org.cpca.core.TestData;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.modelfile.ModelFile;
import org.cpca.generate.TestImageGenerator;
import org.cpca.image.TiffFiles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/**
 * {@code cpca fit --stream} (docs/memory.md): the same results as in memory from a TIFF
 * and from folders, read by tiny feature tiles; and the memory plan, made with a small
 * budget, streams on its own or names the option that makes it fit, which then works.
 */
class StreamCliTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	@TempDir
	static Path shared;
	static Path images, folders;

	@TempDir
	Path dir;

	@BeforeAll
	static void makeImages() throws Exception {
		images = shared.resolve("images");
		final TestImageGenerator.Result g = TestImageGenerator.generate(TestImageGenerator
			.Config.defaults().withSlices(40, 36).withSize(24, 20));
		TestImageGenerator.write(g, images);
		folders = shared.resolve("folders");
		for (final ImagePlus imp : List.of(g.target(), g.background())) {
			final Path f = folders.resolve(imp == g.target() ? "target" : "background");
			Files.createDirectories(f);
			final ImageStack s = imp.getStack();
			for (int i = 1; i <= s.getSize(); i++)
				TiffFiles.save(new ImagePlus("s" + i, s.getProcessor(i)), f.resolve(String.format(
					"slice%03d.tif", i)));
		}
	}

	@AfterEach
	void clearBudget() {
		System.clearProperty("cpca.memory.available");
		System.clearProperty("cpca.tile.bytes");
	}

	private static String[] args(final Path target, final Path background, final Path out,
		final String... extra)
	{
		final List<String> a = new ArrayList<>(Arrays.asList("fit", "--target", target
			.toString(), "--background", background.toString(), "--out", out.toString(),
			"--no-plots", "--labels", images.resolve("target-labels.txt").toString()));
		a.addAll(Arrays.asList(extra));
		return a.toArray(new String[0]);
	}

	private static JsonObject summary(final Path out) throws Exception {
		return JsonParser.parseString(new String(Files.readAllBytes(out.resolve(
			"summary.json")), StandardCharsets.UTF_8)).getAsJsonObject();
	}

	/**
	 * Every result's eigenvalues to 1e-10 relative; the main model's components to 1e-8°:
	 * the streamed moments of a table (one pass, blocks merged by Chan's formula) against
	 * memory's two-pass covariance.
	 */
	private static void assertSameResults(final Path a, final Path b) throws Exception {
		assertSameResults(a, b, false);
	}

	/**
	 * {@link #assertSameResults(Path, Path)}; with {@code exact} (the Gram path of images:
	 * the streamed Gram matrix is memory's to the bit) every eigenvalue and α written the
	 * same, and the components within the rounding of their lift (1e-11°) at every α.
	 */
	private static void assertSameResults(final Path a, final Path b, final boolean exact)
		throws Exception
	{
		final JsonArray ra = summary(a).getAsJsonArray("results"), rb = summary(b)
			.getAsJsonArray("results");
		assertEquals(ra.size(), rb.size());
		for (int i = 0; i < ra.size(); i++) {
			final JsonArray ea = ra.get(i).getAsJsonObject().getAsJsonArray("eigenvalues"),
				eb = rb.get(i).getAsJsonObject().getAsJsonArray("eigenvalues");
			if (exact) assertEquals(ea, eb, "result " + i + "'s eigenvalues");
			for (int c = 0; c < ea.size(); c++) {
				final double x = ea.get(c).getAsDouble(), y = eb.get(c).getAsDouble();
				assertEquals(x, y, 1e-10 * Math.abs(x), "result " + i + ", eigenvalue " + c);
			}
		}
		final CpcaModel ma = ModelFile.read(a.resolve("model.json")), mb = ModelFile.read(b
			.resolve("model.json"));
		assertEquals(ma.alpha(), mb.alpha(), 0);
		final double angle = Math.toDegrees(TestData.maxAngleBySine(ma.components(), mb
			.components()));
		assertTrue(angle < (exact ? 1e-11 : 1e-8), angle + "° at α = " + ma.alpha());
	}

	private static String plan(final Path out) throws Exception {
		return summary(out).getAsJsonObject("target").get("plan")
			.getAsString();
	}

	@Test
	void streamedTiffAndFoldersGiveTheInMemoryResults() throws Exception {
		final Path t = images.resolve("target.tif"), b = images.resolve("background.tif");
		for (final String[] method : new String[][] { { "--alpha", "auto" }, { "--alpha",
			"inf" }, { "--method", "star", "--beta", "0.5" }, { "--method", "gcpca" } })
		{
			final String name = String.join("", method).replace("-", "");
			final Path memory = dir.resolve(name + "-memory"), tiff = dir.resolve(name +
				"-tiff"), folder = dir.resolve(name + "-folder");
			Object[] r = CliTest.cpca(args(t, b, memory, method));
			assertEquals(0, r[0], r[2].toString());
			assertFalse(r[1].toString().contains("streamed"), r[1].toString());
			// 13 features per tile of 480: 37 tiles, the last one narrower
			System.setProperty("cpca.tile.bytes", String.valueOf(8 * 76 * 13));
			final List<String> extra = new ArrayList<>(Arrays.asList(method));
			extra.add("--stream");
			r = CliTest.cpca(args(t, b, tiff, extra.toArray(new String[0])));
			assertEquals(0, r[0], r[2].toString());
			assertTrue(r[1].toString().startsWith("note: --stream: streamed by feature tiles"),
				r[1].toString());
			assertTrue(plan(tiff).startsWith("streamed"), plan(tiff));
			assertSameResults(memory, tiff, true);
			r = CliTest.cpca(args(folders.resolve("target"), folders.resolve("background"),
				folder, extra.toArray(new String[0])));
			assertEquals(0, r[0], r[2].toString());
			assertSameResults(memory, folder, true);
			System.clearProperty("cpca.tile.bytes");
		}
	}

	/**
	 * A mask and binning streamed with tiles of 11 features (which divide nothing): the
	 * binned, masked samples are read tile by tile, and the results are memory's to the
	 * bit (automatic α: every α's eigenvalues).
	 */
	@Test
	void aMaskedBinnedStackStreamsToTheInMemoryResults() throws Exception {
		final ByteProcessor mask = new ByteProcessor(24, 20);
		mask.setValue(255);
		mask.setRoi(1, 1, 22, 18);
		mask.fill();
		final Path maskFile = dir.resolve("mask.tif");
		assertTrue(new FileSaver(new ImagePlus("mask", mask)).saveAsTiff(maskFile
			.toString()));
		final Path t = images.resolve("target.tif"), b = images.resolve("background.tif");
		for (final String[] input : new String[][] { { "--mask", maskFile.toString() }, {
			"--bin", "2" }, { "--mask", maskFile.toString(), "--bin", "2", "--standardize" } })
		{
			final String name = String.join("", input).replaceAll("[^a-z0-9]", "");
			final Path memory = dir.resolve(name + "-memory"), streamed = dir.resolve(name +
				"-stream");
			final List<String> extra = new ArrayList<>(Arrays.asList(input));
			extra.addAll(List.of("--alpha", "auto"));
			Object[] r = CliTest.cpca(args(t, b, memory, extra.toArray(new String[0])));
			assertEquals(0, r[0], r[2].toString());
			System.setProperty("cpca.tile.bytes", String.valueOf(8 * 76 * 11));
			extra.add("--stream");
			r = CliTest.cpca(args(t, b, streamed, extra.toArray(new String[0])));
			System.clearProperty("cpca.tile.bytes");
			assertEquals(0, r[0], r[2].toString());
			assertTrue(plan(streamed).startsWith("streamed"), plan(streamed));
			// more features than the 76 samples: the Gram path
			assertTrue(summary(streamed).getAsJsonObject("target").get("features")
				.getAsInt() > 76, name);
			assertSameResults(memory, streamed, true);
		}
	}

	/**
	 * The memory plan with a budget too small for the samples streams on its own; with
	 * one too small even for streaming it names the short quantity (here the features)
	 * and the option that reduces it; following that advice succeeds.
	 */
	@Test
	void theMemoryPlanStreamsOrGivesAdviceThatWorks() throws Exception {
		// 40 + 36 8-bit slices of 96 × 96: d = 9,216 features
		final Path big = dir.resolve("big");
		TestImageGenerator.write(TestImageGenerator.generate(TestImageGenerator.Config
			.defaults().withSlices(40, 36).withSize(96, 96)), big);
		final Path t = big.resolve("target.tif"), b = big.resolve("background.tif");
		final Path memory = dir.resolve("memory");
		assertEquals(0, CliTest.cpca(args(t, b, memory, "--alpha", "2"))[0]);
		assertEquals("in memory", plan(memory).substring(0, 9));
		// 76 samples × 9,216 features: in memory 76·9,216·5 + 40·76² = 3,733,120 bytes;
		// streamed 48·76² + 8·9,216·(2·2 + 3·2) + the smallest tile, 256 features (155,648)
		// = 1,170,176. (A budget that allows a wider tile sums G in another order: with
		// 1,500,000 the tile is 266 features and the components move by 1.4e-8°.)
		System.setProperty("cpca.memory.available", String.valueOf(1_300_000));
		final Path auto = dir.resolve("auto");
		Object[] r = CliTest.cpca(args(t, b, auto, "--alpha", "2"));
		assertEquals(0, r[0], r[2].toString());
		assertTrue(r[1].toString().startsWith("note: the samples do not fit in memory: " +
			"streamed by feature tiles"), r[1].toString());
		assertSameResults(memory, auto);
		// too little even for the streamed plan: the features are what is short (the means
		// and the smallest tile, 450,560 bytes, against 277,248 for the fit and 442,368 for
		// the components)
		System.setProperty("cpca.memory.available", String.valueOf(1_000_000));
		final Path refused = dir.resolve("refused");
		r = CliTest.cpca(args(t, b, refused, "--alpha", "2"));
		assertEquals(1, r[0]);
		final String err = r[2].toString().trim();
		assertFalse(err.contains("\n"), err);
		assertTrue(err.startsWith("cpca: not enough memory even for the streamed plan: "), err);
		assertTrue(err.contains("and the d = 9216 features take"), err);
		assertTrue(err.contains("use --bin 2"), err);
		assertFalse(Files.exists(refused.resolve("summary.json")));
		// the advice, followed: 2,304 features, streamed in 709,632 bytes
		final Path binned = dir.resolve("binned");
		r = CliTest.cpca(args(t, b, binned, "--alpha", "2", "--bin", "2"));
		assertEquals(0, r[0], r[2].toString());
		assertTrue(plan(binned).startsWith("streamed"), plan(binned));
	}

	/** A CSV table with --stream: read row by row into each dataset's moments, same results. */
	@Test
	void aStreamedTableGivesTheInMemoryResults() throws Exception {
		writeTables();
		final Path memory = dir.resolve("table-memory"), streamed = dir.resolve("table-stream");
		final String[] m = tableArgs();
		Object[] o = CliTest.cpca(concat(m, memory.toString()));
		assertEquals(0, o[0], o[2].toString());
		o = CliTest.cpca(concat(m, streamed.toString(), "--stream"));
		assertEquals(0, o[0], o[2].toString());
		assertTrue(plan(streamed).startsWith("streamed"), plan(streamed));
		assertSameResults(memory, streamed);
	}

	/**
	 * Without --stream the memory plan streams a table too when the heap is short: a table
	 * that surely fits by its size on disk (26 × its bytes) is read into memory without a
	 * counting pass; one that may not is opened, and streamed when its samples do not fit
	 * (in memory 12·N·d + 32·d² = 18,800 bytes for 300 × 5; streamed 72·d² = 1,800).
	 */
	@Test
	void theMemoryPlanStreamsATableWhenTheHeapIsShort() throws Exception {
		writeTables();
		final String[] m = tableArgs();
		final Path memory = dir.resolve("memory"), counted = dir.resolve("counted"),
			streamed = dir.resolve("streamed");
		Object[] o = CliTest.cpca(concat(m, memory.toString()));
		assertEquals(0, o[0], o[2].toString());
		assertFalse(o[1].toString().contains("streamed"), o[1].toString());
		assertFalse(summary(memory).getAsJsonObject("target").has("plan"), "no plan made");
		System.setProperty("cpca.memory.available", String.valueOf(100_000));
		o = CliTest.cpca(concat(m, counted.toString()));
		assertEquals(0, o[0], o[2].toString());
		assertTrue(plan(counted).startsWith("in memory"), plan(counted));
		System.setProperty("cpca.memory.available", String.valueOf(10_000));
		o = CliTest.cpca(concat(m, streamed.toString()));
		assertEquals(0, o[0], o[2].toString());
		assertTrue(o[1].toString().startsWith("note: the samples do not fit in memory: " +
			"streamed"), o[1].toString());
		assertSameResults(memory, streamed);
	}

	/**
	 * Kernel cPCA with --stream (Nyström landmarks by their seeded indices, γ given): the
	 * in-memory eigenvalues of every result; the exact path is refused in one line.
	 */
	@Test
	void kernelCpcaStreamsWithItsLandmarks() throws Exception {
		final Path t = images.resolve("target.tif"), b = images.resolve("background.tif");
		final String[] kernel = { "--method", "kernel", "--kernel", "rbf", "--gamma", "0.001",
			"--landmarks", "30", "--alpha", "auto" };
		final Path memory = dir.resolve("kernel-memory"), streamed = dir.resolve(
			"kernel-stream");
		Object[] r = CliTest.cpca(args(t, b, memory, kernel));
		assertEquals(0, r[0], r[2].toString());
		r = CliTest.cpca(args(t, b, streamed, concat(kernel, "--stream")));
		assertEquals(0, r[0], r[2].toString());
		assertTrue(plan(streamed).startsWith("streamed"), plan(streamed));
		final JsonArray ra = summary(memory).getAsJsonArray("results"), rb = summary(streamed)
			.getAsJsonArray("results");
		assertEquals(ra.size(), rb.size());
		for (int i = 0; i < ra.size(); i++) {
			final JsonArray ea = ra.get(i).getAsJsonObject().getAsJsonArray("eigenvalues"),
				eb = rb.get(i).getAsJsonObject().getAsJsonArray("eigenvalues");
			for (int c = 0; c < ea.size(); c++)
				assertEquals(ea.get(c).getAsDouble(), eb.get(c).getAsDouble(), 1e-10 * Math.abs(ea
					.get(c).getAsDouble()), "result " + i + ", eigenvalue " + c);
		}
		r = CliTest.cpca(args(t, b, dir.resolve("kernel-all"), "--method", "kernel",
			"--landmarks", "all", "--alpha", "2", "--stream"));
		assertEquals(1, r[0]);
		assertTrue(r[2].toString().contains("exact kernel cPCA (landmarks all) holds every " +
			"sample"), r[2].toString());
	}

	/**
	 * Kernel cPCA streamed with too little memory for its landmarks: one line names them
	 * and a quarter as many; following it succeeds (76 samples × 480 features: 2,315,648
	 * bytes with 60 landmarks, 1,801,928 with 15, against 2,000,000).
	 */
	@Test
	void kernelLandmarksThatAreShortAreNamedWithTheirFix() throws Exception {
		final Path t = images.resolve("target.tif"), b = images.resolve("background.tif");
		System.setProperty("cpca.memory.available", String.valueOf(2_000_000));
		Object[] r = CliTest.cpca(args(t, b, dir.resolve("l60"), "--method", "kernel",
			"--landmarks", "60", "--alpha", "2", "--stream"));
		assertEquals(1, r[0]);
		final String err = r[2].toString().trim();
		assertFalse(err.contains("\n"), err);
		assertTrue(err.contains("its 60 landmarks of d = 480 features take") && err.contains(
			"use fewer landmarks (--landmarks 15)"), err);
		r = CliTest.cpca(args(t, b, dir.resolve("l15"), "--method", "kernel", "--landmarks",
			"15", "--alpha", "2", "--stream"));
		assertEquals(0, r[0], r[2].toString());
		assertTrue(plan(dir.resolve("l15")).startsWith("streamed"));
	}

	private void writeTables() throws Exception {
		final Random r = new Random(3);
		for (final String name : List.of("t.csv", "b.csv")) {
			final StringBuilder sb = new StringBuilder("a,b,c,d,e\n");
			for (int i = 0; i < 150; i++) {
				final double z = r.nextGaussian() * 3;
				sb.append(String.format(Locale.ROOT, "%.6f,%.6f,%.6f,%.6f,%.6f%n", z +
					r.nextGaussian(), -z + r.nextGaussian(), r.nextGaussian() * (name.equals(
						"t.csv") ? 2 : 0.5), r.nextGaussian(), 10 + r.nextGaussian()));
			}
			Files.writeString(dir.resolve(name), sb.toString());
		}
	}

	/** cpca fit on the tables of {@link #writeTables}, ending with --out (its value next). */
	private String[] tableArgs() {
		return new String[] { "fit", "--target", dir.resolve("t.csv").toString(),
			"--background", dir.resolve("b.csv").toString(), "--alpha", "auto", "--no-plots",
			"--out" };
	}

	private static String[] concat(final String[] a, final String... b) {
		final List<String> all = new ArrayList<>(Arrays.asList(a));
		all.addAll(Arrays.asList(b));
		return all.toArray(new String[0]);
	}

	/** Many samples of few features: the Gram matrix is what is short, and online is the fix. */
	@Test
	void samplesThatAreShortAreNamedWithTheirFix() throws Exception {
		System.setProperty("cpca.memory.available", String.valueOf(100_000));
		final Object[] r = CliTest.cpca(args(images.resolve("target.tif"), images.resolve(
			"background.tif"), dir.resolve("n2"), "--stream", "--bin", "2"));
		assertEquals(1, r[0]);
		assertTrue(r[2].toString().contains("the N × N Gram matrix of N = 76 samples") && r[2]
			.toString().contains("use --method online"), r[2].toString());
	}

	/**
	 * A folder read file by file takes the --axes choice as the same folder read into
	 * memory does: channels refused in one line (each file is one plane), c1 used.
	 */
	@Test
	void aStreamedFolderTakesTheAxesChoiceAsInMemory() throws Exception {
		final Path t = folders.resolve("target"), b = folders.resolve("background");
		for (final String[] stream : new String[][] { {}, { "--stream" } }) {
			final String name = stream.length == 0 ? "memory" : "stream";
			final Object[] refused = CliTest.cpca(args(t, b, dir.resolve(name + "-channels"),
				concat(stream, "--alpha", "2", "--axes", "channels")));
			assertEquals(1, refused[0], name + ": " + refused[1]);
			assertTrue(refused[2].toString().contains(
				"has one channel, so channels cannot be features"), refused[2].toString());
			assertEquals(1, refused[2].toString().trim().split("\n").length, refused[2]
				.toString());
			final Path c1 = dir.resolve(name + "-c1");
			final Object[] r = CliTest.cpca(args(t, b, c1, concat(stream, "--alpha", "2",
				"--axes", "c1")));
			assertEquals(0, r[0], r[2].toString());
			assertEquals("c1", summary(c1).getAsJsonObject("target").get("axes")
				.getAsString(), name);
		}
	}
}
