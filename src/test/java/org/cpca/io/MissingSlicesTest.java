package org.cpca.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;
import ij.ImageStack;
import ij.process.FloatProcessor;

import org.cpca.image.StackReader;
import org.junit.jupiter.api.Test;

/**
 * The one missing-value rule of slices as samples ({@link LoadedData#slices}), which the
 * command line and the Fiji commands and macros share: drop refuses a NaN pixel, mean
 * and model fill it with its feature's mean over the other slices (model keeps the
 * values for the fit), zero with 0; the user's image is not modified.
 */
class MissingSlicesTest {

	/** Three 2 × 1 slices, the second with a NaN in its first pixel. */
	private static StackReader reader() {
		final ImageStack s = new ImageStack(2, 1);
		s.addSlice(new FloatProcessor(2, 1, new float[] { 1, 10 }));
		s.addSlice(new FloatProcessor(2, 1, new float[] { Float.NaN, 20 }));
		s.addSlice(new FloatProcessor(2, 1, new float[] { 3, 30 }));
		return StackReader.of("target", new ImagePlus("t", s), null).select(null, null, 1);
	}

	@Test
	void eachRuleReadsTheSlicesItsWay() {
		final IllegalArgumentException drop = assertThrows(IllegalArgumentException.class,
			() -> LoadedData.slices(reader(), TableInput.Missing.DROP, false));
		assertTrue(drop.getMessage().contains("target"), drop.getMessage());
		for (final TableInput.Missing rule : TableInput.Missing.values()) {
			if (rule == TableInput.Missing.DROP) continue;
			final StackReader r = reader();
			final LoadedData.Slices read = LoadedData.slices(r, rule, false);
			final double filled = rule == TableInput.Missing.ZERO ? 0 : 2;
			assertEquals(filled, read.dataset.value(1, 0), 0, rule.name());
			assertEquals(20, read.dataset.value(1, 1), 0, rule.name());
			assertTrue(Float.isNaN(read.values[1][0]), rule.name());
			assertTrue(Float.isNaN(r.image().getStack().getProcessor(2).getf(0)), "the image");
		}
		final StackReader clean = StackReader.of("target", new ImagePlus("c",
			new FloatProcessor(2, 1, new float[] { 1, 2 })), null).select(null, null, 1);
		final LoadedData.Slices read = LoadedData.slices(clean, TableInput.Missing.DROP, true);
		assertNull(read.values);
		assertSame(clean.image().getStack().getPixels(1), read.dataset.row(0));
	}
}
