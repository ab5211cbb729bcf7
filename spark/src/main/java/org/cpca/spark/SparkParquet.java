package org.cpca.spark;


import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.fs.FileSystem;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.trim;

import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructField;
import org.cpca.core.data.SampleSource;
import org.cpca.io.LoadedData;
import org.cpca.io.TableInput;

/**
 * A Parquet table (a file, or a folder of part files as Spark writes them) as an input,
 * read with Spark SQL in the executors, with the column rules of a CSV table
 * (docs/spark.md "Parquet tables"): the numeric columns that hold a value in a kept row
 * are the features, the label column excepted; {@code --target-where COLUMN=VALUE}
 * compares the column's text; an empty (null) or NaN cell is missing and handled by
 * {@code --missing} (fill values: the column's mean over the dataset's rows). The driver
 * learns the columns, counts and fill values in one pass; the samples keep the
 * table's row order.
 */
final class SparkParquet {

	private SparkParquet() {}

	/** Whether the input is a Parquet table (its name ends in .parquet). */
	static boolean isParquet(final String location) {
		return location != null && location.replaceAll("/+$", "").toLowerCase(Locale.ROOT)
			.endsWith(".parquet");
	}

	/** A Parquet input, opened and checked: what it holds, and its samples. */
	static final class Opened {

		final LoadedData data;
		final JavaRDD<float[]> rows;

		Opened(final LoadedData data, final JavaRDD<float[]> rows) {
			this.data = data;
			this.rows = rows;
		}
	}

