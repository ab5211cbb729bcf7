package org.cpca.io;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

import org.cpca.core.data.Dataset;

/**
 * A CSV table read as samples × features.
 * <p>
 * The first row is the header. A column is a feature when every non-empty cell parses as
 * a number (and at least one does); other columns are ignored and listed. Empty cells
 * and the markers {@code NA}, {@code NaN} are missing values, handled by a
 * {@link Missing} policy chosen by the user. A UTF-8 byte-order mark is skipped; fields
 * may be quoted with double quotes ({@code ""} inside a quoted field is a quote).
 */
public final class TableInput {

	/**
	 * The {@code --missing} rule from text (drop, mean, zero or model), for every command
	 * line that reads tables.
	 */
	public static Missing parseMissing(final String text) {
		try {
			return Missing.valueOf(text.trim().toUpperCase(java.util.Locale.ROOT));
		}
		catch (final IllegalArgumentException e) {
			throw new IllegalArgumentException("--missing " + text +
				" is not known: use drop, mean, zero or model (pcpca only)");
		}
	}


	/** What to do with missing cells in feature columns. */
	public enum Missing {
		/** Drop every row with a missing feature value (the default: nothing is invented). */
		DROP,
		/** Replace a missing value by its column's mean over the rows that have one. */
		MEAN,
		/** Replace a missing value by 0 (what the reference cPCA notebook does). */
		ZERO,
		/**
		 * Keep missing values for a method that models them (PCPCA's EM over the observed
		 * values); the dataset itself holds column means, {@link #withMissing} the NaNs.
		 */
		MODEL
	}

	/** With {@link Missing#MODEL}: the feature values with NaN where a cell was empty. */
	float[][] withMissing;

	final Dataset dataset;
	final List<String> featureNames;
	final List<String> ignoredColumns;
	final List<String> labels;
	final int rowsRead;
	final int rowsDropped;
	final int cellsFilled;
	/** The separator (',', ';' or tab) and decimal mark ("." or ",") the file uses. */
	char separator;
	String decimalMark;

	private TableInput(final Dataset dataset, final List<String> featureNames,
		final List<String> ignoredColumns, final List<String> labels, final int rowsRead,
		final int rowsDropped, final int cellsFilled)
	{
		this.dataset = dataset;
		this.featureNames = featureNames;
		this.ignoredColumns = ignoredColumns;
		this.labels = labels;
		this.rowsRead = rowsRead;
		this.rowsDropped = rowsDropped;
		this.cellsFilled = cellsFilled;
	}

	static boolean isTable(final Path p) {
		final String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
		return n.endsWith(".csv") || n.endsWith(".tsv");
	}

	/**
	 * @param featureNamesOrNull when given, exactly these columns (in this order) are the
	 *          features, e.g. to apply a model fitted on another table
	 * @param labelColumnOrNull name of the class column, or null
	 * @param where row filters COLUMN=VALUE, all of which a row must match (may be empty)
	 */
	static TableInput read(final String name, final Path file,
		final List<String> featureNamesOrNull, final String labelColumnOrNull,
		final Missing missing, final List<String> where) throws IOException
	{
		final List<String[]> rows = new ArrayList<>();
		final List<Integer> lines = new ArrayList<>(); // of the rows, in the file (from 2)
		final String[] header;
		final char separator;
		final String decimalMark;
		try (Rows r = Rows.open(file)) {
			header = r.header();
			final RowFilter filter = new RowFilter(header, where, file);
			String[] row;
			for (int line = 2; (row = r.next()) != null; line++)
				if (filter.test(row)) {
					rows.add(row);
					lines.add(line);
				}
			filter.requireMatch(rows.size());
			separator = r.separator();
			decimalMark = r.decimalMark();
		}
		final int labelIndex = labelColumnOrNull == null ? -1 : indexOf(header,
			labelColumnOrNull, file, "--label-column");
		final NumericColumns kinds = new NumericColumns(header.length);
		if (featureNamesOrNull == null) rows.forEach(kinds::accept);
		final List<Integer> features = new ArrayList<>();
		final List<String> ignored = new ArrayList<>();
		featureColumns(header, featureNamesOrNull, labelIndex, kinds, file, features,
			ignored);
		final int d = features.size();
		final List<double[]> values = new ArrayList<>();
		final List<String> labels = labelIndex < 0 ? null : new ArrayList<>();
		final List<String> names = new ArrayList<>();
		final int id = idColumn(header, rows, features, labelIndex);
		int dropped = 0;
		for (int i = 0; i < rows.size(); i++) {
			final String[] row = rows.get(i);
			final double[] v = new double[d];
			final boolean complete = values(row, features, header, file, lines.get(i), v);
			if (!complete && missing == Missing.DROP) {
				dropped++;
				continue;
			}
			values.add(v);
			names.add(id >= 0 ? row[id].trim() : "row " + lines.get(i));
			if (labels != null) labels.add(row[labelIndex].trim());
		}
		float[][] kept = null;
		if (missing == Missing.MODEL) {
			kept = new float[values.size()][];
			for (int i = 0; i < kept.length; i++) {
				kept[i] = new float[d];
				for (int j = 0; j < d; j++)
					kept[i][j] = (float) values.get(i)[j];
			}
		}
		int filled = 0;
		if (missing != Missing.DROP) {
			for (int j = 0; j < d; j++) {
				double sum = 0;
				int count = 0;
				for (final double[] v : values)
					if (!Double.isNaN(v[j])) {
						sum += v[j];
						count++;
					}
				final double fill = fillValue(missing, sum, count);
				for (final double[] v : values)
					if (Double.isNaN(v[j])) {
						v[j] = fill;
						filled++;
					}
			}
		}
		requireRowsLeft(values.size(), dropped, file);
		final List<String> featureNames = new ArrayList<>();
		for (final int c : features)
			featureNames.add(header[c]);
		Dataset ds = Dataset.of(name, values.toArray(new double[0][])).withSampleNames(
			names);
		if (labels != null) ds = ds.withLabels(labels);
		final TableInput t = new TableInput(ds, Collections.unmodifiableList(featureNames),
			Collections.unmodifiableList(ignored), labels, rows.size(), dropped, filled);
		t.separator = separator;
		t.decimalMark = decimalMark;
		t.withMissing = kept;
		return t;
	}

