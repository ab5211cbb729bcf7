package org.cpca.image;

import ij.ImagePlus;
import ij.ImageStack;
import ij.process.ImageProcessor;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * How the axes of a hyperstack (channels × slices × frames) become samples and features,
 * chosen explicitly so that a hyperstack is never flattened silently:
 * <ul>
 * <li>{@code planes}: every plane is a sample (channels, slices and frames alike);</li>
 * <li>{@code channels}: channels are features — each slice × frame position is a sample
 * whose features are the pixels of all its channels, the channels laid side by side
 * (eigen-images show them the same way);</li>
 * <li>{@code c1}, {@code c2}, …: one channel only; its slices × frames are the
 * samples;</li>
 * <li>{@code auto} (the default): {@code planes} for an image with one channel;
 * {@code channels} for several channels with several slices or frames; a single
 * multi-channel image (one position) is refused, as it has one sample.</li>
 * </ul>
 * The result is a plain stack (one sample per slice) and a description of how each axis
 * was used, for the summary. See docs/bad-inputs.md.
 */
public final class Axes {

	/** The plain stack to read, one sample per slice. */
	public final ImagePlus image;
	/** The mode used: planes, channels, or cN. */
	public final String mode;
	/** Number of channels side by side in each sample ({@code channels}), else 1. */
	public final int channelsAsFeatures;
	/** How each axis was used, e.g. {channels: features, slices: samples}. */
	public final Map<String, String> use;

	private Axes(final ImagePlus image, final String mode, final int channelsAsFeatures,
		final Map<String, String> use)
	{
		this.image = image;
		this.mode = mode;
		this.channelsAsFeatures = channelsAsFeatures;
		this.use = use;
	}

	/** The accepted values, for messages and help. */
	public static final String VALUES = "auto, planes, channels, c1, c2, …";

	/**
	 * Applies an axes choice to {@code imp} (not modified).
	 *
	 * @param role what the user calls the image, for messages
	 * @param choice {@link #VALUES}; null means auto
	 * @throws IllegalArgumentException for an unknown choice, a channel that does not
	 *           exist, or a single multi-channel image under auto
	 */
	public static Axes apply(final String role, final ImagePlus imp, final String choice) {
		final String c = choice == null || choice.trim().isEmpty() ? "auto" : choice.trim()
			.toLowerCase(Locale.ROOT);
		final int nc = imp.getNChannels(), nz = imp.getNSlices(), nt = imp.getNFrames();
		final boolean consistent = (long) nc * nz * nt == imp.getStackSize();
		final int positions = nz * nt;
		String mode;
		if (c.equals("auto")) {
			if (nc <= 1 || !consistent) mode = "planes";
			else if (positions > 1) mode = "channels";
			else throw new IllegalArgumentException(role + " " + ImageChecks.describe(imp) +
				" is one image with " + nc + " channels, so it has a single sample: give a " +
				"stack (several slices or frames), use --axes planes (axes=planes) to make " +
				"each channel a sample, or pixels as samples in Fiji");
		}
		else mode = c;
		final Map<String, String> use = new LinkedHashMap<>();
		if (mode.equals("planes")) {
			if (nc > 1) use.put("channels", "samples");
			if (nz > 1) use.put("slices", "samples");
			if (nt > 1) use.put("frames", "samples");
			use.put("pixels", "features");
			return new Axes(imp, "planes", 1, use);
		}
		if (!consistent) throw new IllegalArgumentException(role + " " + ImageChecks
			.describe(imp) + " has no channel × slice × frame order (" + imp.getStackSize() +
			" planes): use --axes planes (axes=planes)");
		if (mode.equals("channels")) {
			if (nc < 2) throw new IllegalArgumentException(role + " " + ImageChecks.describe(
				imp) + " has one channel, so channels cannot be features: use --axes planes " +
				"(axes=planes) or auto");
			use.put("channels", "features (" + nc + " channels side by side)");
			if (nz > 1) use.put("slices", "samples");
			if (nt > 1) use.put("frames", "samples");
			use.put("pixels", "features");
			return new Axes(sideBySide(imp, nc, nz, nt), "channels", nc, use);
		}
		if (mode.matches("c[0-9]+")) {
			final int channel;
			try {
				channel = Integer.parseInt(mode.substring(1));
			}
			catch (final NumberFormatException e) {
				throw unknown(c);
			}
			if (channel < 1 || channel > nc) throw new IllegalArgumentException(
				"--axes " + c + ": " + role + " " + ImageChecks.describe(imp) + " has " + nc +
					" channel" + (nc == 1 ? "" : "s") + ": use c1 … c" + nc);
			use.put("channels", "only channel " + channel + " of " + nc);
			if (nz > 1) use.put("slices", "samples");
			if (nt > 1) use.put("frames", "samples");
			use.put("pixels", "features");
			return new Axes(oneChannel(imp, channel, nz, nt), "c" + channel, 1, use);
		}
		throw unknown(c);
	}

