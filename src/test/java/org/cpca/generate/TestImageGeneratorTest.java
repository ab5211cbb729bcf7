package org.cpca.generate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.IJ;
import ij.ImagePlus;
import ij.ImageStack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CancellationException;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.cpca.core.Progress;
import org.cpca.generate.TestImageGenerator.Config;
import org.cpca.generate.TestImageGenerator.Result;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tests {@link TestImageGenerator}. */
public class TestImageGeneratorTest {

	/** The committed images, relative to the project directory (surefire's cwd). */
	private static final Path COMMITTED = Paths.get("test-images");

	private static final Config SMALL = Config.defaults().withSlices(8, 5);

	/**
	 * How many background slices of the default configuration the tests make: slice
	 * i depends only on the seed and i, so the first slices of a shorter stack are
	 * the first slices of the full one, and the tests stay fast.
	 */
	private static final int BACKGROUND_PREFIX = 30;

	/** The default target, and the first {@link #BACKGROUND_PREFIX} background slices. */
	private static Result defaults;

	@BeforeAll
	public static void generateDefaults() {
		System.setProperty("java.awt.headless", "true");
		defaults = TestImageGenerator.generate(Config.defaults().withSlices(Config
			.defaults().targetSlices(), BACKGROUND_PREFIX));
	}

	@Test
	public void testSameSeedSamePixels() {
		final Result a = TestImageGenerator.generate(SMALL);
		final Result b = TestImageGenerator.generate(SMALL);
		assertSamePixels(a.target(), b.target(), "target");
		assertSamePixels(a.background(), b.background(), "background");
		assertEquals(a.targetLabels(), b.targetLabels());
	}

	@Test
	public void testDifferentSeedDifferentPixels() {
		final Result a = TestImageGenerator.generate(SMALL);
		final Result b = TestImageGenerator.generate(SMALL.withSeed(SMALL.seed() + 1));
		for (int s = 1; s <= SMALL.targetSlices(); s++)
			assertFalse(Arrays.equals(bytes(a.target(), s), bytes(b.target(),
				s)), "target slice " + s);
		for (int s = 1; s <= SMALL.backgroundSlices(); s++)
			assertFalse(Arrays.equals(bytes(a.background(), s), bytes(b
				.background(), s)), "background slice " + s);
	}

	@Test
	public void testSlicesDoNotDependOnCounts() {
		// background slice i depends on the seed and i only; the target depends on
		// the number of target slices (the label order) but not on the background
		final Result a = TestImageGenerator.generate(SMALL);
		final Result b = TestImageGenerator.generate(SMALL.withSlices(SMALL
			.targetSlices(), 2));
		assertSamePixels(a.target(), b.target(), "target");
		for (int s = 1; s <= 2; s++)
			assertArrayEquals(bytes(a.background(), s), bytes(b.background(), s));
	}

	@Test
	public void testSlicesAreDistinct() {
		// every slice is its own draw, target and background independent
		final List<byte[]> all = new ArrayList<>();
		final Result r = TestImageGenerator.generate(SMALL);
		for (int s = 1; s <= SMALL.targetSlices(); s++)
			all.add(bytes(r.target(), s));
		for (int s = 1; s <= SMALL.backgroundSlices(); s++)
			all.add(bytes(r.background(), s));
		for (int i = 0; i < all.size(); i++)
			for (int j = i + 1; j < all.size(); j++)
				assertFalse(Arrays.equals(all.get(i), all.get(j)), "slices " + i +
					" and " + j);
	}

	@Test
	public void testDefaultShapesAndLabels() {
		final Config c = Config.defaults();
		assertEquals(20261122L, c.seed());
		assertEquals(300, c.targetSlices());
		assertEquals(300, c.backgroundSlices());
		assertEquals(32, c.width());
		assertEquals(32, c.height());

		final ImagePlus target = defaults.target();
		final ImagePlus background = defaults.background();
		assertEquals(8, target.getBitDepth());
		assertEquals(8, background.getBitDepth());
		assertEquals(32, target.getWidth());
		assertEquals(32, target.getHeight());
		assertEquals(32, background.getWidth());
		assertEquals(32, background.getHeight());
		assertEquals(300, target.getStackSize());
		assertEquals(BACKGROUND_PREFIX, background.getStackSize());

		final List<String> labels = defaults.targetLabels();
		assertEquals(300, labels.size());
		assertEquals(150, Collections.frequency(labels, "0"));
		assertEquals(150, Collections.frequency(labels, "1"));
		final List<String> sorted = new ArrayList<>(labels);
		Collections.sort(sorted);
		assertFalse(sorted.equals(labels), "labels should be shuffled");
		for (int s = 1; s <= 300; s++)
			assertEquals(labels.get(s - 1), target.getStack().getSliceLabel(s));
		for (int s = 1; s <= BACKGROUND_PREFIX; s++)
			assertEquals(TestImageGenerator.BACKGROUND_LABEL, background.getStack()
				.getSliceLabel(s));
		assertThrows(UnsupportedOperationException.class, () -> labels.add("2"));
	}