	/**
	 * The table's ID column, which names the samples in the results (scores.csv): the
	 * first column that is neither a feature nor the label and whose cells are all filled
	 * and all different; -1 when there is none (the samples are then named by their line,
	 * "row N").
	 */
	static int idColumn(final String[] header, final List<String[]> rows,
		final List<Integer> features, final int labelIndex)
	{
		for (int c = 0; c < header.length; c++) {
			if (c == labelIndex || features.contains(c)) continue;
			final java.util.Set<String> seen = new java.util.HashSet<>();
			boolean unique = !rows.isEmpty();
			for (final String[] row : rows) {
				final String cell = c < row.length ? row[c].trim() : "";
				if (missingCell(cell) || !seen.add(cell)) {
					unique = false;
					break;
				}
			}
			if (unique) return c;
		}
		return -1;
	}

	/**
	 * The feature columns: the given names (in that order), or every numeric column
	 * except the label column; the others are listed in {@code ignored}.
	 */
	static void featureColumns(final String[] header, final List<String> namesOrNull,
		final int labelIndex, final NumericColumns kinds, final Object file,
		final List<Integer> features, final List<String> ignored)
	{
		if (namesOrNull != null) {
			for (final String f : namesOrNull)
				features.add(indexOf(header, f, file, "the model's feature column"));
		}
		else for (int c = 0; c < header.length; c++) {
			if (c != labelIndex && kinds.numeric(c)) features.add(c);
			else if (c != labelIndex) ignored.add(header[c]);
		}
		if (features.isEmpty()) throw new IllegalArgumentException(file +
			" has no numeric column: the features must be columns of numbers (empty cells " +
			"allowed); the columns found were " + String.join(", ", header));
	}

	/**
	 * Parses the feature cells of one row into {@code out} (NaN for a missing cell).
	 *
	 * @param line the row's number for messages
	 * @return whether no feature cell was missing
	 */
	static boolean values(final String[] row, final List<Integer> features,
		final String[] header, final Object file, final int line, final double[] out)
	{
		boolean complete = true;
		for (int j = 0; j < out.length; j++) {
			final String cell = row[features.get(j)].trim();
			out[j] = missingCell(cell) ? Double.NaN : parse(cell, file, line, header[features
				.get(j)]);
			complete &= !Double.isNaN(out[j]);
		}
		return complete;
	}

	/** The value that replaces a missing cell of a column with this sum over count cells. */
	static double fillValue(final Missing missing, final double sum, final int count) {
		return missing == Missing.ZERO || count == 0 ? 0 : sum / count;
	}

	static void requireRowsLeft(final long rows, final long dropped, final Object file) {
		if (rows == 0) throw new IllegalArgumentException(file + ": no rows left" +
			(dropped > 0 ? " after dropping " + dropped +
				" rows with missing values; use --missing mean or --missing zero" : ""));
	}

