package org.cpca.render;

import java.awt.image.BufferedImage;
import java.awt.image.DataBufferInt;
import java.awt.image.SinglePixelPackedSampleModel;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;

/**
 * A PNG encoder for RGB images: 8 bits per channel, no alpha, rows unfiltered (PNG's
 * filter "None") and compressed by the platform's zlib at its default level. It writes
 * the same pixels as {@code ImageIO}'s PNG writer, faster in a fresh JVM (that writer
 * tries every filter on every row in Java code the JIT has not compiled yet).
 * <p>
 * Why no filter: the figures are flat colours, lines and text, whose runs zlib finds in
 * the raw bytes; the differences a filter leaves break them up. Measured against the
 * per-row choice of "Sub" or "Up" this encoder made before (docs/speed.md, one-shot
 * runs): the eight figures of an automatic-α run on 5,000 + 5,000 × 784 images 302 KB
 * instead of 359 KB, encoded in a fresh JVM in 76–84 ms instead of 95–115 ms; a
 * kernel-cPCA run's figures 3.5 % larger, the 3× high-resolution PNGs of
 * {@code --figures all} (antialiased lines) 16 % larger, both a quarter to a third
 * faster.
 */
final class Png {

	private static final byte[] SIGNATURE = { (byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a,
		'\n' };

	private Png() {}

	/** Writes {@code image} (any type; read as RGB, alpha dropped) as PNG to {@code out}. */
	static void write(final BufferedImage image, final OutputStream out) throws IOException {
		final int w = image.getWidth(), h = image.getHeight();
		final int[] packed = packed(image);
		write(packed != null ? packed : image.getRGB(0, 0, w, h, null, 0, w), w, h, out);
	}

	/**
	 * Writes {@code w × h} pixels, packed RGB one int each row after row (the top byte,
	 * alpha, is dropped), as PNG to {@code out}; the pixels are only read.
	 */
	static void write(final int[] pixels, final int w, final int h, final OutputStream out)
		throws IOException
	{
		final DataOutputStream data = new DataOutputStream(out);
		data.write(SIGNATURE);
		final ByteArrayOutputStream header = new ByteArrayOutputStream(13);
		final DataOutputStream hd = new DataOutputStream(header);
		hd.writeInt(w);
		hd.writeInt(h);
		hd.writeByte(8); // bits per channel
		hd.writeByte(2); // truecolour
		hd.writeByte(0); // deflate
		hd.writeByte(0); // filter method 0 (one filter byte per row; here always None)
		hd.writeByte(0); // not interlaced
		chunk(data, "IHDR", header.toByteArray(), header.size());
		final ByteArrayOutputStream compressed = new ByteArrayOutputStream(w * h / 4 + 64);
		final Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION);
		try (DeflaterOutputStream z = new DeflaterOutputStream(compressed, deflater, 1 << 16)) {
			final byte[] row = new byte[1 + 3 * w]; // row[0] = 0: filter "None"
			for (int y = 0; y < h; y++) {
				// one small method per row: compiled by the JIT after a few rows, where one
				// loop over the whole image would wait for on-stack replacement
				unpack(pixels, y * w, w, row);
				z.write(row);
			}
		}
		finally {
			deflater.end();
		}
		chunk(data, "IDAT", compressed.toByteArray(), compressed.size());
		chunk(data, "IEND", new byte[0], 0);
		data.flush();
	}

	/** One row of packed RGB pixels as bytes R, G, B from index 1 of {@code raw}. */
	private static void unpack(final int[] src, final int offset, final int w,
		final byte[] raw)
	{
		for (int x = 0, j = 1; x < w; x++, j += 3) {
			final int p = src[offset + x];
			raw[j] = (byte) (p >> 16);
			raw[j + 1] = (byte) (p >> 8);
			raw[j + 2] = (byte) p;
		}
	}

	/**
	 * The pixels of an RGB image stored one int per pixel, row after row without gaps
	 * (as {@link Rgb#of} makes them), or null for other layouts.
	 */
	private static int[] packed(final BufferedImage image) {
		if (image.getType() != BufferedImage.TYPE_INT_RGB) return null;
		if (!(image.getRaster().getDataBuffer() instanceof DataBufferInt)) return null;
		if (!(image.getSampleModel() instanceof SinglePixelPackedSampleModel)) return null;
		final SinglePixelPackedSampleModel sm = (SinglePixelPackedSampleModel) image
			.getSampleModel();
		final DataBufferInt db = (DataBufferInt) image.getRaster().getDataBuffer();
		if (sm.getScanlineStride() != image.getWidth() || db.getOffset() != 0 || image
			.getRaster().getSampleModelTranslateX() != 0 || image.getRaster()
				.getSampleModelTranslateY() != 0 || db.getNumBanks() != 1) return null;
		final int[] d = db.getData();
		return d.length >= image.getWidth() * image.getHeight() ? d : null;
	}

	private static void chunk(final DataOutputStream out, final String type,
		final byte[] body, final int length) throws IOException
	{
		final byte[] t = type.getBytes(StandardCharsets.US_ASCII);
		out.writeInt(length);
		out.write(t);
		out.write(body, 0, length);
		final CRC32 crc = new CRC32();
		crc.update(t);
		crc.update(body, 0, length);
		out.writeInt((int) crc.getValue());
	}
}
