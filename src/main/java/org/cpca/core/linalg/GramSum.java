package org.cpca.core.linalg;

import java.nio.DoubleBuffer;
import java.util.stream.IntStream;

/**
 * The Gram matrix {@code G = ZZᵀ} (N × N) of N samples' preprocessed values, summed over
 * panels of features: the one accumulation behind the in-memory Gram matrix
 * ({@link Products#gramRows}) and the streamed plan's ({@code StreamedGram}), so that the
 * two give G to the last bit whatever the streamed tile (docs/memory.md).
 * <p>
 * The caller hands the features over in order, in ranges of any size ({@link #add}); they
 * are gathered into panels whose edges depend on N, d and the backend only (multiples of
 * {@link #width()} features), and each panel is summed into G when it is complete, so
 * every entry of G receives the same sums in the same order however the ranges were cut.
 * Three ways, chosen by {@link #of(int, int)}:
 * <ul>
 * <li>native: each panel's values as N rows of the panel's features in native memory, G
 * off-heap, {@code dsyrk} and {@code dgemm} per band of rows ({@link NativeBlas.Gram});</li>
 * <li>double: each panel transposed (feature-major) and added by {@link Products#syrkUpper}
 * to an upper triangle of double rows;</li>
 * <li>float, the Java kernels past {@link #FLOAT_GRAM_WORK} multiply–adds: the values
 * rounded to float, products summed in float over blocks of {@value #FLOAT_BLOCK}
 * features, each block's sums added to a double-float accumulator (hi + lo, Knuth's
 * TwoSum, about 48 bits), vectorised twice as wide as double. The error of an entry is
 * about 10⁻⁷ (rounding of the values) plus ~64·2⁻²⁴ ≈ 4·10⁻⁶ at the very worst (in
 * practice √64·2⁻²⁴ ≈ 5·10⁻⁷) of the block sums of |products|; it does not grow with d.</li>
 * </ul>
 * Memory: G's accumulator (8·N², or 12·N² in float: acc, hi and lo) and one panel
 * (N × {@link #width()} values).
 */
public final class GramSum implements AutoCloseable {

	/** The samples' preprocessed values, asked for by ranges of features. */
	public interface Values {

		/**
		 * Features {@code from … to − 1} of sample s, preprocessed, into
		 * {@code out[0 … to − from)}. Called for several samples at once from several
		 * threads.
		 */
		void segment(int sample, int from, int to, double[] out);
	}

	/**
	 * Above this many multiply–adds (N²d/2) the Java kernels sum in float blocks; below
	 * it, in double throughout.
	 */
	static final double FLOAT_GRAM_WORK = 2e9;
	/** Features per float block before it is flushed into the double-float sum. */
	private static final int FLOAT_BLOCK = 64;
	/** Features per panel of the float sum. */
	private static final int FLOAT_PANEL = 512;
	/** Rows of G per task of the float sum. */
	private static final int FLOAT_BAND = 48;
	/** Samples gathered per task: their writes into a transposed panel stay in cache. */
	private static final int SAMPLES = 16;

	private final int n, d, width;
	/** Exactly one of the three accumulators. */
	private NativeBlas.Gram gram;
	private DoubleBuffer nativePanel;
	private double[][] upper, panel;
	private float[][] acc, hi, lo, floatPanel;
	/** Features handed over so far; where the current panel starts. */
	private int next, start;

	private GramSum(final int n, final int d, final boolean inFloat) {
		this.n = n;
		this.d = d;
		if (!Backend.isNative()) Products.KERNELS.expect(inFloat ? Kernels.Kind.FLOAT :
			Kernels.Kind.SYMMETRIC, (double) n * n * d);
		if (inFloat) {
			width = FLOAT_PANEL;
			acc = new float[n][n];
			hi = new float[n][n];
			lo = new float[n][n];
			floatPanel = new float[Math.min(width, Math.max(1, d))][n];
		}
		else if (Backend.isNative()) {
			gram = new NativeBlas.Gram(n, false);
			width = gram.width();
			nativePanel = gram.panel();
		}
		else {
			width = Products.panelSize(n);
			upper = new double[n][n];
			panel = new double[Math.min(width, Math.max(1, d))][n];
		}
	}

	/**
	 * The sum for n samples of d features, in the precision the backend and the size give:
	 * double on the native backend and for small problems, float blocks on the Java
	 * kernels past {@link #FLOAT_GRAM_WORK} multiply–adds.
	 */
	public static GramSum of(final int n, final int d) {
		return of(n, d, inFloat(n, d));
	}

	/** {@link #of(int, int)} with the precision chosen by the caller (tests compare them). */
	public static GramSum of(final int n, final int d, final boolean inFloat) {
		return new GramSum(n, d, inFloat);
	}

	/**
	 * Whether the Gram matrix of n samples × d features is summed in float: on the Java
	 * kernels past {@link #FLOAT_GRAM_WORK}; never on the native backend, whose double
	 * dgemm is faster than the Java float path.
	 */
	public static boolean inFloat(final long n, final int d) {
		return !Backend.isNative() && 0.5 * n * n * d > FLOAT_GRAM_WORK;
	}

	/** Whether this sum runs in float blocks. */
	boolean inFloat() {
		return acc != null;
	}

	/** Features per panel: ranges that end on a multiple of it are summed at once. */
	public int width() {
		return width;
	}