	@Test
	public void testOddCountsAndOtherSizes() {
		final Result r = TestImageGenerator.generate(Config.defaults().withSlices(5, 3)
			.withSize(40, 24));
		assertEquals(5, r.target().getStackSize());
		assertEquals(3, r.background().getStackSize());
		assertEquals(40, r.target().getWidth());
		assertEquals(24, r.target().getHeight());
		assertEquals(2, Collections.frequency(r.targetLabels(), "0"));
		assertEquals(3, Collections.frequency(r.targetLabels(), "1"));
	}

	@Test
	public void testGlyphIsFaintAndAdditive() {
		// same seed without glyphs: identical texture, so the difference is the glyph
		final Config with = SMALL;
		final Result a = TestImageGenerator.generate(with);
		final Result b = TestImageGenerator.generate(with.withGlyphContrast(0));
		final int limit = (int) Math.ceil(with.glyphContrast()) + 1;
		for (int s = 1; s <= with.targetSlices(); s++) {
			final byte[] pa = bytes(a.target(), s), pb = bytes(b.target(), s);
			int changed = 0;
			for (int p = 0; p < pa.length; p++) {
				final int d = (pa[p] & 0xff) - (pb[p] & 0xff);
				assertTrue(d >= 0 && d <= limit, "slice " + s + " pixel " + p + ": " + d);
				if (d > 0) changed++;
			}
			assertTrue(changed > 20, "slice " + s + " has a glyph");
			assertTrue(changed < pa.length / 2, "slice " + s + " glyph is not everywhere");
		}
		for (int s = 1; s <= with.backgroundSlices(); s++)
			assertArrayEquals(bytes(a.background(), s), bytes(b.background(), s));
	}

	@Test
	public void testGlyphShapesMatchLabels() {
		// the glyph alone is the difference from the same seed without glyphs; a "0"
		// is a ring, empty at its centre of mass, a "1" a stem through it
		final Config with = Config.defaults().withSlices(40, 1);
		final Result a = TestImageGenerator.generate(with);
		final Result b = TestImageGenerator.generate(with.withGlyphContrast(0));
		final int w = with.width();
		int zeros = 0, ones = 0;
		for (int s = 1; s <= with.targetSlices(); s++) {
			final byte[] pa = bytes(a.target(), s), pb = bytes(b.target(), s);
			final int[] d = new int[pa.length];
			double sum = 0, sx = 0, sy = 0;
			for (int p = 0; p < d.length; p++) {
				d[p] = (pa[p] & 0xff) - (pb[p] & 0xff);
				sum += d[p];
				sx += d[p] * (p % w + 0.5);
				sy += d[p] * (p / w + 0.5);
			}
			final int centre = (int) (sy / sum) * w + (int) (sx / sum);
			final String label = a.targetLabels().get(s - 1);
			if (label.equals("0")) {
				zeros++;
				assertEquals(0, d[centre], "slice " + s + ": a \"0\" has a hole");
			}
			else {
				ones++;
				assertTrue(d[centre] > 0, "slice " + s + ": a \"1\" has a stem");
			}
		}
		assertEquals(20, zeros);
		assertEquals(20, ones);
	}

	@Test
	public void testGeneratorUsesNoJava2D() throws IOException {
		// fonts and Java2D's rasteriser differ between machines and Java versions; the
		// generator's class file must not refer to java.awt at all
		try (java.io.InputStream in = TestImageGenerator.class.getResourceAsStream(
			"TestImageGenerator.class"))
		{
			assertNotNull(in);
			final String constants = new String(in.readAllBytes(),
				StandardCharsets.ISO_8859_1);
			assertTrue(constants.contains("java/lang/StrictMath"), "the class file is read");
			assertFalse(constants.contains("java/awt/"), "refers to java.awt");
		}
	}

