package org.cpca.core.contrast;

import java.util.List;
import java.util.Random;

import org.cpca.core.Progress;
import org.cpca.core.data.Dataset;
import org.cpca.core.data.Preprocessing;

/**
 * A fit from the Gram matrix of N = 2n random samples of d = N + 8 features, the samples
 * never held (each row regenerated from its seed when the components need it), then the
 * automatic α (or, with a second argument {@code solver}, only the solver's preparation;
 * with {@code memory}, the same samples held and fitted in memory, {@link Cpca#fit}): run
 * in a child JVM with a small heap by {@link GramMemoryTest}, so that the heap measures
 * the fit's N² live set (docs/memory.md). Prints "done" at the end.
 */
public final class GramFitProbe {

	private GramFitProbe() {}

	static float[] row(final int s, final int d) {
		final Random r = new Random(1000L + s);
		final float[] x = new float[d];
		for (int f = 0; f < d; f++)
			x[f] = (float) (r.nextGaussian() * (f % 7 == 0 && s % 2 == 0 ? 3 : 1));
		return x;
	}

	public static void main(final String[] args) {
		final int n = Integer.parseInt(args[0]), big = 2 * n, d = big + 8;
		if (args.length > 1 && args[1].equals("memory")) {
			// the in-memory plan: the samples held as floats (4·N·d), the same automatic α
			final float[][] t = new float[n][], b = new float[n][];
			for (int s = 0; s < big; s++)
				(s < n ? t : b)[s % n] = row(s, d);
			final Cpca fit = Cpca.fit(Dataset.wrap("target", t), List.of(Dataset.wrap(
				"background", b)), CpcaOptions.defaults().withComponents(2), Progress.NONE);
			fit.lastSolves();
			System.out.println("rank " + fit.rank() + ", models " + fit.automatic(
				Progress.NONE).models().size());
			System.out.println("done");
			return;
		}
		// each dataset's mean, then G of the centred rows, one row of samples at a time
		final double[][] mean = new double[2][d];
		for (int s = 0; s < big; s++) {
			final float[] x = row(s, d);
			for (int f = 0; f < d; f++)
				mean[s / n][f] += x[f] / (double) n;
		}
		final Cpca fit = Cpca.fromGram("target", Preprocessing.of(mean[0], null), n, null, List.of(
			"background"), new long[] { n }, gram(n, d, mean), d, CpcaOptions.defaults().withComponents(2), (y,
				k) -> {
				final double[][] v = new double[k][d];
				for (int s = 0; s < big; s++) {
					final double[] x = centred(s, d, mean, n);
					for (int c = 0; c < k; c++)
						for (int f = 0; f < d; f++)
							v[c][f] += y[s * k + c] * x[f];
				}
				return v;
			});
		if (args.length > 1 && args[1].equals("solver")) System.out.println("rank " + fit
			.rank() + ", solver prepared " + fit.solver().prepared());
		else {
			// as the cPCA family runs it: nothing is solved after the models
			fit.lastSolves();
			System.out.println("rank " + fit.rank() + ", models " + fit.automatic(
				Progress.NONE).models().size());
		}
		System.out.println("done");
	}

	/** G of the centred samples, handed over to the fit (no reference kept here). */
	private static double[] gram(final int n, final int d, final double[][] mean) {
		final int big = 2 * n;
		final double[] g = new double[big * big];
		final double[][] z = new double[big][];
		for (int s = 0; s < big; s++) {
			z[s] = centred(s, d, mean, n);
		}
		for (int i = 0; i < big; i++)
			for (int j = 0; j <= i; j++) {
				double sum = 0;
				for (int f = 0; f < d; f++)
					sum += z[i][f] * z[j][f];
				g[i * big + j] = sum;
				g[j * big + i] = sum;
			}
		for (int s = 0; s < big; s++)
			z[s] = null;
		return g;
	}

	private static double[] centred(final int s, final int d, final double[][] mean,
		final int n)
	{
		final float[] x = row(s, d);
		final double[] c = new double[d];
		for (int f = 0; f < d; f++)
			c[f] = x[f] - mean[s / n][f];
		return c;
	}
}
