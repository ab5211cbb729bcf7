package org.cpca.core.data;

/**
 * Missing values (NaN) in samples × features values: counting them and filling a copy,
 * for inputs read with a missing-value rule (NaN pixels of 32-bit images, empty table
 * cells). The values given are never modified. See docs/math/pcpca.md#missing-values for
 * the rule that models them instead of filling them.
 */
public final class MissingValues {

	private MissingValues() {}

	/** The number of NaN values. */
	public static long count(final float[][] values) {
		long c = 0;
		for (final float[] row : values)
			for (final float v : row)
				if (Float.isNaN(v)) c++;
		return c;
	}

	/**
	 * A copy with every NaN replaced by its feature's mean over the samples that have a
	 * value ({@code byMean}), or by 0.
	 *
	 * @param name what the user calls the data, for messages
	 * @throws IllegalArgumentException when a feature has no value in any sample and
	 *           {@code byMean}, or a value is infinite
	 */
	public static float[][] filled(final String name, final float[][] values,
		final boolean byMean)
	{
		final int n = values.length, d = n == 0 ? 0 : values[0].length;
		final double[] sum = new double[d];
		final int[] count = new int[d];
		for (int i = 0; i < n; i++)
			for (int j = 0; j < d; j++) {
				final float v = values[i][j];
				if (Float.isInfinite(v)) throw new IllegalArgumentException(name + " has an " +
					"infinite value at sample " + (i + 1) + ", feature " + (j + 1) + ": only " +
					"missing values (NaN) can be filled or modelled; replace it first");
				if (!Float.isNaN(v)) {
					sum[j] += v;
					count[j]++;
				}
			}
		final float[] fill = new float[d];
		for (int j = 0; j < d; j++) {
			if (byMean && count[j] == 0) throw new IllegalArgumentException(name +
				": feature " + (j + 1) + " is missing (NaN) in every sample; exclude it " +
				"with a mask, or fill with 0");
			fill[j] = byMean && count[j] > 0 ? (float) (sum[j] / count[j]) : 0f;
		}
		final float[][] out = new float[n][];
		for (int i = 0; i < n; i++) {
			out[i] = values[i].clone();
			for (int j = 0; j < d; j++)
				if (Float.isNaN(out[i][j])) out[i][j] = fill[j];
		}
		return out;
	}
}