	private static IllegalArgumentException unknown(final String c) {
		return new IllegalArgumentException("--axes " + c + " is not known: use one of " +
			VALUES + " (axes= in Fiji and macros)");
	}

	/** Each slice × frame position as one plane holding its channels side by side. */
	private static ImagePlus sideBySide(final ImagePlus imp, final int nc, final int nz,
		final int nt)
	{
		final int w = imp.getWidth(), h = imp.getHeight();
		final ImageStack in = imp.getStack();
		final ImageStack out = new ImageStack(w * nc, h);
		for (int t = 1; t <= nt; t++)
			for (int z = 1; z <= nz; z++) {
				final ImageProcessor first = in.getProcessor(imp.getStackIndex(1, z, t));
				final ImageProcessor ip = first.createProcessor(w * nc, h);
				for (int ch = 1; ch <= nc; ch++)
					ip.insert(in.getProcessor(imp.getStackIndex(ch, z, t)), (ch - 1) * w, 0);
				out.addSlice(position(nz, nt, z, t), ip);
			}
		final ImagePlus result = new ImagePlus(imp.getTitle(), out);
		result.setCalibration(imp.getCalibration().copy());
		result.setProperty(SIDE_BY_SIDE, nc);
		return result;
	}

	/** The property of a stack made by {@code channels}: how many channels it holds. */
	private static final String SIDE_BY_SIDE = "cpca.channels-side-by-side";

	/** How many channels lie side by side in each plane of {@code imp} (1: none). */
	public static int channelsSideBySide(final ImagePlus imp) {
		final Object n = imp.getProperty(SIDE_BY_SIDE);
		return n instanceof Integer ? (Integer) n : 1;
	}

	/** The planes of one channel, slices fastest. */
	private static ImagePlus oneChannel(final ImagePlus imp, final int channel,
		final int nz, final int nt)
	{
		final ImageStack in = imp.getStack();
		final ImageStack out = new ImageStack(imp.getWidth(), imp.getHeight());
		for (int t = 1; t <= nt; t++)
			for (int z = 1; z <= nz; z++) {
				final int index = imp.getStackIndex(channel, z, t);
				final String label = in.getSliceLabel(index);
				out.addSlice(label != null && !label.trim().isEmpty() ? label : position(nz, nt,
					z, t), in.getProcessor(index));
			}
		final ImagePlus result = new ImagePlus(imp.getTitle(), out);
		result.setCalibration(imp.getCalibration().copy());
		return result;
	}

	private static String position(final int nz, final int nt, final int z, final int t) {
		if (nz > 1 && nt > 1) return "z=" + z + " t=" + t;
		return nt > 1 ? "t=" + t : "z=" + z;
	}

	/** A mask for the side-by-side layout: the mask repeated once per channel. */
	public ImagePlus mask(final ImagePlus mask) {
		if (channelsAsFeatures <= 1 || mask == null) return mask;
		final int w = mask.getWidth(), h = mask.getHeight();
		final ImageProcessor ip = mask.getProcessor().createProcessor(w * channelsAsFeatures,
			h);
		for (int c = 0; c < channelsAsFeatures; c++)
			ip.insert(mask.getProcessor(), c * w, 0);
		return new ImagePlus(mask.getTitle(), ip);
	}

	/** One line for the diagnostics: how each axis was used. */
	public String note(final String role) {
		final StringBuilder sb = new StringBuilder(role + " axes (" + mode + "): ");
		boolean first = true;
		for (final Map.Entry<String, String> e : use.entrySet()) {
			sb.append(first ? "" : ", ").append(e.getKey()).append(" → ").append(e.getValue());
			first = false;
		}
		return sb.toString();
	}
}
