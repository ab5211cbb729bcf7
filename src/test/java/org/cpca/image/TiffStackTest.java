package org.cpca.image;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;
import ij.ImageStack;
import ij.Prefs;
import ij.io.FileSaver;
import ij.io.OpenDialog;
import ij.io.Opener;
import ij.measure.Calibration;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Random;

import org.cpca.core.data.Dataset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line's in-memory reading of a TIFF stack in bulk ({@link TiffStack})
 * gives what ImageJ's reader gives, bit for bit: pixels of 8-bit, 16-bit unsigned and
 * 32-bit float stacks in either byte order (NaN, infinities, −0, values above 32,767),
 * slice labels (also for some slices only), calibration, a hyperstack's dimensions, the
 * "Info" property, the samples, their names and class labels; files it does not read
 * (one header per image, images apart, strips stored out of order) are left to ImageJ
 * with the same result; a truncated file is still refused in one line.
 */
class TiffStackTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	@TempDir
	Path dir;

	private static final int W = 7, H = 6;

	/** A stack of random values of the type, some slices labelled, calibrated. */
	private static ImagePlus stack(final int bitDepth, final int slices, final long seed) {
		return stack(bitDepth, slices, seed, false);
	}

	/** {@link #stack}, without NaN and infinities when {@code finite}. */
	private static ImagePlus stack(final int bitDepth, final int slices, final long seed,
		final boolean finite)
	{
		final Random r = new Random(seed);
		final ImageStack st = new ImageStack(W, H);
		for (int i = 0; i < slices; i++) {
			final Object px;
			if (bitDepth == 8) {
				final byte[] b = new byte[W * H];
				r.nextBytes(b);
				px = b;
			}
			else if (bitDepth == 16) {
				final short[] s = new short[W * H];
				for (int p = 0; p < s.length; p++)
					s[p] = (short) r.nextInt(65536);
				px = s;
			}
			else {
				final float[] f = new float[W * H];
				for (int p = 0; p < f.length; p++)
					f[p] = (float) (r.nextGaussian() * Math.pow(10, r.nextInt(20) - 10));
				f[0] = finite ? 1e30f : Float.NaN;
				f[1] = finite ? -1e-30f : Float.NEGATIVE_INFINITY;
				f[2] = -0f;
				f[3] = Float.MIN_VALUE;
				px = f;
			}
			st.addSlice(i % 3 == 1 ? null : (i % 2 == 0 ? "control" : "treated") +
				"\nsecond line", px);
		}
		final ImagePlus imp = new ImagePlus("stack", st);
		final Calibration cal = imp.getCalibration();
		cal.pixelWidth = 0.25;
		cal.pixelHeight = 0.5;
		cal.setUnit("µm");
		imp.setProperty("Info", "made by TiffStackTest");
		return imp;
	}

	private Path save(final ImagePlus imp, final String name, final boolean intel) {
		final Path tif = dir.resolve(name);
		final boolean before = Prefs.intelByteOrder;
		Prefs.intelByteOrder = intel;
		try {
			final FileSaver saver = new FileSaver(imp);
			assertTrue(imp.getStackSize() > 1 ? saver.saveAsTiffStack(tif.toString()) : saver
				.saveAsTiff(tif.toString()));
		}
		finally {
			Prefs.intelByteOrder = before;
		}
		return tif;
	}

	/** ImageJ's own reading of the file, as the command line read it before. */
	private static ImagePlus imagej(final Path tif) {
		final Opener o = new Opener();
		o.setSilentMode(true);
		return o.openImage(tif.toAbsolutePath().toString());
	}

	/** Whether the bulk reader takes the file (else ImageJ reads it). */
	private static boolean bulk(final Path tif) {
		return TiffStack.handled(TiffCheck.of(tif).info) != null;
	}

	private static void assertSameImage(final ImagePlus expected, final ImagePlus actual,
		final String what)
	{
		assertNotNull(actual, what);
		assertFalse(actual.getStack().isVirtual(), what + ": read into memory");
		assertEquals(expected.getTitle(), actual.getTitle(), what);
		assertEquals(expected.getBitDepth(), actual.getBitDepth(), what);
		assertEquals(expected.getWidth(), actual.getWidth(), what);
		assertEquals(expected.getHeight(), actual.getHeight(), what);
		assertArrayEquals(expected.getDimensions(), actual.getDimensions(), what);
		assertEquals(expected.isHyperStack(), actual.isHyperStack(), what);
		assertEquals(expected.getOpenAsHyperStack(), actual.getOpenAsHyperStack(), what);
		assertEquals(expected.isComposite(), actual.isComposite(), what);
		assertEquals(expected.getCalibration().toString(), actual.getCalibration()
			.toString(), what);
		assertEquals(expected.getCalibration().getUnit(), actual.getCalibration().getUnit(),
			what);
		assertEquals(expected.getProperty("Info"), actual.getProperty("Info"), what);
		assertEquals(expected.getDisplayRangeMin(), actual.getDisplayRangeMin(), what);
		assertEquals(expected.getDisplayRangeMax(), actual.getDisplayRangeMax(), what);
		final ImageStack e = expected.getStack(), a = actual.getStack();
		assertEquals(e.getSize(), a.getSize(), what);
		for (int i = 1; i <= e.getSize(); i++) {
			assertEquals(e.getSliceLabel(i), a.getSliceLabel(i), what + ", label " + i);
			final Object pe = e.getPixels(i), pa = a.getPixels(i);
			assertEquals(pe.getClass(), pa.getClass(), what);
			if (pe instanceof byte[]) assertArrayEquals((byte[]) pe, (byte[]) pa, what);
			else if (pe instanceof short[]) assertArrayEquals((short[]) pe, (short[]) pa, what);
			else assertArrayEquals(bits((float[]) pe), bits((float[]) pa), what + ", slice " +
				i);
		}
		// the samples as the command line reads them: values, names and class labels
		assertEquals(StackSamples.sampleNames(expected), StackSamples.sampleNames(actual),
			what);
		assertEquals(StackSamples.classLabels(expected), StackSamples.classLabels(actual),
			what);
		final FeatureLayout layout = FeatureLayout.full(expected.getWidth(), expected
			.getHeight(), 1);
		final float[][] ve = StackSamples.values("target", expected, layout), va = StackSamples
			.values("target", actual, layout);
		for (int i = 0; i < ve.length; i++)
			assertArrayEquals(bits(ve[i]), bits(va[i]), what + ", sample " + i);
	}

	private static int[] bits(final float[] f) {
		final int[] out = new int[f.length];
		for (int i = 0; i < f.length; i++)
			out[i] = Float.floatToRawIntBits(f[i]);
		return out;
	}

	@Test
	void imageJStacksOfEachTypeAndByteOrderReadAsImageJReadsThem() {
		for (final int depth : new int[] { 8, 16, 32 })
			for (final boolean intel : new boolean[] { false, true }) {
				final String what = depth + "-bit, " + (intel ? "little" : "big") + "-endian";
				final Path tif = save(stack(depth, 5, depth + (intel ? 1 : 0)), "s" + depth +
					intel + ".tif", intel);
				assertTrue(bulk(tif), what + ": read in bulk");
				assertSameImage(imagej(tif), ImageInput.open(tif, "target"), what);
			}
	}

	/**
	 * Reading an input, in bulk or as a virtual stack, leaves the directory and file name
	 * ImageJ remembers (a macro's File.directory, the next Open dialog) as they were.
	 */
	@Test
	void readingLeavesImageJsLastDirectoryAlone() {
		final Path tif = save(stack(32, 3, 7), "quiet.tif", true);
		final String dir = OpenDialog.getLastDirectory(), name = OpenDialog.getLastName();
		try {
			OpenDialog.setLastDirectory("/somewhere/the/user/was/");
			OpenDialog.setLastName("their.tif");
			assertTrue(bulk(tif));
			ImageInput.open(tif, "target");
			ImageInput.openVirtual(tif);
			assertEquals("/somewhere/the/user/was/", OpenDialog.getLastDirectory());
			assertEquals("their.tif", OpenDialog.getLastName());
		}
		finally {
			OpenDialog.setLastDirectory(dir);
			OpenDialog.setLastName(name);
		}
	}

	@Test
	void aHyperstackKeepsItsAxesAndLargeSlicesAreReadInPieces() {
		final ImagePlus hyper = stack(16, 6, 3);
		hyper.setDimensions(1, 3, 2);
		hyper.setOpenAsHyperStack(true);
		final Path h = save(hyper, "hyper.tif", false);
		assertTrue(bulk(h));
		final ImagePlus read = ImageInput.open(h, "target");
		assertSameImage(imagej(h), read, "hyperstack");
		assertEquals(3, read.getNSlices());
		assertEquals(2, read.getNFrames());
		// slices of more bytes than one read takes (4 MB): each read in pieces
		final ImageStack big = new ImageStack(1100, 1000);
		final Random r = new Random(5);
		for (int i = 0; i < 2; i++) {
			final float[] f = new float[1100 * 1000];
			for (int p = 0; p < f.length; p++)
				f[p] = r.nextFloat();
			big.addSlice(null, f);
		}
		final Path b = save(new ImagePlus("big", big), "big.tif", true);
		assertTrue(bulk(b));
		assertSameImage(imagej(b), ImageInput.open(b, "target"), "4.4 MB slices");
	}

	/** Slices of random bytes for {@link TiffWriter}. */
	private static byte[][] raw(final int slices, final int bytes, final long seed) {
		final Random r = new Random(seed);
		final byte[][] out = new byte[slices][bytes];
		for (final byte[] s : out)
			r.nextBytes(s);
		return out;
	}

	@Test
	void stripsGapsAndSeveralHeadersGiveImageJsValues() throws IOException {
		final String ij = "ImageJ=1.54p\nimages=4\nslices=4\nloop=false\n";
		// one header, many adjacent strips: read in bulk
		final Path strips = dir.resolve("strips.tif");
		TiffWriter.write(strips, ByteOrder.LITTLE_ENDIAN, 32, 3, W, H, raw(4, W * H * 4, 1),
			1, false, 0, ij);
		assertTrue(bulk(strips));
		assertSameImage(imagej(strips), ImageInput.open(strips, "target"), "strips");
		// one header, the images apart (their headers in between): ImageJ reads the bytes
		// from the first image on as adjacent images, and so does the bulk reader
		final Path gap = dir.resolve("gap.tif");
		TiffWriter.write(gap, ByteOrder.BIG_ENDIAN, 16, 1, W, H, raw(4, W * H * 2, 2), 2,
			false, 300, ij);
		assertTrue(bulk(gap));
		assertSameImage(imagej(gap), ImageInput.open(gap, "target"), "gap");
		// a header per image, images apart: left to ImageJ
		final Path headers = dir.resolve("headers.tif");
		TiffWriter.write(headers, ByteOrder.BIG_ENDIAN, 8, 1, W, H, raw(4, W * H, 3), 2,
			false, 300, "made elsewhere");
		assertFalse(bulk(headers));
		assertSameImage(imagej(headers), ImageInput.open(headers, "target"), "headers");
		// strips stored last first: left to ImageJ (which flips the image with a menu
		// command, and cannot here, without a display)
		final Path reversed = dir.resolve("reversed.tif");
		TiffWriter.write(reversed, ByteOrder.LITTLE_ENDIAN, 16, 1, W, H, raw(4, W * H * 2, 4),
			2, true, 0, ij);
		assertFalse(bulk(reversed));
	}

	@Test
	void aSingleImageAndChannelsAreLeftToImageJ() {
		final Path one = save(stack(32, 1, 7), "one.tif", false);
		assertNull(TiffStack.handled(TiffCheck.of(one).info));
		final ImagePlus channels = stack(8, 4, 8);
		channels.setDimensions(2, 2, 1);
		channels.setOpenAsHyperStack(true);
		final Path c = save(channels, "channels.tif", false);
		assertNull(TiffStack.open(c, TiffCheck.of(c)), "channels: ImageJ makes a composite");
		assertSameImage(imagej(c), ImageInput.open(c, "target"), "channels");
	}

	@Test
	void theDatasetSharesTheSlicesReadInBulk() {
		final Path tif = save(stack(32, 4, 9, true), "share.tif", true);
		final ImagePlus imp = ImageInput.open(tif, "target");
		final Dataset d = StackReader.of("target", imp, null).select(null, null, 1).dataset(
			true);
		assertEquals(4, d.samples());
		// the rows are the image's own arrays: no second copy
		assertTrue(d.row(2) == imp.getStack().getPixels(3));
	}

	@Test
	void aTruncatedFileIsRefusedInOneLine() throws IOException {
		final Path tif = save(stack(32, 5, 11), "cut.tif", false);
		final TiffCheck before = TiffCheck.of(tif);
		try (RandomAccessFile f = new RandomAccessFile(tif.toFile(), "rw")) {
			// inside image 3 (ImageJ writes the labels and the other headers after the images)
			f.setLength(before.info[0].getOffset() + 5 * W * H * 4 / 2);
		}
		final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
			() -> ImageInput.open(tif, "target"));
		assertTrue(e.getMessage().contains("truncated"), e.getMessage());
		assertFalse(e.getMessage().contains("\n"), e.getMessage());
		// cut after it was checked: ImageJ's virtual stack has fewer images than the
		// header, so ImageJ reads it (and the slice count check refuses it); cut while
		// being read: the bulk reader names the image it ends in
		assertNull(TiffStack.open(tif, before));
		final IOException late = assertThrows(IOException.class, () -> TiffStack.read(tif,
			before.info[0]));
		assertTrue(late.getMessage().contains("truncated") && late.getMessage().contains(
			"image 3"), late.getMessage());
	}

	/** The values of a little-endian float stack are the file's bytes, as written. */
	@Test
	void floatValuesAreTheFilesBytes() throws IOException {
		final byte[][] slices = raw(3, W * H * 4, 12);
		final Path f = dir.resolve("floats.tif");
		TiffWriter.write(f, ByteOrder.LITTLE_ENDIAN, 32, 3, W, H, slices, H, false, 0,
			"ImageJ=1.54p\nimages=3\nslices=3\n");
		final ImagePlus imp = ImageInput.open(f, "target");
		for (int i = 0; i < 3; i++) {
			final float[] px = (float[]) imp.getStack().getPixels(i + 1);
			final ByteBuffer b = ByteBuffer.wrap(slices[i]).order(ByteOrder.LITTLE_ENDIAN);
			for (int p = 0; p < px.length; p++)
				assertEquals(b.getInt(4 * p), Float.floatToRawIntBits(px[p]), "pixel " + p);
		}
	}
}
