package org.cpca.image;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.IJ;
import ij.ImagePlus;
import ij.Prefs;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** components.tif as the TIFF specification wants it: tags in ascending order. */
class TiffFilesTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	@TempDir
	Path dir;

	@Test
	void everyImageDirectoryListsItsTagsInAscendingOrderAndTheImageReadsBack()
		throws Exception
	{
		// an eigen-image stack: 32-bit with a lookup table (ImageJ wrote its ColorMap, 320,
		// after SampleFormat, 339, and libtiff warned "tags are not sorted")
		final double[][] components = { { 1, -2, 3, 0.5 }, { 0.5, 0, -0.25, 2 }, { 1, 1, 1,
			-1 } };
		final ImagePlus stack = ComponentImages.eigenImages("components", components,
			FeatureLayout.full(2, 2, 1), Arrays.asList("cPC1", "cPC2", "cPC3"));
		final Path file = dir.resolve("components.tif");
		TiffFiles.save(stack, file);
		final ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file));
		b.order(b.get(0) == 'I' ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
		int directories = 0, sawColorMap = 0;
		for (int at = b.getInt(4); at != 0; at = b.getInt(at + 2 + 12 * (b.getShort(at) &
			0xffff)))
		{
			final int n = b.getShort(at) & 0xffff;
			for (int i = 1; i < n; i++)
				assertTrue((b.getShort(at + 2 + 12 * (i - 1)) & 0xffff) < (b.getShort(at + 2 +
					12 * i) & 0xffff), "directory " + directories + ": tag " + i +
						" after a larger one");
			for (int i = 0; i < n; i++)
				if ((b.getShort(at + 2 + 12 * i) & 0xffff) == 320) sawColorMap++;
			directories++;
		}
		assertTrue(directories >= 1);
		assertTrue(sawColorMap >= 1, "the lookup table is saved");
		final ImagePlus back = IJ.openImage(file.toString());
		assertEquals(3, back.getStackSize());
		for (int s = 1; s <= 3; s++)
			assertArrayEquals((float[]) stack.getStack().getPixels(s), (float[]) back.getStack()
				.getPixels(s));
		assertEquals("cPC2", back.getStack().getSliceLabel(2));
		assertEquals(stack.getProcessor().getLut().getRed(10), back.getProcessor().getLut()
			.getRed(10));
	}

	@Test
	void theByteOrderIsIntelWhateverImageJsOptionSays() throws Exception {
		// FileSaver takes the order from a global option that loading ImageJ's preferences
		// changes: the bundled test images would then regenerate with other bytes
		final boolean option = Prefs.intelByteOrder;
		try {
			for (final boolean intel : new boolean[] { false, true }) {
				Prefs.intelByteOrder = intel;
				final Path file = dir.resolve("order-" + intel + ".tif");
				TiffFiles.save(IJ.createImage("s", "8-bit ramp", 4, 3, 2), file);
				final byte[] bytes = Files.readAllBytes(file);
				assertEquals('I', bytes[0]);
				assertEquals('I', bytes[1]);
				assertEquals(intel, Prefs.intelByteOrder, "the user's option is restored");
			}
		}
		finally {
			Prefs.intelByteOrder = option;
		}
	}
}