	/**
	 * Opens a Parquet table with the rules of {@code how} (its feature names, when given,
	 * are the target's: a background must have those columns).
	 *
	 * @param location the table as given: a path, or a URI of any Hadoop file system
	 * @param path the same as a local path (for the results' list of inputs)
	 * @param partitions the partitions the rows should come in (at least; Parquet splits
	 *          a file at row groups, so a small file may give fewer)
	 */
	static Opened open(final JavaSparkContext sc, final String role, final String location,
		final Path path, final LoadedData.Reading how, final int partitions,
		final boolean failFirstAttempt) throws IOException
	{
		final org.apache.hadoop.fs.Path hp = new org.apache.hadoop.fs.Path(location);
		final FileSystem fs = hp.getFileSystem(sc.hadoopConfiguration());
		if (!fs.exists(hp)) throw new IllegalArgumentException("the " + role + " " +
			location + " does not exist: give an existing Parquet file or folder");
		final long bytes = fs.getContentSummary(hp).getLength();
		final SparkSession spark = SparkSession.builder().getOrCreate(); // the running context
		final Dataset<Row> table;
		try {
			table = spark.read().parquet(location);
		}
		catch (final Exception e) { // Spark's AnalysisException and SparkException too
			throw unreadable(location, e);
		}
		final StructField[] fields = table.schema().fields();
		final String[] header = table.schema().fieldNames();
		final int labelIndex = how.labelColumn == null ? -1 : TableInput.indexOf(header, how.labelColumn,
			location, "--label-column");

		// the rows the filters keep: COLUMN=VALUE on the column's text, as for CSV
		Column keep = lit(true);
		for (final String w : how.where) {
			final int eq = w.indexOf('=');
			if (eq < 1) throw new IllegalArgumentException("row filter '" + w + "' is not " +
				"COLUMN=VALUE (e.g. Treatment=Saline)");
			final String c = header[TableInput.indexOf(header, w.substring(0, eq).trim(), location,
				"row filter")];
			keep = keep.and(trim(col(q(c)).cast("string")).equalTo(w.substring(eq + 1).trim()));
		}
		final Dataset<Row> matched = table.filter(keep);

		// the candidate feature columns: numeric ones (or the target's, for a background)
		final List<Integer> candidates = new ArrayList<>();
		final List<String> ignored = new ArrayList<>();
		if (how.featureNames != null) for (final String f : how.featureNames) {
			final int c = TableInput.indexOf(header, f, location, "the target's feature column");
			if (!(fields[c].dataType() instanceof NumericType)) throw new IllegalArgumentException(
				location + ": column '" + f + "' is not numeric (" + fields[c].dataType()
					.simpleString() + ") but it is a feature of the target: give tables with the " +
					"same numeric columns");
			candidates.add(c);
		}
		else for (int c = 0; c < header.length; c++)
			if (c != labelIndex && fields[c].dataType() instanceof NumericType) candidates.add(c);
			else if (c != labelIndex) ignored.add(header[c]);

		// one pass: rows matched, and per column the values present, their sum and the
		// infinite ones; the rows with every candidate present. A plain RDD pass: as one
		// SQL aggregate (three expressions per column) the check of the 77-column test
		// table took 8.5 s here against 2.9 s (one run each, on a loaded machine)
		final int m = candidates.size();
		final List<Column> values = new ArrayList<>();
		Column complete = lit(true);
		for (final int c : candidates) {
			final Column v = col(q(header[c])).cast("double");
			values.add(v);
			complete = complete.and(v.isNotNull().and(v.isNaN().unary_$bang()));
		}
		final double[] a = matched.select(values.toArray(new Column[0])).javaRDD()
			.mapPartitions(it -> {
				final double[] acc = new double[3 * m + 2];
				while (it.hasNext()) {
					final Row r = it.next();
					boolean all = true;
					for (int j = 0; j < m; j++) {
						final double v = r.isNullAt(j) ? Double.NaN : r.getDouble(j);
						if (Double.isNaN(v)) all = false;
						else if (Double.isInfinite(v)) acc[2 * m + j]++;
						else {
							acc[j]++;
							acc[m + j] += v;
						}
					}
					acc[3 * m]++;
					if (all) acc[3 * m + 1]++;
				}
				return List.of(acc).iterator();
			}).fold(new double[3 * m + 2], (x, y) -> {
				final double[] z = x.clone();
				for (int i = 0; i < z.length; i++)
					z[i] += y[i];
				return z;
			});
		final long rowsMatched = (long) a[3 * m];
		if (!how.where.isEmpty() && rowsMatched == 0) throw new IllegalArgumentException(
			location + ": no row matches " + String.join(" and ", how.where) + "; check the " +
			"column values");

		// the features: candidates with a value in a matched row (for CSV: at least one
		// cell that parses), unless the target named them
		final List<Integer> features = new ArrayList<>();
		final List<Double> fill = new ArrayList<>();
		long cellsMissing = 0;
		for (int i = 0; i < candidates.size(); i++) {
			final long present = (long) a[i];
			final double total = a[m + i];
			final long infinite = (long) a[2 * m + i];
			final String name = header[candidates.get(i)];
			if (infinite > 0) throw new IllegalArgumentException(location + ": column '" +
				name + "' has " + infinite + " infinite value" + (infinite == 1 ? "" : "s") +
				": the features must be finite numbers (empty cells and NaN are missing values)");
			if (present == 0 && how.featureNames == null) {
				ignored.add(name);
				continue;
			}
			features.add(candidates.get(i));
			fill.add(how.missing == TableInput.Missing.ZERO || present == 0 ? 0.0 : total /
				present);
			cellsMissing += rowsMatched - present;
		}
		if (features.isEmpty()) throw new IllegalArgumentException(location +
			" has no numeric column: the features must be columns of numbers (empty cells " +
			"allowed); the columns found were " + String.join(", ", header));
		final boolean drop = how.missing == TableInput.Missing.DROP;
		final long rowsComplete = (long) a[3 * m + 1];
		final long rowsKept = drop ? rowsComplete : rowsMatched;
		if (rowsKept == 0) throw new IllegalArgumentException(location + ": no rows left" +
			(drop && rowsMatched > 0 ? " after dropping " + rowsMatched + " rows with missing " +
				"values; use --missing mean or --missing zero" : ""));
		if (rowsKept > Integer.MAX_VALUE) throw new IllegalArgumentException(location +
			" has " + rowsKept + " rows: at most " + Integer.MAX_VALUE + " samples per dataset");

		// the samples in the table's order, in about `partitions` splits
		final List<Column> selected = new ArrayList<>();
		for (final int c : features)
			selected.add(col(q(header[c])).cast("double"));
		if (labelIndex >= 0) selected.add(col(q(header[labelIndex])).cast("string"));
		Dataset<Row> kept = matched;
		if (drop) kept = kept.filter(complete);
		final Dataset<Row> projected = kept.select(selected.toArray(new Column[0]));
		final JavaRDD<Row> rows = plan(spark, projected, bytes, partitions);
		final int d = features.size();
		final float[] fills = new float[d];
		for (int j = 0; j < d; j++)
			fills[j] = (float) (double) fill.get(j);
		final JavaRDD<float[]> samples = rows.mapPartitions(it -> {
			SparkInput.failOnce(failFirstAttempt);
			return new Iterator<float[]>() {

				@Override
				public boolean hasNext() {
					return it.hasNext();
				}

				@Override
				public float[] next() {
					final Row r = it.next();
					final float[] x = new float[d];
					for (int j = 0; j < d; j++) {
						final double v = r.isNullAt(j) ? Double.NaN : r.getDouble(j);
						x[j] = Double.isNaN(v) ? fills[j] : (float) v;
					}
					return x;
				}
			};
		});
		final List<String> labels = labelIndex < 0 ? null : rows.map(r -> r.isNullAt(d) ? ""
			: r.getString(d).trim()).collect();
		final List<String> names = new ArrayList<>();
		for (final int c : features)
			names.add(header[c]);
		final SampleSource source = new Described(role, (int) rowsKept, d, labels);
		final LoadedData data = LoadedData.table(role, path, source, names, ignored, how,
			(int) Math.min(Integer.MAX_VALUE, rowsMatched), (int) (rowsMatched - rowsKept),
			drop ? 0 : cellsMissing, "Parquet, by the executors (Spark SQL)");
		data.facts.put("path", location);
		return new Opened(data, samples);
	}