	/**
	 * The rows of a CSV (or, by extension, TSV) file, one at a time: a UTF-8 byte-order
	 * mark is skipped, blank lines are skipped, fields are split with {@link #split}, and
	 * every data row must have as many fields as the header. Each row's byte offset is
	 * known ({@link #offset()}), so that a reader can come back to it ({@link #readAt}).
	 */
	static final class Rows implements java.io.Closeable {

		/** The table's name in messages: its path, or the URI it was read from. */
		private final Object file;
		/** The local file, for {@link #readAt}; {@code null} for a stream. */
		private final Path path;
		private final char separator;
		private final java.io.InputStream in;
		private final String[] header;
		private byte[] line = new byte[256];
		private int length;
		private long position, lineStart, lineNumber;
		private java.nio.channels.FileChannel channel;
		private java.nio.ByteBuffer buffer;

		private Rows(final Object file, final Path path, final java.io.InputStream in)
			throws IOException
		{
			this.file = file;
			this.path = path;
			this.in = in;
			final String first;
			try {
				first = nextLine();
				if (first == null) throw new IllegalArgumentException(file +
					" is empty: a table needs a header row and at least two data rows");
				if (first.indexOf('\0') >= 0)
					throw new IllegalArgumentException(file + " is not a text table (it holds " +
						"binary data): give a CSV file (comma-, semicolon- or tab-separated text)");
				separator = separator(file, first);
				header = split(first, separator);
				checkHeader(file, header, separator);
			}
			catch (final RuntimeException e) {
				in.close();
				throw e;
			}
		}

		/**
		 * The separator: tab for .tsv; otherwise the one of {@code , ; tab} the header uses
		 * (comma first), so that a European CSV ({@code ;} with decimal commas) is read.
		 */
		static char separator(final Object file, final String header) {
			if (file.toString().toLowerCase(Locale.ROOT).endsWith(".tsv")) return '\t';
			for (final char c : new char[] { ',', ';', '\t' })
				if (split(header, c).length > 1) return c;
			return ',';
		}

		/** The separator's name for messages. */
		static String name(final char separator) {
			return separator == '\t' ? "tab" : "'" + separator + "'";
		}

		/**
		 * Refuses a header with an empty or a repeated column name: columns are matched by
		 * name (features, labels, filters, models), so each needs its own.
		 */
		private static void checkHeader(final Object file, final String[] header,
			final char separator)
		{
			final java.util.Map<String, Integer> seen = new java.util.HashMap<>();
			for (int c = 0; c < header.length; c++) {
				final String h = header[c].trim();
				if (h.isEmpty()) throw new IllegalArgumentException(file + ": column " + (c +
					1) + " of " + header.length + " (separator " + name(separator) +
					") has no name in the header row: give every column a name (e.g. 'row' " +
					"for a column of row numbers), or remove the trailing separator");
				final Integer before = seen.put(h, c);
				if (before != null) throw new IllegalArgumentException(file + ": columns " +
					(before + 1) + " and " + (c + 1) + " are both named '" + h +
					"': give every column its own name (columns are matched by name)");
			}
		}

		/** Opens the file and reads its header. */
		static Rows open(final Path file) throws IOException {
			return new Rows(file, file, Files.newInputStream(file));
		}

		/**
		 * Reads the header of a table from a stream (e.g. a file on a Hadoop file system,
		 * docs/spark.md), named {@code name} in messages; rows are read in order only.
		 */
		static Rows open(final Object name, final java.io.InputStream in) throws IOException {
			return new Rows(name, null, in);
		}

		String[] header() {
			return header;
		}

		/**
		 * The next data row, or {@code null} at the end.
		 *
		 * @throws IllegalArgumentException if the first data row is missing, or a row has
		 *           another number of fields than the header
		 */
		String[] next() throws IOException {
			final String text = nextLine();
			if (text == null) {
				if (lineNumber <= 1 || noDataYet) throw new IllegalArgumentException(file +
					" has a header but no data rows: a table needs at least two rows of numbers");
				return null;
			}
			noDataYet = false;
			return fields(text, lineNumber);
		}

		private boolean noDataYet = true;

		/** The 1-based line number of the row {@link #next} returned last. */
		long line() {
			return lineNumber;
		}

		/** The byte offset of the row {@link #next} returned last. */
		long offset() {
			return lineStart;
		}

