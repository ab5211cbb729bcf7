package org.cpca.core.linalg;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * The inner loops of {@link Products} on the JDK's Vector API (incubating in Java 17:
 * {@code --add-modules jdk.incubator.vector}), bit-identical to {@link ScalarKernels}
 * (see {@link Kernels}).
 * <p>
 * Register-blocked tiles, as in a BLAS micro-kernel: a tile of 4 output rows × 3 vectors
 * (4 × 24 doubles or 4 × 48 floats with 512-bit vectors) is held in twelve vector
 * registers while the summation index runs its whole range; each step loads three
 * vectors of the right factor, broadcasts four scalars of the left one and issues twelve
 * fused multiply–adds, so the loop is bound by the multiply–add units rather than by
 * loads and stores, which the scalar kernels' one-row axpys are. Each entry still gets
 * its own fused multiply–adds in ascending order from its current value, so the result
 * does not depend on the tiling. Each row tile sweeps its columns left to right (a tile's
 * columns of the right factor follow the previous tile's in memory), the symmetric
 * updates block by block of {@value #BLOCK} columns, so that a block of the factor stays
 * in cache for all the row tiles of a band; they start a row tile at its first row's
 * diagonal rounded down to a whole vector, so its rows also get a few entries below the
 * diagonal, which {@link Kernels} declares workspace. Edges: tiles of
 * 4 rows × 1 vector, single rows, and, for the last columns short of a vector, the same
 * tiles on a zero-padded copy of those columns.
 * <p>
 * The float update is the double one line for line with the element type changed: Java
 * has no generics over primitive arrays and vectors, and the Vector API is fast only on
 * its concrete types. A change to one is made to the other; {@code KernelsTest} checks
 * both against the scalar kernels.
 * <p>
 * Compiled from {@code src/main/vector} with {@code --release 17}; loaded by
 * {@link Kernels#best} only when the module is present, and used by {@link
 * WarmingKernels} once the JIT has compiled it.
 */
final class VectorKernels implements Kernels {

	private static final VectorSpecies<Double> D = DoubleVector.SPECIES_PREFERRED;
	private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
	private static final int DV = D.length();
	private static final int FV = F.length();

	/**
	 * Columns per block of the symmetric updates: a whole number of 3-vector tiles for 256-
	 * and 512-bit vectors of doubles and floats, small enough that a block of 256 rows of
	 * the factor (480 KB in double) stays in the L2 cache.
	 */
	private static final int BLOCK = 240;

	/**
	 * Fewer rows than this in a block product go to the scalar kernel (see timesBlock;
	 * WarmingKernels' warm-up product has more, so that the tiles are what it compiles).
	 */
	private static final int MIN_TILED_ROWS = 8;
	/** More terms than this in a block product go to the scalar kernel (see timesBlock). */
	private static final int MAX_TILED_TERMS = 1024;
	private static final Kernels SCALAR = new ScalarKernels();

	/** Per-thread scratch rows for the edge tiles. */
	private static final ThreadLocal<double[][]> DOUBLE_SCRATCH = new ThreadLocal<>();
	private static final ThreadLocal<float[][]> FLOAT_SCRATCH = new ThreadLocal<>();

	/** Refuses (throws) where the API would only emulate vectors. */
	VectorKernels() {
		if (VectorShape.preferredShape().vectorBitSize() < 256 || DV < 4)
			throw new UnsupportedOperationException("no 256-bit vectors on this CPU");
	}

	@Override
	public String toString() {
		return "vector (" + D.vectorBitSize() + "-bit)";
	}

	/** At least {@code rows} scratch rows of at least {@code width}, this thread's own. */
	private static double[][] doubleScratch(final int rows, final int width) {
		double[][] s = DOUBLE_SCRATCH.get();
		if (s == null || s.length < rows || s[0].length < width) {
			s = new double[Math.max(rows, s == null ? 0 : s.length)][Math.max(width, s == null
				? 0 : s[0].length)];
			DOUBLE_SCRATCH.set(s);
		}
		return s;
	}

	private static float[][] floatScratch(final int rows, final int width) {
		float[][] s = FLOAT_SCRATCH.get();
		if (s == null || s.length < rows || s[0].length < width) {
			s = new float[Math.max(rows, s == null ? 0 : s.length)][Math.max(width, s == null
				? 0 : s[0].length)];
			FLOAT_SCRATCH.set(s);
		}
		return s;
	}

	// ---- symmetric rank-k update, double ----

	@Override
	public void syrkRows(final double[][] g, final double[][] p, final int count, final int i0,
		final int i1)
	{
		final int m = g.length;
		// column blocks of BLOCK: the factor's columns of one block stay in cache while the
		// band's row tiles sweep it; a row tile starts at its first row's diagonal, rounded
		// down to a whole vector from i0 (the entries left of the diagonal are workspace)
		for (int jb = i0; jb < m; jb += BLOCK) {
			final int jEnd = Math.min(m, jb + BLOCK);
			int i = i0;
			for (; i + 3 < i1 && i < jEnd; i += 4)
				syrkSweep4(g, p, count, i, Math.max(jb, i - (i - i0) % DV), jEnd);
			if (i + 3 < i1) continue;
			for (; i < i1 && i < jEnd; i++)
				syrkSweep1(g, p, count, i, Math.max(jb, i - (i - i0) % DV), jEnd);
		}
	}

	/** Rows i … i + 3, columns j … jEnd − 1: 4 × 3-vector tiles, then narrower ones. */
	private static void syrkSweep4(final double[][] g, final double[][] p, final int count,
		final int i, int j, final int jEnd)
	{
		for (; j + 3 * DV <= jEnd; j += 3 * DV)
			syrk4x3(g, p, count, i, j);
		for (; j + DV <= jEnd; j += DV)
			syrk4x1(g, p, count, i, j);
		if (j < jEnd) syrkEdge(g, p, count, i, 4, j, jEnd);
	}

	/** Row i, columns j … jEnd − 1. */
	private static void syrkSweep1(final double[][] g, final double[][] p, final int count,
		final int i, int j, final int jEnd)
	{
		for (; j + 3 * DV <= jEnd; j += 3 * DV)
			syrk1x3(g, p, count, i, j);
		for (; j + DV <= jEnd; j += DV)
			syrk1x1(g, p, count, i, j);
		if (j < jEnd) syrkEdge(g, p, count, i, 1, j, jEnd);
	}

	/**
	 * Rows i … i + rows − 1 (rows = 1 or 4), columns j … jEnd − 1 (fewer than a vector): the
	 * same tiles on this thread's scratch rows, which hold per step the rows' factors and
	 * then those columns zero-padded to a vector, and the accumulator likewise.
	 */
	private static void syrkEdge(final double[][] g, final double[][] p, final int count,
		final int i, final int rows, final int j, final int jEnd)
	{
		final int w = jEnd - j;
		// rows S0 … S1 − 1: the steps (the tile rows' factors, then the columns); the next
		// four: the accumulator rows, in the same layout
		final double[][] s = doubleScratch(count + 4, 4 + DV);
		for (int t = 0; t < count; t++) {
			final double[] row = s[t], pt = p[t];
			for (int r = 0; r < rows; r++)
				row[r] = pt[i + r];
			System.arraycopy(pt, j, row, 4, w);
			java.util.Arrays.fill(row, 4 + w, 4 + DV, 0);
		}
		final double[][] acc = { s[count], s[count + 1], s[count + 2], s[count + 3] };
		for (int r = 0; r < rows; r++) {
			System.arraycopy(g[i + r], j, acc[r], 4, w);
			java.util.Arrays.fill(acc[r], 4 + w, 4 + DV, 0);
		}
		if (rows == 4) syrk4x1(acc, s, count, 0, 4);
		else syrk1x1(acc, s, count, 0, 4);
		for (int r = 0; r < rows; r++)
			System.arraycopy(acc[r], 4, g[i + r], j, w);
	}

	private static void syrk4x3(final double[][] g, final double[][] p, final int count,
		final int i, final int j)
	{
		final double[] g0 = g[i], g1 = g[i + 1], g2 = g[i + 2], g3 = g[i + 3];
		final int j1 = j + DV, j2 = j + 2 * DV;
		DoubleVector c00 = DoubleVector.fromArray(D, g0, j), c01 = DoubleVector.fromArray(D, g0, j1),
			c02 = DoubleVector.fromArray(D, g0, j2);
		DoubleVector c10 = DoubleVector.fromArray(D, g1, j), c11 = DoubleVector.fromArray(D, g1, j1),
			c12 = DoubleVector.fromArray(D, g1, j2);
		DoubleVector c20 = DoubleVector.fromArray(D, g2, j), c21 = DoubleVector.fromArray(D, g2, j1),
			c22 = DoubleVector.fromArray(D, g2, j2);
		DoubleVector c30 = DoubleVector.fromArray(D, g3, j), c31 = DoubleVector.fromArray(D, g3, j1),
			c32 = DoubleVector.fromArray(D, g3, j2);
		for (int s = 0; s < count; s++) {
			final double[] ps = p[s];
			final DoubleVector b0 = DoubleVector.fromArray(D, ps, j);
			final DoubleVector b1 = DoubleVector.fromArray(D, ps, j1);
			final DoubleVector b2 = DoubleVector.fromArray(D, ps, j2);
			DoubleVector a = DoubleVector.broadcast(D, ps[i]);
			c00 = b0.fma(a, c00);
			c01 = b1.fma(a, c01);
			c02 = b2.fma(a, c02);
			a = DoubleVector.broadcast(D, ps[i + 1]);
			c10 = b0.fma(a, c10);
			c11 = b1.fma(a, c11);
			c12 = b2.fma(a, c12);
			a = DoubleVector.broadcast(D, ps[i + 2]);
			c20 = b0.fma(a, c20);
			c21 = b1.fma(a, c21);
			c22 = b2.fma(a, c22);
			a = DoubleVector.broadcast(D, ps[i + 3]);
			c30 = b0.fma(a, c30);
			c31 = b1.fma(a, c31);
			c32 = b2.fma(a, c32);
		}
		c00.intoArray(g0, j);
		c01.intoArray(g0, j1);
		c02.intoArray(g0, j2);
		c10.intoArray(g1, j);
		c11.intoArray(g1, j1);
		c12.intoArray(g1, j2);
		c20.intoArray(g2, j);
		c21.intoArray(g2, j1);
		c22.intoArray(g2, j2);
		c30.intoArray(g3, j);
		c31.intoArray(g3, j1);
		c32.intoArray(g3, j2);
	}

	private static void syrk4x1(final double[][] g, final double[][] p, final int count,
		final int i, final int j)
	{
		final double[] g0 = g[i], g1 = g[i + 1], g2 = g[i + 2], g3 = g[i + 3];
		DoubleVector c0 = DoubleVector.fromArray(D, g0, j), c1 = DoubleVector.fromArray(D, g1, j),
			c2 = DoubleVector.fromArray(D, g2, j), c3 = DoubleVector.fromArray(D, g3, j);
		for (int s = 0; s < count; s++) {
			final double[] ps = p[s];
			final DoubleVector b = DoubleVector.fromArray(D, ps, j);
			c0 = b.fma(DoubleVector.broadcast(D, ps[i]), c0);
			c1 = b.fma(DoubleVector.broadcast(D, ps[i + 1]), c1);
			c2 = b.fma(DoubleVector.broadcast(D, ps[i + 2]), c2);
			c3 = b.fma(DoubleVector.broadcast(D, ps[i + 3]), c3);
		}
		c0.intoArray(g0, j);
		c1.intoArray(g1, j);
		c2.intoArray(g2, j);
		c3.intoArray(g3, j);
	}

	private static void syrk1x3(final double[][] g, final double[][] p, final int count,
		final int i, final int j)
	{
		final double[] g0 = g[i];
		final int j1 = j + DV, j2 = j + 2 * DV;
		DoubleVector c0 = DoubleVector.fromArray(D, g0, j), c1 = DoubleVector.fromArray(D, g0, j1),
			c2 = DoubleVector.fromArray(D, g0, j2);
		for (int s = 0; s < count; s++) {
			final double[] ps = p[s];
			final DoubleVector a = DoubleVector.broadcast(D, ps[i]);
			c0 = DoubleVector.fromArray(D, ps, j).fma(a, c0);
			c1 = DoubleVector.fromArray(D, ps, j1).fma(a, c1);
			c2 = DoubleVector.fromArray(D, ps, j2).fma(a, c2);
		}
		c0.intoArray(g0, j);
		c1.intoArray(g0, j1);
		c2.intoArray(g0, j2);
	}

	private static void syrk1x1(final double[][] g, final double[][] p, final int count,
		final int i, final int j)
	{
		DoubleVector c = DoubleVector.fromArray(D, g[i], j);
		for (int s = 0; s < count; s++) {
			final double[] ps = p[s];
			c = DoubleVector.fromArray(D, ps, j).fma(DoubleVector.broadcast(D, ps[i]), c);
		}
		c.intoArray(g[i], j);
	}

	// ---- symmetric rank-k update, float ----

	@Override
	public void floatRows(final float[][] g, final float[][] p, final int s0, final int s1, final int i0,
		final int i1)
	{
		final int m = g.length;
		// column blocks of BLOCK: the factor's columns of one block stay in cache while the
		// band's row tiles sweep it; a row tile starts at its first row's diagonal, rounded
		// down to a whole vector from i0 (the entries left of the diagonal are workspace)
		for (int jb = i0; jb < m; jb += BLOCK) {
			final int jEnd = Math.min(m, jb + BLOCK);
			int i = i0;
			for (; i + 3 < i1 && i < jEnd; i += 4)
				floatSweep4(g, p, s0, s1, i, Math.max(jb, i - (i - i0) % FV), jEnd);
			if (i + 3 < i1) continue;
			for (; i < i1 && i < jEnd; i++)
				floatSweep1(g, p, s0, s1, i, Math.max(jb, i - (i - i0) % FV), jEnd);
		}
	}

	/** Rows i … i + 3, columns j … jEnd − 1: 4 × 3-vector tiles, then narrower ones. */
	private static void floatSweep4(final float[][] g, final float[][] p, final int s0, final int s1,
		final int i, int j, final int jEnd)
	{
		for (; j + 3 * FV <= jEnd; j += 3 * FV)
			float4x3(g, p, s0, s1, i, j);
		for (; j + FV <= jEnd; j += FV)
			float4x1(g, p, s0, s1, i, j);
		if (j < jEnd) floatEdge(g, p, s0, s1, i, 4, j, jEnd);
	}

	/** Row i, columns j … jEnd − 1. */
	private static void floatSweep1(final float[][] g, final float[][] p, final int s0, final int s1,
		final int i, int j, final int jEnd)
	{
		for (; j + 3 * FV <= jEnd; j += 3 * FV)
			float1x3(g, p, s0, s1, i, j);
		for (; j + FV <= jEnd; j += FV)
			float1x1(g, p, s0, s1, i, j);
		if (j < jEnd) floatEdge(g, p, s0, s1, i, 1, j, jEnd);
	}

	/**
	 * Rows i … i + rows − 1 (rows = 1 or 4), columns j … jEnd − 1 (fewer than a vector): the
	 * same tiles on this thread's scratch rows, which hold per step the rows' factors and
	 * then those columns zero-padded to a vector, and the accumulator likewise.
	 */
	private static void floatEdge(final float[][] g, final float[][] p, final int s0, final int s1,
		final int i, final int rows, final int j, final int jEnd)
	{
		final int w = jEnd - j;
		// rows S0 … S1 − 1: the steps (the tile rows' factors, then the columns); the next
		// four: the accumulator rows, in the same layout
		final float[][] s = floatScratch(s1 + 4, 4 + FV);
		for (int t = s0; t < s1; t++) {
			final float[] row = s[t], pt = p[t];
			for (int r = 0; r < rows; r++)
				row[r] = pt[i + r];
			System.arraycopy(pt, j, row, 4, w);
			java.util.Arrays.fill(row, 4 + w, 4 + FV, 0);
		}
		final float[][] acc = { s[s1], s[s1 + 1], s[s1 + 2], s[s1 + 3] };
		for (int r = 0; r < rows; r++) {
			System.arraycopy(g[i + r], j, acc[r], 4, w);
			java.util.Arrays.fill(acc[r], 4 + w, 4 + FV, 0);
		}
		if (rows == 4) float4x1(acc, s, s0, s1, 0, 4);
		else float1x1(acc, s, s0, s1, 0, 4);
		for (int r = 0; r < rows; r++)
			System.arraycopy(acc[r], 4, g[i + r], j, w);
	}

	private static void float4x3(final float[][] g, final float[][] p, final int s0, final int s1,
		final int i, final int j)
	{
		final float[] g0 = g[i], g1 = g[i + 1], g2 = g[i + 2], g3 = g[i + 3];
		final int j1 = j + FV, j2 = j + 2 * FV;
		FloatVector c00 = FloatVector.fromArray(F, g0, j), c01 = FloatVector.fromArray(F, g0, j1),
			c02 = FloatVector.fromArray(F, g0, j2);
		FloatVector c10 = FloatVector.fromArray(F, g1, j), c11 = FloatVector.fromArray(F, g1, j1),
			c12 = FloatVector.fromArray(F, g1, j2);
		FloatVector c20 = FloatVector.fromArray(F, g2, j), c21 = FloatVector.fromArray(F, g2, j1),
			c22 = FloatVector.fromArray(F, g2, j2);
		FloatVector c30 = FloatVector.fromArray(F, g3, j), c31 = FloatVector.fromArray(F, g3, j1),
			c32 = FloatVector.fromArray(F, g3, j2);
		for (int s = s0; s < s1; s++) {
			final float[] ps = p[s];
			final FloatVector b0 = FloatVector.fromArray(F, ps, j);
			final FloatVector b1 = FloatVector.fromArray(F, ps, j1);
			final FloatVector b2 = FloatVector.fromArray(F, ps, j2);
			FloatVector a = FloatVector.broadcast(F, ps[i]);
			c00 = b0.fma(a, c00);
			c01 = b1.fma(a, c01);
			c02 = b2.fma(a, c02);
			a = FloatVector.broadcast(F, ps[i + 1]);
			c10 = b0.fma(a, c10);
			c11 = b1.fma(a, c11);
			c12 = b2.fma(a, c12);
			a = FloatVector.broadcast(F, ps[i + 2]);
			c20 = b0.fma(a, c20);
			c21 = b1.fma(a, c21);
			c22 = b2.fma(a, c22);
			a = FloatVector.broadcast(F, ps[i + 3]);
			c30 = b0.fma(a, c30);
			c31 = b1.fma(a, c31);
			c32 = b2.fma(a, c32);
		}
		c00.intoArray(g0, j);
		c01.intoArray(g0, j1);
		c02.intoArray(g0, j2);
		c10.intoArray(g1, j);
		c11.intoArray(g1, j1);
		c12.intoArray(g1, j2);
		c20.intoArray(g2, j);
		c21.intoArray(g2, j1);
		c22.intoArray(g2, j2);
		c30.intoArray(g3, j);
		c31.intoArray(g3, j1);
		c32.intoArray(g3, j2);
	}

	private static void float4x1(final float[][] g, final float[][] p, final int s0, final int s1,
		final int i, final int j)
	{
		final float[] g0 = g[i], g1 = g[i + 1], g2 = g[i + 2], g3 = g[i + 3];
		FloatVector c0 = FloatVector.fromArray(F, g0, j), c1 = FloatVector.fromArray(F, g1, j),
			c2 = FloatVector.fromArray(F, g2, j), c3 = FloatVector.fromArray(F, g3, j);
		for (int s = s0; s < s1; s++) {
			final float[] ps = p[s];
			final FloatVector b = FloatVector.fromArray(F, ps, j);
			c0 = b.fma(FloatVector.broadcast(F, ps[i]), c0);
			c1 = b.fma(FloatVector.broadcast(F, ps[i + 1]), c1);
			c2 = b.fma(FloatVector.broadcast(F, ps[i + 2]), c2);
			c3 = b.fma(FloatVector.broadcast(F, ps[i + 3]), c3);
		}
		c0.intoArray(g0, j);
		c1.intoArray(g1, j);
		c2.intoArray(g2, j);
		c3.intoArray(g3, j);
	}

	private static void float1x3(final float[][] g, final float[][] p, final int s0, final int s1,
		final int i, final int j)
	{
		final float[] g0 = g[i];
		final int j1 = j + FV, j2 = j + 2 * FV;
		FloatVector c0 = FloatVector.fromArray(F, g0, j), c1 = FloatVector.fromArray(F, g0, j1),
			c2 = FloatVector.fromArray(F, g0, j2);
		for (int s = s0; s < s1; s++) {
			final float[] ps = p[s];
			final FloatVector a = FloatVector.broadcast(F, ps[i]);
			c0 = FloatVector.fromArray(F, ps, j).fma(a, c0);
			c1 = FloatVector.fromArray(F, ps, j1).fma(a, c1);
			c2 = FloatVector.fromArray(F, ps, j2).fma(a, c2);
		}
		c0.intoArray(g0, j);
		c1.intoArray(g0, j1);
		c2.intoArray(g0, j2);
	}

	private static void float1x1(final float[][] g, final float[][] p, final int s0, final int s1,
		final int i, final int j)
	{
		FloatVector c = FloatVector.fromArray(F, g[i], j);
		for (int s = s0; s < s1; s++) {
			final float[] ps = p[s];
			c = FloatVector.fromArray(F, ps, j).fma(FloatVector.broadcast(F, ps[i]), c);
		}
		c.intoArray(g[i], j);
	}

	// ---- block product, double ----

	@Override
	public void timesBlock(final double[][] x, final double[][] l, final double[][] out,
		final int v0, final int v1, final int i0, final int i1, final int t0, final int q)
	{
		// Tiles read l down its columns, q rows apart; the scalar kernel reads it along its
		// rows. Where l must come from memory — a few rows of x (a solver's product of a
		// d × d matrix with a few vectors), or many terms (q rows of l, each a page apart,
		// more than the prefetchers follow) — the strided walk loses: an automatic-α sweep
		// at d = 3,136 took 33.5 s with tiles everywhere, 26.9 s with the few-row products
		// scalar, against 23.4 s all scalar (docs/speed.md). There the scalar kernel runs.
		if (v1 - v0 < MIN_TILED_ROWS || q - t0 > MAX_TILED_TERMS) {
			SCALAR.timesBlock(x, l, out, v0, v1, i0, i1, t0, q);
			return;
		}
		// column tiles outermost: a tile's strip of l (q rows × 3 vectors) is read from
		// memory by the first row tile and from cache by the others
		int i = i0;
		for (; i + 3 * DV <= i1; i += 3 * DV) {
			int v = v0;
			for (; v + 3 < v1; v += 4)
				times4x3(x, l, out, v, i, t0, q);
			for (; v < v1; v++)
				times1x3(x[v], l, out[v], i, t0, q);
		}
		for (; i + DV <= i1; i += DV) {
			int v = v0;
			for (; v + 3 < v1; v += 4)
				times4x1(x, l, out, v, i, t0, q);
			for (; v < v1; v++)
				times1x1(x[v], l, out[v], i, t0, q);
		}
		if (i < i1) {
			int v = v0;
			for (; v + 3 < v1; v += 4)
				timesEdge(x, l, out, v, 4, i, i1, t0, q);
			for (; v < v1; v++)
				timesEdge(x, l, out, v, 1, i, i1, t0, q);
		}
	}

	/**
	 * Rows v … v + rows − 1 (rows = 1 or 4), columns i … i1 − 1 (fewer than a vector): the
	 * same tiles on this thread's scratch rows holding l's columns zero-padded to a vector,
	 * and the output's entries likewise.
	 */
	private static void timesEdge(final double[][] x, final double[][] l,
		final double[][] out, final int v, final int rows, final int i, final int i1,
		final int t0, final int q)
	{
		final int w = i1 - i;
		final double[][] s = doubleScratch(q + 4, DV);
		for (int t = t0; t < q; t++) {
			System.arraycopy(l[t], i, s[t], 0, w);
			java.util.Arrays.fill(s[t], w, DV, 0);
		}
		// the tile's rows of x and of the output as rows 0 … rows − 1
		final double[][] xs = new double[rows][], acc = new double[rows][];
		for (int r = 0; r < rows; r++) {
			xs[r] = x[v + r];
			acc[r] = s[q + r];
			System.arraycopy(out[v + r], i, acc[r], 0, w);
			java.util.Arrays.fill(acc[r], w, DV, 0);
		}
		if (rows == 4) times4x1(xs, s, acc, 0, 0, t0, q);
		else times1x1(xs[0], s, acc[0], 0, t0, q);
		for (int r = 0; r < rows; r++)
			System.arraycopy(acc[r], 0, out[v + r], i, w);
	}

	private static void times4x3(final double[][] x, final double[][] l,
		final double[][] out, final int v, final int i, final int t0, final int q)
	{
		final double[] x0 = x[v], x1 = x[v + 1], x2 = x[v + 2], x3 = x[v + 3];
		final double[] y0 = out[v], y1 = out[v + 1], y2 = out[v + 2], y3 = out[v + 3];
		final int i1 = i + DV, i2 = i + 2 * DV;
		DoubleVector c00 = DoubleVector.fromArray(D, y0, i), c01 = DoubleVector.fromArray(D,
			y0, i1), c02 = DoubleVector.fromArray(D, y0, i2);
		DoubleVector c10 = DoubleVector.fromArray(D, y1, i), c11 = DoubleVector.fromArray(D,
			y1, i1), c12 = DoubleVector.fromArray(D, y1, i2);
		DoubleVector c20 = DoubleVector.fromArray(D, y2, i), c21 = DoubleVector.fromArray(D,
			y2, i1), c22 = DoubleVector.fromArray(D, y2, i2);
		DoubleVector c30 = DoubleVector.fromArray(D, y3, i), c31 = DoubleVector.fromArray(D,
			y3, i1), c32 = DoubleVector.fromArray(D, y3, i2);
		for (int t = t0; t < q; t++) {
			final double[] lt = l[t];
			final DoubleVector b0 = DoubleVector.fromArray(D, lt, i);
			final DoubleVector b1 = DoubleVector.fromArray(D, lt, i1);
			final DoubleVector b2 = DoubleVector.fromArray(D, lt, i2);
			DoubleVector a = DoubleVector.broadcast(D, x0[t]);
			c00 = b0.fma(a, c00);
			c01 = b1.fma(a, c01);
			c02 = b2.fma(a, c02);
			a = DoubleVector.broadcast(D, x1[t]);
			c10 = b0.fma(a, c10);
			c11 = b1.fma(a, c11);
			c12 = b2.fma(a, c12);
			a = DoubleVector.broadcast(D, x2[t]);
			c20 = b0.fma(a, c20);
			c21 = b1.fma(a, c21);
			c22 = b2.fma(a, c22);
			a = DoubleVector.broadcast(D, x3[t]);
			c30 = b0.fma(a, c30);
			c31 = b1.fma(a, c31);
			c32 = b2.fma(a, c32);
		}
		c00.intoArray(y0, i);
		c01.intoArray(y0, i1);
		c02.intoArray(y0, i2);
		c10.intoArray(y1, i);
		c11.intoArray(y1, i1);
		c12.intoArray(y1, i2);
		c20.intoArray(y2, i);
		c21.intoArray(y2, i1);
		c22.intoArray(y2, i2);
		c30.intoArray(y3, i);
		c31.intoArray(y3, i1);
		c32.intoArray(y3, i2);
	}

	private static void times4x1(final double[][] x, final double[][] l,
		final double[][] out, final int v, final int i, final int t0, final int q)
	{
		final double[] x0 = x[v], x1 = x[v + 1], x2 = x[v + 2], x3 = x[v + 3];
		DoubleVector c0 = DoubleVector.fromArray(D, out[v], i), c1 = DoubleVector.fromArray(D,
			out[v + 1], i), c2 = DoubleVector.fromArray(D, out[v + 2], i), c3 = DoubleVector
				.fromArray(D, out[v + 3], i);
		for (int t = t0; t < q; t++) {
			final DoubleVector b = DoubleVector.fromArray(D, l[t], i);
			c0 = b.fma(DoubleVector.broadcast(D, x0[t]), c0);
			c1 = b.fma(DoubleVector.broadcast(D, x1[t]), c1);
			c2 = b.fma(DoubleVector.broadcast(D, x2[t]), c2);
			c3 = b.fma(DoubleVector.broadcast(D, x3[t]), c3);
		}
		c0.intoArray(out[v], i);
		c1.intoArray(out[v + 1], i);
		c2.intoArray(out[v + 2], i);
		c3.intoArray(out[v + 3], i);
	}

	private static void times1x3(final double[] xv, final double[][] l, final double[] y,
		final int i, final int t0, final int q)
	{
		final int i1 = i + DV, i2 = i + 2 * DV;
		DoubleVector c0 = DoubleVector.fromArray(D, y, i), c1 = DoubleVector.fromArray(D, y,
			i1), c2 = DoubleVector.fromArray(D, y, i2);
		for (int t = t0; t < q; t++) {
			final double[] lt = l[t];
			final DoubleVector a = DoubleVector.broadcast(D, xv[t]);
			c0 = DoubleVector.fromArray(D, lt, i).fma(a, c0);
			c1 = DoubleVector.fromArray(D, lt, i1).fma(a, c1);
			c2 = DoubleVector.fromArray(D, lt, i2).fma(a, c2);
		}
		c0.intoArray(y, i);
		c1.intoArray(y, i1);
		c2.intoArray(y, i2);
	}

	private static void times1x1(final double[] xv, final double[][] l, final double[] y,
		final int i, final int t0, final int q)
	{
		DoubleVector c = DoubleVector.fromArray(D, y, i);
		for (int t = t0; t < q; t++)
			c = DoubleVector.fromArray(D, l[t], i).fma(DoubleVector.broadcast(D, xv[t]), c);
		c.intoArray(y, i);
	}
}