	@Test
	public void testCommittedImagesMatchGenerator() throws IOException {
		final ImagePlus target = IJ.openImage(COMMITTED.resolve(
			TestImageGenerator.TARGET_FILE).toString());
		final ImagePlus background = IJ.openImage(COMMITTED.resolve(
			TestImageGenerator.BACKGROUND_FILE).toString());
		assertNotNull(target, "cannot open test-images/target.tif");
		assertNotNull(background, "cannot open test-images/background.tif");
		assertEquals(Config.defaults().backgroundSlices(), background
			.getStackSize());
		assertSamePixels(defaults.background(), new ImagePlus("prefix", background
			.getStack().crop(0, 0, 0, background.getWidth(), background.getHeight(),
				BACKGROUND_PREFIX)),
			"test-images/background.tif differs from the generator's output: " +
				"regenerate with ./cpca generate --out test-images --overwrite if intended");
		assertSamePixels(defaults.target(), target,
			"test-images/target.tif differs from the generator's output: regenerate " +
				"with ./cpca generate --out test-images --overwrite if intended");
		for (int s = 1; s <= target.getStackSize(); s++)
			assertEquals(defaults.targetLabels().get(s - 1), target.getStack()
				.getSliceLabel(s));
		assertEquals(defaults.targetLabels(), readLabels(COMMITTED.resolve(
			TestImageGenerator.LABELS_FILE)));
	}

	@Test
	public void testWrite(@TempDir final Path dir) throws IOException {
		final Result r = TestImageGenerator.generate(SMALL);
		final Path out = dir.resolve("sub");
		TestImageGenerator.write(r, out);
		TestImageGenerator.write(r, out); // overwriting works
		try (Stream<Path> files = Files.list(out)) {
			assertEquals(Stream.of(TestImageGenerator.BACKGROUND_FILE,
				TestImageGenerator.LABELS_FILE, TestImageGenerator.TARGET_FILE).collect(
					Collectors.toList()), files.map(p -> p.getFileName().toString()).sorted()
						.collect(Collectors.toList()), "exactly three files, no temp files");
		}
		final ImagePlus target = IJ.openImage(out.resolve(
			TestImageGenerator.TARGET_FILE).toString());
		final ImagePlus background = IJ.openImage(out.resolve(
			TestImageGenerator.BACKGROUND_FILE).toString());
		assertSamePixels(r.target(), target, "written target");
		assertSamePixels(r.background(), background, "written background");
		assertEquals(TestImageGenerator.BACKGROUND_LABEL, background.getStack()
			.getSliceLabel(1));
		assertEquals(r.targetLabels(), readLabels(out.resolve(
			TestImageGenerator.LABELS_FILE)));
		assertEquals("target", r.target().getTitle(), "write() renames nothing");
	}

	@Test
	public void testWriteSingleSlices(@TempDir final Path dir) throws IOException {
		final Result r = TestImageGenerator.generate(Config.defaults().withSlices(1,
			1));
		TestImageGenerator.write(r, dir);
		assertSamePixels(r.target(), IJ.openImage(dir.resolve(
			TestImageGenerator.TARGET_FILE).toString()), "single-slice target");
		assertEquals(r.targetLabels(), readLabels(dir.resolve(
			TestImageGenerator.LABELS_FILE)));
	}

	@Test
	public void testLargerImagesKeepTheirPixels() throws Exception {
		// SHA-256 of the pixels (target slices, then background slices) as the generator
		// made them before its rasterisers measured only the pixels a stroke can reach
		// (every pixel of a stroke's bounding box then): the speed-up changed no bit
		// (withTextureBank(0): these sizes share a texture bank by default)
		assertEquals("03b78168c9ba9cb47fcd03d120b4e8e77fb95914114a043f8e80fdf8213cb7a1",
			digest(TestImageGenerator.generate(Config.defaults().withSeed(3).withSlices(2,
				2).withSize(128, 80).withTextureBank(0))));
		assertEquals("1c379664fc9caa7c3814a54340072e13aba38b4643a535f58887aeea0f264a8b",
			digest(TestImageGenerator.generate(Config.defaults().withSlices(1, 1).withSize(
				256, 256).withTextureBank(0))));
	}

