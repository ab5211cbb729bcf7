package org.cpca.io;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import org.cpca.core.data.SampleSource;

/**
 * A CSV (or TSV) table read row by row as a {@link SampleSource}, with exactly the
 * parsing rules of {@link TableInput} (byte-order mark, quotes, NA/NaN and empty cells,
 * {@code --missing}, row filters, label column, which columns are features), so a
 * streamed table gives the same samples as the table read into memory.
 * <p>
 * Opening makes one pass over the file (two when the feature columns must be found):
 * it finds the feature columns, checks every cell, counts the rows kept, learns the
 * column means for {@code --missing mean}, and records each kept row's byte offset. A read
 * then seeks to its row and parses it, so rows can be read in any order. Memory: 8 bytes
 * (offset) + 4 bytes (line number) per kept row, plus its label when a label column is
 * given; never the values.
 */
final class TableStream implements SampleSource {

	private final String name;
	/** The table's name in messages: its path, or the URI it was read from. */
	private final Object file;
	private final TableInput.Rows rows;
	private final String[] header;
	private final List<Integer> features;
	private final List<String> featureNames;
	private final List<String> ignored;
	private final List<String> labels;
	private final long[] offsets;
	private final int[] lines;
	private final double[] fill;
	private final double[] values;
	final int rowsRead;
	final int rowsDropped;
	final long cellsFilled;

	private TableStream(final String name, final Object file, final TableInput.Rows rows,
		final List<Integer> features, final List<String> ignored, final List<String> labels,
		final long[] offsets, final int[] lines, final double[] fill, final int rowsRead,
		final int rowsDropped, final long cellsFilled)
	{
		this.name = name;
		this.file = file;
		this.rows = rows;
		this.header = rows.header();
		this.features = features;
		final List<String> fn = new ArrayList<>();
		for (final int c : features)
			fn.add(header[c]);
		this.featureNames = Collections.unmodifiableList(fn);
		this.ignored = Collections.unmodifiableList(ignored);
		this.labels = labels == null ? null : Collections.unmodifiableList(labels);
		this.offsets = offsets;
		this.lines = lines;
		this.fill = fill;
		this.values = new double[features.size()];
		this.rowsRead = rowsRead;
		this.rowsDropped = rowsDropped;
		this.cellsFilled = cellsFilled;
	}

	/** The same arguments as {@link TableInput#read}. */
	static TableStream open(final String name, final Path file,
		final List<String> featureNamesOrNull, final String labelColumnOrNull,
		final TableInput.Missing missing, final List<String> where) throws IOException
	{
		return open(name, file, () -> TableInput.Rows.open(file), featureNamesOrNull,
			labelColumnOrNull, missing, where);
	}

	/** Opens the table's rows from the start (a local file, or a stream). */
	interface RowsOpener {

		TableInput.Rows open() throws IOException;
	}

