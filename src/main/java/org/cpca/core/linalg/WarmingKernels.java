package org.cpca.core.linalg;

import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import java.util.Locale;

/**
 * The vector kernels once the work has shown itself large enough to pay for compiling
 * them, and once they run at compiled speed; the scalar ones until then.
 * <p>
 * Code on the Vector API is fast only after the JIT's optimising compiler has compiled
 * it: before, every vector operation is an object. Compiling the vector kernels costs
 * about a second of CPU on this project's 2-core machine, which a short run does not
 * win back: a fresh JVM's {@code cpca fit --alpha auto} on 5,000 + 5,000 × 784 (about
 * 10¹⁰ flops in these kernels) took 3.0–4.3 s with the vector kernels warming up beside
 * it against 2.4–2.8 s with the scalar kernels alone (docs/speed.md). So the scalar
 * kernels answer first and count the flops they do; past {@value #WORK_BEFORE_WARM_UP}
 * flops (about a second of them on two cores: a long Fiji session passes it after a few
 * fits), or as soon as one product is announced ({@link #expect}) to be larger than
 * that (a large Gram matrix or covariance), a daemon thread warms the vector kernels up.
 * <p>
 * The warm-up thread first loads the vector kernels (nothing of the Vector API is loaded
 * before, so a short run does not pay for it). It takes the three kinds one at a time, the
 * kind that started it first (the Gram
 * matrix's float update for an image stack, the symmetric update for a covariance): it
 * runs that kind's vector kernel on a small problem that passes through every tile shape
 * until three runs in a row reach {@value #READY_GFLOPS} GFLOP/s (compiled code reaches
 * about 40, uncompiled code well under 1), and from then on that kind's calls go to the
 * vector kernel while the next kind warms up. Both implementations give bit-identical
 * results ({@link Kernels}), so neither the count nor a switch changes a number, only the
 * speed. A kind whose vector kernel never gets fast (within {@value #WARM_UP_SECONDS} s)
 * stays scalar.
 */
final class WarmingKernels implements Kernels {

	private static final double READY_GFLOPS = 2;
	private static final int WARM_UP_SECONDS = 20;
	private static final double WORK_BEFORE_WARM_UP = 3e10;

	private final Kernels scalar;
	/** Makes the vector kernels (null if they cannot be had): called by the warm-up. */
	private final Supplier<Kernels> vectorKernels;
	/** Set by the warm-up before any kind is marked warm. */
	private volatile Kernels vector;
	/** Per kind (its ordinal): the vector kernel answers. */
	private final boolean[] warm = new boolean[Kind.values().length];
	private volatile boolean anyWarm;
	private final AtomicLong work = new AtomicLong();
	private final AtomicBoolean started = new AtomicBoolean();

	WarmingKernels(final Kernels scalar, final Supplier<Kernels> vectorKernels) {
		this.scalar = scalar;
		this.vectorKernels = vectorKernels;
	}

	/** The kernels for a kind now (the volatile read publishes the array's entries). */
	private Kernels kernels(final Kind kind) {
		return anyWarm && warm[kind.ordinal()] ? vector : scalar;
	}

	/**
	 * Counts the flops of a call on the scalar kernels; starts the warm-up, with this kind
	 * first, past the bound.
	 */
	private void count(final Kind kind, final double flops) {
		if (work.addAndGet((long) flops) > WORK_BEFORE_WARM_UP && started.compareAndSet(false,
			true))
		{
			final Thread warmUp = new Thread(() -> warmUp(kind), "cpca vector kernels warm-up");
			warmUp.setDaemon(true);
			warmUp.start();
		}
	}

	/** True once every kind's vector kernel answers. */
	boolean warm() {
		if (!anyWarm) return false;
		for (final boolean w : warm)
			if (!w) return false;
		return true;
	}