	/**
	 * The rows as an RDD planned now, with file splits of about bytes/partitions (the
	 * session's split size is restored afterwards): Parquet splits at row groups.
	 */
	private static JavaRDD<Row> plan(final SparkSession spark, final Dataset<Row> rows,
		final long bytes, final int partitions)
	{
		final String key = "spark.sql.files.maxPartitionBytes";
		final String before = spark.conf().get(key);
		try {
			spark.conf().set(key, String.valueOf(Math.max(1024, bytes / Math.max(1,
				partitions) + 1)));
			final JavaRDD<Row> rdd = rows.javaRDD();
			rdd.partitions(); // the splits are fixed here
			return rdd;
		}
		finally {
			spark.conf().set(key, before);
		}
	}

	/** A column name for Spark SQL, quoted (names may hold dots or spaces). */
	private static String q(final String name) {
		return "`" + name.replace("`", "``") + "`";
	}

	/** A table that Spark could not read: its root cause, in one line. */
	static IllegalArgumentException unreadable(final String location, final Throwable e) {
		return new IllegalArgumentException(location + " could not be read as a Parquet " +
			"table (" + SparkFailures.firstLine(SparkFailures.root(e)) + "): give a Parquet " +
			"file or a folder of them");
	}

	/**
	 * What the driver knows of a Parquet input: its size, features and labels. Its
	 * samples are read by the executors ({@link Opened#rows}), never here.
	 */
	private static final class Described implements SampleSource {

		private final String name;
		private final int samples, features;
		private final List<String> labels;

		Described(final String name, final int samples, final int features,
			final List<String> labels)
		{
			this.name = name;
			this.samples = samples;
			this.features = features;
			this.labels = labels;
		}

		@Override
		public String name() {
			return name;
		}

		@Override
		public int samples() {
			return samples;
		}

		@Override
		public int features() {
			return features;
		}

		@Override
		public boolean randomAccess() {
			return false;
		}

		@Override
		public void read(final int index, final float[] into) {
			throw new UnsupportedOperationException("the samples of a Parquet table are " +
				"read by the executors");
		}

		@Override
		public List<String> labels() {
			return labels;
		}
	}
}
