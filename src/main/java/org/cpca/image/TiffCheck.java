package org.cpca.image;

import ij.io.FileInfo;
import ij.io.TiffDecoder;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.cpca.core.Memory;

/**
 * What a TIFF's header claims, checked against the file before any pixel is read: the
 * image data the header describes must lie inside the file (a truncated file or a header
 * claiming more than the file holds is refused at once, without allocating), and the
 * pixels must fit in memory when read whole. After opening, the number of slices ImageJ
 * read is checked against the header ({@link #requireSlices}), so a file is read
 * completely or refused. See docs/bad-inputs.md.
 */
public final class TiffCheck {

	/** Slices the header describes (all IFDs, or ImageJ's nImages). */
	public final int slices;
	/** Width and height of the first image. */
	public final int width, height;
	/** Bytes per pixel as stored (8 for a 64-bit float TIFF). */
	public final int bytesPerPixel;
	/** Bytes the pixels take when read as ImageJ images (64-bit floats become 32-bit). */
	public final long pixelBytes;
	/** Whether the file stores 64-bit floats (ImageJ reads them as 32-bit). */
	public final boolean doubles;
	/** The header as ImageJ decoded it (for {@link TiffStack}). */
	final FileInfo[] info;

	private TiffCheck(final int slices, final int width, final int height,
		final int bytesPerPixel, final long pixelBytes, final boolean doubles,
		final FileInfo[] info)
	{
		this.info = info;
		this.slices = slices;
		this.width = width;
		this.height = height;
		this.bytesPerPixel = bytesPerPixel;
		this.pixelBytes = pixelBytes;
		this.doubles = doubles;
	}

	/**
	 * Reads the header of a TIFF (the file is not modified, no pixel is read).
	 *
	 * @throws IllegalArgumentException if the header cannot be read, or it describes
	 *           image data beyond the end of the file (truncated or corrupt)
	 */
	public static TiffCheck of(final Path file) {
		return of(file, () -> {
			final Path dir = file.toAbsolutePath().getParent();
			return new TiffDecoder(dir + File.separator, file.getFileName()
				.toString()).getTiffInfo();
		}, () -> Files.size(file));
	}

	/** Reads a TIFF header. */
	public interface Header {

		FileInfo[] read() throws IOException;
	}

	/** The length of a file. */
	public interface Size {

		long bytes() throws IOException;
	}

	/**
	 * {@link #of(Path)} of a TIFF read elsewhere (e.g. from a Hadoop file system,
	 * docs/spark.md): the same checks and messages, naming the file {@code file}.
	 */
	public static TiffCheck of(final Object file, final Header header, final Size length) {
		final FileInfo[] info;
		final long size;
		try {
			size = length.bytes();
			info = header.read();
		}
		catch (final IOException | RuntimeException e) {
			if (String.valueOf(e.getMessage()).contains("BitsPerSample: 64"))
				throw new IllegalArgumentException(file + " stores 64-bit floating-point " +
					"pixels, which ImageJ cannot read: save it as a 32-bit float TIFF (e.g. " +
					"numpy's astype('float32') before writing)");
			throw new IllegalArgumentException("cannot read " + file + " as a TIFF (" + e
				.getMessage() + "): the file is damaged or not a TIFF; export it again");
		}
		if (info == null || info.length == 0) throw new IllegalArgumentException(
			"cannot read " + file + " as a TIFF (no image in its header): the file is " +
				"damaged or not a TIFF; export it again");
		long slices = 0, pixelBytes = 0;
		for (final FileInfo fi : info) {
			final int n = Math.max(1, fi.nImages);
			final int bpp = Math.max(1, fi.getBytesPerPixel());
			if (fi.width <= 0 || fi.height <= 0) throw new IllegalArgumentException(file +
				" has a TIFF header with size " + fi.width + "×" + fi.height +
				": the file is damaged; export it again");
			final long plane = Memory.times(Memory.times(fi.width, fi.height), bpp);
			// ImageJ reads uncompressed pixels as one block from the offset
			final boolean checkable = fi.compression <= FileInfo.COMPRESSION_NONE &&
				fi.fileType != FileInfo.BITMAP && fi.fileType != FileInfo.GRAY12_UNSIGNED;
			if (checkable) {
				final long end = fi.getOffset() + Memory.times(n, plane) + Memory.times(n - 1L,
					Math.max(0, fi.getGap()));
				if (end > size || end < 0) throw new IllegalArgumentException(file +
					" is truncated or damaged: its header describes " + n + " image" + (n == 1 ? ""
						: "s") + " of " + fi.width + "×" + fi.height + " pixels × " + bpp +
					(bpp == 1 ? " byte (" : " bytes (") + Memory.text(end) + ") but the file has " + Memory.text(size) +
					"; copy or export the file again");
			}
			// ImageJ stacks the images of the first one's size and type (a thumbnail or a
			// pyramid level of another size is not part of the stack)
			if (fi.width != info[0].width || fi.height != info[0].height ||
				fi.fileType != info[0].fileType) continue;
			slices += n;
			pixelBytes = Memory.times(1, pixelBytes + Memory.times(n, Memory.times(Memory
				.times(fi.width, fi.height), fi.fileType == FileInfo.GRAY64_FLOAT ? 4 : bpp)));
			if (slices > Integer.MAX_VALUE) throw new IllegalArgumentException(file +
				" claims more than " + Integer.MAX_VALUE + " images: the file is damaged");
		}
		final FileInfo first = info[0];
		return new TiffCheck((int) slices, first.width, first.height, first
			.getBytesPerPixel(), pixelBytes < 0 ? Long.MAX_VALUE : pixelBytes,
			first.fileType == FileInfo.GRAY64_FLOAT, info);
	}

	/**
	 * @throws IllegalArgumentException if ImageJ read fewer slices than the header
	 *           describes (more is fine: samples of an RGB48 image become channels)
	 */
	public void requireSlices(final Object file, final int read) {
		if (read < slices) throw new IllegalArgumentException(file + " could be read only " +
			"in part: its header describes " + slices + " images but " + read +
			" were read (the file is truncated or damaged); copy or export the file again");
	}

	/**
	 * @throws IllegalArgumentException if reading every pixel would not fit in memory
	 */
	public void requireMemory(final Path file, final String role) {
		Memory.require("reading " + role + " " + file + " (" + slices + " images of " + width +
			"×" + height + ")", pixelBytes, "use --method online (reads slice by slice), " +
				"or crop or bin the images first");
	}
}