	@Test
	public void testTextureBankIsChosenFromTheSize() {
		assertEquals(0, Config.defaults().textureBank(), "the bundled images draw their own");
		assertEquals(0, Config.defaults().withSize(64, 64).textureBank());
		assertEquals(TestImageGenerator.DEFAULT_BANK, Config.defaults().withSize(65, 64)
			.textureBank());
		assertEquals(TestImageGenerator.DEFAULT_BANK, Config.defaults().withSize(256, 256)
			.textureBank());
		assertEquals(0, Config.defaults().withSize(256, 256).withTextureBank(0)
			.textureBank());
		assertEquals(Config.defaults(), Config.defaults().withTextureBank(0));
		assertThrows(IllegalArgumentException.class, () -> Config.defaults()
			.withTextureBank(-1));
	}

	@Test
	public void testBankLayersAreSeamlessTori() {
		// blades run roughly upwards, so a row is much like the next one; on a torus the
		// last row is also much like the first (a drawing with a margin makes them
		// independent: their difference would be ~ twice the variance)
		final Config c = Config.defaults().withSize(48, 48).withTextureBank(4);
		final float[][] bank = TestImageGenerator.bank(c, Progress.NONE);
		assertEquals(4, bank.length);
		final int w = c.width(), h = c.height();
		for (final float[] layer : bank) {
			double inside = 0, wrap = 0, variance = 0, mean = 0;
			for (final float v : layer)
				mean += v / layer.length;
			for (final float v : layer)
				variance += (v - mean) * (v - mean) / layer.length;
			for (int x = 0; x < w; x++) {
				wrap += square(layer[(h - 1) * w + x] - layer[x]) / w;
				for (int y = 1; y < h; y++)
					inside += square(layer[y * w + x] - layer[(y - 1) * w + x]) / (w * (h - 1));
			}
			assertTrue(wrap < 2 * inside, "wrap " + wrap + ", inside " + inside);
			assertTrue(inside < variance, "rows alike: " + inside + " < " + variance);
		}
	}

	@Test
	public void testTextureBankKeepsTheTextureStatistics() {
		// the same model drawn anew for every slice and shared through a bank: the
		// background's grey levels have about the same mean, spread between slices and
		// spread within a slice
		final Config c = Config.defaults().withSize(48, 48).withSlices(1, 120);
		final double[] own = backgroundMoments(TestImageGenerator.generate(c
			.withTextureBank(0)));
		final double[] shared = backgroundMoments(TestImageGenerator.generate(c
			.withTextureBank(8)));
		for (int i = 0; i < own.length; i++)
			assertEquals(own[i], shared[i], 0.15 * Math.abs(own[i]), "moment " + i + ": " +
				Arrays.toString(own) + " vs " + Arrays.toString(shared));
	}

	@Test
	public void testTextureBankKeepsItsPixels() throws Exception {
		// pins the bank path as the one above pins the independent one
		assertEquals("d027b3de3f08f15e407eae029413c1f481d20a2a072eabc73c75ad2db75c04f2",
			digest(TestImageGenerator.generate(Config.defaults().withSeed(3).withSlices(3, 2)
				.withSize(96, 80))));
	}

	@Test
	public void testProgressCountsSlicesAndCancels() {
		final List<Double> fractions = new ArrayList<>();
		TestImageGenerator.generate(SMALL, (stage, fraction) -> fractions.add(fraction));
		assertEquals(1.0, fractions.get(fractions.size() - 1));
		for (int i = 1; i < fractions.size(); i++)
			assertTrue(fractions.get(i) > fractions.get(i - 1), fractions.toString());
		final Progress stop = new Progress() {

			@Override
			public void stage(final String stage, final double fraction) {}

			@Override
			public boolean cancelled() {
				return true;
			}
		};
		assertThrows(CancellationException.class, () -> TestImageGenerator.generate(SMALL,
			stop));
	}