		private String[] fields(final String text, final long number) {
			if (text.indexOf('\0') >= 0) throw new IllegalArgumentException(file + ": row " +
				number + " holds binary data (a NUL byte): the file is damaged or not a text " +
				"table; give a CSV text file");
			final String[] row = split(text, separator);
			if (row.length != header.length) throw new IllegalArgumentException(file +
				": row " + number + " has " + row.length + " fields but the header has " +
				header.length + " (separator " + name(separator) + ")" + (separator == ',' &&
					row.length > header.length && DECIMAL_COMMA.matcher(text).find()
						? "; the file seems to use ',' both as separator and as decimal mark: " +
							"separate fields with ';' or tab, or write decimals with '.'"
						: "; fix the row (quote fields that contain the separator)"));
			if (separator != ',') for (int c = 0; c < row.length; c++)
				row[c] = decimal(row[c], number, c);
			return row;
		}

		private static final java.util.regex.Pattern DECIMAL_COMMA = java.util.regex.Pattern
			.compile("[0-9],[0-9]");
		private static final java.util.regex.Pattern COMMA_NUMBER = java.util.regex.Pattern
			.compile("\\s*[+-]?[0-9]*,[0-9]+([eE][+-]?[0-9]+)?\\s*");
		private static final java.util.regex.Pattern DOT_NUMBER = java.util.regex.Pattern
			.compile("\\s*[+-]?[0-9]*\\.[0-9]+([eE][+-]?[0-9]+)?\\s*");
		private String commaCell, dotCell;

		/**
		 * A cell with a decimal comma ({@code 1,5}, with separator ';' or tab) as a number
		 * with a decimal point; refuses a file that mixes both decimal marks.
		 */
		private String decimal(final String cell, final long number, final int column) {
			if (COMMA_NUMBER.matcher(cell).matches()) {
				if (commaCell == null) commaCell = "row " + number + " has '" + cell.trim() + "'";
				requireOneDecimalMark();
				return cell.replace(',', '.');
			}
			if (dotCell == null && DOT_NUMBER.matcher(cell).matches()) {
				dotCell = "row " + number + " has '" + cell.trim() + "'";
				requireOneDecimalMark();
			}
			return cell;
		}

		private void requireOneDecimalMark() {
			if (commaCell != null && dotCell != null) throw new IllegalArgumentException(file +
				" mixes decimal marks (" + dotCell + ", " + commaCell + "; separator " + name(
					separator) + "): write every decimal with the same mark, '.' or ','");
		}

		/** The decimal mark seen so far: "," or ".". */
		String decimalMark() {
			return commaCell != null ? "," : ".";
		}

		/** The separator: ',', ';' or tab. */
		char separator() {
			return separator;
		}

		/** The row starting at a byte offset {@link #offset()} reported. */
		String[] readAt(final long offset, final long number) throws IOException {
			if (path == null) throw new IOException(file + " was read as a stream: its rows " +
				"can be read in order only");
			if (channel == null) {
				channel = java.nio.channels.FileChannel.open(path);
				buffer = java.nio.ByteBuffer.allocate(1 << 12);
			}
			long at = offset;
			length = 0;
			while (true) {
				buffer.clear();
				final int n = channel.read(buffer, at);
				if (n <= 0) break;
				final byte[] b = buffer.array();
				int end = 0;
				while (end < n && b[end] != '\n')
					end++;
				append(b, 0, end);
				if (end < n) break;
				at += n;
			}
			return fields(decode(), number);
		}

		private void append(final byte[] b, final int from, final int to) {
			final int n = to - from;
			if (length + n > line.length) line = java.util.Arrays.copyOf(line, Math.max(
				line.length * 2, length + n));
			System.arraycopy(b, from, line, length, n);
			length += n;
		}

		private String decode() {
			int n = length;
			if (n > 0 && line[n - 1] == '\r') n--;
			return new String(line, 0, n, StandardCharsets.UTF_8);
		}

		/** The next non-blank line (BOM removed), or null; sets lineStart and lineNumber. */
		private String nextLine() throws IOException {
			while (true) {
				if (position == 0 && fill() >= 3 && (chunk[0] & 0xff) == 0xEF && (chunk[1] &
					0xff) == 0xBB && (chunk[2] & 0xff) == 0xBF)
				{
					next = 3;
					position = 3;
				}
				lineStart = position;
				length = 0;
				boolean any = false, ended = false;
				while (!ended) {
					if (next == filled && fill() <= 0) break;
					int end = next;
					while (end < filled && chunk[end] != '\n')
						end++;
					any = true;
					append(chunk, next, end);
					position += end - next;
					if (end < filled) { // the newline
						position++;
						end++;
						ended = true;
					}
					next = end;
				}
				if (!any) return null;
				lineNumber++;
				final String text = decode();
				if (!text.trim().isEmpty()) return text;
			}
		}

		private final byte[] chunk = new byte[1 << 16];
		private int next, filled;

