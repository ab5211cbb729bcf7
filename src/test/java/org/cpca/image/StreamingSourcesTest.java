package org.cpca.image;

import org.cpca.core.online.OnlineRun;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;
import ij.ImageStack;
import ij.Prefs;
import ij.VirtualStack;
import ij.io.FileSaver;
import ij.process.ColorProcessor;
import ij.process.FloatProcessor;
import ij.process.ImageProcessor;
import ij.process.ShortProcessor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import org.cpca.core.data.Dataset;
import org.cpca.core.online.OnlineCpcaStar;
import org.cpca.core.online.OnlineOptions;
import org.cpca.core.Progress;
import org.cpca.core.data.SampleSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Virtual stacks, TIFFs read slice by slice and folders read file by file. */
public class StreamingSourcesTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	@TempDir
	Path dir;

	/** A 16-bit stack of seeded random slices, labelled "a"/"b" alternately. */
	static ImagePlus randomStack(final long seed, final int w, final int h,
		final int slices)
	{
		final Random r = new Random(seed);
		final ImageStack stack = new ImageStack(w, h);
		for (int s = 0; s < slices; s++) {
			final ShortProcessor sp = new ShortProcessor(w, h);
			for (int i = 0; i < w * h; i++)
				sp.set(i, r.nextInt(4000));
			stack.addSlice(s % 2 == 0 ? "a" : "b", sp);
		}
		return new ImagePlus("random", stack);
	}

	/** Every sample of a source, read in the given order. */
	static float[][] readAll(final SampleSource s, final int... order) throws IOException {
		final float[][] out = new float[s.samples()][];
		final int[] idx = order.length > 0 ? order : range(s.samples());
		for (final int i : idx) {
			out[i] = new float[s.features()];
			s.read(i, out[i]);
		}
		return out;
	}

	static int[] range(final int n) {
		final int[] r = new int[n];
		for (int i = 0; i < n; i++)
			r[i] = i;
		return r;
	}

	static void assertSameSamples(final Dataset expected, final float[][] actual) {
		assertEquals(expected.samples(), actual.length);
		for (int i = 0; i < actual.length; i++)
			for (int j = 0; j < actual[i].length; j++)
				assertEquals(expected.value(i, j), actual[i][j], "sample " + i + ", feature " + j);
	}

	/** The call throws an IllegalArgumentException whose message has every part. */
	static void assertMessage(final org.junit.jupiter.api.function.Executable call,
		final String... parts)
	{
		final String m = org.junit.jupiter.api.Assertions.assertThrows(
			IllegalArgumentException.class, call).getMessage();
		for (final String p : parts)
			assertTrue(m.contains(p), "'" + p + "' not in: " + m);
	}

	@Test
	void aTiffReadSliceBySliceEqualsTheStackInMemory() throws IOException {
		final ImagePlus imp = randomStack(1, 12, 10, 9);
		final Path tif = dir.resolve("stack.tif");
		assertTrue(new FileSaver(imp).saveAsTiffStack(tif.toString()));
		final ImagePlus virtual = ImageInput.openVirtual(tif);
		assertTrue(virtual.getStack().isVirtual());
		final ImagePlus mask = StackSamplesTest.byteMask(12, 10, 0, 1, 2, 3, 13, 14, 15, 16,
			40, 41, 52, 53, 99);
		for (final int bin : new int[] { 1, 2 }) {
			final FeatureLayout layout = StackSamples.layoutFor(virtual, bin == 1 ? null : mask,
				null, bin);
			final Dataset inMemory = StackSamples.toDataset("target", ImageInput.open(tif),
				layout);
			final StackSource s = new StackSource("target", virtual, layout);
			assertTrue(s.virtual());
			assertEquals(9, s.samples());
			assertSameSamples(inMemory, readAll(s));
			// random access: the same values in any order
			assertSameSamples(inMemory, readAll(s, 8, 3, 0, 5, 1, 7, 2, 6, 4));
			assertEquals(List.of("a", "b", "a", "b", "a", "b", "a", "b", "a"), s.labels());
		}
	}

	/**
	 * A TIFF virtual stack reads a range of features by reading just those pixels' bytes,
	 * for 8-bit, 16-bit and 32-bit slices in either byte order, with the values of a whole
	 * slice.
	 */
	@Test
	void aTiffVirtualStackReadsFeatureRangesByTheirBytesOnly() throws IOException {
		final ImagePlus sixteen = randomStack(4, 13, 7, 5);
		final ImageStack floats = new ImageStack(13, 7), bytes = new ImageStack(13, 7);
		for (int i = 1; i <= 5; i++) {
			final ImageProcessor ip = sixteen.getStack().getProcessor(i);
			final FloatProcessor fp = ip.convertToFloatProcessor();
			fp.multiply(-0.37);
			floats.addSlice(fp);
			bytes.addSlice(ip.convertToByteProcessor(false));
		}
		int index = 0;
		for (final ImagePlus imp : List.of(sixteen, new ImagePlus("f", floats), new ImagePlus(
			"b", bytes)))
			for (final boolean intel : new boolean[] { true, false }) {
				final Path tif = dir.resolve("ranges" + index++ + ".tif");
				final boolean was = Prefs.intelByteOrder;
				Prefs.intelByteOrder = intel;
				try {
					assertTrue(new FileSaver(imp).saveAsTiffStack(tif.toString()));
				}
				finally {
					Prefs.intelByteOrder = was;
				}
				final ImagePlus virtual = ImageInput.openVirtual(tif);
				final StackSource s = new StackSource("target", virtual, StackSamples.layoutFor(
					virtual, null, null, 1));
				assertTrue(s.readsRanges(), tif.toString());
				final float[] whole = new float[s.features()], range = new float[40];
				for (int i = 0; i < 5; i++) {
					s.read(i, whole);
					final long before = s.rangeBytesRead();
					s.readRange(i, 17, 57, range);
					assertEquals(40L * imp.getBitDepth() / 8, s.rangeBytesRead() - before);
					for (int j = 0; j < 40; j++)
						assertEquals(whole[17 + j], range[j], "slice " + i + ", feature " + (17 + j));
				}
				s.close();
			}
		// binned (and masked) ranges are read by their rows too: TiffRowsTest
		final ImagePlus virtual = ImageInput.openVirtual(dir.resolve("ranges0.tif"));
		assertTrue(new StackSource("target", virtual, StackSamples.layoutFor(virtual, null,
			null, 2)).readsRanges());
	}

	@Test
	void aFolderReadFileByFileEqualsTheFolderInMemory() throws IOException {
		final ImagePlus imp = randomStack(2, 7, 5, 12);
		for (int s = 1; s <= 12; s++)
			assertTrue(new FileSaver(new ImagePlus("s", imp.getStack().getProcessor(s)))
				.saveAsTiff(dir.resolve("img" + s + ".tif").toString()));
		Files.write(dir.resolve("notes.txt"), "not an image".getBytes());
		final FeatureLayout layout = StackSamples.layoutFor(FolderSource.firstImage(dir),
			null, null, 1);
		final Dataset inMemory = StackSamples.toDataset("background", ImageInput.open(dir),
			layout);
		final FolderSource s = new FolderSource("background", dir, layout);
		assertEquals(12, s.samples());
		// img2 before img10: numbers compared by value, as the in-memory folder reader does
		assertEquals("img2.tif", s.files().get(1).getFileName().toString());
		assertSameSamples(inMemory, readAll(s));
		assertSameSamples(inMemory, readAll(s, 11, 0, 5, 3, 1, 2, 4, 6, 7, 8, 9, 10));
	}

	@Test
	void badFolderImagesAreNamed() throws IOException {
		final ImagePlus imp = randomStack(3, 6, 4, 2);
		new FileSaver(new ImagePlus("a", imp.getStack().getProcessor(1))).saveAsTiff(dir
			.resolve("a.tif").toString());
		new FileSaver(new ImagePlus("b", new ShortProcessor(5, 4))).saveAsTiff(dir.resolve(
			"b.tif").toString());
		new FileSaver(randomStack(4, 6, 4, 3)).saveAsTiffStack(dir.resolve("c.tif")
			.toString());
		final FeatureLayout layout = StackSamples.layoutFor(FolderSource.firstImage(dir),
			null, null, 1);
		final FolderSource s = new FolderSource("target", dir, layout);
		final float[] x = new float[layout.features()];
		s.read(0, x);
		assertMessage(() -> s.read(1, x), "b.tif", "same width × height");
		assertMessage(() -> s.read(2, x), "c.tif", "3 slices");
		final Path empty = Files.createDirectory(dir.resolve("empty"));
		// the same words as a folder read into memory (cpca fit's two plans agree)
		assertMessage(() -> FolderSource.firstImage(empty), "folder", "empty", "is empty");
		assertMessage(() -> ImageInput.openVirtual(dir.resolve("missing.tif")),
			"does not exist");
		final Path notTiff = dir.resolve("bad.tif");
		Files.write(notTiff, new byte[] { 'I', 'I', 42, 0, 1, 2 });
		assertMessage(() -> ImageInput.openVirtual(notTiff), "bad.tif");
	}

	@Test
	void nonFinitePixelsAndRgbAreRefused() {
		final ImageStack stack = new ImageStack(3, 2);
		stack.addSlice(new FloatProcessor(3, 2));
		final FloatProcessor nan = new FloatProcessor(3, 2);
		nan.setf(4, Float.NaN);
		stack.addSlice(nan);
		final ImagePlus imp = new ImagePlus("nan", stack);
		final StackSource s = new StackSource("target", imp, StackSamples.layoutFor(imp, null,
			null, 1));
		assertMessage(() -> s.read(1, new float[6]), "non-finite", "slice 2", "feature 5");
		final ImagePlus rgb = new ImagePlus("rgb", new ColorProcessor(3, 2));
		assertMessage(() -> new StackSource("target", rgb, FeatureLayout.full(3, 2, 1)),
			"RGB");
	}

	/**
	 * A virtual stack of generated slices that counts reads of each slice and refuses to
	 * hand out all its slices at once.
	 */
	public static final class CountingStack extends VirtualStack {

		public final int[] reads;
		final int w, h;
		final long seed;

		public CountingStack(final int w, final int h, final int n, final long seed) {
			super(w, h, n);
			this.w = w;
			this.h = h;
			this.seed = seed;
			reads = new int[n];
		}

		@Override
		public ImageProcessor getProcessor(final int n) {
			reads[n - 1]++;
			final Random r = new Random(seed * 1_000_003L + n);
			final float[] px = new float[w * h];
			for (int i = 0; i < px.length; i++)
				px[i] = (float) r.nextGaussian() * (i % 7 == 0 ? 3 : 1);
			return new FloatProcessor(w, h, px);
		}

		@Override
		public Object[] getImageArray() {
			throw new AssertionError("the whole stack was requested");
		}

		@Override
		public int getBitDepth() {
			return 32;
		}
	}

	@Test
	void onlineCpcaReadsAVirtualStackOneSliceAtATime() throws IOException {
		final CountingStack t = new CountingStack(16, 16, 300, 1), b = new CountingStack(16,
			16, 200, 2);
		final ImagePlus ti = new ImagePlus("target", t), bi = new ImagePlus("background", b);
		final FeatureLayout layout = StackSamples.layoutFor(ti, null, null, 1);
		// ImagePlus reads its current slice for display; count only the fit's reads
		java.util.Arrays.fill(t.reads, 0);
		java.util.Arrays.fill(b.reads, 0);
		final OnlineRun.Result r = OnlineRun.fit(new StackSource("target", ti,
			layout), new StackSource("background", bi, layout), OnlineOptions.defaults()
				.withEpochs(2).withRates(0.0005, 1), null, Progress.NONE);
		// two epochs and the evaluation pass: every slice read exactly three times, so no
		// slice was kept from one pass to the next; the background once more, for the
		// automatic β (its mean feature variance, docs/math/online.md)
		for (final CountingStack s : new CountingStack[] { t, b })
			for (final int c : s.reads)
				assertEquals(s == t ? 3 : 4, c);
		assertSame(t, ti.getStack());
		assertEquals(300, r.model().targetScores().length);
		assertFalse(Double.isNaN(r.model().eigenvalues()[0]));
	}
}
