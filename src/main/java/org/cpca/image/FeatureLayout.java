package org.cpca.image;

import ij.ImagePlus;
import ij.process.ByteProcessor;
import ij.process.ColorProcessor;
import ij.process.FloatProcessor;
import ij.process.ImageProcessor;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How the features of a sample map to the pixels of an image plane; immutable.
 * <p>
 * An image of {@code width × height} pixels is first reduced by averaging
 * non-overlapping {@code bin × bin} blocks to a <em>binned</em> image of
 * {@code floor(width / bin) × floor(height / bin)} pixels (pixels at the right and
 * bottom edges that do not fill a whole block are ignored). An optional mask then keeps
 * some binned pixels; the features are the kept binned pixels in row-major order. With
 * {@code bin == 1} and no mask ({@link #isIdentity()}), feature {@code j} is simply
 * pixel {@code j}.
 * <p>
 * The layout travels with a model: {@link #attributes()} and {@link #fromAttributes}
 * convert it to and from string key/value pairs, so that components can be turned back
 * into images ({@link #toImage}) and new stacks can be checked and projected with the
 * same geometry.
 */
public final class FeatureLayout {

	/** Attribute key of the image width, in pixels before binning. */
	public static final String WIDTH = "image.width";
	/** Attribute key of the image height, in pixels before binning. */
	public static final String HEIGHT = "image.height";
	/** Attribute key of the bin factor. */
	public static final String BIN = "image.bin";
	/** Attribute key of the mask: {@code "all"} or a run-length string {@code "rle:…"}. */
	public static final String MASK = "image.mask";
	/** Attribute key of the number of features (a consistency check). */
	public static final String FEATURES = "image.features";

	private static final String ALL = "all";

	private final int width;
	private final int height;
	private final int bin;
	private final int binnedWidth;
	private final int binnedHeight;
	/** Kept binned-pixel indices, strictly increasing; {@code null} when all are kept. */
	private final int[] kept;

	private FeatureLayout(final int width, final int height, final int bin,
		final int[] kept)
	{
		this.width = width;
		this.height = height;
		this.bin = bin;
		this.binnedWidth = width / bin;
		this.binnedHeight = height / bin;
		this.kept = kept;
	}

	/**
	 * All pixels of a {@code width × height} image, averaged in {@code bin × bin}
	 * blocks.
	 *
	 * @throws IllegalArgumentException if the size is not positive or the bin is not in
	 *           {@code 1 … min(width, height)}
	 */
	public static FeatureLayout full(final int width, final int height, final int bin) {
		checkGeometry(width, height, bin);
		return new FeatureLayout(width, height, bin, null);
	}

	/**
	 * The binned pixels where {@code keep} is true.
	 *
	 * @param keep one flag per binned pixel, row-major, of length
	 *          {@code floor(width / bin) × floor(height / bin)}
	 * @throws IllegalArgumentException on a bad geometry, a wrong mask length or a mask
	 *           that keeps no pixel
	 */
	public static FeatureLayout masked(final int width, final int height, final int bin,
		final boolean[] keep)
	{
		checkGeometry(width, height, bin);
		final int size = (width / bin) * (height / bin);
		if (keep.length != size) throw new IllegalArgumentException("the mask has " +
			keep.length + " pixels but the binned image has " + size + " (" + width / bin +
			"×" + height / bin + "): give one flag per binned pixel");
		int count = 0;
		for (final boolean k : keep)
			if (k) count++;
		final int[] indices = new int[count];
		int q = 0;
		for (int i = 0; i < keep.length; i++)
			if (keep[i]) indices[q++] = i;
		return withIndices(width, height, bin, indices);
	}

	/**
	 * The binned pixels with the given row-major indices.
	 *
	 * @param indices strictly increasing indices into the binned image (copied)
	 * @throws IllegalArgumentException on a bad geometry, an empty, unsorted or
	 *           out-of-range index list
	 */
	public static FeatureLayout withIndices(final int width, final int height,
		final int bin, final int[] indices)
	{
		checkGeometry(width, height, bin);
		final int size = (width / bin) * (height / bin);
		if (indices.length == 0) throw new IllegalArgumentException(
			"the mask selects no pixel: select at least one pixel (or use no mask)");
		for (int k = 0; k < indices.length; k++) {
			if (indices[k] < 0 || indices[k] >= size) throw new IllegalArgumentException(
				"mask index " + indices[k] + " is outside the binned image (" + width / bin +
					"×" + height / bin + ")");
			if (k > 0 && indices[k] <= indices[k - 1]) throw new IllegalArgumentException(
				"mask indices must be strictly increasing");
		}
		final int[] copy = indices.length == size ? null : indices.clone();
		return new FeatureLayout(width, height, bin, copy);
	}

	private static void checkGeometry(final int width, final int height, final int bin) {
		if (width < 1 || height < 1) throw new IllegalArgumentException(
			"the image size must be positive but is " + width + "×" + height);
		if (bin < 1) throw new IllegalArgumentException("bin " + bin +
			" is not allowed: the bin factor must be at least 1 (1 = no binning)");
		if (bin > Math.min(width, height)) throw new IllegalArgumentException("bin " +
			bin + " is larger than the image (" + width + "×" + height +
			"): choose a bin between 1 and " + Math.min(width, height));
		final long features = (long) (width / bin) * (height / bin);
		if (features > MAX_FEATURES) {
			final long smallest = (long) Math.ceil(Math.sqrt((double) width * height /
				MAX_FEATURES));
			throw new IllegalArgumentException("a " + width + "×" + height + " image" + (bin > 1
				? " binned " + bin + "×" + bin : "") + " has " + features + " pixels, more " +
				"than a sample can hold (" + MAX_FEATURES + " features): bin it by at least " +
				Math.max(smallest, bin + 1) + " (--bin, bin=), crop it, or use a mask");
		}
	}

	/** The most features a sample can have (a Java array's length). */
	static final int MAX_FEATURES = Integer.MAX_VALUE - 8;

	/** Image width in pixels, before binning. */
	public int width() {
		return width;
	}

	/** Image height in pixels, before binning. */
	public int height() {
		return height;
	}

	/** Bin factor: features average {@code bin × bin} blocks of pixels. */
	public int bin() {
		return bin;
	}

	/** Width of the binned image, {@code floor(width / bin)}. */
	public int binnedWidth() {
		return binnedWidth;
	}

	/** Height of the binned image, {@code floor(height / bin)}. */
	public int binnedHeight() {
		return binnedHeight;
	}

	/** Number of features, d. */
	public int features() {
		return kept == null ? binnedWidth * binnedHeight : kept.length;
	}

	/** Whether only some binned pixels are kept. */
	public boolean hasMask() {
		return kept != null;
	}

	/** Whether features are exactly the pixels (bin 1, no mask). */
	public boolean isIdentity() {
		return bin == 1 && kept == null;
	}

	/** Row-major index in the binned image of feature {@code j}. */
	public int pixelIndex(final int j) {
		return kept == null ? j : kept[j];
	}

	/** A copy of the kept binned-pixel indices (all of them when there is no mask). */
	public int[] keptIndices() {
		if (kept != null) return kept.clone();
		final int[] all = new int[binnedWidth * binnedHeight];
		for (int i = 0; i < all.length; i++)
			all[i] = i;
		return all;
	}

	/**
	 * The features of one image plane: its binned values at the kept pixels, in
	 * feature order. Always a new array. 8-bit and 16-bit values are read as unsigned
	 * raw pixel values (no calibration).
	 *
	 * @throws IllegalArgumentException if the plane has another size or is RGB
	 */
	public float[] extract(final ImageProcessor ip) {
		final float[] out = new float[features()];
		extract(ip, out);
		return out;
	}

	/**
	 * {@link #extract(ImageProcessor)} into the caller's array (length
	 * {@link #features()}), for readers that reuse one buffer.
	 */
	public void extract(final ImageProcessor ip, final float[] out) {
		if (ip.getWidth() != width || ip.getHeight() != height)
			throw new IllegalArgumentException("the image is " + ip.getWidth() + "×" + ip
				.getHeight() + " but the features were defined on " + width + "×" + height +
				" images: use images of the same size");
		if (ip instanceof ColorProcessor) throw new IllegalArgumentException(
			"the image is RGB: convert it to 8-bit, 16-bit or 32-bit (Image > Type) or split the channels");
		final int d = features();
		if (bin == 1) {
			for (int j = 0; j < d; j++)
				out[j] = ip.getf(pixelIndex(j));
			return;
		}
		final float[] binned = Binning.average(Binning.view(ip), bin);
		for (int j = 0; j < d; j++)
			out[j] = binned[pixelIndex(j)];
	}

	/**
	 * An image of the binned size with {@code vector[j]} at the pixel of feature
	 * {@code j} and 0 at pixels that are not kept.
	 *
	 * @param vector {@link #features()} values
	 */
	public FloatProcessor toImage(final double[] vector) {
		if (vector.length != features()) throw new IllegalArgumentException("the vector has " +
			vector.length + " values but the layout has " + features() + " features");
		final float[] pixels = new float[binnedWidth * binnedHeight];
		for (int j = 0; j < vector.length; j++)
			pixels[pixelIndex(j)] = (float) vector[j];
		return new FloatProcessor(binnedWidth, binnedHeight, pixels);
	}

	/** The kept binned pixels as an 8-bit mask (255 kept, 0 not kept). */
	public ByteProcessor maskImage() {
		final byte[] pixels = new byte[binnedWidth * binnedHeight];
		if (kept == null) Arrays.fill(pixels, (byte) 255);
		else for (final int i : kept)
			pixels[i] = (byte) 255;
		return new ByteProcessor(binnedWidth, binnedHeight, pixels);
	}

	/**
	 * Checks that an image has the size this layout was made for.
	 *
	 * @param name what the user calls the image ("target", a file name)
	 * @throws IllegalArgumentException naming both sizes otherwise
	 */
	public void checkFits(final String name, final ImagePlus imp) {
		if (imp.getWidth() != width || imp.getHeight() != height)
			throw new IllegalArgumentException(name + " is " + imp.getWidth() + "×" + imp
				.getHeight() + " but the features were defined on " + width + "×" + height +
				" images: use images of the same width × height");
	}

	/**
	 * The layout as string attributes for a model file: {@value #WIDTH},
	 * {@value #HEIGHT}, {@value #BIN}, {@value #MASK} ({@code "all"} or
	 * {@code "rle:skip,keep,skip,keep,…"} over the binned image in row-major order) and
	 * {@value #FEATURES}.
	 */
	public Map<String, String> attributes() {
		final Map<String, String> map = new LinkedHashMap<>();
		map.put(WIDTH, Integer.toString(width));
		map.put(HEIGHT, Integer.toString(height));
		map.put(BIN, Integer.toString(bin));
		map.put(MASK, kept == null ? ALL : RunLength.encode(kept));
		map.put(FEATURES, Integer.toString(features()));
		return map;
	}

	/**
	 * Reads a layout written by {@link #attributes()}; other keys are ignored. A missing
	 * {@value #BIN} means 1, a missing {@value #MASK} means all pixels.
	 *
	 * @throws IllegalArgumentException if a required key is missing or a value is
	 *           malformed or inconsistent
	 */
	public static FeatureLayout fromAttributes(final Map<String, String> attributes) {
		final int w = intAttribute(attributes, WIDTH, null);
		final int h = intAttribute(attributes, HEIGHT, null);
		final int b = intAttribute(attributes, BIN, 1);
		if (b >= 1 && (long) (w / b) * (h / b) > MAX_FEATURES) throw new IllegalArgumentException(
			WIDTH + " × " + HEIGHT + " is " + w + "×" + h + (b > 1 ? " binned " + b + "×" + b : "") +
				", " + (long) (w / b) * (h / b) + " pixels, more than any model has: the " +
				"model file is damaged");
		final String mask = attributes.get(MASK);
		final FeatureLayout layout;
		if (mask == null || mask.trim().equals(ALL)) layout = full(w, h, b);
		else layout = withIndices(w, h, b, RunLength.decode(mask.trim(), (w / b) * (h /
			b)));
		if (attributes.containsKey(FEATURES)) {
			final int d = intAttribute(attributes, FEATURES, null);
			if (d != layout.features()) throw new IllegalArgumentException(FEATURES + " is " +
				d + " but the mask keeps " + layout.features() +
				" pixels: the model file is damaged");
		}
		return layout;
	}

	private static int intAttribute(final Map<String, String> map, final String key,
		final Integer defaultValue)
	{
		final String s = map.get(key);
		if (s == null) {
			if (defaultValue != null) return defaultValue;
			throw new IllegalArgumentException("the model has no " + key +
				": it was not made from images, or the file is damaged");
		}
		try {
			return Integer.parseInt(s.trim());
		}
		catch (final NumberFormatException e) {
			throw new IllegalArgumentException(key + " must be a whole number but is '" + s +
				"'");
		}
	}

	/**
	 * Whether both layouts map features to the same pixels: same image size, bin and
	 * kept pixels.
	 */
	public boolean equalsGeometry(final FeatureLayout other) {
		return other != null && width == other.width && height == other.height &&
			bin == other.bin && Arrays.equals(kept, other.kept);
	}

	@Override
	public boolean equals(final Object o) {
		return o instanceof FeatureLayout && equalsGeometry((FeatureLayout) o);
	}

	@Override
	public int hashCode() {
		return ((width * 31 + height) * 31 + bin) * 31 + Arrays.hashCode(kept);
	}

	@Override
	public String toString() {
		return width + "×" + height + (bin == 1 ? "" : " binned " + bin + "×" + bin +
			" to " + binnedWidth + "×" + binnedHeight) + (kept == null ? ""
				: ", masked") + " (" + features() + " features)";
	}
}