		/** Refills the chunk when it is used up; returns the bytes available. */
		private int fill() throws IOException {
			if (next < filled) return filled - next;
			next = 0;
			filled = Math.max(0, in.readNBytes(chunk, 0, chunk.length));
			return filled;
		}

		@Override
		public void close() throws IOException {
			try {
				in.close();
			}
			finally {
				if (channel != null) channel.close();
			}
		}
	}

	/** Row filters COLUMN=VALUE, all of which a row must match. */
	static final class RowFilter {

		private final int[] columns;
		private final String[] values;
		private final List<String> where;
		private final Object file;

		RowFilter(final String[] header, final List<String> where, final Object file) {
			this.where = where == null ? List.of() : where;
			this.file = file;
			columns = new int[this.where.size()];
			values = new String[this.where.size()];
			for (int i = 0; i < columns.length; i++) {
				final String w = this.where.get(i);
				final int eq = w.indexOf('=');
				if (eq <= 0) throw new IllegalArgumentException("row filter '" + w +
					"' is not COLUMN=VALUE (e.g. Treatment=Saline)");
				columns[i] = indexOf(header, w.substring(0, eq).trim(), file, "row filter");
				values[i] = w.substring(eq + 1).trim();
			}
		}

		boolean test(final String[] row) {
			for (int i = 0; i < columns.length; i++)
				if (!row[columns[i]].trim().equals(values[i])) return false;
			return true;
		}

		/** @throws IllegalArgumentException if filters were given and no row matched */
		void requireMatch(final long matched) {
			if (columns.length > 0 && matched == 0) throw new IllegalArgumentException(file +
				": no row matches " + String.join(" and ", where) + "; check the column values");
		}
	}

	/**
	 * Which columns are numeric, learned one row at a time: a column is numeric when every
	 * non-missing cell parses as a number and at least one does.
	 */
	static final class NumericColumns {

		private final boolean[] failed, any;

		NumericColumns(final int columns) {
			failed = new boolean[columns];
			any = new boolean[columns];
		}

		void accept(final String[] row) {
			for (int c = 0; c < row.length; c++) {
				if (failed[c]) continue;
				final String cell = row[c].trim();
				if (missingCell(cell)) continue;
				try {
					Double.parseDouble(cell);
					any[c] = true;
				}
				catch (final NumberFormatException e) {
					failed[c] = true;
				}
			}
		}

		boolean numeric(final int c) {
			return any[c] && !failed[c];
		}
	}

	static boolean missingCell(final String cell) {
		return cell.isEmpty() || cell.equalsIgnoreCase("NA") || cell.equalsIgnoreCase(
			"NaN");
	}

	static double parse(final String cell, final Object file, final int line,
		final String column)
	{
		try {
			final double v = Double.parseDouble(cell);
			if (!Double.isFinite(v)) throw new NumberFormatException();
			if (Math.abs(v) > Float.MAX_VALUE) throw new IllegalArgumentException(file +
				": row " + line + ", column " + column + " holds " + cell + ", beyond the range " +
				"of the 32-bit floats the samples are kept in (±3.4e38): rescale the column " +
				"(e.g. take logarithms or divide by a power of ten)");
			return v;
		}
		catch (final NumberFormatException e) {
			throw new IllegalArgumentException(file + ": row " + line + ", column " + column +
				" holds '" + cell + "', which is not a finite number; fix the cell or leave " +
				"it empty (missing)");
		}
	}

	/**
	 * The index of column {@code name} in {@code header}, or one line naming the table
	 * (a path, or a URI such as a Parquet table's), the column and the columns there are.
	 */
	public static int indexOf(final String[] header, final String name, final Object file,
		final String what)
	{
		for (int c = 0; c < header.length; c++)
			if (header[c].trim().equals(name)) return c;
		throw new IllegalArgumentException(file + " has no column '" + name + "' (" + what +
			"); its columns are " + String.join(", ", header));
	}

	/** Splits one CSV line, honouring double quotes. */
	static String[] split(final String line, final char sep) {
		final List<String> out = new ArrayList<>();
		final StringBuilder cur = new StringBuilder();
		boolean quoted = false;
		for (int i = 0; i < line.length(); i++) {
			final char ch = line.charAt(i);
			if (quoted) {
				if (ch == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
					cur.append('"');
					i++;
				}
				else if (ch == '"') quoted = false;
				else cur.append(ch);
			}
			else if (ch == '"') quoted = true;
			else if (ch == sep) {
				out.add(cur.toString());
				cur.setLength(0);
			}
			else cur.append(ch);
		}
		out.add(cur.toString());
		return out.toArray(new String[0]);
	}
}
