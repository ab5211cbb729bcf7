package org.cpca.image;

import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import ij.io.FileInfo;
import ij.io.TiffDecoder;

/**
 * Runs of pixels of the slices of an uncompressed TIFF stack, read by positioned reads
 * of just their bytes (8-bit, 16-bit unsigned and 32-bit float grey images, each slice's
 * pixels contiguous): what a pass by feature tiles asks of a stack on disk
 * (docs/memory.md), also through a mask or binning (just the pixels or image rows a
 * range of features lies in). The values are those ImageJ reads for the slice. Counts the
 * bytes it reads.
 */
final class TiffRows implements Closeable {

	private final Path file;
	private final long[] offsets;
	private final int bytesPerPixel, type, pixels;
	private final ByteOrder order;
	private FileChannel channel;
	private ByteBuffer buffer;
	private long bytesRead;

	private TiffRows(final Path file, final long[] offsets, final FileInfo fi) {
		this.file = file;
		this.offsets = offsets;
		this.type = fi.fileType;
		this.bytesPerPixel = fi.getBytesPerPixel();
		this.pixels = fi.width * fi.height;
		this.order = fi.intelByteOrder ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
	}

	/**
	 * The rows of {@code file} if it is an uncompressed grey TIFF of {@code slices} slices of
	 * width × height whose pixels this class reads as ImageJ does; {@code null} otherwise
	 * (the caller then reads whole slices).
	 */
	static TiffRows of(final Path file, final int slices, final int width,
		final int height)
	{
		final FileInfo[] info;
		try {
			final File f = file.toFile();
			info = new TiffDecoder(f.getParent() == null ? "" : f.getParent() + File.separator,
				f.getName()).getTiffInfo();
		}
		catch (final IOException | RuntimeException e) {
			return null;
		}
		if (info == null || info.length == 0) return null;
		final long[] offsets = new long[slices];
		if (info.length == 1 && info[0].nImages == slices) {
			final FileInfo fi = info[0];
			final long size = (long) fi.width * fi.height * fi.getBytesPerPixel() +
				fi.getGap();
			for (int i = 0; i < slices; i++)
				offsets[i] = fi.getOffset() + i * size;
		}
		else if (info.length == slices) {
			for (int i = 0; i < slices; i++) {
				if (!readable(info[i], info[0])) return null;
				offsets[i] = info[i].getOffset();
			}
		}
		else return null;
		final FileInfo fi = info[0];
		if (!readable(fi, fi) || fi.width != width || fi.height != height) return null;
		return new TiffRows(file, offsets, fi);
	}

	/** Uncompressed, contiguous, of a grey type read here, like the first slice. */
	static boolean readable(final FileInfo fi, final FileInfo first) {
		if (fi.compression > FileInfo.COMPRESSION_NONE || fi.whiteIsZero) return false;
		if (fi.fileType != first.fileType || fi.width != first.width || fi.height != first
			.height || fi.intelByteOrder != first.intelByteOrder) return false;
		if (fi.fileType != FileInfo.GRAY8 && fi.fileType != FileInfo.GRAY16_UNSIGNED &&
			fi.fileType != FileInfo.GRAY32_FLOAT) return false;
		if (fi.stripOffsets != null && fi.stripOffsets.length > 1) for (int s = 1; s <
			fi.stripOffsets.length; s++)
			if (fi.stripLengths == null || fi.stripOffsets[s] != fi.stripOffsets[s - 1] +
				fi.stripLengths[s - 1]) return false;
		return true;
	}

	/** Pixels {@code from … to − 1} (row-major) of slice {@code index} (0-based) into {@code into}. */
	void read(final int index, final int from, final int to, final float[] into)
		throws IOException
	{
		if (channel == null) channel = FileChannel.open(file, StandardOpenOption.READ);
		final int bytes = (to - from) * bytesPerPixel;
		if (buffer == null || buffer.capacity() < bytes) buffer = ByteBuffer.allocateDirect(
			bytes).order(order);
		buffer.clear().limit(bytes);
		long position = offsets[index] + (long) from * bytesPerPixel;
		while (buffer.hasRemaining()) {
			final int n = channel.read(buffer, position);
			if (n < 0) throw new IOException(file + " ends inside slice " + (index + 1) +
				": the file is truncated");
			position += n;
		}
		bytesRead += bytes;
		buffer.flip();
		final int count = to - from;
		if (type == FileInfo.GRAY8) for (int p = 0; p < count; p++)
			into[p] = buffer.get(p) & 0xff;
		else if (type == FileInfo.GRAY16_UNSIGNED) for (int p = 0; p < count; p++)
			into[p] = buffer.getShort(2 * p) & 0xffff;
		else buffer.asFloatBuffer().get(into, 0, count); // one bulk copy in the file's order
	}

	/** Pixels of the rows a masked or binned range needs, reused from call to call. */
	private float[] pixelsOfRows = new float[0];

	/**
	 * Features {@code from … to − 1} of slice {@code index} under a layout with a mask or
	 * binning: only the pixels from the first to the last of the features' pixels are read
	 * (the whole image rows of their bin × bin blocks when binned), and the blocks
	 * averaged in the order and precision of {@link Binning#average} (sums in double,
	 * row by row), so the values are those of {@link FeatureLayout#extract}.
	 */
	void read(final int index, final FeatureLayout layout, final int from, final int to,
		final float[] into) throws IOException
	{
		final int bin = layout.bin(), width = layout.width();
		final int first = layout.pixelIndex(from), last = layout.pixelIndex(to - 1);
		if (bin == 1) {
			final float[] px = pixels(last - first + 1);
			read(index, first, last + 1, px);
			for (int j = from; j < to; j++)
				into[j - from] = px[layout.pixelIndex(j) - first];
			return;
		}
		final int bw = layout.binnedWidth(), row0 = first / bw, rows = last / bw - row0 + 1;
		final float[] px = pixels(rows * bin * width);
		read(index, row0 * bin * width, (row0 + rows) * bin * width, px);
		final double[] sums = new double[rows * bw];
		for (int y = 0; y < rows * bin; y++) {
			final int base = y / bin * bw, offset = y * width;
			for (int x = 0; x < bw * bin; x++)
				sums[base + x / bin] += px[offset + x];
		}
		final double area = (double) bin * bin;
		for (int j = from; j < to; j++)
			into[j - from] = (float) (sums[layout.pixelIndex(j) - row0 * bw] / area);
	}

	private float[] pixels(final int count) {
		if (pixelsOfRows.length < count) pixelsOfRows = new float[count];
		return pixelsOfRows;
	}

	/** Pixels of one slice. */
	int pixels() {
		return pixels;
	}

	/** Bytes read so far. */
	long bytesRead() {
		return bytesRead;
	}

	@Override
	public void close() throws IOException {
		if (channel != null) channel.close();
		channel = null;
	}
}
