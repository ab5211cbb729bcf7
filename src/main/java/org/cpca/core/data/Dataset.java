package org.cpca.core.data;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;

/**
 * A data set as a matrix of <em>samples × features</em>: {@code n} rows of {@code d}
 * values each, stored as one {@code float[]} per sample (ImageJ's native 32-bit pixel
 * representation, so a 32-bit stack can be wrapped without copying).
 * <p>
 * Optional per-sample class labels (used only for reports and plots) and feature names
 * travel with the data. A dataset is never modified by this project; {@link #wrap}
 * shares the caller's arrays, so the caller must not modify them while the dataset is in
 * use.
 * <p>
 * Every value is checked once, at construction: a non-finite value is rejected with a
 * message naming the dataset, the sample and the feature, because every method here is
 * undefined on NaN or ±∞ (fill NaN with {@link MissingValues}, or model it with PCPCA:
 * docs/math/pcpca.md#missing-values).
 */
public final class Dataset {

	private final String name;
	private final float[][] rows;
	private final int features;
	private final List<String> labels;
	private final List<String> sampleNames;

	private Dataset(final String name, final float[][] rows, final int features,
		final List<String> labels, final List<String> sampleNames)
	{
		this.name = name;
		this.rows = rows;
		this.features = features;
		this.labels = labels;
		this.sampleNames = sampleNames;
	}

	/**
	 * Wraps the given rows without copying them.
	 *
	 * @param name what the user calls this data set ("target", "background", a file name);
	 *          used in every message about it
	 * @param rows one array per sample, all of the same length
	 * @throws IllegalArgumentException if there are no samples, no features, rows of
	 *           different lengths or a non-finite value
	 */
	public static Dataset wrap(final String name, final float[][] rows) {
		if (rows == null || rows.length == 0) throw new IllegalArgumentException(name +
			" has no samples: give at least two samples (slices or rows)");
		final int d = rows[0].length;
		if (d == 0) throw new IllegalArgumentException(name +
			" has no features: each sample must have at least one value");
		for (int i = 0; i < rows.length; i++)
			if (rows[i].length != d) throw new IllegalArgumentException(name + ": sample " +
				(i + 1) + " has " + rows[i].length + " features but sample 1 has " + d +
				"; all samples must have the same number of features");
		// every value finite: x − x is 0 for every finite x and NaN for NaN and ±∞ (one
		// subtraction a value, no call: a fresh JVM interprets this loop at first); rows
		// on all cores; the first bad row in sample order is reported
		final int bad = IntStream.range(0, rows.length).parallel().filter(
			i -> !finite(rows[i])).findFirst().orElse(-1);
		if (bad >= 0) {
			final float[] row = rows[bad];
			for (int j = 0; j < d; j++) {
				if (Float.isNaN(row[j])) throw new IllegalArgumentException(name + " has a " +
					"missing value (NaN) at sample " + (bad + 1) + ", feature " + (j + 1) + ": " +
					"model missing values with PCPCA (--method pcpca --missing model), or " +
					"fill them (--missing mean|zero)");
				if (!Float.isFinite(row[j])) throw new IllegalArgumentException(name +
					" has a non-finite value (" + row[j] + ") at sample " + (bad + 1) +
					", feature " + (j + 1) + ": remove or replace non-finite values first");
			}
		}
		return new Dataset(name, rows, d, null, null);
	}

	/** True if every value of the row is finite. */
	private static boolean finite(final float[] row) {
		for (final float v : row)
			if (v - v != 0) return false;
		return true;
	}

	/** Copies double-precision rows into a new dataset. */
	public static Dataset of(final String name, final double[][] rows) {
		if (rows == null || rows.length == 0) return wrap(name, new float[0][]);
		final float[][] f = new float[rows.length][];
		for (int i = 0; i < rows.length; i++) {
			f[i] = new float[rows[i].length];
			for (int j = 0; j < f[i].length; j++)
				f[i][j] = (float) rows[i][j];
		}
		return wrap(name, f);
	}

	/**
	 * The samples of several datasets with the same features, one after the other, as one
	 * dataset (rows shared, not copied; labels and sample names are dropped). Used to pool
	 * several backgrounds into one ("stacked").
	 */
	public static Dataset stack(final String name, final List<Dataset> parts) {
		if (parts.isEmpty()) throw new IllegalArgumentException(name +
			": nothing to stack; give at least one dataset");
		final int d = parts.get(0).features;
		int n = 0;
		for (final Dataset x : parts) {
			if (x.features != d) throw new IllegalArgumentException(x.name + " has " +
				x.features + " features but " + parts.get(0).name + " has " + d +
				": datasets pooled into one must have the same features");
			n += x.rows.length;
		}
		final float[][] rows = new float[n][];
		int i = 0;
		for (final Dataset x : parts)
			for (final float[] r : x.rows)
				rows[i++] = r;
		return new Dataset(name, rows, d, null, null);
	}

