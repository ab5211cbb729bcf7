package org.cpca.core.contrast;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.cpca.core.linalg.Backend;
import org.cpca.core.linalg.Products;

/**
 * {@link ReducedSpace} built from the Gram matrix {@code G = ZZᵀ} of the stacked centred
 * samples instead of the samples themselves (for data held elsewhere, e.g. summed over
 * pixel tiles by a cluster; docs/math/spark.md): the same pivoted Cholesky
 * {@code G = LLᵀ}, the same r × r matrices, target scores {@code L_t w} with no pass over
 * the data. A component {@code Qw = ZᵀL(LᵀL)⁻¹w} needs {@code Zᵀy} for the n × k
 * coefficients {@code y = L(LᵀL)⁻¹w}: one pass over the samples, asked of a
 * {@link GramLift}. The models announced together ({@link #componentsAhead}) share one
 * pass: their coefficients side by side, n × Σk.
 */
final class GramSpace extends ContrastiveSpace {

	private final double[][] l;
	private final int nt, d;
	private final long[] nb;
	/** LᵀL's upper Cholesky factor ({@link #lTl()}); {@code null} until then. */
	private double[][] lTl;
	private final GramLift lift;
	/** Components lifted ahead, each with its coefficients w, until asked for. */
	private final List<Lifted> ahead = new ArrayList<>();

	/** The k components of the coefficients w, lifted by {@link #componentsAhead}. */
	private static final class Lifted {

		final double[] w;
		final double[][] components;

		Lifted(final double[] w, final double[][] components) {
			this.w = w;
			this.components = components;
		}
	}

	private GramSpace(final int r, final double[][] l, final double[] a,
		final double[][] backgrounds, final int nt, final long[] nb, final int d,
		final GramLift lift)
	{
		super(r, a, backgrounds);
		this.l = l;
		this.nt = nt;
		this.nb = nb.clone();
		this.d = d;
		this.lift = lift;
	}

	/** See {@link ReducedSpace#normalFactor}, formed on the first component asked for. */
	private synchronized double[][] lTl() {
		if (lTl == null) lTl = ReducedSpace.normalFactor(m, a, backgrounds, nt, nb);
		return lTl;
	}

	/**
	 * @param g ZZᵀ, N × N row-major, N = n_t + Σ n_b
	 */
	static GramSpace build(final double[] g, final int nt, final long[] nb, final int d,
		final GramLift lift)
	{
		final int n = (int) Math.round(Math.sqrt(g.length));
		// its working rows are let go before L is formed (docs/memory.md)
		final double[][] l = ReducedSpace.pivotedCholesky(g, n);
		final int r = l.length == 0 ? 0 : l[0].length;
		// one r × r accumulator for A and every B_j (the native backend needs none)
		final double[][] work = Backend.isNative() ? null : new double[r][r];
		final double[] a = Products.crossProduct(Arrays.copyOf(l, nt), r, 1.0 / (nt - 1),
			work);
		final double[][] b = new double[nb.length][];
		for (int j = 0, from = nt; j < b.length; j++) {
			final int to = from + (int) nb[j];
			b[j] = Products.crossProduct(Arrays.copyOfRange(l, from, to), r, 1.0 / (nb[j] -
				1), work);
			from = to;
		}
		return new GramSpace(r, l, a, b, nt, nb, d, lift);
	}

	@Override
	public int features() {
		return d;
	}

	@Override
	public double[][] components(final double[] w, final int k) {
		synchronized (ahead) {
			for (int i = 0; i < ahead.size(); i++)
				if (Arrays.equals(ahead.get(i).w, w) && ahead.get(i).components.length == k)
					return ahead.remove(i).components;
		}
		return normalised(lift.lift(coefficients(w, k), k));
	}

	@Override
	void componentsAhead(final List<double[]> ws, final int k) {
		final int n = l.length, wide = k * ws.size();
		if (ws.size() < 2) return;
		final double[] y = new double[n * wide];
		for (int s = 0; s < ws.size(); s++) {
			final double[] ys = coefficients(ws.get(s), k);
			for (int i = 0; i < n; i++)
				System.arraycopy(ys, i * k, y, i * wide + s * k, k);
		}
		final double[][] v = lift.lift(y, wide);
		synchronized (ahead) {
			for (int s = 0; s < ws.size(); s++)
				ahead.add(new Lifted(ws.get(s).clone(), normalised(Arrays.copyOfRange(v, s * k,
					(s + 1) * k))));
		}
	}

	/** The n × k sample coefficients {@code y = L(LᵀL)⁻¹w} of the components of w. */
	private double[] coefficients(final double[] w, final int k) {
		return ReducedSpace.rowsTimes(l, l.length, Products.choleskySolve(lTl(), w, k), k);
	}

	/** Each row scaled to unit length (rows of zeros stay). */
	private static double[][] normalised(final double[][] v) {
		for (final double[] vc : v) {
			double norm = 0;
			for (final double x : vc)
				norm += x * x;
			norm = Math.sqrt(norm);
			if (norm > 0) for (int f = 0; f < vc.length; f++)
				vc[f] /= norm;
		}
		return v;
	}

	@Override
	double[] targetScores(final double[] w, final int k) {
		return ReducedSpace.rowsTimes(l, nt, w, k);
	}

	@Override
	String description() {
		return "reduced space from the Gram matrix: r = " + m +
			" (rank of the stacked centred data) of d = " + d + " features";
	}
}
