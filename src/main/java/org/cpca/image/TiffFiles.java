package org.cpca.image;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Comparator;

import ij.ImagePlus;
import ij.Prefs;
import ij.io.FileSaver;

import org.cpca.core.AtomicFiles;

/** Saves images as ImageJ TIFF files, atomically, without touching the image. */
public final class TiffFiles {

	private TiffFiles() {}

	/**
	 * Saves a single image or a stack (with its slice labels) as an ImageJ TIFF. A wrapper
	 * is saved, because {@link FileSaver} renames the image it saves after the file.
	 *
	 * @throws IOException if the file cannot be written
	 */
	public static void save(final ImagePlus imp, final Path file) throws IOException {
		AtomicFiles.write(file, tmp -> {
			final ImagePlus copy = new ImagePlus(imp.getTitle(), imp.getStack());
			copy.setCalibration(imp.getCalibration());
			copy.getProcessor().setLut(imp.getProcessor().getLut()); // saved with the file
			copy.setDisplayRange(imp.getDisplayRangeMin(), imp.getDisplayRangeMax());
			if (!littleEndian(copy, tmp)) throw new IOException("could not write " + file);
			sortTags(tmp);
		});
	}

	/**
	 * Saves in Intel (little-endian) byte order whatever ImageJ's I/O option says:
	 * {@link FileSaver} takes the order from the global {@link Prefs#intelByteOrder}, which
	 * loading ImageJ's preferences changes, and the same image must give the same bytes
	 * (the bundled test images regenerate byte for byte). The option is restored after.
	 */
	private static boolean littleEndian(final ImagePlus imp, final Path file) {
		synchronized (TiffFiles.class) {
			final boolean option = Prefs.intelByteOrder;
			Prefs.intelByteOrder = true;
			try {
				final FileSaver saver = new FileSaver(imp);
				return imp.getStackSize() > 1 ? saver.saveAsTiffStack(file.toString()) : saver
					.saveAsTiff(file.toString());
			}
			finally {
				Prefs.intelByteOrder = option;
			}
		}
	}

	/**
	 * Puts the entries of every image directory of a TIFF file in ascending tag order, as
	 * the TIFF specification asks (ImageJ writes SampleFormat, 339, before ColorMap, 320,
	 * and libtiff warns about it). Entries are moved whole; nothing else changes.
	 */
	static void sortTags(final Path file) throws IOException {
		try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ,
			StandardOpenOption.WRITE))
		{
			final ByteBuffer header = read(ch, 0, 8, ByteOrder.BIG_ENDIAN);
			final ByteOrder order = header.get(0) == 'I' ? ByteOrder.LITTLE_ENDIAN
				: ByteOrder.BIG_ENDIAN;
			long at = header.order(order).getInt(4) & 0xffffffffL;
			for (int ifds = 0; at != 0 && ifds < 1_000_000; ifds++) {
				final int n = read(ch, at, 2, order).getShort(0) & 0xffff;
				final ByteBuffer entries = read(ch, at + 2, 12 * n + 4, order);
				final Integer[] index = new Integer[n];
				for (int i = 0; i < n; i++)
					index[i] = i;
				Arrays.sort(index, Comparator.comparingInt(i -> entries
					.getShort(12 * i) & 0xffff));
				final ByteBuffer sorted = ByteBuffer.allocate(12 * n);
				for (final int i : index)
					sorted.put(entries.array(), 12 * i, 12);
				sorted.flip();
				ch.write(sorted, at + 2);
				at = entries.getInt(12 * n) & 0xffffffffL;
			}
		}
	}

	private static ByteBuffer read(final FileChannel ch, final long at, final int bytes,
		final ByteOrder order) throws IOException
	{
		final ByteBuffer b = ByteBuffer.allocate(bytes).order(order);
		while (b.hasRemaining())
			if (ch.read(b, at + b.position()) < 0) throw new IOException(
				"a TIFF file ends inside an image directory");
		return b;
	}
}
