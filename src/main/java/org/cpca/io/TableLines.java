package org.cpca.io;

import java.io.IOException;
import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The rules by which the lines of a CSV (or TSV) table become samples, as a small
 * serializable value, for readers that see the file as lines in many places at once
 * (a cluster's executors, each given a split of the file): the feature columns, the row
 * filters, the missing-value policy and the fill values of {@link TableStream}, which
 * learned them in its pass over the whole file (and checked every cell there, with its
 * messages). {@link #parse} then gives each line exactly the sample {@link TableStream}
 * reads for it.
 */
public final class TableLines implements Serializable {

	private static final long serialVersionUID = 1L;

	private final String file;
	private final char separator;
	private final String[] header;
	private final int[] features;
	private final int[] filterColumns;
	private final String[] filterValues;
	private final boolean drop;
	private final float[] fill;

	private TableLines(final String file, final char separator, final String[] header,
		final int[] features, final int[] filterColumns, final String[] filterValues,
		final boolean drop, final float[] fill)
	{
		this.file = file;
		this.separator = separator;
		this.header = header;
		this.features = features;
		this.filterColumns = filterColumns;
		this.filterValues = filterValues;
		this.drop = drop;
		this.fill = fill;
	}

	/**
	 * The rules of a table opened by {@link LoadedData#stream} with the given reading.
	 *
	 * @throws IllegalArgumentException if the input is not a table
	 */
	public static TableLines of(final LoadedData table, final LoadedData.Reading how)
		throws IOException
	{
		if (!(table.source instanceof TableStream)) throw new IllegalArgumentException(
			table.path + " is not a table opened row by row");
		final TableStream t = (TableStream) table.source;
		final String path = t.file();
		if (t.multiLineRow() >= 0) throw new IllegalArgumentException(path + ": row " + t
			.multiLineRow() + " has a quoted field holding a line break, and a table is " +
			"split among the executors line by line: remove the line breaks inside quotes " +
			"(or fit it with cpca fit, which reads them)");
		final String[] header = t.header();
		final List<String> names = t.featureNames();
		final int[] features = new int[names.size()];
		for (int j = 0; j < features.length; j++)
			features[j] = TableInput.indexOf(header, names.get(j), path, "feature column");
		final List<String> where = how.where == null ? List.of() : how.where;
		final int[] columns = new int[where.size()];
		final String[] values = new String[where.size()];
		for (int i = 0; i < columns.length; i++) {
			final String w = where.get(i);
			final int eq = w.indexOf('=');
			columns[i] = TableInput.indexOf(header, w.substring(0, eq).trim(), path,
				"row filter");
			values[i] = w.substring(eq + 1).trim();
		}
		final double[] f = t.fill();
		final float[] fill = new float[f.length];
		for (int j = 0; j < f.length; j++)
			fill[j] = (float) f[j];
		final char sep = path.toLowerCase(Locale.ROOT).endsWith(".tsv") ? '\t' : ',';
		return new TableLines(path, sep, header, features, columns, values,
			how.missing == TableInput.Missing.DROP, fill);
	}

	/** Number of features d. */
	public int features() {
		return features.length;
	}

	/**
	 * The sample of one line of the file (a trailing carriage return and a leading
	 * byte-order mark are ignored), or {@code null} for the header, a blank line, a row
	 * the filters exclude and a row dropped for a missing value.
	 */
	public float[] parse(String line) {
		if (line.startsWith("\uFEFF")) line = line.substring(1);
		if (line.endsWith("\r")) line = line.substring(0, line.length() - 1);
		if (line.trim().isEmpty()) return null;
		final String[] row = TableInput.split(line, separator);
		if (Arrays.equals(row, header)) return null;
		if (row.length != header.length) throw new IllegalArgumentException(file +
			": a row has " + row.length + " fields but the header has " + header.length +
			"; fix the row (quote fields that contain commas)");
		for (int i = 0; i < filterColumns.length; i++)
			if (!row[filterColumns[i]].trim().equals(filterValues[i])) return null;
		final float[] out = new float[features.length];
		for (int j = 0; j < out.length; j++) {
			final String cell = row[features[j]].trim();
			if (TableInput.missingCell(cell)) {
				if (drop) return null;
				out[j] = fill[j];
			}
			else out[j] = (float) TableInput.parse(cell, file, 0,
				header[features[j]]);
		}
		return out;
	}
}
