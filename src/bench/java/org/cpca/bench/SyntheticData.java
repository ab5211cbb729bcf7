package org.cpca.bench;

import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * Seeded synthetic target/background pairs with the structure cPCA is made for: shared
 * latent directions with decaying variance present in both datasets, a few directions
 * that only the target has, and isotropic noise.
 * <p>
 * Sample i of dataset j draws its values from its own stream
 * ({@code SplittableRandom(seed, j, i)}), so generation is parallel yet bit-identical from
 * run to run and machine to machine (Box–Muller from {@link SplittableRandom} doubles, no
 * platform-dependent state).
 */
public final class SyntheticData {

	private SyntheticData() {}

	/**
	 * Target and background ({@code {target, background}}, each samples × features):
	 * {@code shared} directions with standard deviation 10/√(q+1) in both, then
	 * {@code targetOnly} directions with standard deviation 3, 2.5, 2, 1.5, … in the target
	 * only, and noise of standard deviation {@code noise}; directions are random unit
	 * vectors (not orthogonalised; nearly orthogonal in high dimension).
	 */
	public static float[][][] contrastive(final long seed, final int targetSamples,
		final int backgroundSamples, final int features, final int shared,
		final int targetOnly, final double noise)
	{
		final int q = shared + targetOnly;
		final double[][] dirs = unitDirections(seed, q, features);
		final double[] sdTarget = new double[q], sdBackground = new double[q];
		for (int c = 0; c < shared; c++)
			sdTarget[c] = sdBackground[c] = 10 / Math.sqrt(c + 1);
		for (int c = 0; c < targetOnly; c++)
			sdTarget[shared + c] = Math.max(0.5, 3 - 0.5 * c);
		return new float[][][] { generate(seed * 31 + 1, targetSamples, dirs, sdTarget,
			noise), generate(seed * 31 + 2, backgroundSamples, dirs, sdBackground, noise) };
	}

	/** q seeded random unit vectors of {@code features} values (not orthogonalised). */
	private static double[][] unitDirections(final long seed, final int q,
		final int features)
	{
		final double[][] dirs = new double[q][features];
		final SplittableRandom r = new SplittableRandom(seed);
		for (final double[] v : dirs) {
			double s = 0;
			for (int j = 0; j < features; j++) {
				v[j] = gaussian(r);
				s += v[j] * v[j];
			}
			s = Math.sqrt(s);
			for (int j = 0; j < features; j++)
				v[j] /= s;
		}
		return dirs;
	}

	/** The default benchmark structure: 30 shared directions, 4 target-only, noise 0.3. */
	public static float[][][] contrastive(final long seed, final int targetSamples,
		final int backgroundSamples, final int features)
	{
		return contrastive(seed, targetSamples, backgroundSamples, features, 30, 4, 0.3);
	}

	/**
	 * A target and several backgrounds ({@code {target, background 1, …}}, each samples ×
	 * features): background j has its own {@code nuisance} directions (standard deviation
	 * 10/√(c+1)); the target has every background's nuisance directions plus
	 * {@code targetOnly} directions of its own (standard deviation 3, 2.5, 2, …); all have
	 * isotropic noise of standard deviation {@code noise}. The case UCA with several
	 * backgrounds is made for.
	 */
	public static float[][][] severalBackgrounds(final long seed, final int targetSamples,
		final int backgroundSamples, final int backgrounds, final int features,
		final int nuisance, final int targetOnly, final double noise)
	{
		final int q = backgrounds * nuisance + targetOnly;
		final double[][] dirs = unitDirections(seed, q, features);
		final float[][][] out = new float[backgrounds + 1][][];
		final double[] sdTarget = new double[q];
		for (int b = 0; b < backgrounds; b++) {
			final double[] sd = new double[q];
			for (int c = 0; c < nuisance; c++)
				sd[b * nuisance + c] = sdTarget[b * nuisance + c] = 10 / Math.sqrt(c + 1);
			out[b + 1] = generate(seed * 31 + 2 + b, backgroundSamples, dirs, sd, noise);
		}
		for (int c = 0; c < targetOnly; c++)
			sdTarget[backgrounds * nuisance + c] = Math.max(0.5, 3 - 0.5 * c);
		out[0] = generate(seed * 31 + 1, targetSamples, dirs, sdTarget, noise);
		return out;
	}

	private static float[][] generate(final long seed, final int n, final double[][] dirs,
		final double[] sd, final double noise)
	{
		final int d = dirs[0].length;
		final float[][] x = new float[n][];
		IntStream.range(0, n).parallel().forEach(i -> {
			final SplittableRandom r = new SplittableRandom(seed * 1_000_003L + i);
			final double[] row = new double[d];
			for (int q = 0; q < dirs.length; q++) {
				if (sd[q] == 0) continue;
				final double z = gaussian(r) * sd[q];
				final double[] v = dirs[q];
				for (int j = 0; j < d; j++)
					row[j] += z * v[j];
			}
			final float[] out = new float[d];
			for (int j = 0; j < d; j++)
				out[j] = (float) (row[j] + noise * gaussian(r));
			x[i] = out;
		});
		return x;
	}

	private static double gaussian(final SplittableRandom r) {
		final double u1 = 1 - r.nextDouble(), u2 = r.nextDouble();
		return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
	}
}