	/**
	 * Several backgrounds pooled into one dataset ("stacked"), named after them; a single
	 * one is returned as it is.
	 */
	public static Dataset pool(final List<Dataset> backgrounds) {
		if (backgrounds.size() == 1) return backgrounds.get(0);
		final StringBuilder name = new StringBuilder("pooled backgrounds (");
		for (int j = 0; j < backgrounds.size(); j++)
			name.append(j == 0 ? "" : ", ").append(backgrounds.get(j).name());
		return stack(name.append(")").toString(), backgrounds);
	}

	/** Returns a dataset with the same samples and one class label per sample. */
	public Dataset withLabels(final List<String> newLabels) {
		if (newLabels != null && newLabels.size() != rows.length)
			throw new IllegalArgumentException(name + " has " + rows.length +
				" samples but " + newLabels.size() +
				" labels were given: give exactly one label per sample, in sample order");
		return new Dataset(name, rows, features, newLabels == null ? null : Collections
			.unmodifiableList(new ArrayList<>(newLabels)), sampleNames);
	}

	/** Returns a dataset with the same samples and a display name per sample. */
	public Dataset withSampleNames(final List<String> names) {
		if (names != null && names.size() != rows.length)
			throw new IllegalArgumentException(name + " has " + rows.length +
				" samples but " + names.size() + " sample names were given");
		return new Dataset(name, rows, features, labels, names == null ? null
			: Collections.unmodifiableList(new ArrayList<>(names)));
	}

	/** Returns a dataset with a different name and the same samples. */
	public Dataset named(final String newName) {
		return new Dataset(newName, rows, features, labels, sampleNames);
	}

	public String name() {
		return name;
	}

	/** Number of samples, n. */
	public int samples() {
		return rows.length;
	}

	/** Number of features, d. */
	public int features() {
		return features;
	}

	/** The values of sample {@code i}; shared, not copied: do not modify. */
	public float[] row(final int i) {
		return rows[i];
	}

	/** All rows; shared, not copied: do not modify. */
	public float[][] rows() {
		return rows;
	}

	/**
	 * True if both hold the same values, sample for sample (names, labels and sample names
	 * aside). Stops at the first difference, which for two different datasets is almost
	 * always in the first sample.
	 */
	public boolean sameValues(final Dataset other) {
		if (other == this) return true;
		if (other.rows.length != rows.length || other.features != features) return false;
		for (int i = 0; i < rows.length; i++)
			if (!Arrays.equals(rows[i], other.rows[i])) return false;
		return true;
	}

	/** A copy of sample {@code i} in double precision. */
	public double[] sample(final int i) {
		final double[] out = new double[features];
		final float[] r = rows[i];
		for (int j = 0; j < features; j++)
			out[j] = r[j];
		return out;
	}

	/** Value of sample {@code i}, feature {@code j}. */
	public double value(final int i, final int j) {
		return rows[i][j];
	}

	/** Class labels, one per sample, or {@code null} when none are known. */
	public List<String> labels() {
		return labels;
	}

	/** Display names, one per sample, or {@code null}. */
	public List<String> sampleNames() {
		return sampleNames;
	}

	/** The samples at the given indices, in that order (a new dataset sharing rows). */
	public Dataset select(final int[] indices) {
		final float[][] sel = new float[indices.length][];
		final List<String> l = labels == null ? null : new ArrayList<>();
		final List<String> s = sampleNames == null ? null : new ArrayList<>();
		for (int q = 0; q < indices.length; q++) {
			sel[q] = rows[indices[q]];
			if (l != null) l.add(labels.get(indices[q]));
			if (s != null) s.add(sampleNames.get(indices[q]));
		}
		return new Dataset(name, sel, features, l, s);
	}

	@Override
	public String toString() {
		return name + " (" + rows.length + " samples × " + features + " features" +
			(labels == null ? "" : ", labelled") + ")";
	}

	/** Convenience for tests and small tables: a dense copy as doubles. */
	public double[][] toArray() {
		final double[][] out = new double[rows.length][];
		for (int i = 0; i < rows.length; i++)
			out[i] = sample(i);
		return out;
	}
}