	/**
	 * {@link #open(String, Path, List, String, TableInput.Missing, List)} of a table read
	 * through {@code rows} (twice when the feature columns must be found), named
	 * {@code file} in messages.
	 */
	static TableStream open(final String name, final Object file, final RowsOpener rows,
		final List<String> featureNamesOrNull, final String labelColumnOrNull,
		final TableInput.Missing missing, final List<String> where) throws IOException
	{
		final List<Integer> features = new ArrayList<>();
		final List<String> ignored = new ArrayList<>();
		int labelIndex = -1;
		// pass 1 (only when the features are not named): which columns are numeric
		if (featureNamesOrNull == null) try (TableInput.Rows r = rows.open()) {
			final String[] header = r.header();
			final TableInput.RowFilter filter = new TableInput.RowFilter(header, where, file);
			final TableInput.NumericColumns kinds = new TableInput.NumericColumns(
				header.length);
			String[] row;
			long matched = 0;
			while ((row = r.next()) != null)
				if (filter.test(row)) {
					kinds.accept(row, r.line());
					matched++;
				}
			filter.requireMatch(matched);
			labelIndex = labelIndex(header, labelColumnOrNull, file);
			kinds.requireNoCommaNumbers(header, file, r.separator(), labelIndex);
			TableInput.featureColumns(header, null, labelIndex, kinds, file, features,
				ignored);
		}
		// pass 2: the rows kept, their offsets, and the column sums for the fill values
		final TableInput.Rows r = rows.open();
		try {
			final String[] header = r.header();
			final TableInput.RowFilter filter = new TableInput.RowFilter(header, where, file);
			labelIndex = labelIndex(header, labelColumnOrNull, file);
			if (featureNamesOrNull != null) TableInput.featureColumns(header,
				featureNamesOrNull, labelIndex, null, file, features, ignored);
			final int d = features.size();
			final double[] v = new double[d], sum = new double[d];
			final int[] count = new int[d];
			long[] offsets = new long[64];
			int[] lines = new int[64];
			final List<String> labels = labelIndex < 0 ? null : new ArrayList<>();
			int kept = 0, matched = 0, dropped = 0;
			long missingCells = 0;
			String[] row;
			while ((row = r.next()) != null) {
				if (!filter.test(row)) continue;
				matched++;
				final boolean complete = TableInput.values(row, features, header, file,
					(int) r.line(), v);
				if (!complete && missing == TableInput.Missing.DROP) {
					dropped++;
					continue;
				}
				for (int j = 0; j < d; j++)
					if (Double.isNaN(v[j])) missingCells++;
					else {
						sum[j] += v[j];
						count[j]++;
					}
				if (kept == offsets.length) {
					offsets = Arrays.copyOf(offsets, kept * 2);
					lines = Arrays.copyOf(lines, kept * 2);
				}
				offsets[kept] = r.offset();
				lines[kept] = (int) r.line();
				kept++;
				if (labels != null) labels.add(row[labelIndex].trim());
			}
			filter.requireMatch(matched);
			TableInput.requireRowsLeft(kept, dropped, file);
			final double[] fill = new double[d];
			for (int j = 0; j < d; j++)
				fill[j] = TableInput.fillValue(missing, sum[j], count[j]);
			return new TableStream(name, file, r, features, ignored, labels, Arrays.copyOf(
				offsets, kept), Arrays.copyOf(lines, kept), fill, matched, dropped,
				missingCells);
		}
		catch (final IOException | RuntimeException e) {
			r.close();
			throw e;
		}
	}

	private static int labelIndex(final String[] header, final String column,
		final Object file)
	{
		return column == null ? -1 : TableInput.indexOf(header, column, file,
			"--label-column");
	}

	@Override
	public String name() {
		return name;
	}

	@Override
	public int samples() {
		return offsets.length;
	}

	@Override
	public int features() {
		return features.size();
	}

	@Override
	public boolean randomAccess() {
		return true;
	}

	@Override
	public void read(final int index, final float[] into) throws IOException {
		final String[] row = rows.readAt(offsets[index], lines[index]);
		TableInput.values(row, features, header, file, lines[index], values);
		for (int j = 0; j < values.length; j++)
			into[j] = (float) (Double.isNaN(values[j]) ? fill[j] : values[j]);
	}

	@Override
	public List<String> labels() {
		return labels;
	}

	List<String> featureNames() {
		return featureNames;
	}

	/** The header row's fields. */
	String[] header() {
		return header.clone();
	}

	/** The table's name in messages (its path or URI). */
	String file() {
		return file.toString();
	}

	/**
	 * The first row that spans several lines (a quoted field holding a line break), or -1.
	 */
	long multiLineRow() {
		return rows.multiLineRow();
	}

	/** The value each feature's missing cells are replaced by (0 when rows are dropped). */
	double[] fill() {
		return fill.clone();
	}

	List<String> ignoredColumns() {
		return ignored;
	}

	@Override
	public void close() throws IOException {
		rows.close();
	}
}
