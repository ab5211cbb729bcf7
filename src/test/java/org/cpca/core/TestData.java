package org.cpca.core;

import org.cpca.core.contrast.Measures;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.math3.linear.CholeskyDecomposition;
import org.apache.commons.math3.linear.EigenDecomposition;
import org.apache.commons.math3.linear.LUDecomposition;
import org.apache.commons.math3.linear.MatrixUtils;
import org.apache.commons.math3.linear.RealMatrix;

/** Seeded random data and naive reference computations for the core tests. */
public final class TestData {

	private TestData() {}

	/** n samples of d features: gaussian with per-feature scales. */
	public static double[][] gaussian(final long seed, final int n, final int d,
		final double... scales)
	{
		final Random r = new Random(seed);
		final double[][] x = new double[n][d];
		for (int i = 0; i < n; i++)
			for (int j = 0; j < d; j++)
				x[i][j] = r.nextGaussian() * (j < scales.length ? scales[j] : 1) + 3;
		return x;
	}

	/** Covariance with its own mean and n − 1, computed the obvious way. */
	public static RealMatrix covariance(final double[][] x) {
		final int n = x.length, d = x[0].length;
		final double[] mean = new double[d];
		for (final double[] r : x)
			for (int j = 0; j < d; j++)
				mean[j] += r[j] / n;
		final RealMatrix c = MatrixUtils.createRealMatrix(d, d);
		for (final double[] r : x)
			for (int i = 0; i < d; i++)
				for (int j = 0; j < d; j++)
					c.addToEntry(i, j, (r[i] - mean[i]) * (r[j] - mean[j]) / (n - 1));
		return c;
	}

	/** The float rows as doubles. */
	public static double[][] toDouble(final float[][] x) {
		final double[][] out = new double[x.length][x[0].length];
		for (int i = 0; i < x.length; i++)
			for (int j = 0; j < x[i].length; j++)
				out[i][j] = x[i][j];
		return out;
	}

	/** Float-rounded copy (what a Dataset stores). */
	public static double[][] rounded(final double[][] x) {
		final double[][] out = new double[x.length][];
		for (int i = 0; i < x.length; i++) {
			out[i] = new double[x[i].length];
			for (int j = 0; j < x[i].length; j++)
				out[i][j] = (float) x[i][j];
		}
		return out;
	}

	/** Top-k eigenvectors of a symmetric matrix (rows of the result), reference solver. */
	public static double[][] topEigenvectors(final RealMatrix s, final int k) {
		final EigenDecomposition e = new EigenDecomposition(s);
		final double[] values = e.getRealEigenvalues();
		final Integer[] order = new Integer[values.length];
		for (int i = 0; i < order.length; i++)
			order[i] = i;
		java.util.Arrays.sort(order, (a, b) -> Double.compare(values[b], values[a]));
		final double[][] out = new double[k][];
		for (int c = 0; c < k; c++)
			out[c] = e.getEigenvector(order[c]).toArray();
		return out;
	}

	/** Largest principal angle between the row spaces of a and b, in radians. */
	public static double maxAngle(final double[][] a, final double[][] b) {
		final double[] angles = Measures.principalAngles(a, b);
		return angles[angles.length - 1];
	}

	/**
	 * Largest principal angle between the row spaces of a and b, in radians, from its sine
	 * ‖(I − P_a)Q_b‖₂ (Q_b orthonormal rows of b): accurate down to ~1e-15 rad, where the
	 * arccosine of {@link #maxAngle} stops at ~1e-8 rad.
	 */
	public static double maxAngleBySine(final double[][] a, final double[][] b) {
		final double[][] qa = orthonormalRows(a), qb = orthonormalRows(b);
		final double[][] r = new double[qb.length][];
		for (int i = 0; i < qb.length; i++) {
			r[i] = qb[i].clone();
			for (final double[] q : qa) {
				double dot = 0;
				for (int f = 0; f < q.length; f++)
					dot += q[f] * qb[i][f];
				for (int f = 0; f < q.length; f++)
					r[i][f] -= dot * q[f];
			}
		}
		final double[][] rrt = new double[r.length][r.length];
		for (int i = 0; i < r.length; i++)
			for (int j = 0; j < r.length; j++)
				for (int f = 0; f < r[i].length; f++)
					rrt[i][j] += r[i][f] * r[j][f];
		final double[] ev = new EigenDecomposition(
			MatrixUtils.createRealMatrix(rrt)).getRealEigenvalues();
		double max = 0;
		for (final double v : ev)
			max = Math.max(max, v);
		return Math.asin(Math.min(1, Math.sqrt(max)));
	}

	/** Orthonormal rows spanning the rows of x (modified Gram–Schmidt, twice). */
	private static double[][] orthonormalRows(final double[][] x) {
		final double[][] q = new double[x.length][];
		for (int i = 0; i < x.length; i++) {
			final double[] v = x[i].clone();
			for (int pass = 0; pass < 2; pass++)
				for (int j = 0; j < i; j++) {
					double dot = 0;
					for (int f = 0; f < v.length; f++)
						dot += q[j][f] * v[f];
					for (int f = 0; f < v.length; f++)
						v[f] -= dot * q[j][f];
				}
			double norm = 0;
			for (final double y : v)
				norm += y * y;
			norm = Math.sqrt(norm);
			for (int f = 0; f < v.length; f++)
				v[f] /= norm;
			q[i] = v;
		}
		return q;
	}

