package org.cpca.core.contrast;

import java.util.List;

import org.cpca.core.Memory;

import org.cpca.core.Progress;
import org.cpca.core.data.Dataset;
import org.cpca.core.data.Preprocessing;

/**
 * The space in which {@code C(α) = A − αB} is solved, built once per fit: every α, the
 * α = ∞ solution, PCA and the automatic α sweep reuse it.
 * <p>
 * Two exact realisations exist. {@link FeatureSpace} holds the d × d covariances
 * themselves. {@link ReducedSpace} holds their restriction to the row space of the
 * stacked centred data (r × r, r ≤ n_t + n_b − 2), which is exact because every direction
 * orthogonal to that row space has zero target and zero background variance. The reduced
 * space is chosen when features outnumber samples, so images with far more pixels than
 * slices never need a d × d matrix.
 */
public abstract class ContrastiveSpace {

	/** How to choose the space. */
	enum Choice {
		/** The reduced space when d exceeds n_t + n_b, the feature space otherwise. */
		AUTO,
		/** Always the d × d feature space. */
		FEATURES,
		/** Always the reduced space. */
		REDUCED
	}

	public final int m;
	/** The target covariance A (m × m, row-major). */
	public final double[] a;
	/** The first background's covariance B (zero without a background). */
	public final double[] b;
	/** Every background's covariance B_j, in the order given (empty without a background). */
	public final double[][] backgrounds;
	public final double targetTotalVariance;
	/** Frobenius norms ‖A‖_F and ‖B‖_F (of the first background), computed once. */
	public final double normA, normB;

	ContrastiveSpace(final int m, final double[] a, final double[][] backgrounds) {
		this(m, a, backgrounds, Double.NaN);
	}

	/** @param totalVariance the target's total variance, or NaN for the trace of A */
	ContrastiveSpace(final int m, final double[] a, final double[][] backgrounds,
		final double totalVariance)
	{
		this.m = m;
		this.a = a;
		this.backgrounds = backgrounds;
		this.b = backgrounds.length > 0 ? backgrounds[0] : new double[m * m];
		double trace = 0;
		for (int i = 0; i < m; i++)
			trace += a[i * m + i];
		this.targetTotalVariance = Double.isNaN(totalVariance) ? trace : totalVariance;
		this.normA = frobenius(a);
		this.normB = frobenius(b);
	}

	/** Frobenius norm of a flat matrix. */
	private static double frobenius(final double[] x) {
		double s = 0;
		for (final double v : x)
			s += v * v;
		return Math.sqrt(s);
	}

	/**
	 * @param backgrounds none, one, or several (UCA); each centred by its own
	 *          preprocessing in {@code backgroundPre}
	 */
	static ContrastiveSpace build(final Dataset target, final Preprocessing targetPre,
		final Dataset[] backgrounds, final Preprocessing[] backgroundPre,
		final Choice choice, final Progress progress)
	{
		int n = target.samples();
		for (final Dataset x : backgrounds)
			n += x.samples();
		final boolean reduced = choice == Choice.REDUCED || choice == Choice.AUTO && target
			.features() > n;
		requireMemory(reduced, n, target.features(), backgrounds.length);
		return reduced ? ReducedSpace.build(target, targetPre, backgrounds, backgroundPre,
			progress) : FeatureSpace.build(target, targetPre, backgrounds, backgroundPre,
				progress);
	}

	/**
	 * Refuses a space that cannot fit in memory, before it is built: the feature space
	 * holds one d × d covariance per dataset plus the eigensolver's work (two more); the
	 * reduced space an n × n Gram matrix per dataset, its factors and the n × d basis
	 * (see docs/bad-inputs.md).
	 */
	static void requireMemory(final boolean reduced, final long n, final long d,
		final int backgrounds)
	{
		final long m = reduced ? n : d;
		long bytes = Memory.times(Memory.doubles(m, m), backgrounds + 3L);
		if (reduced) bytes = Math.min(Long.MAX_VALUE - 1, bytes) + Memory.doubles(n, Math.min(n,
			d));
		Memory.require((reduced ? "the reduced space (n = " + n + " samples)"
			: "the covariances (" + d + " × " + d + " features)"), bytes,
			"use fewer features (--bin 2, --mask)" + (reduced ? " or fewer samples" : "") +
				", or --method online (streams the samples)");
	}

	/** Dimension of the space (d, or the rank r of the stacked data). */
	public final int dimension() {
		return m;
	}

	/**
	 * {@code w_cᵀ S w_c} for every column c of the m × k matrix w, in one pass over S
	 * (row-major, symmetric).
	 */
	public final double[] quadratics(final double[] s, final double[] w, final int k) {
		final double[][] cols = new double[k][m];
		for (int j = 0; j < m; j++)
			for (int c = 0; c < k; c++)
				cols[c][j] = w[j * k + c];
		final double[] out = new double[k];
		// columns in pairs: each pass over S (memory-bound for large m) serves two
		for (int c = 0; c < k; c += 2) {
			final double[] x = cols[c], y = c + 1 < k ? cols[c + 1] : cols[c];
			double sx = 0, sy = 0;
			for (int i = 0; i < m; i++) {
				final int o = i * m;
				double x0 = 0, x1 = 0, y0 = 0, y1 = 0;
				int j = 0;
				for (; j + 1 < m; j += 2) {
					final double v0 = s[o + j], v1 = s[o + j + 1];
					x0 += v0 * x[j];
					x1 += v1 * x[j + 1];
					y0 += v0 * y[j];
					y1 += v1 * y[j + 1];
				}
				if (j < m) {
					x0 += s[o + j] * x[j];
					y0 += s[o + j] * y[j];
				}
				sx += x[i] * (x0 + x1);
				sy += y[i] * (y0 + y1);
			}
			out[c] = sx;
			if (c + 1 < k) out[c + 1] = sy;
		}
		return out;
	}

	/** Number of features d (m = d in the feature space, m = r ≤ d in the reduced space). */
	public abstract int features();

	/** Unit components in feature space (k × d) of the columns of w (m × k). */
	public abstract double[][] components(double[] w, int k);

	/**
	 * Says which coefficient matrices {@link #components} will be asked for next, so that a
	 * space whose components take a pass over the data ({@link GramSpace}) lifts them all
	 * in one; the others need nothing ahead.
	 *
	 * @param ws m × k coefficients each (row-major), compared by their entries
	 */
	void componentsAhead(final List<double[]> ws, final int k) {}

	/** Target scores (n_t × k, row-major) of the columns of w. */
	abstract double[] targetScores(double[] w, int k);

	/** One line for diagnostics, e.g. "reduced space: r = 998 of d = 65536 features". */
	abstract String description();
}