	@Test
	public void testProgressCountsTheBankThenTheSlices() {
		final List<String> stages = new ArrayList<>();
		final List<Double> fractions = new ArrayList<>();
		TestImageGenerator.generate(SMALL.withSize(48, 48).withTextureBank(6), (stage,
			fraction) -> {
			stages.add(stage);
			fractions.add(fraction);
		});
		final int slices = stages.indexOf(stages.stream().filter(s -> s.startsWith("slice"))
			.findFirst().get());
		assertEquals("texture bank, layer 6 of 6", stages.get(slices - 1));
		for (int i = 0; i < stages.size(); i++) {
			assertTrue(stages.get(i).startsWith(i < slices ? "texture bank" : "slice"), stages
				.toString());
			if (i != 0 && i != slices) assertTrue(fractions.get(i) > fractions.get(i - 1),
				fractions.toString());
		}
		assertEquals(1.0, fractions.get(slices - 1));
		assertEquals(1.0, fractions.get(fractions.size() - 1));
	}

	@Test
	public void testConfigIsAValue() {
		assertEquals(Config.defaults(), Config.defaults());
		assertEquals(Config.defaults().hashCode(), Config.defaults().hashCode());
		assertEquals(Config.defaults(), Config.defaults().withSeed(1).withSeed(
			Config.DEFAULT_SEED));
		assertFalse(Config.defaults().equals(Config.defaults().withGlyphContrast(3)));
		assertEquals(26, Config.defaults().glyphContrast());
		final Config c = Config.defaults().withSlices(7, 9).withSize(16, 20);
		assertEquals(7, c.targetSlices());
		assertEquals(9, c.backgroundSlices());
		assertEquals(16, c.width());
		assertEquals(20, c.height());
		assertEquals(Config.DEFAULT_SEED, c.seed());
	}

	@Test
	public void testInvalidConfig() {
		final Config c = Config.defaults();
		assertThrows(IllegalArgumentException.class, () -> c.withSlices(0, 10));
		assertThrows(IllegalArgumentException.class, () -> c.withSlices(10, 0));
		assertThrows(IllegalArgumentException.class, () -> c.withSize(4, 32));
		assertThrows(IllegalArgumentException.class, () -> c.withGlyphContrast(-1));
		assertThrows(IllegalArgumentException.class, () -> c.withGlyphContrast(
			Double.NaN));
	}

	// -- helpers --

	private static double square(final double v) {
		return v * v;
	}

	/** Mean grey level, variance of the slice means, mean variance within a slice. */
	private static double[] backgroundMoments(final Result r) {
		final int n = r.background().getStackSize();
		final double[] means = new double[n];
		double within = 0;
		for (int s = 1; s <= n; s++) {
			final byte[] p = bytes(r.background(), s);
			double m = 0, v = 0;
			for (final byte b : p)
				m += (b & 0xff) / (double) p.length;
			for (final byte b : p)
				v += square((b & 0xff) - m) / p.length;
			means[s - 1] = m;
			within += v / n;
		}
		final double mean = Arrays.stream(means).average().getAsDouble();
		return new double[] { mean, Arrays.stream(means).map(m -> square(m - mean)).sum() /
			(n - 1), within };
	}

	private static String digest(final Result r) throws Exception {
		final MessageDigest md = MessageDigest.getInstance("SHA-256");
		for (int s = 1; s <= r.target().getStackSize(); s++)
			md.update(bytes(r.target(), s));
		for (int s = 1; s <= r.background().getStackSize(); s++)
			md.update(bytes(r.background(), s));
		final StringBuilder hex = new StringBuilder();
		for (final byte b : md.digest())
			hex.append(String.format(Locale.ROOT, "%02x", b));
		return hex.toString();
	}

	private static List<String> readLabels(final Path file) throws IOException {
		return Files.readAllLines(file, StandardCharsets.UTF_8);
	}

	private static byte[] bytes(final ImagePlus imp, final int slice) {
		return (byte[]) imp.getStack().getPixels(slice);
	}

	private static void assertSamePixels(final ImagePlus expected,
		final ImagePlus actual, final String what)
	{
		assertNotNull(actual, what);
		final ImageStack e = expected.getStack(), a = actual.getStack();
		assertEquals(8, actual.getBitDepth(), what);
		assertEquals(e.getWidth(), a.getWidth(), what);
		assertEquals(e.getHeight(), a.getHeight(), what);
		assertEquals(e.getSize(), a.getSize(), what);
		for (int s = 1; s <= e.getSize(); s++)
			assertArrayEquals((byte[]) e.getPixels(s), (byte[]) a.getPixels(s), what +
				", slice " + s);
	}
}
