package org.cpca.image;

import ij.IJ;
import ij.ImagePlus;
import ij.ImageStack;
import ij.LookUpTable;
import ij.io.FileInfo;
import ij.plugin.frame.Recorder;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * An uncompressed grey TIFF stack with one header for all its slices (as ImageJ, Fiji
 * and tifffile's ImageJ mode write stacks) read into memory in bulk: the pixels of many
 * slices per positioned read, copied in one call per slice into the slice's own array
 * (no ImageJ reader or processor per slice). ImageJ opens the file's header and its
 * first slice as a virtual stack (title, calibration, dimensions, the "Info" property:
 * ImageJ's own decoding), and the slices read here replace the virtual ones, labelled as
 * ImageJ labels them. The values are exactly those ImageJ's reader gives (8-bit and
 * 16-bit unsigned as stored, 32-bit float bit for bit, in the file's byte order, a gap
 * between images skipped as ImageJ skips it; no calibration applied): compared on files
 * of each type in TiffStackTest. A one-shot fit read its two stacks of 5,000 slices of
 * 28 × 28 floats in 0.08 s instead of ImageJ's 0.17–0.22 s (docs/speed.md, one-shot
 * runs).
 * <p>
 * Anything else (several headers, channels, a colour table, a selection or overlay in
 * the file, compression, other pixel types), and any file while ImageJ's macro recorder
 * runs, is left to ImageJ: {@link #open} returns {@code null}.
 */
final class TiffStack {

	/** Bytes per positioned read (several slices at once when they are small). */
	private static final int CHUNK = 1 << 22;

	private TiffStack() {}

	/**
	 * The stack of {@code file} (checked by {@link TiffCheck}: its header describes image
	 * data inside the file) read in bulk, or {@code null} when the file is not such a
	 * stack.
	 *
	 * @throws IllegalArgumentException if the file ends before its last slice (it was
	 *           truncated after it was checked)
	 */
	static ImagePlus open(final Path file, final TiffCheck check) {
		final FileInfo fi = handled(check.info);
		// ImageJ's virtual opening records the path while a recorded macro runs (Fiji)
		if (fi == null || Recorder.record) return null;
		IJ.redirectErrorMessages();
		final ImagePlus imp = ImageInput.virtualQuietly(file.toAbsolutePath().toString());
		if (imp == null || imp.isComposite() || imp.getNChannels() > 1 || imp
			.getStackSize() != fi.nImages || imp.getBitDepth() != bitDepth(fi)) return null;
		final Object[] pixels;
		try {
			pixels = read(file, fi);
		}
		catch (final IOException e) {
			throw new IllegalArgumentException("cannot read " + file + " (" + e.getMessage() +
				"): copy or export the file again");
		}
		final ImageStack stack = new ImageStack(fi.width, fi.height, LookUpTable
			.createGrayscaleColorModel(false));
		for (final Object p : pixels)
			stack.addSlice(null, p);
		if (fi.sliceLabels != null && fi.sliceLabels.length <= pixels.length)
			for (int i = 0; i < fi.sliceLabels.length; i++)
				stack.setSliceLabel(fi.sliceLabels[i], i + 1);
		final double min = imp.getDisplayRangeMin(), max = imp.getDisplayRangeMax();
		imp.setStack(stack);
		imp.setDisplayRange(min, max);
		return imp;
	}

	/** The header of a stack read here, or {@code null}. */
	static FileInfo handled(final FileInfo[] info) {
		if (info == null || info.length != 1) return null;
		final FileInfo fi = info[0];
		final long sliceBytes = (long) fi.width * fi.height * fi.getBytesPerPixel();
		final boolean gz = fi.fileName == null || fi.fileName.toLowerCase(Locale.ROOT)
			.endsWith(".gz");
		return fi.nImages > 1 && TiffRows.readable(fi, fi) && fi.lutSize == 0 &&
			fi.roi == null && fi.overlay == null && fi.inputStream == null && (fi.url ==
				null || fi.url.isEmpty()) && !gz && fi.getGap() >= 0 && sliceBytes > 0 &&
			sliceBytes <= Integer.MAX_VALUE - 8 ? fi : null;
	}

	private static int bitDepth(final FileInfo fi) {
		return fi.fileType == FileInfo.GRAY8 ? 8 : fi.fileType == FileInfo.GRAY16_UNSIGNED
			? 16 : 32;
	}

	/**
	 * The slices' pixel arrays (byte[], short[] or float[] as ImageJ holds them), read
	 * from the offset of the first image, slice after slice, the gap between them skipped.
	 */
	static Object[] read(final Path file, final FileInfo fi) throws IOException {
		final int n = fi.nImages, count = fi.width * fi.height, bpp = fi.getBytesPerPixel();
		final long slice = (long) count * bpp, stride = slice + fi.getGap();
		final ByteOrder order = fi.intelByteOrder ? ByteOrder.LITTLE_ENDIAN
			: ByteOrder.BIG_ENDIAN;
		// whole slices per read while they are small, else one slice in pieces
		final int perRead = (int) Math.max(1, Math.min(n, CHUNK / stride));
		final ByteBuffer buffer = ByteBuffer.allocateDirect(perRead > 1 ? (int) ((perRead -
			1) * stride + slice) : (int) Math.min(slice, CHUNK / bpp * bpp)).order(order);
		final Object[] out = new Object[n];
		try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
			for (int first = 0; first < n; first += perRead) {
				final int k = Math.min(perRead, n - first);
				for (int i = first; i < first + k; i++)
					out[i] = fi.fileType == FileInfo.GRAY8 ? new byte[count]
						: fi.fileType == FileInfo.GRAY16_UNSIGNED ? new short[count]
							: new float[count];
				final long start = fi.getOffset() + first * stride;
				if (k > 1 || slice <= buffer.capacity()) {
					fill(channel, buffer, start, (int) ((k - 1) * stride + slice), first, stride);
					for (int j = 0; j < k; j++)
						copy(buffer, (int) (j * stride), out[first + j], 0, count);
				}
				else for (int done = 0; done < count;) { // one large slice in pieces
					final int pixels = Math.min(count - done, buffer.capacity() / bpp);
					fill(channel, buffer, start + (long) done * bpp, pixels * bpp, first, stride);
					copy(buffer, 0, out[first], done, pixels);
					done += pixels;
				}
			}
		}
		return out;
	}

	/**
	 * Reads {@code bytes} bytes from {@code position} (in slice {@code slice}, slices
	 * {@code stride} bytes apart) into the buffer's start.
	 */
	private static void fill(final FileChannel channel, final ByteBuffer buffer,
		final long position, final int bytes, final int slice, final long stride)
		throws IOException
	{
		buffer.clear().limit(bytes);
		while (buffer.hasRemaining()) {
			if (channel.read(buffer, position + buffer.position()) < 0) throw new IOException(
				"the file ends inside image " + (slice + 1 + buffer.position() / stride) +
					": it is truncated");
		}
	}

	/** {@code pixels} pixels from byte {@code from} of the buffer into {@code to[at…]}. */
	private static void copy(final ByteBuffer buffer, final int from, final Object to,
		final int at, final int pixels)
	{
		final ByteBuffer b = buffer.duplicate().order(buffer.order());
		b.limit(buffer.limit()).position(from);
		if (to instanceof byte[]) b.get((byte[]) to, at, pixels);
		else if (to instanceof short[]) b.asShortBuffer().get((short[]) to, at, pixels);
		else b.asFloatBuffer().get((float[]) to, at, pixels);
	}
}
