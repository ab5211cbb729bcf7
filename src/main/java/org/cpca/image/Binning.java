package org.cpca.image;

import ij.process.ByteProcessor;
import ij.process.FloatProcessor;
import ij.process.ImageProcessor;
import ij.process.ShortProcessor;
import net.imglib2.Cursor;
import net.imglib2.RandomAccessibleInterval;
import net.imglib2.img.array.ArrayImgs;
import net.imglib2.type.numeric.RealType;
import net.imglib2.view.Views;

/**
 * Block averaging of one image plane through ImgLib2 views of ImageJ's pixel arrays
 * (no pixel is copied to build the view).
 */
final class Binning {

	private Binning() {}

	/**
	 * An ImgLib2 view of the processor's pixel array (8-bit and 16-bit as unsigned,
	 * 32-bit as float).
	 */
	static RandomAccessibleInterval<? extends RealType<?>> view(final ImageProcessor ip) {
		final long w = ip.getWidth();
		final long h = ip.getHeight();
		if (ip instanceof FloatProcessor) return ArrayImgs.floats((float[]) ip.getPixels(),
			w, h);
		if (ip instanceof ShortProcessor) return ArrayImgs.unsignedShorts((short[]) ip
			.getPixels(), w, h);
		if (ip instanceof ByteProcessor) return ArrayImgs.unsignedBytes((byte[]) ip
			.getPixels(), w, h);
		throw new IllegalArgumentException("cannot read " + ip.getClass().getSimpleName() +
			" pixels: convert the image to 8-bit, 16-bit or 32-bit (Image > Type)");
	}

	/**
	 * Averages non-overlapping {@code bin × bin} blocks. The result has
	 * {@code floor(width / bin) × floor(height / bin)} values in row-major order;
	 * the right and bottom pixels that do not fill a whole block are ignored.
	 */
	static float[] average(final RandomAccessibleInterval<? extends RealType<?>> img,
		final int bin)
	{
		final int bw = (int) img.dimension(0) / bin;
		final int bh = (int) img.dimension(1) / bin;
		final double[] sums = new double[bw * bh];
		if (sums.length == 0) return new float[0];
		final long x0 = img.min(0);
		final long y0 = img.min(1);
		final RandomAccessibleInterval<? extends RealType<?>> whole = Views.interval(img,
			new long[] { x0, y0 }, new long[] { x0 + (long) bw * bin - 1, y0 +
				(long) bh * bin - 1 });
		final Cursor<? extends RealType<?>> c = Views.flatIterable(whole)
			.localizingCursor();
		while (c.hasNext()) {
			final double v = c.next().getRealDouble();
			final int bx = (int) (c.getLongPosition(0) - x0) / bin;
			final int by = (int) (c.getLongPosition(1) - y0) / bin;
			sums[by * bw + bx] += v;
		}
		final double area = (double) bin * bin;
		final float[] out = new float[sums.length];
		for (int i = 0; i < out.length; i++)
			out[i] = (float) (sums[i] / area);
		return out;
	}
}
