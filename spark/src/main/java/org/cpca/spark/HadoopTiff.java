package org.cpca.spark;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.cpca.image.TiffCheck;

import ij.ImagePlus;
import ij.VirtualStack;
import ij.io.FileInfo;
import ij.io.ImageReader;
import ij.io.TiffDecoder;
import ij.process.ByteProcessor;
import ij.process.FloatProcessor;
import ij.process.ImageProcessor;
import ij.process.ShortProcessor;

/**
 * A TIFF stack on a Hadoop file system ({@code hdfs://}, {@code s3a://}, …; docs/spark.md
 * "Paths on HDFS, S3, …") as an ImageJ virtual stack: the header is read through Hadoop's
 * FileSystem API and checked as the command line checks a local TIFF
 * ({@link TiffCheck}); each slice is one positioned read of its bytes, decoded by ImageJ's
 * own {@link ImageReader}. So the driver opens it to check it and the executors open it
 * to read their slice ranges, without a shared mount. Uncompressed 8-, 16- and 32-bit
 * grayscale stacks with one channel (what ImageJ and most instruments write); anything
 * else is refused with one line.
 */
final class HadoopTiff {

	private HadoopTiff() {}

	/**
	 * Opens the stack at {@code uri}.
	 *
	 * @throws IllegalArgumentException with cpca fit's message for a missing, truncated or
	 *           damaged file, and one line for a TIFF this reader does not take
	 */
	static ImagePlus open(final Configuration conf, final String role, final String uri)
		throws IOException
	{
		final Path p = new Path(uri);
		final FileSystem fs = p.getFileSystem(conf);
		if (!fs.exists(p)) throw new IllegalArgumentException(role + " " + uri +
			" does not exist: check the path");
		if (fs.getFileStatus(p).isDirectory()) throw new IllegalArgumentException(role + " " +
			uri + " is a folder: folders of images are read from paths that the driver and " +
			"every executor mount; from a URI give one TIFF stack");
		final FileInfo[][] header = new FileInfo[1][];
		final TiffCheck check = TiffCheck.of(uri, () -> {
			try (FSDataInputStream in = fs.open(p)) {
				return header[0] = new TiffDecoder(in, p.getName()).getTiffInfo();
			}
		}, () -> fs.getFileStatus(p).getLen());
		final FileInfo first = header[0][0];
		if (first.compression > FileInfo.COMPRESSION_NONE || first.fileType != FileInfo.GRAY8 &&
			first.fileType != FileInfo.GRAY16_UNSIGNED && first.fileType != FileInfo.GRAY16_SIGNED &&
			first.fileType != FileInfo.GRAY32_FLOAT) throw new IllegalArgumentException(role +
				" " + uri + " is a compressed or non-grayscale TIFF: from a URI cpca-spark fit " +
				"reads uncompressed 8-, 16- and 32-bit grayscale stacks; save it so, or give it " +
				"as a path on a file system that the driver and every executor mount");
		final String description = first.description == null ? "" : first.description;
		if (description.matches("(?s).*\\bchannels=([2-9]|\\d\\d+).*"))
			throw new IllegalArgumentException(role + " " + uri + " has several channels: " +
				"from a URI cpca-spark fit reads single-channel stacks; give it as a path on a " +
				"file system that the driver and every executor mount");
		// the images of the first one's size and type, in order (as ImageJ stacks them)
		final List<Long> offsets = new ArrayList<>();
		final List<String> labels = new ArrayList<>();
		final long plane = (long) first.width * first.height * first.getBytesPerPixel();
		for (final FileInfo fi : header[0]) {
			if (fi.width != first.width || fi.height != first.height || fi.fileType !=
				first.fileType) continue;
			final int n = Math.max(1, fi.nImages);
			for (int i = 0; i < n; i++) {
				offsets.add(fi.getOffset() + i * (plane + Math.max(0, fi.getGap())));
				labels.add(fi.sliceLabels != null && i < fi.sliceLabels.length ? fi.sliceLabels[i]
					: null);
			}
		}
		final Stack stack = new Stack(fs, p, first, offsets, labels);
		check.requireSlices(uri, stack.getSize());
		final ImagePlus imp = new ImagePlus(p.getName(), stack);
		return imp;
	}

	/** The slices, each read when asked for. */
	private static final class Stack extends VirtualStack {

		private final FileSystem fs;
		private final Path path;
		private final FileInfo info;
		private final long[] offsets;
		private final String[] labels;
		private FSDataInputStream in;

		Stack(final FileSystem fs, final Path path, final FileInfo info,
			final List<Long> offsets, final List<String> labels)
		{
			super(info.width, info.height);
			this.fs = fs;
			this.path = path;
			this.info = (FileInfo) info.clone();
			this.info.nImages = 1;
			this.offsets = new long[offsets.size()];
			for (int i = 0; i < this.offsets.length; i++)
				this.offsets[i] = offsets.get(i);
			this.labels = labels.toArray(new String[0]);
		}

		@Override
		public int getSize() {
			return offsets.length;
		}

		@Override
		public String getSliceLabel(final int n) {
			return labels[n - 1];
		}

		@Override
		public synchronized ImageProcessor getProcessor(final int n) {
			final int w = info.width, h = info.height;
			final byte[] bytes = new byte[w * h * info.getBytesPerPixel()];
			try {
				if (in == null) in = fs.open(path);
				in.readFully(offsets[n - 1], bytes);
			}
			catch (final IOException e) {
				throw new UncheckedIOException("reading slice " + n + " of " + path + ": " + e
					.getMessage(), e);
			}
			final FileInfo fi = (FileInfo) info.clone();
			fi.offset = 0;
			fi.longOffset = 0;
			final Object pixels = new ImageReader(fi).readPixels(new ByteArrayInputStream(
				bytes));
			if (pixels instanceof byte[]) return new ByteProcessor(w, h, (byte[]) pixels);
			if (pixels instanceof short[]) return new ShortProcessor(w, h, (short[]) pixels,
				null);
			return new FloatProcessor(w, h, (float[]) pixels);
		}

		@Override
		public Object getPixels(final int n) {
			return getProcessor(n).getPixels();
		}

		@Override
		public int getBitDepth() {
			return info.getBytesPerPixel() * 8;
		}
	}
}
