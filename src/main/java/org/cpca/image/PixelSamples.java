package org.cpca.image;

import ij.ImagePlus;
import ij.ImageStack;
import ij.gui.Roi;
import ij.measure.Calibration;
import ij.process.ByteProcessor;
import ij.process.FloatProcessor;
import ij.process.ImageProcessor;

import java.util.Arrays;
import java.util.List;

import org.cpca.core.Memory;
import org.cpca.core.data.Dataset;

/**
 * The "pixels as samples" orientation: every pixel (x, y) of an image is a sample and its
 * values in the planes of the stack (all channels × slices × frames, in stack order) are
 * its features. A stack of d planes of w × h pixels gives up to w·h samples of d features.
 * <p>
 * The opposite of {@link StackSamples}, where slices are samples. Values are
 * read as raw pixel values (8-bit and 16-bit unsigned, no calibration); RGB is refused.
 */
public final class PixelSamples {

	private PixelSamples() {}

	/**
	 * The pixels of {@code imp} as samples.
	 *
	 * @param name what the user calls the data ("target", "background"), for messages
	 * @param keepOrNull one flag per pixel (row-major), or {@code null} for all pixels
	 * @throws IllegalArgumentException for RGB images, an empty selection or a
	 *           non-finite value (naming the pixel and plane)
	 */
	public static Dataset toDataset(final String name, final ImagePlus imp,
		final boolean[] keepOrNull)
	{
		if (imp.getBitDepth() == 24) throw new IllegalArgumentException(name +
			" is RGB: convert it to 8-bit, 16-bit or 32-bit (Image > Type) or split the " +
			"channels (Image > Color > Split Channels) and stack them");
		final int w = imp.getWidth(), h = imp.getHeight(), d = imp.getStackSize();
		final int[] index = indices(keepOrNull, w * h);
		if (index.length == 0) throw new IllegalArgumentException("the selection of " +
			name + " contains no pixel: draw it inside the image");
		Memory.require("the pixels of " + name + " (" + index.length +
			" samples × " + d + " planes)", Memory.floats(index.length, d),
			"use a selection or a smaller image");
		final float[][] rows = new float[index.length][d];
		final ImageStack stack = imp.getStack();
		for (int s = 0; s < d; s++) {
			if (!stack.isVirtual() && stack.getPixels(s + 1) == null) throw StackSamples
				.closed(name, imp);
			final ImageProcessor ip = stack.getProcessor(s + 1);
			for (int i = 0; i < index.length; i++) {
				final float v = ip.getf(index[i]);
				if (!Float.isFinite(v)) throw new IllegalArgumentException(name + " has " +
					"the value " + v + " at pixel (" + index[i] % w + ", " + index[i] / w +
					") of plane " + (s + 1) + ": replace NaN and infinite values (e.g. " +
					"Process > Math > Remove NaNs...) or exclude them with a selection");
				rows[i][s] = v;
			}
		}
		return Dataset.wrap(name, rows);
	}

	/** Flags of the pixels inside an area selection of a {@code w × h} image. */
	public static boolean[] inside(final Roi roi, final int w, final int h) {
		if (!roi.isArea()) throw new IllegalArgumentException("the selection is a " + roi
			.getTypeAsString().toLowerCase() + ": draw an area selection (rectangle, " +
			"oval, polygon, freehand)");
		final ByteProcessor m = new ByteProcessor(w, h);
		m.setValue(255);
		m.fill(roi);
		final byte[] px = (byte[]) m.getPixels();
		final boolean[] in = new boolean[px.length];
		for (int i = 0; i < px.length; i++)
			in[i] = px[i] != 0;
		return in;
	}

	/** Number of set flags; the pixel count when {@code flags} is null. */
	public static int count(final boolean[] flags, final int all) {
		if (flags == null) return all;
		int c = 0;
		for (final boolean f : flags)
			if (f) c++;
		return c;
	}

	private static int[] indices(final boolean[] keep, final int size) {
		final int[] out = new int[count(keep, size)];
		int q = 0;
		for (int i = 0; i < size; i++)
			if (keep == null || keep[i]) out[q++] = i;
		return out;
	}

	/**
	 * Per-pixel values back into a 32-bit stack: column {@code c} of {@code values}
	 * becomes slice {@code c + 1}.
	 *
	 * @param values one row per kept pixel (row-major order), m values each
	 * @param keepOrNull the pixels the rows belong to ({@code null}: all); the others are
	 *          NaN
	 * @param labels m slice labels, or {@code null}
	 * @param calibration copied to the result when not {@code null}
	 */
	public static ImagePlus toStack(final String title, final double[][] values,
		final int w, final int h, final boolean[] keepOrNull, final List<String> labels,
		final Calibration calibration)
	{
		final int[] index = indices(keepOrNull, w * h);
		if (values.length != index.length) throw new IllegalArgumentException(values
			.length + " rows for " + index.length + " pixels");
		final int m = values.length == 0 ? 0 : values[0].length;
		final ImageStack stack = new ImageStack(w, h);
		for (int c = 0; c < m; c++) {
			final float[] px = new float[w * h];
			if (keepOrNull != null) Arrays.fill(px, Float.NaN);
			for (int i = 0; i < index.length; i++)
				px[index[i]] = (float) values[i][c];
			stack.addSlice(labels == null ? null : labels.get(c), new FloatProcessor(w, h,
				px));
		}
		final ImagePlus imp = new ImagePlus(title, stack);
		if (calibration != null) imp.setCalibration(calibration.copy());
		return imp;
	}
}