	private void warmUp(final Kind first) {
		final Kernels vector = vectorKernels.get();
		if (vector == null) return; // stays scalar
		this.vector = vector;
		// sizes that reach every tile shape and edge of VectorKernels: bands of 48 rows for
		// the symmetric updates; for the block product enough rows to be tiled (two 4-row
		// tiles and three single rows) and columns for 3-vector, 1-vector and edge tiles
		final int m = 2 * 48 + 64 + 8 + 5, count = 16, p = 11, columns = 48 + 8 + 5;
		final Random random = new Random(1);
		final double[][] panel = new double[count][m], g = new double[m][m];
		final float[][] fpanel = new float[count][m], acc = new float[m][m];
		final double[][] x = new double[p][count], out = new double[p][columns];
		for (int s = 0; s < count; s++)
			for (int j = 0; j < m; j++) {
				panel[s][j] = random.nextGaussian();
				fpanel[s][j] = (float) panel[s][j];
			}
		for (final double[] row : x)
			for (int t = 0; t < count; t++)
				row[t] = random.nextGaussian();
		final long end = System.nanoTime() + WARM_UP_SECONDS * 1_000_000_000L;
		for (int k = 0; k < Kind.values().length; k++) {
			final Kind kind = Kind.values()[(first.ordinal() + k) % Kind.values().length];
			final DoubleSupplier run;
			switch (kind) {
				case SYMMETRIC:
					run = () -> {
						for (int b = 0; b < m; b += 48)
							vector.syrkRows(g, panel, count, b, Math.min(m, b + 48));
						return 1.0 * count * m * (m + 1);
					};
					break;
				case FLOAT:
					run = () -> {
						for (int b = 0; b < m; b += 48)
							vector.floatRows(acc, fpanel, 0, count, b, Math.min(m, b + 48));
						return 1.0 * count * m * (m + 1);
					};
					break;
				default:
					run = () -> {
						vector.timesBlock(x, panel, out, 0, p, 0, columns, 0, count);
						return 2.0 * p * count * columns;
					};
			}
			int fast = 0;
			while (fast < 3 && System.nanoTime() < end) {
				final long t0 = System.nanoTime();
				final double flops = run.getAsDouble();
				fast = flops / (System.nanoTime() - t0) >= READY_GFLOPS ? fast + 1 : 0;
			}
			if (fast < 3) return;
			warm[kind.ordinal()] = true;
			anyWarm = true; // publishes the entry
		}
	}

	@Override
	public void expect(final Kind kind, final double flops) {
		if (flops > WORK_BEFORE_WARM_UP && kernels(kind) == scalar) count(kind, flops);
	}

	/** Starts the warm-up now, whatever the work so far (the benchmarks and tests do). */
	void warmUpNow() {
		count(Kind.SYMMETRIC, WORK_BEFORE_WARM_UP + 1);
	}

	@Override
	public void syrkRows(final double[][] g, final double[][] p, final int count,
		final int i0, final int i1)
	{
		final Kernels k = kernels(Kind.SYMMETRIC);
		if (k == scalar) count(Kind.SYMMETRIC, 2.0 * count * (i1 - i0) * (g.length - i0));
		k.syrkRows(g, p, count, i0, i1);
	}

	@Override
	public void floatRows(final float[][] acc, final float[][] p, final int c0,
		final int c1, final int i0, final int i1)
	{
		final Kernels k = kernels(Kind.FLOAT);
		if (k == scalar) count(Kind.FLOAT, 2.0 * (c1 - c0) * (i1 - i0) * (acc.length - i0));
		k.floatRows(acc, p, c0, c1, i0, i1);
	}

	@Override
	public void timesBlock(final double[][] x, final double[][] l, final double[][] out,
		final int v0, final int v1, final int i0, final int i1, final int t0, final int q)
	{
		final Kernels k = kernels(Kind.PRODUCT);
		if (k == scalar) count(Kind.PRODUCT, 2.0 * (v1 - v0) * (i1 - i0) * (q - t0));
		k.timesBlock(x, l, out, v0, v1, i0, i1, t0, q);
	}

	@Override
	public String toString() {
		if (warm()) return vector.toString();
		if (!started.get()) return scalar + " (vector once the work is large)";
		final StringBuilder b = new StringBuilder(scalar.toString()).append(" (").append(
			vector == null ? "vector" : vector).append(" warming up");
		for (final Kind kind : Kind.values())
			if (anyWarm && warm[kind.ordinal()]) b.append("; ready for ").append(kind.name()
				.toLowerCase(Locale.ROOT));
		return b.append(')').toString();
	}
}
