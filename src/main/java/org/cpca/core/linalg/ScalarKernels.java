package org.cpca.core.linalg;

/**
 * The inner loops of {@link Products} in plain Java, written for the JIT's
 * auto-vectoriser: each adds four rows, scaled, into one output row (four chained fused
 * multiply–adds over separate arrays). Every output entry is the sequence of fused
 * multiply–adds over the summation index in ascending order, starting from its current
 * value; {@link Kernels} explains why that order is fixed.
 */
final class ScalarKernels implements Kernels {


	public void syrkRows(final double[][] g, final double[][] p, final int count,
		final int i0, final int i1)
	{
		final int m = g.length;
		int s = 0;
		for (; s + 3 < count; s += 4) {
			final double[] p0 = p[s], p1 = p[s + 1], p2 = p[s + 2], p3 = p[s + 3];
			for (int i = i0; i < i1; i++) {
				final double a0 = p0[i], a1 = p1[i], a2 = p2[i], a3 = p3[i];
				// adds nothing (the data are finite): skipped, e.g. the zero block of kernel
				// features
				if (a0 == 0 && a1 == 0 && a2 == 0 && a3 == 0) continue;
				final double[] gi = g[i];
				for (int j = i; j < m; j++)
					gi[j] = Math.fma(a3, p3[j], Math.fma(a2, p2[j], Math.fma(a1, p1[j], Math.fma(
						a0, p0[j], gi[j]))));
			}
		}
		for (; s < count; s++) {
			final double[] p0 = p[s];
			for (int i = i0; i < i1; i++) {
				final double a0 = p0[i];
				if (a0 == 0) continue;
				final double[] gi = g[i];
				for (int j = i; j < m; j++)
					gi[j] = Math.fma(a0, p0[j], gi[j]);
			}
		}
	}


	/** acc[i][j] += Σ_{s ∈ [c0, c1)} p_s[i] p_s[j] for rows i0…i1−1, j ≥ i, in float. */
	public void floatRows(final float[][] acc, final float[][] p, final int c0,
		final int c1, final int i0, final int i1)
	{
		final int n = acc.length;
		int s = c0;
		for (; s + 3 < c1; s += 4) {
			final float[] p0 = p[s], p1 = p[s + 1], p2 = p[s + 2], p3 = p[s + 3];
			for (int i = i0; i < i1; i++) {
				final float a0 = p0[i], a1 = p1[i], a2 = p2[i], a3 = p3[i];
				final float[] ai = acc[i];
				// fused multiply–adds (exactly specified, so deterministic): ~15 % faster
				for (int j = i; j < n; j++)
					ai[j] = Math.fma(a3, p3[j], Math.fma(a2, p2[j], Math.fma(a1, p1[j], Math
						.fma(a0, p0[j], ai[j]))));
			}
		}
		for (; s < c1; s++) {
			final float[] p0 = p[s];
			for (int i = i0; i < i1; i++) {
				final float a0 = p0[i];
				final float[] ai = acc[i];
				for (int j = i; j < n; j++)
					ai[j] = Math.fma(a0, p0[j], ai[j]);
			}
		}
	}


	public void timesBlock(final double[][] x, final double[][] l,
		final double[][] out, final int v0, final int v1, final int i0, final int i1,
		final int t0, final int q)
	{
		int t = t0;
		for (; t + 3 < q; t += 4) {
			final double[] l0 = l[t], l1 = l[t + 1], l2 = l[t + 2], l3 = l[t + 3];
			for (int v = v0; v < v1; v++) {
				final double[] xv = x[v], y = out[v];
				final double a0 = xv[t], a1 = xv[t + 1], a2 = xv[t + 2], a3 = xv[t + 3];
				if (a0 == 0 && a1 == 0 && a2 == 0 && a3 == 0) continue;
				for (int i = i0; i < i1; i++)
					y[i] = Math.fma(a3, l3[i], Math.fma(a2, l2[i], Math.fma(a1, l1[i], Math.fma(a0,
						l0[i], y[i]))));
			}
		}
		for (; t < q; t++) {
			final double[] l0 = l[t];
			for (int v = v0; v < v1; v++) {
				final double a0 = x[v][t];
				if (a0 == 0) continue;
				final double[] y = out[v];
				for (int i = i0; i < i1; i++)
					y[i] = Math.fma(a0, l0[i], y[i]);
			}
		}
	}

	@Override
	public String toString() {
		return "scalar";
	}
}
