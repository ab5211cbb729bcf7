package org.cpca.image;

import static org.cpca.image.FeatureLayoutTest.assertMessage;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;
import ij.process.LUT;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

class ComponentImagesTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	@Test
	void eigenImagesPutValuesBackAtMaskedPixels() {
		final FeatureLayout layout = FeatureLayout.withIndices(3, 2, 1, new int[] { 0, 4,
			5 });
		final double[][] components = { { 1, -2, 3 }, { 0.5, 0, -0.25 } };
		final ImagePlus imp = ComponentImages.eigenImages("cPCA components", components,
			layout, Arrays.asList("cPC1 α=2 λ=0.53", "cPC2 α=2 λ=0.10"));
		assertEquals("cPCA components", imp.getTitle());
		assertEquals(32, imp.getBitDepth());
		assertEquals(2, imp.getStackSize());
		assertArrayEquals(new float[] { 1, 0, 0, 0, -2, 3 }, (float[]) imp.getStack()
			.getPixels(1));
		assertArrayEquals(new float[] { 0.5f, 0, 0, 0, 0, -0.25f }, (float[]) imp
			.getStack().getPixels(2));
		assertEquals("cPC1 α=2 λ=0.53", imp.getStack().getSliceLabel(1));
		assertEquals("cPC2 α=2 λ=0.10", imp.getStack().getSliceLabel(2));
		assertEquals(-3, imp.getDisplayRangeMin(), 1e-9);
		assertEquals(3, imp.getDisplayRangeMax(), 1e-9);
		final LUT lut = imp.getProcessor().getLut();
		assertTrue(lut.getBlue(0) > lut.getRed(0), "negative end is blue");
		assertTrue(lut.getRed(255) > lut.getBlue(255), "positive end is red");
		assertTrue(lut.getRed(128) > 250 && lut.getGreen(128) > 250 && lut.getBlue(
			128) > 250, "middle is white");
	}

	@Test
	void eigenImagesOfBinnedLayoutHaveBinnedSize() {
		final FeatureLayout layout = FeatureLayout.full(9, 6, 3);
		final ImagePlus imp = ComponentImages.eigenImages("c", new double[][] { new double[6] },
			layout, null);
		assertEquals(3, imp.getWidth());
		assertEquals(2, imp.getHeight());
		assertEquals("component 1", imp.getStack().getSliceLabel(1));
		assertEquals(-1, imp.getDisplayRangeMin(), 1e-9); // all zero: ±1
		assertEquals(1, imp.getDisplayRangeMax(), 1e-9);
	}

	@Test
	void reconstructionsAreGreyImagesOfTheData() {
		final FeatureLayout layout = FeatureLayout.full(2, 2, 1);
		final ImagePlus imp = ComponentImages.reconstructions("rec", new double[][] { { 1,
			2, 3, 4 }, { 5, 6, 7, 8 }, { 0, 0, 0, 9 } }, layout, Arrays.asList("a", "b",
				"c"));
		assertEquals(3, imp.getStackSize());
		assertEquals("b", imp.getStack().getSliceLabel(2));
		assertArrayEquals(new float[] { 5, 6, 7, 8 }, (float[]) imp.getStack().getPixels(
			2));
		final LUT lut = imp.getProcessor().getLut();
		assertEquals(lut.getRed(200), lut.getBlue(200));
	}

	@Test
	void mismatchedInputsAreReported() {
		final FeatureLayout layout = FeatureLayout.full(2, 2, 1);
		assertMessage(() -> ComponentImages.eigenImages("c", new double[][] { { 1, 2,
			3 } }, layout, null), "3 values but the image layout has 4 features");
		assertMessage(() -> ComponentImages.eigenImages("c", new double[][] { new double[4] },
			layout, Arrays.asList("a", "b")), "one label per component");
		assertMessage(() -> ComponentImages.reconstructions("r", new double[0][], layout,
			null), "nothing to show");
	}
}