	/**
	 * Reference cPCA*: the top-k generalized eigenvectors (rows) of {@code C_t v = λ B_β v},
	 * {@code B_β = (1−β)I + βC_b}, through a Cholesky factor of B_β (dense, for tests).
	 */
	public static double[][] cpcaStar(final RealMatrix ct, final RealMatrix cb, final double beta,
		final int k)
	{
		final int d = ct.getRowDimension();
		final RealMatrix b = cb.scalarMultiply(beta).add(MatrixUtils.createRealIdentityMatrix(
			d).scalarMultiply(1 - beta));
		final RealMatrix li = new LUDecomposition(new CholeskyDecomposition(b).getL())
			.getSolver().getInverse();
		final RealMatrix s = li.multiply(ct).multiply(li.transpose());
		final double[][] u = topEigenvectors(s.add(s.transpose()).scalarMultiply(0.5), k);
		final double[][] v = new double[k][];
		for (int c = 0; c < k; c++)
			v[c] = li.transpose().operate(u[c]);
		return v;
	}

	/** Asserts that {@code r} throws an IllegalArgumentException whose message contains every part. */
	public static void assertMessage(final Runnable r, final String... parts) {
		final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
			r::run);
		for (final String p : parts)
			assertTrue(e.getMessage().contains(p), "message '" + e.getMessage() +
				"' lacks '" + p + "'");
	}

	/**
	 * A copy of {@code {target, background}} with each value made NaN (missing) with
	 * probability {@code rate}, drawn from {@code random} dataset by dataset, row by row.
	 */
	public static float[][][] withHoles(final float[][][] data, final double rate,
		final Random random)
	{
		final float[][][] holes = new float[data.length][][];
		for (int s = 0; s < data.length; s++) {
			holes[s] = new float[data[s].length][];
			for (int i = 0; i < data[s].length; i++) {
				holes[s][i] = data[s][i].clone();
				for (int j = 0; j < holes[s][i].length; j++)
					if (random.nextDouble() < rate) holes[s][i][j] = Float.NaN;
			}
		}
		return holes;
	}

	/**
	 * The unit directions {@link #planted} draws with the same seed: the first
	 * {@code shared} are in both datasets, the next {@code targetOnly} in the target only.
	 */
	public static double[][] plantedDirections(final long seed, final int features,
		final int shared, final int targetOnly)
	{
		return directions(new Random(seed), shared + targetOnly, features);
	}

	/** {@code count} random unit directions (normalised Gaussian vectors) drawn from r. */
	private static double[][] directions(final Random r, final int count,
		final int features)
	{
		final double[][] dirs = new double[count][features];
		for (final double[] v : dirs) {
			double s = 0;
			for (int j = 0; j < features; j++)
				s += (v[j] = r.nextGaussian()) * v[j];
			for (int j = 0; j < features; j++)
				v[j] /= Math.sqrt(s);
		}
		return dirs;
	}

	/**
	 * A planted contrastive problem as floats ({@code {target, background}}, samples ×
	 * features): {@code shared} random unit directions with standard deviation 10/√(c+1) in
	 * both datasets, {@code targetOnly} further directions (standard deviation 3, 2.5, …,
	 * at least 0.5) in the target only, and isotropic noise. The core tests' own generator
	 * (the benchmarks have theirs).
	 */
	public static float[][][] planted(final long seed, final int targetSamples,
		final int backgroundSamples, final int features, final int shared,
		final int targetOnly, final double noise)
	{
		final Random r = new Random(seed);
		final int q = shared + targetOnly;
		final double[][] dirs = directions(r, q, features);
		final double[] sdT = new double[q], sdB = new double[q];
		for (int c = 0; c < q; c++) {
			sdT[c] = c < shared ? 10 / Math.sqrt(c + 1) : Math.max(0.5, 3 - 0.5 * (c - shared));
			sdB[c] = c < shared ? sdT[c] : 0;
		}
		return new float[][][] { sample(r, targetSamples, dirs, sdT, noise), sample(r,
			backgroundSamples, dirs, sdB, noise) };
	}

	private static float[][] sample(final Random r, final int n, final double[][] dirs,
		final double[] sd, final double noise)
	{
		final int d = dirs[0].length;
		final float[][] x = new float[n][d];
		for (final float[] row : x) {
			final double[] v = new double[d];
			for (int j = 0; j < d; j++)
				v[j] = noise * r.nextGaussian();
			for (int c = 0; c < dirs.length; c++) {
				final double z = sd[c] * r.nextGaussian();
				for (int j = 0; j < d; j++)
					v[j] += z * dirs[c][j];
			}
			for (int j = 0; j < d; j++)
				row[j] = (float) v[j];
		}
		return x;
	}

	/** The n × n matrix held as rows, row-major in one array. */
	public static double[] flat(final double[][] rows) {
		final int n = rows.length;
		final double[] out = new double[n * n];
		for (int i = 0; i < n; i++)
			System.arraycopy(rows[i], 0, out, i * n, n);
		return out;
	}
}
