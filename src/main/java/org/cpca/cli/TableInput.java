package org.cpca.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

import org.cpca.core.Dataset;

/**
 * A CSV table read as samples × features.
 * <p>
 * The first row is the header. A column is a feature when every non-empty cell parses as
 * a number (and at least one does); other columns are ignored and listed. Empty cells
 * and the markers {@code NA}, {@code NaN} are missing values, handled by a
 * {@link Missing} policy chosen by the user. A UTF-8 byte-order mark is skipped; fields
 * may be quoted with double quotes ({@code ""} inside a quoted field is a quote).
 */
final class TableInput {

	/** What to do with missing cells in feature columns. */
	enum Missing {
		/** Drop every row with a missing feature value (the default: nothing is invented). */
		DROP,
		/** Replace a missing value by its column's mean over the rows that have one. */
		MEAN,
		/** Replace a missing value by 0 (what the reference cPCA notebook does). */
		ZERO
	}

	final Dataset dataset;
	final List<String> featureNames;
	final List<String> ignoredColumns;
	final List<String> labels;
	final int rowsRead;
	final int rowsDropped;
	final int cellsFilled;

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
		try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
			String line;
			boolean first = true;
			while ((line = r.readLine()) != null) {
				if (first && line.startsWith("\uFEFF")) line = line.substring(1);
				first = false;
				if (line.trim().isEmpty()) continue;
				rows.add(split(line, file.toString().toLowerCase(Locale.ROOT).endsWith(".tsv")
					? '\t' : ','));
			}
		}
		if (rows.isEmpty()) throw new IllegalArgumentException(file +
			" is empty: a table needs a header row and at least two data rows");
		final String[] header = rows.remove(0);
		if (rows.isEmpty()) throw new IllegalArgumentException(file +
			" has a header but no data rows: a table needs at least two rows of numbers");
		for (int i = 0; i < rows.size(); i++)
			if (rows.get(i).length != header.length) throw new IllegalArgumentException(file +
				": row " + (i + 2) + " has " + rows.get(i).length + " fields but the header has " +
				header.length + "; fix the row (quote fields that contain commas)");
		if (where != null && !where.isEmpty()) {
			for (final String w : where) {
				final int eq = w.indexOf('=');
				if (eq <= 0) throw new IllegalArgumentException("row filter '" + w +
					"' is not COLUMN=VALUE (e.g. Treatment=Saline)");
				final int c = indexOf(header, w.substring(0, eq).trim(), file, "row filter");
				final String value = w.substring(eq + 1).trim();
				rows.removeIf(row -> !row[c].trim().equals(value));
			}
			if (rows.isEmpty()) throw new IllegalArgumentException(file + ": no row matches " +
				String.join(" and ", where) + "; check the column values");
		}
		final int labelIndex = labelColumnOrNull == null ? -1 : indexOf(header,
			labelColumnOrNull, file, "--label-column");
		final List<Integer> features = new ArrayList<>();
		final List<String> ignored = new ArrayList<>();
		if (featureNamesOrNull != null) {
			for (final String f : featureNamesOrNull)
				features.add(indexOf(header, f, file, "the model's feature column"));
		}
		else for (int c = 0; c < header.length; c++) {
			if (c != labelIndex && numeric(rows, c)) features.add(c);
			else if (c != labelIndex) ignored.add(header[c]);
		}
		if (features.isEmpty()) throw new IllegalArgumentException(file +
			" has no numeric column: the features must be columns of numbers (empty cells " +
			"allowed); the columns found were " + String.join(", ", header));
		final int d = features.size();
		final List<double[]> values = new ArrayList<>();
		final List<String> labels = labelIndex < 0 ? null : new ArrayList<>();
		final List<String> names = new ArrayList<>();
		int dropped = 0;
		for (int i = 0; i < rows.size(); i++) {
			final String[] row = rows.get(i);
			final double[] v = new double[d];
			boolean complete = true;
			for (int j = 0; j < d; j++) {
				final String cell = row[features.get(j)].trim();
				v[j] = missingCell(cell) ? Double.NaN : parse(cell, file, i + 2, header[features
					.get(j)]);
				complete &= !Double.isNaN(v[j]);
			}
			if (!complete && missing == Missing.DROP) {
				dropped++;
				continue;
			}
			values.add(v);
			names.add("row " + (i + 2));
			if (labels != null) labels.add(row[labelIndex].trim());
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
				final double fill = missing == Missing.ZERO || count == 0 ? 0 : sum / count;
				for (final double[] v : values)
					if (Double.isNaN(v[j])) {
						v[j] = fill;
						filled++;
					}
			}
		}
		if (values.isEmpty()) throw new IllegalArgumentException(file + ": no rows left" +
			(dropped > 0 ? " after dropping " + dropped +
				" rows with missing values; use --missing mean or --missing zero" : ""));
		final List<String> featureNames = new ArrayList<>();
		for (final int c : features)
			featureNames.add(header[c]);
		Dataset ds = Dataset.of(name, values.toArray(new double[0][])).withSampleNames(
			names);
		if (labels != null) ds = ds.withLabels(labels);
		return new TableInput(ds, Collections.unmodifiableList(featureNames), Collections
			.unmodifiableList(ignored), labels, rows.size(), dropped, filled);
	}

	private static boolean missingCell(final String cell) {
		return cell.isEmpty() || cell.equalsIgnoreCase("NA") || cell.equalsIgnoreCase(
			"NaN");
	}

	private static double parse(final String cell, final Path file, final int line,
		final String column)
	{
		try {
			final double v = Double.parseDouble(cell);
			if (!Double.isFinite(v)) throw new NumberFormatException();
			return v;
		}
		catch (final NumberFormatException e) {
			throw new IllegalArgumentException(file + ": row " + line + ", column " + column +
				" holds '" + cell + "', which is not a finite number; fix the cell or leave " +
				"it empty (missing)");
		}
	}

	private static boolean numeric(final List<String[]> rows, final int c) {
		boolean any = false;
		for (final String[] row : rows) {
			final String cell = row[c].trim();
			if (missingCell(cell)) continue;
			try {
				Double.parseDouble(cell);
				any = true;
			}
			catch (final NumberFormatException e) {
				return false;
			}
		}
		return any;
	}

	private static int indexOf(final String[] header, final String name, final Path file,
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
