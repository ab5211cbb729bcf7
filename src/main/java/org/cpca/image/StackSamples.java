package org.cpca.image;

import ij.ImagePlus;
import ij.ImageStack;
import ij.gui.Roi;
import ij.process.ByteProcessor;
import ij.process.FloatProcessor;
import ij.process.ImageProcessor;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

import org.cpca.core.Memory;
import org.cpca.core.data.Dataset;
import org.cpca.core.data.MissingValues;

/**
 * Turns an image stack into a {@link Dataset} with one sample per slice.
 * <p>
 * Every plane of the stack is a sample, in stack order (for hyperstacks: channel
 * fastest, then z, then time, i.e. all of C×Z×T), and its pixels, as described by a
 * {@link FeatureLayout} (bin, mask), are the features. Slice labels become sample
 * names; class labels are not inferred here (see {@link #sliceLabels}).
 */
public final class StackSamples {

	private StackSamples() {}

	/**
	 * The features of every slice of {@code imp}.
	 * <p>
	 * The samples are a copy of the pixels (a snapshot: later edits of the image do not
	 * change them); values are converted to float (8-bit and 16-bit as unsigned raw
	 * values). A stack of one slice is allowed here.
	 *
	 * @param name what the user calls the data ("target", "background"), used in
	 *          messages
	 * @throws IllegalArgumentException if the image is RGB, does not fit the layout or
	 *           has a non-finite value (naming sample and feature)
	 */
	public static Dataset toDataset(final String name, final ImagePlus imp,
		final FeatureLayout layout)
	{
		return toDataset(name, imp, layout, false);
	}

	/**
	 * {@link #toDataset(String, ImagePlus, FeatureLayout)}; the samples are always a copy
	 * (a snapshot: editing or closing the image later changes nothing) unless
	 * {@code share} is true, when a 32-bit image with an identity layout is wrapped without
	 * copying — only for an image nobody else holds (one the command line opened itself).
	 *
	 * @throws IllegalArgumentException also if the image was closed while being read
	 */
	public static Dataset toDataset(final String name, final ImagePlus imp,
		final FeatureLayout layout, final boolean share)
	{
		return named(name, imp, Dataset.wrap(name, rows(name, imp, layout, share)));
	}

	/**
	 * The dataset with the slices' names; refused as closed when the image lost its
	 * slices after they were read (closed during the fit).
	 */
	private static Dataset named(final String name, final ImagePlus imp,
		final Dataset data)
	{
		final List<String> names = sampleNames(imp);
		if (names.size() != data.samples()) throw closed(name, imp);
		return data.withSampleNames(names);
	}

	/**
	 * The features of every slice as a copy of their values, NaN (missing) pixels kept:
	 * for inputs read with a missing-value rule, which fill or model them
	 * ({@link MissingValues}, docs/math/pcpca.md#missing-values).
	 */
	public static float[][] values(final String name, final ImagePlus imp,
		final FeatureLayout layout)
	{
		return rows(name, imp, layout, false);
	}

	/**
	 * The slices as a dataset from their {@link #values} with every NaN pixel filled by its
	 * feature's mean over the slices that have it ({@code byMean}) or by 0.
	 */
	public static Dataset filled(final String name, final ImagePlus imp,
		final float[][] values, final boolean byMean)
	{
		return named(name, imp, Dataset.wrap(name, MissingValues.filled(
			name, values, byMean)));
	}

	private static float[][] rows(final String name, final ImagePlus imp,
		final FeatureLayout layout, final boolean share)
	{
		ImageChecks.requireImage(name, imp);
		ImageChecks.requireNotRgb(name, imp);
		layout.checkFits(name, imp);
		final ImageStack stack = imp.getStack();
		final int n = stack.getSize();
		final boolean identity32 = layout.isIdentity() && imp.getBitDepth() == 32;
		if (!(share && identity32)) Memory.require("a copy of " + name + " (" +
			n + " samples × " + layout.features() + " features)", Memory.floats(
				n, layout.features()), "bin the images or use a mask or selection (fewer " +
					"features), or stream them (online cPCA*)");
		final float[][] rows = new float[n][];
		for (int i = 0; i < n; i++) {
			if (!stack.isVirtual() && stack.getPixels(i + 1) == null) throw closed(name, imp);
			if (identity32) {
				final float[] px = (float[]) stack.getPixels(i + 1);
				if (px == null) throw closed(name, imp);
				rows[i] = share ? px : px.clone();
			}
			else rows[i] = layout.extract(stack.getProcessor(i + 1));
		}
		return rows;
	}

	/**
	 * Refuses a target and a background of different channel counts (open hyperstacks
	 * read with the same axes: channels side by side, or every plane a sample by default).
	 */
	public static void checkSameChannels(final ImagePlus target,
		final ImagePlus background)
	{
		final int ct = target.getNChannels(), cb = background.getNChannels();
		if (ct != cb) throw new IllegalArgumentException(channelCount("target", target, ct) +
			" but " + channelCount("background", background, cb) + ": give both the same " +
			"channels, or read one channel of each with axes=c1 (every plane a sample: " +
			"axes=planes)");
	}

