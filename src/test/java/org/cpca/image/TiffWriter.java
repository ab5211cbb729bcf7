package org.cpca.image;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes small uncompressed grey TIFF stacks byte by byte, in layouts ImageJ's own writer
 * does not make (for TiffStackTest): either byte order, one IFD per image placed in the
 * gap after the previous image (so images are not adjacent) or after the last image,
 * several strips per image (in order or reversed), an ImageJ description naming the number
 * of images.
 */
final class TiffWriter {

	private TiffWriter() {}

	/**
	 * Writes {@code slices} (each {@code w × h × bits/8} bytes, in the file's byte order)
	 * as one stack: image i at {@code start + i × (slice bytes + gap)}, IFD i (i ≥ 1) at
	 * the start of the gap before image i when the gap holds one, else after the last
	 * image; IFD 0 after the header.
	 *
	 * @param sampleFormat 1 unsigned integer, 3 float
	 * @param rowsPerStrip rows per strip (adjacent strips of an image; h a multiple of it
	 *          when {@code reversed})
	 * @param reversed the strips stored last first (ImageJ flips such an image)
	 * @param gap bytes between images
	 */
	static void write(final Path file, final ByteOrder order, final int bits,
		final int sampleFormat, final int w, final int h, final byte[][] slices,
		final int rowsPerStrip, final boolean reversed, final int gap,
		final String description)
		throws IOException
	{
		final int n = slices.length, bytes = w * h * bits / 8;
		final int strips = (h + rowsPerStrip - 1) / rowsPerStrip;
		final byte[] desc = (description + "\0").getBytes(StandardCharsets.US_ASCII);
		final int tags = 11, ifd = 2 + tags * 12 + 4 + 8 * strips; // with the strip arrays
		final boolean inGap = gap >= ifd;
		final int start = 8 + ifd + desc.length, end = start + n * (bytes + gap);
		final ByteBuffer b = ByteBuffer.allocate(end + (inGap ? 0 : (n - 1) * ifd)).order(
			order);
		b.put(order == ByteOrder.LITTLE_ENDIAN ? (byte) 'I' : (byte) 'M');
		b.put(order == ByteOrder.LITTLE_ENDIAN ? (byte) 'I' : (byte) 'M');
		b.putShort((short) 42).putInt(8);
		for (int i = 0; i < n; i++) {
			final int at = ifdAt(i, start, end, bytes, gap, ifd, inGap);
			final int image = start + i * (bytes + gap);
			final int next = i + 1 < n ? ifdAt(i + 1, start, end, bytes, gap, ifd, inGap) : 0;
			final int arrays = at + 2 + tags * 12 + 4;
			b.position(at);
			b.putShort((short) tags);
			entry(b, 256, 4, 1, w);
			entry(b, 257, 4, 1, h);
			entry(b, 258, 3, 1, bits);
			entry(b, 259, 3, 1, 1);
			entry(b, 262, 3, 1, 1);
			entry(b, 270, 2, i == 0 ? desc.length : 1, i == 0 ? 8 + ifd : 0);
			entry(b, 273, 4, strips, strips == 1 ? image : arrays);
			entry(b, 277, 3, 1, 1);
			entry(b, 278, 4, 1, rowsPerStrip);
			entry(b, 279, 4, strips, strips == 1 ? bytes : arrays + 4 * strips);
			entry(b, 339, 3, 1, sampleFormat);
			b.putInt(next);
			for (int s = 0; s < strips; s++)
				b.putInt(image + (reversed ? strips - 1 - s : s) * rowsPerStrip * w * bits / 8);
			for (int s = 0; s < strips; s++)
				b.putInt(Math.min(rowsPerStrip, h - s * rowsPerStrip) * w * bits / 8);
			if (i == 0) b.put(desc);
			b.position(image);
			if (!reversed) b.put(slices[i]);
			else for (int s = 0; s < strips; s++) { // strip s at place strips − 1 − s
				final int size = rowsPerStrip * w * bits / 8;
				b.position(image + (strips - 1 - s) * size);
				b.put(slices[i], s * size, size);
			}
		}
		Files.write(file, b.array());
	}

	private static int ifdAt(final int i, final int start, final int end,
		final int bytes, final int gap, final int ifd, final boolean inGap)
	{
		return i == 0 ? 8 : inGap ? start + i * (bytes + gap) - gap : end + (i - 1) * ifd;
	}

	/** One IFD entry: a SHORT value goes in the first two bytes of the value field. */
	private static void entry(final ByteBuffer b, final int tag, final int type,
		final int count, final int value)
	{
		b.putShort((short) tag).putShort((short) type).putInt(count);
		if (type == 3 && count == 1) b.putShort((short) value).putShort((short) 0);
		else b.putInt(value);
	}
}
