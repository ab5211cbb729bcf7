package org.cpca.image;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.process.ByteProcessor;
import ij.process.FloatProcessor;
import ij.process.ShortProcessor;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

class FeatureLayoutTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	@Test
	void attributesRoundTripWithMask() {
		final FeatureLayout layout = FeatureLayout.withIndices(9, 7, 2, new int[] { 0, 1,
			2, 5, 6, 11 });
		final Map<String, String> a = layout.attributes();
		assertEquals("9", a.get("image.width"));
		assertEquals("7", a.get("image.height"));
		assertEquals("2", a.get("image.bin"));
		assertEquals("rle:0,3,2,2,4,1", a.get("image.mask"));
		assertEquals("6", a.get("image.features"));
		final FeatureLayout back = FeatureLayout.fromAttributes(a);
		assertTrue(back.equalsGeometry(layout));
		assertEquals(layout, back);
		assertEquals(layout.hashCode(), back.hashCode());
		assertArrayEquals(layout.keptIndices(), back.keptIndices());
	}

	@Test
	void attributesRoundTripWithoutMaskAndDefaults() {
		final FeatureLayout layout = FeatureLayout.full(64, 48, 1);
		assertEquals("all", layout.attributes().get("image.mask"));
		assertTrue(FeatureLayout.fromAttributes(layout.attributes()).equalsGeometry(layout));
		final Map<String, String> minimal = new HashMap<>();
		minimal.put("image.width", "64");
		minimal.put("image.height", "48");
		minimal.put("unrelated", "ignored");
		assertEquals(layout, FeatureLayout.fromAttributes(minimal));
	}

	@Test
	void damagedAttributesAreReported() {
		final Map<String, String> a = FeatureLayout.withIndices(4, 4, 1, new int[] { 3, 4 })
			.attributes();
		a.put("image.features", "3");
		assertMessage(() -> FeatureLayout.fromAttributes(a), "image.features");
		final Map<String, String> b = new HashMap<>();
		b.put("image.height", "4");
		assertMessage(() -> FeatureLayout.fromAttributes(b), "image.width");
		b.put("image.width", "four");
		assertMessage(() -> FeatureLayout.fromAttributes(b), "whole number");
		b.put("image.width", "4");
		b.put("image.mask", "rle:10,10");
		assertMessage(() -> FeatureLayout.fromAttributes(b), "damaged");
		b.put("image.mask", "0,1");
		assertMessage(() -> FeatureLayout.fromAttributes(b), "rle:");
	}

	@Test
	void runLengthCodesEdgeCases() {
		assertEquals("rle:", RunLength.encode(new int[0]));
		assertEquals("rle:0,1", RunLength.encode(new int[] { 0 }));
		assertEquals("rle:5,1,1,2", RunLength.encode(new int[] { 5, 7, 8 }));
		assertArrayEquals(new int[] { 5, 7, 8 }, RunLength.decode("rle:5,1,1,2,3", 12));
		assertArrayEquals(new int[] { 0, 1 }, RunLength.decode("rle: 0, 2", 2));
	}

	@Test
	void binningAveragesBlocksOfAHandMadeImage() {
		// 0 1 2 3 / 4 5 6 7 / 8 9 10 11 / 12 13 14 15
		final float[] px = new float[16];
		for (int i = 0; i < 16; i++)
			px[i] = i;
		final FeatureLayout layout = FeatureLayout.full(4, 4, 2);
		assertEquals(2, layout.binnedWidth());
		assertEquals(2, layout.binnedHeight());
		assertEquals(4, layout.features());
		assertArrayEquals(new float[] { 2.5f, 4.5f, 10.5f, 12.5f }, layout.extract(
			new FloatProcessor(4, 4, px)));
		// the same through 8-bit and 16-bit pixels (read unsigned)
		final ByteProcessor bp = new ByteProcessor(4, 4);
		final ShortProcessor sp = new ShortProcessor(4, 4);
		for (int i = 0; i < 16; i++) {
			bp.set(i, 240 + i);
			sp.set(i, 60000 + i);
		}
		assertArrayEquals(new float[] { 242.5f, 244.5f, 250.5f, 252.5f }, layout.extract(
			bp));
		assertArrayEquals(new float[] { 60002.5f, 60004.5f, 60010.5f, 60012.5f }, layout
			.extract(sp));
	}

	@Test
	void binningIgnoresIncompleteEdgeBlocks() {
		final FloatProcessor fp = new FloatProcessor(5, 3);
		for (int i = 0; i < 15; i++)
			fp.setf(i, i);
		final FeatureLayout layout = FeatureLayout.full(5, 3, 2);
		assertEquals(2, layout.features());
		// blocks {0,1,5,6} and {2,3,7,8}; column 4 and row 2 are ignored
		assertArrayEquals(new float[] { 3f, 5f }, layout.extract(fp));
	}

	@Test
	void maskedBinnedFeaturesFollowKeptOrder() {
		final FloatProcessor fp = new FloatProcessor(4, 4);
		for (int i = 0; i < 16; i++)
			fp.setf(i, i);
		final FeatureLayout layout = FeatureLayout.masked(4, 4, 2, new boolean[] { false,
			true, true, false });
		assertArrayEquals(new float[] { 4.5f, 10.5f }, layout.extract(fp));
		assertEquals(1, layout.pixelIndex(0));
		assertEquals(2, layout.pixelIndex(1));
	}

	@Test
	void toImagePutsValuesAtKeptPixels() {
		final FeatureLayout layout = FeatureLayout.withIndices(3, 2, 1, new int[] { 1, 5 });
		final FloatProcessor fp = layout.toImage(new double[] { -2, 7 });
		assertEquals(3, fp.getWidth());
		assertEquals(2, fp.getHeight());
		assertArrayEquals(new float[] { 0, -2, 0, 0, 0, 7 }, (float[]) fp.getPixels());
		assertArrayEquals(new byte[] { 0, (byte) 255, 0, 0, 0, (byte) 255 },
			(byte[]) layout.maskImage().getPixels());
		assertMessage(() -> layout.toImage(new double[3]), "2 features");
	}

	@Test
	void fullMaskIsNormalisedToNoMask() {
		final FeatureLayout layout = FeatureLayout.masked(2, 2, 1, new boolean[] { true,
			true, true, true });
		assertFalse(layout.hasMask());
		assertTrue(layout.isIdentity());
		assertEquals(FeatureLayout.full(2, 2, 1), layout);
	}

	@Test
	void geometryComparison() {
		final FeatureLayout a = FeatureLayout.full(8, 8, 2);
		assertTrue(a.equalsGeometry(FeatureLayout.full(8, 8, 2)));
		assertFalse(a.equalsGeometry(FeatureLayout.full(8, 8, 1)));
		assertFalse(a.equalsGeometry(FeatureLayout.full(8, 9, 2)));
		assertFalse(a.equalsGeometry(FeatureLayout.withIndices(8, 8, 2, new int[] { 0 })));
		assertFalse(a.equalsGeometry(null));
		assertNotEquals(a, FeatureLayout.withIndices(8, 8, 2, new int[] { 1 }));
	}

	@Test
	void badGeometryIsReported() {
		assertMessage(() -> FeatureLayout.full(4, 4, 0), "at least 1");
		assertMessage(() -> FeatureLayout.full(4, 3, 4), "between 1 and 3");
		assertMessage(() -> FeatureLayout.withIndices(4, 4, 1, new int[0]),
			"selects no pixel");
		assertMessage(() -> FeatureLayout.withIndices(4, 4, 1, new int[] { 3, 2 }),
			"increasing");
		assertMessage(() -> FeatureLayout.masked(4, 4, 2, new boolean[16]), "binned");
		assertMessage(() -> FeatureLayout.full(4, 4, 1).extract(new FloatProcessor(3, 4)),
			"3×4");
	}

	/** 100,000 × 100,000 pixels are 10^10 features, not 1410065408 (an int's overflow). */
	@Test
	void moreFeaturesThanASampleHoldsAreRefused() {
		assertMessage(() -> FeatureLayout.full(100_000, 100_000, 1),
			"a 100000×100000 image has 10000000000 pixels, more than a sample can hold " +
				"(2147483639 features): bin it by at least 3");
		assertMessage(() -> FeatureLayout.full(100_000, 100_000, 2),
			"binned 2×2 has 2500000000 pixels");
		// a model file that claims such an image (its features written as a small number)
		assertMessage(() -> FeatureLayout.fromAttributes(Map.of("image.width",
			"100000", "image.height", "100000", "image.features", "10000")),
			"image.width × image.height is 100000×100000, 10000000000 pixels, more than any " +
				"model has: the model file is damaged");
		// binned 3 × 3, it fits: 33333 × 33333 features
		assertEquals(33_333 * 33_333, FeatureLayout.full(100_000, 100_000, 3).features());
	}

	static void assertMessage(final org.junit.jupiter.api.function.Executable call,
		final String part)
	{
		final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
			call);
		assertTrue(e.getMessage().contains(part), () -> "expected '" + part + "' in: " + e
			.getMessage());
	}
}
