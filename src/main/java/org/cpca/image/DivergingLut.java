package org.cpca.image;

import ij.ImagePlus;
import ij.process.LUT;

/**
 * A blue–white–red lookup table for signed images such as component images: negative
 * values blue, zero white, positive values red, with the display range made symmetric
 * around zero so that zero sits in the middle of the table.
 */
public final class DivergingLut {

	/** Colour of the most negative value (dark blue). */
	private static final int[] BLUE = { 33, 102, 172 };
	/** Colour of the most positive value (dark red). */
	private static final int[] RED = { 178, 24, 43 };

	private DivergingLut() {}

	/** A 256-entry blue–white–red table; entries 127 and 128 are (nearly) white. */
	public static LUT blueWhiteRed() {
		final byte[] r = new byte[256];
		final byte[] g = new byte[256];
		final byte[] b = new byte[256];
		for (int i = 0; i < 256; i++) {
			final double t = i / 255.0 * 2 - 1; // -1 … 1
			final int[] end = t < 0 ? BLUE : RED;
			final double f = Math.abs(t); // 0 = white, 1 = end colour
			r[i] = (byte) Math.round(255 + f * (end[0] - 255));
			g[i] = (byte) Math.round(255 + f * (end[1] - 255));
			b[i] = (byte) Math.round(255 + f * (end[2] - 255));
		}
		return new LUT(r, g, b);
	}

	/**
	 * Applies {@link #blueWhiteRed()} to all slices of a 32-bit image and sets its
	 * display range to ±max|v| over the whole stack (±1 when all values are 0).
	 */
	public static void apply(final ImagePlus imp) {
		final double m = maxAbs(imp);
		// ImagePlus.setLut drops the label of a single-slice image: keep it
		final String label = imp.getStackSize() == 1 ? imp.getStack().getSliceLabel(1)
			: null;
		imp.setLut(blueWhiteRed());
		if (label != null) imp.getStack().setSliceLabel(label, 1);
		imp.setDisplayRange(-m, m);
	}

	/** Largest absolute finite pixel value in the stack, or 1 when that is 0. */
	static double maxAbs(final ImagePlus imp) {
		double m = 0;
		for (int s = 1; s <= imp.getStackSize(); s++) {
			final Object px = imp.getStack().getPixels(s);
			if (!(px instanceof float[])) throw new IllegalArgumentException(
				"a diverging table needs a 32-bit image but " + ImageChecks.describe(imp) +
					" is " + ImageChecks.type(imp));
			for (final float v : (float[]) px)
				if (Float.isFinite(v)) m = Math.max(m, Math.abs(v));
		}
		return m == 0 ? 1 : m;
	}
}