	private static String channelCount(final String role, final ImagePlus imp,
		final int channels)
	{
		return role + " " + ImageChecks.describe(imp) + " has " + (channels == 1
			? "one channel" : channels + " channels");
	}

	/** "target has 2 channels of 28×28 (read side by side …)" or "background has one …". */
	private static String channels(final String role, final ImagePlus imp,
		final int channels)
	{
		return channels > 1 ? role + " has " + channels + " channels of " + imp.getWidth() /
			channels + "×" + imp.getHeight() + " (read side by side as features, --axes " +
			"channels)" : role + " has one channel of " + ImageChecks.size(imp);
	}

	/** The message for an image whose pixels went away (closed) while it was read. */
	static IllegalArgumentException closed(final String name, final ImagePlus imp) {
		return new IllegalArgumentException(name + " " + ImageChecks.describe(imp) +
			" was closed while it was being read: keep the images open until the fit has " +
			"started, then run it again");
	}

	/**
	 * Display names of the slices: the slice label's first line, or a position such as
	 * "slice 3" (or "c=1 z=2 t=5" for hyperstacks) when a slice has no label.
	 */
	public static List<String> sampleNames(final ImagePlus imp) {
		final List<String> labels = sliceLabels(imp);
		final int n = imp.getStackSize();
		final List<String> names = new ArrayList<>(n);
		for (int i = 1; i <= n; i++) {
			final String label = labels == null ? null : labels.get(i - 1);
			names.add(label != null ? label : position(imp, i));
		}
		return names;
	}

	private static String position(final ImagePlus imp, final int index) {
		if (!imp.isHyperStack()) return "slice " + index;
		final int[] czt = imp.convertIndexToPosition(index);
		final StringBuilder sb = new StringBuilder();
		final String[] names = { "c", "z", "t" };
		final int[] dims = { imp.getNChannels(), imp.getNSlices(), imp.getNFrames() };
		for (int k = 0; k < 3; k++) {
			if (dims[k] <= 1) continue;
			if (sb.length() > 0) sb.append(' ');
			sb.append(names[k]).append('=').append(czt[k]);
		}
		return sb.length() == 0 ? "slice " + index : sb.toString();
	}

	/**
	 * The slice labels, one per slice in stack order: the first line of each label,
	 * trimmed, or {@code null} for a slice without a (non-blank) label. Returns
	 * {@code null} instead of a list when no slice has a label.
	 */
	public static List<String> sliceLabels(final ImagePlus imp) {
		final ImageStack stack = imp.getStack();
		final int n = stack.getSize();
		final List<String> labels = new ArrayList<>(n);
		boolean any = false;
		for (int i = 1; i <= n; i++) {
			final String label = firstLine(stack.getSliceLabel(i));
			labels.add(label);
			any |= label != null;
		}
		return any ? labels : null;
	}

	/**
	 * The slice labels as class labels, or {@code null}: they are classes when every
	 * slice has one and they repeat (at most half as many distinct labels as slices), as
	 * "0"/"1" or "treated"/"control" do; unique names such as file names are not classes.
	 */
	public static List<String> classLabels(final ImagePlus imp) {
		final List<String> labels = sliceLabels(imp);
		if (labels == null || labels.contains(null)) return null;
		return new HashSet<>(labels).size() * 2 <= labels.size() ? labels : null;
	}

	private static String firstLine(final String label) {
		if (label == null) return null;
		final int nl = label.indexOf('\n');
		final String line = (nl < 0 ? label : label.substring(0, nl)).trim();
		return line.isEmpty() ? null : line;
	}

