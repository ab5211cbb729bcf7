package org.cpca.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.api.java.JavaSparkContext;
import org.cpca.io.LoadedData;

/**
 * Inputs and results folders named by a URI of any file system Hadoop reads
 * ({@code hdfs://}, {@code s3a://}, {@code gs://}, {@code abfs://}, {@code file:}; see
 * docs/spark.md "Paths on HDFS, S3, …"): which inputs can come from there, and how a
 * results folder gets there — written on the driver into a local folder, copied beside
 * the destination under a hidden name, then renamed into place.
 */
final class HadoopFiles {

	private static final Pattern URI = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:(//|/).*");

	private HadoopFiles() {}

	/** Whether the text is a URI (scheme:/… or scheme://…), not a local path. */
	static boolean isUri(final String text) {
		return text != null && URI.matcher(text).matches();
	}

	/** Whether the location names a CSV or TSV table (by its extension). */
	static boolean isTable(final String location) {
		final String n = location.toLowerCase(Locale.ROOT);
		return n.endsWith(".csv") || n.endsWith(".tsv");
	}

	/** Whether the location names a TIFF (by its extension). */
	static boolean isTiff(final String location) {
		final String n = location.toLowerCase(Locale.ROOT);
		return n.endsWith(".tif") || n.endsWith(".tiff");
	}

	/**
	 * Refuses an input given as a URI that cpca-spark fit cannot read through Hadoop's
	 * FileSystem API: folders of images and image formats other than TIFF (ImageJ opens
	 * them from files) — CSV and TSV tables, TIFF stacks and Parquet tables are read from
	 * any Hadoop file system.
	 */
	static void requireReadable(final String role, final String location) {
		if (isUri(location) && !SparkParquet.isParquet(location) && !isTable(location) &&
			!isTiff(location)) throw new IllegalArgumentException("the " + role + " " +
				location + " is a URI: from hdfs://, s3a:// and other Hadoop file systems " +
				"cpca-spark fit reads CSV and TSV tables (*.csv, *.tsv), TIFF stacks (*.tif, " +
				"*.tiff) and Parquet tables (*.parquet); give folders of images and other " +
				"image files as paths on a file system that the driver and every executor mount");
	}

	/**
	 * A table named by a URI, opened on the driver through Hadoop's FileSystem API with
	 * the checks, facts and messages of a local table ({@link LoadedData#streamTable});
	 * the executors read its lines through the same API ({@code textFile}).
	 */
	static LoadedData openTable(final JavaSparkContext sc, final String role,
		final String uri, final Path path, final LoadedData.Reading how)
		throws IOException
	{
		final org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(uri);
		final FileSystem fs = p.getFileSystem(sc.hadoopConfiguration());
		if (!fs.exists(p)) throw new IllegalArgumentException(role + " " + uri +
			" does not exist: check the path");
		if (fs.getFileStatus(p).isDirectory()) throw new IllegalArgumentException(role + " " +
			uri + " is a folder: give the table's file (a folder of CSV tables is not read; " +
			"Parquet part files are, as *.parquet)");
		return LoadedData.streamTable(role, path, uri, () -> fs.open(p), how);
	}

	/** Refuses a URI for a file the driver reads itself (--labels, --mask). */
	static void requireLocal(final String option, final String text) {
		if (isUri(text)) throw new IllegalArgumentException(option + " " + text + " is a URI: " +
			"give it as a path on a file system the driver reads (the driver reads it itself)");
	}

	/**
	 * Refuses a results folder URI that exists and is not empty (results are never written
	 * over there).
	 */
	static void requireNewFolder(final JavaSparkContext sc, final String uri)
		throws IOException
	{
		final org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(uri);
		final FileSystem fs = p.getFileSystem(sc.hadoopConfiguration());
		if (!fs.exists(p)) return;
		final FileStatus s = fs.getFileStatus(p);
		if (!s.isDirectory() || fs.listStatus(p).length > 0) throw new IllegalArgumentException(
			"--out " + uri + " exists and is not an empty folder: give a new folder (on " +
				p.toUri().getScheme() + ": file systems results are never written over)");
	}

	/**
	 * Copies the results folder {@code local} to {@code uri}: under a hidden name beside it
	 * first, then renamed (one step on HDFS; object stores such as S3 copy on rename, so
	 * there the folder appears file by file).
	 */
	static void publish(final JavaSparkContext sc, final Path local, final String uri)
		throws IOException
	{
		requireNewFolder(sc, uri);
		final org.apache.hadoop.fs.Path dest = new org.apache.hadoop.fs.Path(uri);
		final FileSystem fs = dest.getFileSystem(sc.hadoopConfiguration());
		fs.setWriteChecksum(false); // no .crc files beside the results on file: URIs
		final org.apache.hadoop.fs.Path staging = new org.apache.hadoop.fs.Path(dest
			.getParent(), "." + dest.getName() + ".partial-" + UUID.randomUUID());
		try {
			fs.copyFromLocalFile(false, false, new org.apache.hadoop.fs.Path(local.toUri()),
				staging);
			if (fs.exists(dest) && fs.listStatus(dest).length == 0) fs.delete(dest, false);
			if (!fs.rename(staging, dest)) throw new IOException("could not rename " + staging +
				" to " + dest);
		}
		finally {
			if (fs.exists(staging)) fs.delete(staging, true);
		}
	}

	/** Deletes a local folder and everything in it (the driver's staging copy). */
	static void deleteLocal(final Path dir) throws IOException {
		if (dir == null || !Files.exists(dir)) return;
		try (Stream<Path> s = Files.walk(dir)) {
			for (final Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator)
				Files.delete(p);
		}
	}
}