	/**
	 * Adds features {@code from … to − 1} of every sample: gathered into the current
	 * panel, which is summed into G whenever it is complete.
	 *
	 * @throws IllegalStateException unless {@code from} is where the last range ended
	 */
	public void add(final int from, final int to, final Values values) {
		if (from != next || to < from || to > d) throw new IllegalStateException(
			"features " + from + " … " + to + " handed over after " + next + " of " + d);
		while (next < to) {
			final int count = Math.min(width, d - start);
			final int end = Math.min(to, start + count);
			gather(next, end, count, values);
			next = end;
			if (next == start + count) {
				sumPanel(count);
				start = next;
			}
		}
	}

	/** Features [a, b) of every sample into the current panel of count features. */
	private void gather(final int a, final int b, final int count, final Values values) {
		final int offset = a - start, w = b - a;
		IntStream.range(0, (n + SAMPLES - 1) / SAMPLES).parallel().forEach(q -> {
			final double[] z = new double[w];
			final int s1 = Math.min(n, (q + 1) * SAMPLES);
			for (int s = q * SAMPLES; s < s1; s++) {
				values.segment(s, a, b, z);
				if (gram != null) {
					// row s of the native panel: the panel's features of sample s, as they lie
					final int base = s * count + offset;
					for (int t = 0; t < w; t++)
						nativePanel.put(base + t, z[t]);
				}
				else if (upper != null) for (int t = 0; t < w; t++)
					panel[offset + t][s] = z[t];
				else for (int t = 0; t < w; t++)
					floatPanel[offset + t][s] = (float) z[t];
			}
		});
	}

	/** The current panel (count features, complete) into G. */
	private void sumPanel(final int count) {
		if (gram != null) gram.add(count);
		else if (upper != null) Products.syrkUpper(upper, panel, count);
		else {
			final int bands = Math.max(1, (n + FLOAT_BAND - 1) / FLOAT_BAND);
			IntStream.range(0, bands).parallel().forEach(q -> {
				final int i0 = q * FLOAT_BAND, i1 = Math.min(n, i0 + FLOAT_BAND);
				for (int c0 = 0; c0 < count; c0 += FLOAT_BLOCK) {
					Products.KERNELS.floatRows(acc, floatPanel, c0, Math.min(count, c0 +
						FLOAT_BLOCK), i0, i1);
					for (int i = i0; i < i1; i++)
						addTwoSum(acc[i], hi[i], lo[i], i, n);
				}
			});
		}
	}

	/**
	 * {@code (hi, lo) += x} and {@code x = 0} over {@code [from, to)}: TwoSum gives the
	 * rounding error of {@code hi + x} exactly (Knuth; Java's strict float semantics keep
	 * the order of operations), and lo collects it, so hi + lo carries the running sum to
	 * about 2⁻⁴⁸ of its size; all float, so the JIT vectorises the loop.
	 */
	private static void addTwoSum(final float[] x, final float[] hi, final float[] lo,
		final int from, final int to)
	{
		for (int j = from; j < to; j++) {
			final float a = hi[j], b = x[j];
			final float sum = a + b, bVirtual = sum - a;
			lo[j] += (a - (sum - bVirtual)) + (b - bVirtual);
			hi[j] = sum;
			x[j] = 0;
		}
	}

	/** Refuses G before every feature is in; lets the panels and the float block go. */
	private void requireAll() {
		if (next != d) throw new IllegalStateException("G asked for after " + next + " of " +
			d + " features");
		// the panels are done with: collectable while G is copied out (docs/memory.md)
		panel = null;
		floatPanel = null;
		acc = null;
	}

	/**
	 * G as N rows of length N (both triangles), for a caller that overwrites them; the
	 * accumulator is let go row by row as G is filled, and the sum is closed.
	 */
	public double[][] rows() {
		requireAll();
		try {
			if (gram != null) return gram.rows();
			final double[][] g = upper != null ? upper : new double[n][];
			for (int i = 0; i < n; i++) {
				if (upper == null) {
					g[i] = new double[n];
					for (int j = i; j < n; j++)
						g[i][j] = entry(i, j);
					hi[i] = null;
					lo[i] = null;
				}
				for (int j = 0; j < i; j++)
					g[i][j] = g[j][i];
			}
			upper = null;
			return g;
		}
		finally {
			close();
		}
	}

	/** G row-major (both triangles); the accumulator is let go row by row, and closed. */
	public double[] symmetric() {
		requireAll();
		try {
			if (gram != null) return gram.symmetric(1.0);
			final double[] g = new double[n * n];
			for (int i = 0; i < n; i++) {
				for (int j = i; j < n; j++)
					g[i * n + j] = g[j * n + i] = entry(i, j);
				if (upper != null) upper[i] = null;
				else {
					hi[i] = null;
					lo[i] = null;
				}
			}
			return g;
		}
		finally {
			close();
		}
	}

	/** G_ij (j ≥ i) from the double rows or from hi + lo. */
	private double entry(final int i, final int j) {
		return upper != null ? upper[i][j] : (double) hi[i][j] + lo[i][j];
	}

	/** Frees the native memory (idempotent); the sum is then unusable. */
	@Override
	public void close() {
		if (gram != null) {
			gram.close();
			gram = null;
			nativePanel = null;
		}
	}
}