	/**
	 * The layout for slices of {@code imp}: all pixels, or those inside the mask and/or
	 * the area selection (both: their intersection), averaged in {@code bin × bin}
	 * blocks. With a bin above 1, a block is kept only if all its pixels are selected,
	 * so no unselected pixel enters a feature. When everything is selected the layout has
	 * no mask.
	 *
	 * @param maskOrNull a single-slice image of the same width × height; nonzero pixels
	 *          are selected
	 * @param roiOrNull an area selection (rectangle, oval, polygon, ...), applied to every
	 *          slice
	 * @param bin bin factor, 1 for none
	 * @throws IllegalArgumentException if the image is RGB, the bin is out of range, the
	 *           mask has another size or several slices, the selection is not an area or
	 *           nothing is selected
	 */
	public static FeatureLayout layoutFor(final ImagePlus imp, final ImagePlus maskOrNull,
		final Roi roiOrNull, final int bin)
	{
		ImageChecks.requireImage("the image", imp);
		final String name = ImageChecks.describe(imp);
		ImageChecks.requireNotRgb(name, imp);
		final int w = imp.getWidth();
		final int h = imp.getHeight();
		final FeatureLayout full = FeatureLayout.full(w, h, bin);
		boolean[] selected = null;
		if (maskOrNull != null) selected = maskPixels(maskOrNull, imp);
		if (roiOrNull != null) {
			final boolean[] inRoi = roiPixels(roiOrNull, w, h);
			if (selected == null) selected = inRoi;
			else for (int i = 0; i < selected.length; i++)
				selected[i] &= inRoi[i];
		}
		if (selected == null) return full;
		if (count(selected) == 0) throw new IllegalArgumentException(maskOrNull == null
			? "the selection contains no pixel of " + name +
				": draw the selection inside the image, or use none"
			: "the mask selects no pixel of " + name + (roiOrNull != null
				? " inside the selection" : "") +
				": use a mask with nonzero pixels (inside the selection), or no mask");
		final boolean[] keep = blocks(selected, w, h, bin);
		if (count(keep) == 0) throw new IllegalArgumentException(
			"the mask contains no whole " + bin + "×" + bin + " block (bin " + bin +
				"): use a smaller bin or a larger mask");
		return FeatureLayout.masked(w, h, bin, keep);
	}

	private static boolean[] maskPixels(final ImagePlus mask, final ImagePlus imp) {
		if (mask.getWidth() != imp.getWidth() || mask.getHeight() != imp.getHeight())
			throw new IllegalArgumentException("the mask is " + ImageChecks.size(mask) +
				" but " + ImageChecks.describe(imp) + " is " + ImageChecks.size(imp) +
				": the mask must have the same width × height as the images");
		if (mask.getStackSize() > 1) throw new IllegalArgumentException("the mask has " +
			mask.getStackSize() + " slices: give a single-slice mask (one image)");
		final ImageProcessor ip = mask.getProcessor();
		final boolean[] sel = new boolean[ip.getPixelCount()];
		final boolean isFloat = ip instanceof FloatProcessor;
		for (int i = 0; i < sel.length; i++)
			sel[i] = isFloat ? ip.getf(i) != 0 && !Float.isNaN(ip.getf(i)) : ip.get(i) != 0;
		return sel;
	}

	private static boolean[] roiPixels(final Roi roi, final int w, final int h) {
		if (!roi.isArea()) throw new IllegalArgumentException("the selection is a " +
			roi.getTypeAsString().toLowerCase() +
			": draw an area selection (rectangle, oval, polygon, freehand) or use none");
		final ByteProcessor m = new ByteProcessor(w, h);
		m.setValue(255);
		m.fill(roi);
		final byte[] px = (byte[]) m.getPixels();
		final boolean[] sel = new boolean[px.length];
		for (int i = 0; i < px.length; i++)
			sel[i] = px[i] != 0;
		return sel;
	}

	/** Binned flags: a block is kept if all of its pixels are selected. */
	private static boolean[] blocks(final boolean[] selected, final int w, final int h,
		final int bin)
	{
		final int bw = w / bin;
		final int bh = h / bin;
		final boolean[] keep = new boolean[bw * bh];
		for (int by = 0; by < bh; by++) {
			for (int bx = 0; bx < bw; bx++) {
				boolean all = true;
				for (int y = by * bin; all && y < (by + 1) * bin; y++)
					for (int x = bx * bin; all && x < (bx + 1) * bin; x++)
						all = selected[y * w + x];
				keep[by * bw + bx] = all;
			}
		}
		return keep;
	}

	private static int count(final boolean[] flags) {
		int c = 0;
		for (final boolean f : flags)
			if (f) c++;
		return c;
	}

	/**
	 * Checks that target and background can be compared feature by feature.
	 *
	 * @throws IllegalArgumentException if either is RGB, their width × height differ or
	 *           their bit depths differ
	 */
	public static void checkCompatible(final ImagePlus target,
		final ImagePlus background)
	{
		ImageChecks.requireImage("target", target);
		ImageChecks.requireImage("background", background);
		ImageChecks.requireNotRgb("target", target);
		ImageChecks.requireNotRgb("background", background);
		final int ct = Axes.channelsSideBySide(target), cb = Axes.channelsSideBySide(
			background);
		if (ct != cb) throw new IllegalArgumentException(channels("target", target, ct) +
			" but " + channels("background", background, cb) + ": give both the same " +
			"channels, or read one channel of each with --axes c1 (axes=c1 in Fiji and " +
			"macros)");
		if (target.getWidth() != background.getWidth() || target.getHeight() != background
			.getHeight()) throw new IllegalArgumentException("background is " + ImageChecks
				.size(background) + " but target is " + ImageChecks.size(target) +
				": both stacks must have the same width × height (or use the same mask)");
		if (target.getBitDepth() != background.getBitDepth())
			throw new IllegalArgumentException("target is " + ImageChecks.type(target) +
				" but background is " + ImageChecks.type(background) +
				": convert both to the same type (Image > Type)");
	}
}
