package org.cpca.io;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import org.cpca.core.data.Dataset;

/**
 * A CSV table read as samples × features.
 * <p>
 * The first row is the header. A column is a feature when every non-empty cell parses as
 * a number (and at least one does); other columns are ignored and listed. Empty cells
 * and the markers {@code NA}, {@code NaN} are missing values, handled by a
 * {@link Missing} policy chosen by the user. Fields are quoted as RFC 4180 says: a field in
 * double quotes may hold the separator, line breaks and quotes written twice ({@code ""}).
 * The text is UTF-8 (a byte-order mark is skipped); other encodings are refused by name, a
 * byte that is not UTF-8 with its row and byte offset. A number written with a comma in a
 * column of numbers ({@code "1,234"}) is refused, not guessed (docs/bad-inputs.md). The
 * parser is the project's own: it reads about as fast as the CSV libraries on Maven
 * Central (docs/bad-inputs.md) and knows each row's byte offset, which
 * {@link TableStream} seeks to.
 */
public final class TableInput {

	/**
	 * The {@code --missing} rule from text (drop, mean, zero or model), for every command
	 * line that reads tables.
	 */
	public static Missing parseMissing(final String text) {
		try {
			return Missing.valueOf(text.trim().toUpperCase(Locale.ROOT));
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
		final NumericColumns kinds;
		try (Rows r = Rows.open(file)) {
			header = r.header();
			kinds = new NumericColumns(header.length);
			final RowFilter filter = new RowFilter(header, where, file);
			String[] row;
			while ((row = r.next()) != null)
				if (filter.test(row)) {
					rows.add(row);
					lines.add((int) r.line());
					if (featureNamesOrNull == null) kinds.accept(row, r.line());
				}
			filter.requireMatch(rows.size());
			separator = r.separator();
			decimalMark = r.decimalMark();
		}
		final int labelIndex = labelColumnOrNull == null ? -1 : indexOf(header,
			labelColumnOrNull, file, "--label-column");
		if (featureNamesOrNull == null) kinds.requireNoCommaNumbers(header, file, separator,
			labelIndex);
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
			final Set<String> seen = new HashSet<>();
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
	 * mark is skipped, blank lines are skipped, a row continues over line breaks inside
	 * quotes, fields are split with {@link #split}, and every data row must have as many
	 * fields as the header. Each row's byte offset is
	 * known ({@link #offset()}), so that a reader can come back to it ({@link #readAt}).
	 */
	static final class Rows implements Closeable {

		/** The table's name in messages: its path, or the URI it was read from. */
		private final Object file;
		/** The local file, for {@link #readAt}; {@code null} for a stream. */
		private final Path path;
		private final char separator;
		private final InputStream in;
		private final String[] header;
		private byte[] line = new byte[256];
		private int length;
		private long position, lineStart, lineNumber;
		private FileChannel channel;
		private ByteBuffer buffer;

		private Rows(final Object file, final Path path, final InputStream in)
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
				if (first.indexOf('\0') >= 0) throw new IllegalArgumentException(file + (utf16(
					first) ? " seems to be UTF-16 text without a byte-order mark (every other " +
						"byte of its header is 0): re-save it as UTF-8"
						: " is not a text table (it holds binary data): give a CSV file (comma-, " +
							"semicolon- or tab-separated text)"));
				separator = separator(file, first);
				header = split(first, separator);
				checkHeader(file, header, separator);
			}
			catch (final RuntimeException e) {
				in.close();
				throw e;
			}
		}

		/** Whether a header's NUL characters fall on every other byte (UTF-16 read as UTF-8). */
		private static boolean utf16(final String header) {
			int nul = 0;
			for (int i = 0; i < header.length(); i++)
				if (header.charAt(i) == '\0') nul++;
			return header.length() >= 4 && Math.abs(2 * nul - header.length()) <= 1;
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
			final Map<String, Integer> seen = new HashMap<>();
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
		static Rows open(final Object name, final InputStream in) throws IOException {
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

		private static final Pattern DECIMAL_COMMA = Pattern
			.compile("[0-9],[0-9]");
		private static final Pattern COMMA_NUMBER = Pattern
			.compile("\\s*[+-]?[0-9]*,[0-9]+([eE][+-]?[0-9]+)?\\s*");
		private static final Pattern DOT_NUMBER = Pattern
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
				channel = FileChannel.open(path);
				buffer = ByteBuffer.allocate(1 << 12);
			}
			long at = offset;
			length = 0;
			boolean open = false;
			while (true) {
				buffer.clear();
				final int n = channel.read(buffer, at);
				if (n <= 0) break;
				final byte[] b = buffer.array();
				int end = 0;
				while (end < n && (b[end] != '\n' || open)) {
					if (b[end] == '"') open = !open;
					end++;
				}
				append(b, 0, end);
				if (end < n) break;
				at += n;
			}
			return fields(decode(), number);
		}

		private void append(final byte[] b, final int from, final int to) {
			final int n = to - from;
			if (length + n > line.length) line = Arrays.copyOf(line, Math.max(
				line.length * 2, length + n));
			System.arraycopy(b, from, line, length, n);
			length += n;
		}

		/**
		 * The record's text without its final line break.
		 *
		 * @throws IllegalArgumentException naming the byte offset of a byte that is not
		 *           UTF-8 (a Latin-1 or Windows-1252 file)
		 */
		private String decode() {
			int n = length;
			if (n > 0 && line[n - 1] == '\n') n--;
			if (n > 0 && line[n - 1] == '\r') n--;
			final String text = new String(line, 0, n, StandardCharsets.UTF_8);
			if (text.indexOf('\uFFFD') >= 0) requireUtf8(n);
			return text;
		}

		private void requireUtf8(final int n) {
			final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder();
			final ByteBuffer in = ByteBuffer.wrap(line, 0, n);
			final CharBuffer out = CharBuffer.allocate(n);
			final CoderResult r = utf8.decode(in, out, true);
			if (!r.isError()) return;
			final int at = in.position();
			final int b = line[at] & 0xff;
			final String latin = new String(new byte[] { (byte) b }, Charset
				.forName("windows-1252"));
			throw new IllegalArgumentException(file + " is not UTF-8 text: row " + lineNumber +
				" has the byte " + String.format(Locale.ROOT, "0x%02X", b) + " at byte offset " +
				(lineStart + at) + ", which UTF-8 does not allow (in Latin-1 or Windows-1252 it " +
				"is '" + latin + "'): re-save the file as UTF-8 (e.g. a spreadsheet's \"CSV " +
				"UTF-8\")");
		}

		/**
		 * The next non-blank record (BOM removed), or null; sets lineStart and lineNumber
		 * (the line it starts on). A record is one line, or several when a quoted field
		 * holds line breaks (RFC 4180).
		 */
		private String nextLine() throws IOException {
			while (true) {
				if (position == 0) byteOrderMark();
				lineStart = position;
				length = 0;
				final long first = physicalLine + 1;
				boolean any = false;
				while (readLine()) {
					any = true;
					physicalLine++;
					if (!openQuote(line, 0, length)) break;
					if (multiLine < 0) multiLine = first;
					if (next == filled && fill() <= 0) throw unclosedQuote(first);
				}
				if (!any) return null;
				lineNumber = first;
				final String text = decode();
				if (!text.trim().isEmpty()) return text;
			}
		}

		/**
		 * Appends the next physical line to {@link #line}, its newline included; false at
		 * the end of the file.
		 */
		private boolean readLine() throws IOException {
			boolean any = false;
			while (true) {
				if (next == filled && fill() <= 0) return any;
				int end = next;
				while (end < filled && chunk[end] != '\n')
					end++;
				any = true;
				if (end < filled) end++; // the newline
				append(chunk, next, end);
				position += end - next;
				next = end;
				if (line[length - 1] == '\n') return true;
			}
		}

		/** Whether bytes [from, to) leave a double quote open (an odd number of them). */
		private static boolean openQuote(final byte[] b, final int from, final int to) {
			boolean open = false;
			for (int i = from; i < to; i++)
				if (b[i] == '"') open = !open;
			return open;
		}

		private IllegalArgumentException unclosedQuote(final long row) {
			return new IllegalArgumentException(file + ": row " + row + " opens a quoted " +
				"field (\") that is never closed: close the quote, and write a quote inside a " +
				"quoted field as two (\"\")");
		}

		/**
		 * The first line of a record that spans several lines (a quoted field holding a line
		 * break), or -1 if no record read so far does.
		 */
		long multiLineRow() {
			return multiLine;
		}

		private long physicalLine, multiLine = -1;

		/**
		 * Skips a UTF-8 byte-order mark; refuses a UTF-16 or UTF-32 one (rows are found by
		 * their newline bytes, which those encodings spell otherwise).
		 */
		private void byteOrderMark() throws IOException {
			final int n = fill();
			final int b0 = n > 0 ? chunk[0] & 0xff : -1, b1 = n > 1 ? chunk[1] & 0xff : -1;
			if (n >= 3 && b0 == 0xEF && b1 == 0xBB && (chunk[2] & 0xff) == 0xBF) {
				next = 3;
				position = 3;
			}
			else if (b0 == 0xFF && b1 == 0xFE || b0 == 0xFE && b1 == 0xFF || b0 == 0 && b1 == 0)
				throw new IllegalArgumentException(file + " is " + (b0 == 0 ? "UTF-32"
					: n >= 4 && chunk[2] == 0 && chunk[3] == 0 ? "UTF-32" : "UTF-16") +
					" text (byte-order mark " + String.format(Locale.ROOT, "%02X %02X", b0, b1) +
					"): re-save it as UTF-8 (e.g. a spreadsheet's \"CSV UTF-8\")");
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
		/** Per column, the first cell that is a number but for its commas ("1,234"). */
		private final String[] comma;

		NumericColumns(final int columns) {
			failed = new boolean[columns];
			any = new boolean[columns];
			comma = new String[columns];
		}

		/** @param line the row's number for messages */
		void accept(final String[] row, final long line) {
			for (int c = 0; c < row.length; c++) {
				if (failed[c]) continue;
				final String cell = row[c].trim();
				if (missingCell(cell)) continue;
				if (number(cell)) any[c] = true;
				else if (WITH_COMMAS.matcher(cell).matches()) {
					if (comma[c] == null) comma[c] = "row " + line + " holds '" + cell + "'";
				}
				else failed[c] = true;
			}
		}

		/** 1,234 and 1,234,567.5 (grouped), 1,5 (decimal comma), 1.234,5 (both). */
		private static final Pattern WITH_COMMAS = Pattern
			.compile("[+-]?([0-9]{1,3}(,[0-9]{3})+(\\.[0-9]*)?|[0-9]*,[0-9]+([eE][+-]?[0-9]+)?" +
				"|[0-9]{1,3}(\\.[0-9]{3})+,[0-9]*)");

		private static boolean number(final String cell) {
			try {
				Double.parseDouble(cell);
				return true;
			}
			catch (final NumberFormatException e) {
				return false;
			}
		}

		boolean numeric(final int c) {
			return any[c] && !failed[c] && comma[c] == null;
		}

		/**
		 * Refuses a column of numbers some of which are written with commas ("1,234" quoted
		 * in a comma-separated file): a thousands separator or a decimal mark? Read as text,
		 * it would silently drop the whole column from the features.
		 */
		void requireNoCommaNumbers(final String[] header, final Object file,
			final char separator, final int labelIndex)
		{
			for (int c = 0; c < comma.length; c++)
				if (comma[c] != null && !failed[c] && c != labelIndex) throw new IllegalArgumentException(file +
					": " + comma[c] + " in column " + header[c] + ", a column of numbers: a " +
					"comma inside a number could be a thousands separator (1234) or a decimal " +
					"mark (1.234) and is not guessed" + (separator == ','
						? "; write the number without thousands separators and with a decimal point"
						: "; write it as 1234 or 1.234, or every decimal with a comma and no " +
							"thousands separator"));
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
