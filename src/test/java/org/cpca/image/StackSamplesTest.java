package org.cpca.image;

import static org.cpca.image.FeatureLayoutTest.assertMessage;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;
import ij.ImageStack;
import ij.gui.Line;
import ij.gui.OvalRoi;
import ij.gui.Roi;
import ij.process.ByteProcessor;
import ij.process.ColorProcessor;
import ij.process.FloatProcessor;
import ij.process.ShortProcessor;

import java.util.Arrays;

import org.cpca.core.data.Dataset;
import org.junit.jupiter.api.Test;

class StackSamplesTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	/** A 32-bit stack whose pixel (i) of slice s (1-based) is 100 s + i. */
	static ImagePlus floatStack(final int w, final int h, final int slices) {
		final ImageStack stack = new ImageStack(w, h);
		for (int s = 1; s <= slices; s++) {
			final float[] px = new float[w * h];
			for (int i = 0; i < px.length; i++)
				px[i] = 100 * s + i;
			stack.addSlice("s" + s, new FloatProcessor(w, h, px));
		}
		return new ImagePlus("stack", stack);
	}

	static ImagePlus byteMask(final int w, final int h, final int... on) {
		final ByteProcessor bp = new ByteProcessor(w, h);
		for (final int i : on)
			bp.set(i, 255);
		return new ImagePlus("mask", bp);
	}

	@Test
	void float32StackIsSnapshottedUnlessShared() {
		final ImagePlus imp = floatStack(3, 2, 4);
		final FeatureLayout layout = StackSamples.layoutFor(imp, null, null, 1);
		assertTrue(layout.isIdentity());
		final Dataset data = StackSamples.toDataset("target", imp, layout);
		final Dataset shared = StackSamples.toDataset("target", imp, layout, true);
		assertEquals(4, data.samples());
		assertEquals(6, data.features());
		assertEquals(305, data.value(2, 5));
		// a later edit of the image: the snapshot keeps the value, the shared view sees it
		final float[] slice3 = (float[]) imp.getStack().getPixels(3);
		slice3[5] = -1;
		assertEquals(305, data.value(2, 5));
		assertEquals(-1, shared.value(2, 5));
		assertSame(slice3, imp.getStack().getPixels(3));
	}

	@Test
	void anImageClosedWhileReadIsNamed() {
		final ImagePlus imp = floatStack(3, 2, 4);
		final FeatureLayout layout = StackSamples.layoutFor(imp, null, null, 1);
		imp.getStack().setPixels(null, 2); // what closing the window does to the stack
		final IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
			IllegalArgumentException.class, () -> StackSamples.toDataset("target", imp,
				layout));
		assertTrue(e.getMessage().contains("was closed while it was being read"), e
			.getMessage());
	}

	/**
	 * Closed after its last slice was read and before the slices were named (a window
	 * closed during a Fiji fit): named as closed, not "1500 samples but 1 sample names".
	 */
	@Test
	void anImageClosedAfterItsPixelsWereReadIsNamed() {
		final ImagePlus[] holder = new ImagePlus[1];
		final ImageStack stack = new ImageStack(4, 3) {

			@Override
			public ij.process.ImageProcessor getProcessor(final int n) {
				final ij.process.ImageProcessor ip = super.getProcessor(n);
				if (n == getSize()) holder[0].flush(); // what closing its window does
				return ip;
			}
		};
		for (int i = 0; i < 5; i++)
			stack.addSlice("s" + i, new ShortProcessor(4, 3));
		final ImagePlus imp = new ImagePlus("closing", stack);
		holder[0] = imp;
		final FeatureLayout layout = StackSamples.layoutFor(imp, null, null, 1);
		assertMessage(() -> StackSamples.toDataset("target", imp, layout),
			"'closing' was closed while it was being read");
	}

	@Test
	void binnedOrMaskedFloatDataIsCopied() {
		final ImagePlus imp = floatStack(4, 4, 2);
		final Dataset data = StackSamples.toDataset("t", imp, FeatureLayout.full(4, 4, 2));
		assertArrayEquals(new double[] { 102.5, 104.5, 110.5, 112.5 }, data.sample(0));
		((float[]) imp.getStack().getPixels(1))[0] = 1e6f;
		assertEquals(102.5, data.value(0, 0));
	}

	@Test
	void eightAndSixteenBitAreConvertedUnsigned() {
		final ImageStack b = new ImageStack(2, 2);
		b.addSlice(new ByteProcessor(2, 2, new byte[] { 0, 1, (byte) 128, (byte) 255 }));
		b.addSlice(new ByteProcessor(2, 2, new byte[] { 7, 8, 9, 10 }));
		final ImagePlus bytes = new ImagePlus("b", b);
		final Dataset db = StackSamples.toDataset("target", bytes, StackSamples.layoutFor(
			bytes, null, null, 1));
		assertArrayEquals(new double[] { 0, 1, 128, 255 }, db.sample(0));
		assertArrayEquals(new double[] { 7, 8, 9, 10 }, db.sample(1));

		final ShortProcessor sp = new ShortProcessor(2, 1, new short[] { (short) 65535,
			(short) 40000 }, null);
		final ImagePlus shorts = new ImagePlus("s", sp);
		final Dataset ds = StackSamples.toDataset("t", shorts, FeatureLayout.full(2, 1, 1));
		assertEquals(1, ds.samples()); // a single slice is allowed here
		assertArrayEquals(new double[] { 65535, 40000 }, ds.sample(0));
	}

	@Test
	void maskSelectsTheRightPixelsInRowMajorOrder() {
		final ImagePlus imp = floatStack(4, 3, 2);
		// (1,0), (3,0), (0,2) and (2,1) -> indices 1, 3, 8, 6; order must be 1, 3, 6, 8
		final ImagePlus mask = byteMask(4, 3, 8, 1, 6, 3);
		final FeatureLayout layout = StackSamples.layoutFor(imp, mask, null, 1);
		assertEquals(4, layout.features());
		assertArrayEquals(new int[] { 1, 3, 6, 8 }, layout.keptIndices());
		final Dataset data = StackSamples.toDataset("target", imp, layout);
		assertArrayEquals(new double[] { 101, 103, 106, 108 }, data.sample(0));
		assertArrayEquals(new double[] { 201, 203, 206, 208 }, data.sample(1));
	}

	@Test
	void maskOfAnyTypeSelectsNonzeroPixels() {
		final ImagePlus imp = floatStack(2, 2, 2);
		final FloatProcessor fm = new FloatProcessor(2, 2, new float[] { 0, 0.5f,
			Float.NaN, -1 });
		final FeatureLayout layout = StackSamples.layoutFor(imp, new ImagePlus("m", fm),
			null, 1);
		assertArrayEquals(new int[] { 1, 3 }, layout.keptIndices());
	}

	@Test
	void roiAndMaskIntersect() {
		final ImagePlus imp = floatStack(4, 4, 2);
		final Roi rect = new Roi(1, 1, 2, 2); // indices 5, 6, 9, 10
		assertArrayEquals(new int[] { 5, 6, 9, 10 }, StackSamples.layoutFor(imp, null,
			rect, 1).keptIndices());
		final ImagePlus mask = byteMask(4, 4, 0, 5, 6, 7);
		assertArrayEquals(new int[] { 5, 6 }, StackSamples.layoutFor(imp, mask, rect, 1)
			.keptIndices());
		final OvalRoi oval = new OvalRoi(0, 0, 4, 4);
		final FeatureLayout ovalLayout = StackSamples.layoutFor(imp, null, oval, 1);
		assertTrue(ovalLayout.hasMask());
		assertTrue(Arrays.stream(ovalLayout.keptIndices()).anyMatch(i -> i == 5));
		assertFalse(Arrays.stream(ovalLayout.keptIndices()).anyMatch(i -> i == 0));
	}

	@Test
	void binnedMaskKeepsOnlyWholeBlocks() {
		final ImagePlus imp = floatStack(4, 4, 2);
		// the top-left block fully, the top-right block partly
		final ImagePlus mask = byteMask(4, 4, 0, 1, 4, 5, 2, 3, 6);
		final FeatureLayout layout = StackSamples.layoutFor(imp, mask, null, 2);
		assertArrayEquals(new int[] { 0 }, layout.keptIndices());
		final Dataset data = StackSamples.toDataset("t", imp, layout);
		assertArrayEquals(new double[] { 102.5 }, data.sample(0));
		assertMessage(() -> StackSamples.layoutFor(imp, byteMask(4, 4, 0, 1, 4), null, 2),
			"no whole 2×2 block");
	}

	@Test
	void fullMaskKeepsZeroCopy() {
		final ImagePlus imp = floatStack(2, 1, 2);
		final FeatureLayout layout = StackSamples.layoutFor(imp, byteMask(2, 1, 0, 1), null,
			1);
		assertTrue(layout.isIdentity());
	}

	@Test
	void sliceLabelsBecomeSampleNames() {
		final ImagePlus imp = floatStack(2, 2, 3);
		imp.getStack().setSliceLabel("  control A \nmore info", 1);
		imp.getStack().setSliceLabel(null, 2);
		imp.getStack().setSliceLabel("   ", 3);
		assertEquals(Arrays.asList("control A", null, null), StackSamples.sliceLabels(imp));
		final Dataset data = StackSamples.toDataset("target", imp, FeatureLayout.full(2, 2,
			1));
		assertEquals(Arrays.asList("control A", "slice 2", "slice 3"), data.sampleNames());
		assertNull(data.labels());
		imp.getStack().setSliceLabel(null, 1);
		assertNull(StackSamples.sliceLabels(imp));
	}

	@Test
	void hyperstackSlicesAreSamplesInStackOrder() {
		final ImagePlus imp = floatStack(2, 2, 6);
		for (int s = 1; s <= 6; s++)
			imp.getStack().setSliceLabel(null, s);
		imp.setDimensions(2, 1, 3);
		imp.setOpenAsHyperStack(true);
		final Dataset data = StackSamples.toDataset("t", imp, FeatureLayout.full(2, 2, 1));
		assertEquals(6, data.samples());
		assertEquals(200, data.value(1, 0));
		assertEquals(Arrays.asList("c=1 t=1", "c=2 t=1", "c=1 t=2", "c=2 t=2", "c=1 t=3",
			"c=2 t=3"), data.sampleNames());
	}

	@Test
	void nonFiniteValuesAreNamedThroughThisLayer() {
		final ImagePlus imp = floatStack(3, 2, 3);
		((float[]) imp.getStack().getPixels(2))[4] = Float.NaN;
		final IllegalArgumentException e = assertThrowsIAE(() -> StackSamples.toDataset(
			"target", imp, StackSamples.layoutFor(imp, null, null, 1)));
		assertTrue(e.getMessage().contains("target"), e.getMessage());
		assertTrue(e.getMessage().contains("sample 2"), e.getMessage());
		assertTrue(e.getMessage().contains("feature 5"), e.getMessage());
		// with a mask, the feature number counts kept pixels
		((float[]) imp.getStack().getPixels(2))[4] = Float.POSITIVE_INFINITY;
		final FeatureLayout masked = StackSamples.layoutFor(imp, byteMask(3, 2, 0, 4), null,
			1);
		assertMessage(() -> StackSamples.toDataset("target", imp, masked), "feature 2");
	}

	@Test
	void rgbIsRejected() {
		final ImagePlus rgb = new ImagePlus("cells.png", new ColorProcessor(4, 4));
		assertMessage(() -> StackSamples.layoutFor(rgb, null, null, 1),
			"'cells.png' is RGB: convert it to 8-bit, 16-bit or 32-bit (Image > Type) or split the channels");
		assertMessage(() -> StackSamples.toDataset("target", rgb, FeatureLayout.full(4, 4,
			1)), "target is RGB");
		assertMessage(() -> StackSamples.checkCompatible(floatStack(4, 4, 2), rgb),
			"background is RGB");
	}

	@Test
	void badMasksAndBinsAreRejected() {
		final ImagePlus imp = floatStack(4, 4, 2);
		assertMessage(() -> StackSamples.layoutFor(imp, byteMask(4, 3, 0), null, 1),
			"the mask is 4×3 but 'stack' is 4×4: the mask must have the same width × height");
		assertMessage(() -> StackSamples.layoutFor(imp, byteMask(4, 4), null, 1),
			"the mask selects no pixel");
		assertMessage(() -> StackSamples.layoutFor(imp, byteMask(4, 4, 0), new Roi(2, 2, 2,
			2), 1), "selects no pixel");
		assertMessage(() -> StackSamples.layoutFor(imp, null, new Roi(10, 10, 2, 2), 1),
			"the selection contains no pixel");
		assertMessage(() -> StackSamples.layoutFor(imp, null, new Line(0, 0, 3, 3), 1),
			"area selection");
		assertMessage(() -> StackSamples.layoutFor(imp, floatStack(4, 4, 2), null, 1),
			"single-slice mask");
		assertMessage(() -> StackSamples.layoutFor(imp, null, null, 0),
			"bin 0 is not allowed");
		assertMessage(() -> StackSamples.layoutFor(imp, null, null, 5),
			"bin 5 is larger than the image (4×4): choose a bin between 1 and 4");
		assertMessage(() -> StackSamples.toDataset("background", floatStack(8, 8, 2),
			FeatureLayout.full(4, 4, 1)), "background is 8×8");
	}

	@Test
	void compatibilityChecksNameBothStacks() {
		assertMessage(() -> StackSamples.checkCompatible(floatStack(32, 32, 2), floatStack(
			64, 64, 2)),
			"background is 64×64 but target is 32×32: both stacks must have the same width × height");
		final ImagePlus eight = new ImagePlus("a", new ByteProcessor(8, 8));
		final ImagePlus sixteen = new ImagePlus("b", new ShortProcessor(8, 8));
		assertMessage(() -> StackSamples.checkCompatible(eight, sixteen),
			"target is 8-bit but background is 16-bit: convert both to the same type (Image > Type)");
		StackSamples.checkCompatible(floatStack(8, 8, 2), floatStack(8, 8, 5));
	}

	private static IllegalArgumentException assertThrowsIAE(
		final org.junit.jupiter.api.function.Executable call)
	{
		return org.junit.jupiter.api.Assertions.assertThrows(
			IllegalArgumentException.class, call);
	}
}
