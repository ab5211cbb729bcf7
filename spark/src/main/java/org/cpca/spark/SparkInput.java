package org.cpca.spark;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CancellationException;

import org.apache.hadoop.conf.Configuration;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.SerializableConfiguration;
import org.cpca.core.data.SampleSource;
import org.cpca.io.LoadedData;
import org.cpca.io.TableLines;

/**
 * One input (target or a background) as the executors read it: a CSV table split by
 * lines ({@link JavaSparkContext#textFile}: a path, or a URI of any Hadoop file system;
 * each line parsed by {@link TableLines}, the
 * rules the driver learned in its checking pass), or an image stack or folder of images
 * split by slice ranges, each task opening the input itself and reading only its slices
 * (the same {@link LoadedData#stream} readers as the command line). The RDD's order is
 * the samples' order, so collected scores line up with the labels.
 */
final class SparkInput implements Serializable {

	private static final long serialVersionUID = 1L;

	final String role;
	final String path;
	final int samples;
	final int features;
	/** Tables: the line rules; null for images. */
	private final TableLines lines;
	/** Images: mask path (or null) and binning. */
	private final String mask;
	private final int bin;
	/** For the retry test: the first attempt of partition 0 fails. */
	boolean failFirstAttempt;
	/** A TIFF named by a URI: the Hadoop configuration to open it with; else null. */
	private SerializableConfiguration hadoop;

	private SparkInput(final String role, final String path, final int samples,
		final int features, final TableLines lines, final String mask, final int bin)
	{
		this.role = role;
		this.path = path;
		this.samples = samples;
		this.features = features;
		this.lines = lines;
		this.mask = mask;
		this.bin = bin;
	}

	/**
	 * An input the driver has opened (and, for tables, checked) with {@code how}.
	 *
	 * @param uri the URI of a table on a Hadoop file system, or {@code null} for a path
	 */
	static SparkInput of(final LoadedData data, final LoadedData.Reading how,
		final String uri, final Configuration conf) throws IOException
	{
		final String p = uri != null ? uri : data.path.toAbsolutePath().toString();
		final int d = data.source.features();
		if (data.isImage()) {
			final SparkInput in = new SparkInput(data.source.name(), p, data.samples(), d, null,
				how.mask == null ? null : how.mask.toAbsolutePath().toString(), how.bin);
			// a TIFF on a Hadoop file system: each task opens it there
			if (uri != null) in.hadoop = new SerializableConfiguration(
				conf);
			return in;
		}
		return new SparkInput(data.source.name(), p, data.samples(), d, TableLines.of(data,
			how), null, 1);
	}

	/**
	 * The samples, in order, in about {@code partitions} partitions; read lazily, one
	 * sample at a time (a partition is never held in memory).
	 */
	JavaRDD<float[]> rows(final JavaSparkContext sc, final int partitions) {
		final boolean fail = failFirstAttempt;
		if (lines != null) {
			final TableLines rules = lines;
			return sc.textFile(path, partitions).mapPartitions(it -> {
				failOnce(fail);
				return new Iterator<float[]>() {

					private float[] next = advance();

					private float[] advance() {
						while (it.hasNext()) {
							final float[] row = rules.parse(it.next());
							if (row != null) return row;
						}
						return null;
					}

					@Override
					public boolean hasNext() {
						return next != null;
					}

					@Override
					public float[] next() {
						if (next == null) throw new NoSuchElementException();
						final float[] r = next;
						next = advance();
						return r;
					}
				};
			});
		}
		final int parts = Math.max(1, Math.min(partitions, samples));
		final List<Integer> starts = new ArrayList<>();
		for (int p = 0; p < parts; p++)
			starts.add((int) ((long) samples * p / parts));
		final SparkInput self = this;
		return sc.parallelize(starts, parts).mapPartitions(it -> {
			failOnce(fail);
			if (!it.hasNext()) return Collections.emptyIterator();
			final int from = it.next();
			final int end = nextStart(self.samples, parts, from);
			final SampleSource s = self.open();
			TaskContext.get().addTaskCompletionListener(t -> {
				try {
					s.close();
				}
				catch (final IOException e) {
					// nothing was written: a failed close loses nothing
				}
			});
			return new Iterator<float[]>() {

				private int i = from;

				@Override
				public boolean hasNext() {
					return i < end;
				}

				@Override
				public float[] next() {
					if (!hasNext()) throw new NoSuchElementException();
					final float[] row = new float[self.features];
					try {
						s.read(i++, row);
					}
					catch (final IOException e) {
						throw new UncheckedIOException(e);
					}
					return row;
				}
			};
		});
	}

	/** The start of the slice range after the one starting at {@code from}. */
	private static int nextStart(final int samples, final int parts, final int from) {
		for (int p = 0; p < parts; p++)
			if ((int) ((long) samples * p / parts) == from) return (int) ((long) samples *
				(p + 1) / parts);
		return samples;
	}

	/** Opens the image input in an executor, exactly as the driver did. */
	private SampleSource open() throws IOException {
		final LoadedData.Reading how = new LoadedData.Reading();
		how.mask = mask == null ? null : Path.of(mask);
		how.bin = bin;
		final SampleSource s = hadoop == null ? LoadedData.stream(role, Path.of(path), how)
			.source : LoadedData.streamImage(role, Path.of(path), path, HadoopTiff.open(hadoop
				.value(), role, path), how).source;
		if (s.samples() != samples || s.features() != features) {
			s.close();
			throw new IllegalArgumentException(role + " " + path + " changed while it was " +
				"read (" + s.samples() + " × " + s.features() + " instead of " + samples + " × " +
				features + "): do not modify inputs during a run");
		}
		return s;
	}

	/**
	 * Test hooks, called by every task that reads samples: fails the first attempt of
	 * partition 0 (Spark retries the task); and when the system property
	 * {@value #HOLD_PROPERTY} names a folder (the signal test's own JVM, in local mode),
	 * leaves a file there and waits until the run is stopped.
	 */
	static void failOnce(final boolean fail) {
		final String hold = System.getProperty(HOLD_PROPERTY);
		if (hold != null) hold(Path.of(hold));
		final TaskContext t = TaskContext.get();
		if (fail && t != null && t.partitionId() == 0 && t.attemptNumber() == 0)
			throw new IllegalStateException("injected failure of the first attempt");
	}

	/** See {@link #failOnce}. */
	static final String HOLD_PROPERTY = "cpca.spark.test.hold";

	private static void hold(final Path dir) {
		try {
			Files.createDirectories(dir);
			Files.write(dir.resolve("task-started"), new byte[0]);
			Thread.sleep(600_000);
		}
		catch (final InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new CancellationException("the task was stopped");
		}
		catch (final IOException e) {
			throw new UncheckedIOException(e);
		}
	}
}
