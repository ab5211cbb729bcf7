package org.cpca.core.linalg;

import org.cpca.core.Progress;
import org.cpca.core.data.Dataset;
import org.cpca.core.data.Preprocessing;

import java.nio.DoubleBuffer;
import java.util.stream.IntStream;
import java.util.Arrays;
import java.util.function.IntConsumer;

/**
 * The few hot loops, written over primitive arrays: symmetric rank-k updates (covariance
 * and Gram matrices), products of matrices held as rows ({@link #times}: the solvers'
 * block products and QᵀAQ), a Cholesky factorisation and projections. Everything else is
 * small dense algebra.
 * <p>
 * Matrices are row-major {@code double[]}. The symmetric update accumulates
 * {@code G += Σ_s p_s p_sᵀ} over a panel of vectors {@code p_s}, over row blocks of G
 * small enough to stay in cache, on all cores. The inner loops are {@link Kernels}: plain
 * Java (four fused axpys per row, which the JIT vectorises) or, where the JVM has the
 * Vector API, register-blocked tiles (docs/speed.md), with the same results. They use
 * fused multiply–adds ({@link Math#fma}): exactly specified by IEEE 754 (so results are
 * the same on every platform and run), one rounding instead of two, and about 20 % faster
 * once vectorised.
 * <p>
 * Length (about 480 lines of code): the one entry point for every dense product of the
 * core, each dispatched to the native backend or to the Java kernels; kept together so the
 * choice of backend, the panel sizes and the fixed splits (what keeps results bit-identical
 * run to run) are decided in one place.
 */
public final class Products {

	/** The inner loops: the vector kernels where the JVM offers them, else the scalar ones. */
	static final Kernels KERNELS = Kernels.best();

	/**
	 * Which inner loops run now: "scalar", "vector (512-bit)", or the scalar ones while
	 * the vector ones wait or warm up ({@link WarmingKernels}); for the benchmarks' notes.
	 */
	public static String kernels() {
		return Backend.describe();
	}

	/** Row block of the accumulated matrix handled by one task (fits in L2 for m ≤ 2000). */
	private static final int ROW_BLOCK = 48;

	private Products() {}

	/** Number of vectors per panel: enough work per pass, small enough to stay cached. */
	static int panelSize(final int m) {
		return Math.max(8, Math.min(256, (1 << 20) / Math.max(1, m)) & ~3);
	}

	/**
	 * {@code g(upper triangle) += Σ_{s<count} p_s p_sᵀ} for the panel rows {@code p_s}
	 * (each of length m). Rows are separate arrays: with four different arrays in the inner
	 * loop the JIT vectorises it (one flat array with four offsets runs ~4× slower). Many
	 * rows are taken {@link #panelSize} at a time, so that a kernel's pass over them stays
	 * in cache (one pass over 2,000 rows of 4,000 read them from memory once per tile of
	 * the result); each entry still adds its terms in ascending order, so the result is
	 * the same as in one pass.
	 */
	static void syrkUpper(final double[][] g, final double[][] panel, final int count) {
		syrkUpper(g, panel, count, true);
	}

	/** {@link #syrkUpper}, its row blocks on all cores or in the calling thread. */
	private static void syrkUpper(final double[][] g, final double[][] panel,
		final int count, final boolean parallel)
	{
		final int m = g.length;
		final int blocks = (m + ROW_BLOCK - 1) / ROW_BLOCK;
		final int chunk = panelSize(m);
		for (int s0 = 0; s0 < count; s0 += chunk) {
			final double[][] part = s0 == 0 && count <= chunk ? panel : Arrays
				.copyOfRange(panel, s0, Math.min(count, s0 + chunk));
			final int rows = Math.min(chunk, count - s0);
			final IntConsumer block = b -> KERNELS.syrkRows(g, part, rows,
				b * ROW_BLOCK, Math.min(m, (b + 1) * ROW_BLOCK));
			if (parallel) IntStream.range(0, blocks).parallel().forEach(block);
			else for (int b = 0; b < blocks; b++)
				block.accept(b);
		}
	}

	/** The full symmetric matrix (row-major) from an upper triangle, scaled by factor. */
	static double[] symmetric(final double[][] g, final double factor) {
		final int m = g.length;
		final double[] out = new double[m * m];
		for (int i = 0; i < m; i++) {
			for (int j = i; j < m; j++) {
				final double v = g[i][j] * factor;
				out[i * m + j] = v;
				out[j * m + i] = v;
			}
		}
		return out;
	}

	/**
	 * {@code upper += Σ_{s<count} p_s p_sᵀ} on the upper triangle (j ≥ i) of the m × m
	 * accumulator, for the first {@code count} rows (each of length m): a rank-count update,
	 * the blocked kernel of every covariance here.
	 */
	public static void addCrossProduct(final double[][] upper, final double[][] rows,
		final int count)
	{
		if (Backend.isNative()) NativeBlas.addCrossProduct(upper, rows, count, true);
		else syrkUpper(upper, rows, count);
	}

	/**
	 * {@link #addCrossProduct} in the calling thread only, for callers that already run one
	 * task per core (a cluster's executors): the same row blocks and row chunks in the same
	 * order, so the result is bit-identical to the parallel one.
	 */
	public static void addCrossProductSequential(final double[][] upper,
		final double[][] rows, final int count)
	{
		if (Backend.isNative()) NativeBlas.addCrossProduct(upper, rows, count, false);
		else syrkUpper(upper, rows, count, false);
	}

	/** {@code Σ_s p_s p_sᵀ · factor} over the given rows (each of length m). */
	public static double[] crossProduct(final double[][] rows, final int m, final double factor) {
		return crossProduct(rows, m, factor, new double[m][m]);
	}

	/**
	 * {@link #crossProduct(double[][], int, double)} accumulated in the caller's m × m
	 * work rows (zeroed first, left holding the unscaled upper triangle), so that a caller
	 * forming several products in turn allocates the accumulator once (docs/memory.md).
	 */
	public static double[] crossProduct(final double[][] rows, final int m,
		final double factor, final double[][] work)
	{
		if (Backend.isNative()) try (NativeBlas.Gram g = new NativeBlas.Gram(m, true)) {
			NativeBlas.add(g, rows, rows.length);
			return g.symmetric(factor);
		}
		for (int i = 0; i < m; i++)
			Arrays.fill(work[i], 0.0);
		syrkUpper(work, rows, rows.length);
		return symmetric(work, factor);
	}

	/**
	 * The covariance {@code X̃ᵀX̃/(n−1)} (d × d) of a dataset after its preprocessing.
	 */
	public static double[] covariance(final Dataset x, final Preprocessing pre,
		final Progress progress)
	{
		final int n = x.samples(), d = x.features();
		if (Backend.isNative()) return covarianceNative(x, pre, progress);
		KERNELS.expect(Kernels.Kind.SYMMETRIC, (double) n * d * d);
		final int panelRows = panelSize(d);
		final double[][] panel = new double[panelRows][d];
		final double[][] g = new double[d][d];
		for (int s0 = 0; s0 < n; s0 += panelRows) {
			progress.checkCancelled();
			final int count = Math.min(panelRows, n - s0);
			final int base = s0;
			IntStream.range(0, count).parallel().forEach(s -> pre.apply(x.row(base + s), 0, d,
				panel[s], 0, 1));
			syrkUpper(g, panel, count);
			progress.stage("covariance of " + x.name(), (double) (s0 + count) / n);
		}
		return symmetric(g, 1.0 / (n - 1));
	}

	/**
	 * {@link #covariance} by the native backend: each panel's preprocessed samples go
	 * straight into native memory as the panel's rows ({@link NativeBlas.Gram}), so that no
	 * Java copy of a panel is made and nothing is transposed.
	 */
	private static double[] covarianceNative(final Dataset x, final Preprocessing pre,
		final Progress progress)
	{
		final int n = x.samples(), d = x.features();
		try (NativeBlas.Gram g = new NativeBlas.Gram(d, true)) {
			final int width = g.width();
			final DoubleBuffer panel = g.panel();
			for (int s0 = 0; s0 < n; s0 += width) {
				progress.checkCancelled();
				final int count = Math.min(width, n - s0), base = s0;
				IntStream.range(0, count).parallel().forEach(s -> {
					final float[] row = x.row(base + s);
					for (int j = 0, at = s * d; j < d; j++, at++)
						panel.put(at, pre.apply(j, row[j]));
				});
				g.add(count);
				progress.stage("covariance of " + x.name(), (double) (s0 + count) / n);
			}
			return g.symmetric(1.0 / (n - 1));
		}
	}

	/**
	 * The Gram matrix {@code ZZᵀ} (N × N) of the stacked, preprocessed samples of the given
	 * datasets, in dataset order, by {@link GramSum} (its precision: double on the native
	 * backend and for small problems, float blocks with a double-float sum on the Java
	 * kernels past {@link GramSum#FLOAT_GRAM_WORK} multiply–adds). Accumulated over panels
	 * of features, so it needs O(N · panel) extra memory and never a d × d matrix.
	 */
	public static double[] gram(final Dataset[] sets, final Preprocessing[] pres,
		final Progress progress)
	{
		return gram(sets, pres, progress, GramSum.inFloat(samples(sets), sets[0].features()));
	}

	/** {@link #gram} with the precision chosen by the caller (tests compare the two). */
	public static double[] gram(final Dataset[] sets, final Preprocessing[] pres,
		final Progress progress, final boolean inFloat)
	{
		return sum(sets, pres, progress, inFloat).symmetric();
	}

	/**
	 * {@link #gram} as N rows of length N (both triangles), the same values: for a caller
	 * that then overwrites the rows (the pivoted Cholesky's working copy), so that no
	 * row-major copy is made (docs/memory.md).
	 */
	public static double[][] gramRows(final Dataset[] sets, final Preprocessing[] pres,
		final Progress progress)
	{
		return gramRows(sets, pres, progress, GramSum.inFloat(samples(sets), sets[0]
			.features()));
	}

	/** {@link #gramRows} with the precision chosen by the caller. */
	public static double[][] gramRows(final Dataset[] sets, final Preprocessing[] pres,
		final Progress progress, final boolean inFloat)
	{
		return sum(sets, pres, progress, inFloat).rows();
	}

	private static int samples(final Dataset[] sets) {
		int n = 0;
		for (final Dataset s : sets)
			n += s.samples();
		return n;
	}

	/**
	 * Every feature of the samples, preprocessed, into a {@link GramSum}, one panel at a
	 * time; G is then to be taken from it.
	 */
	private static GramSum sum(final Dataset[] sets, final Preprocessing[] pres,
		final Progress progress, final boolean inFloat)
	{
		final int n = samples(sets), d = sets[0].features();
		final float[][] rows = new float[n][];
		final Preprocessing[] rowPre = new Preprocessing[n];
		int q = 0;
		for (int k = 0; k < sets.length; k++)
			for (int i = 0; i < sets[k].samples(); i++, q++) {
				rows[q] = sets[k].row(i);
				rowPre[q] = pres[k];
			}
		final GramSum g = GramSum.of(n, d, inFloat);
		final GramSum.Values values = (s, from, to, out) -> rowPre[s].apply(rows[s], from, to,
			out, 0, 1);
		try {
			for (int f0 = 0; f0 < d; f0 += g.width()) {
				progress.checkCancelled();
				final int to = Math.min(d, f0 + g.width());
				g.add(f0, to, values);
				progress.stage("Gram matrix", (double) to / d);
			}
			progress.checkCancelled(); // before a caller's long factorisation starts
			return g;
		}
		catch (final RuntimeException e) {
			g.close();
			throw e;
		}
	}

	/**
	 * Where column strip s of {@code strips} over c columns starts: at a multiple of 48, a
	 * whole number of the vector kernels' widest tiles, so that only the last strip has an
	 * edge narrower than a vector (the split does not change any entry's sum).
	 */
	private static int stripEdge(final int s, final int strips, final int c) {
		return s >= strips ? c : (int) ((long) s * c / strips) / 48 * 48;
	}

	/** Output rows per task of {@link #times} (a block that stays in the L2 cache). */
	private static final int TIMES_ROWS = 32;
	/** Columns per task of {@link #times}. */
	private static final int TIMES_COLUMNS = 512;

	/**
	 * The product {@code X·L} of matrices given as rows (X: p × q, L: q × c): row v of the
	 * result is {@code Σ_t x_v[t] · l_t}. For a symmetric L this is also the block of
	 * products {@code L x_v}, the form used by the iterative solvers.
	 * <p>
	 * Written for the JIT's vectoriser: the inner loop adds four rows of L, scaled, into one
	 * output row (four chained fused multiply–adds {@code y[i] += a_u l_u[i]}: one store,
	 * five loads over separate arrays). The work is tiled: each task owns a block of
	 * {@value #TIMES_ROWS} output rows × {@value #TIMES_COLUMNS} columns that stays in cache
	 * while the rows of L stream past four at a time, so L is read from memory
	 * ⌈p/{@value #TIMES_ROWS}⌉ times, not p/4 times. Deterministic whatever the tiling:
	 * every output entry is summed over t in ascending groups of four.
	 */
	public static double[][] times(final double[][] x, final double[][] l) {
		final int p = x.length, q = l.length, c = q == 0 ? 0 : l[0].length;
		final double[][] out = new double[p][c];
		product(x, l, out, 0, p, 0, q, 0, c, false);
		return out;
	}

	/**
	 * {@code out[r][c] += Σ_{t ∈ [t0, t1)} x[r][t] · l[t][c]} for rows r in [r0, r1) and
	 * columns c in [c0, c1): {@link #times} on sub-matrices (no copies), tiled and spread
	 * over the cores as described there. Deterministic: every entry is summed over t in
	 * ascending groups of four whatever the split.
	 */
	public static void multiplyAdd(final double[][] x, final double[][] l, final double[][] out,
		final int r0, final int r1, final int t0, final int t1, final int c0, final int c1)
	{
		product(x, l, out, r0, r1, t0, t1, c0, c1, true);
	}

	/**
	 * {@link #multiplyAdd}, or with {@code add} false the product into an output block
	 * that is zero (the native backend then neither reads nor copies it in).
	 */
	private static void product(final double[][] x, final double[][] l, final double[][] out,
		final int r0, final int r1, final int t0, final int t1, final int c0, final int c1,
		final boolean add)
	{
		final int p = r1 - r0, c = c1 - c0;
		if (p <= 0 || c <= 0 || t1 <= t0) return;
		if (Backend.isNative() && nativePays(p, t1 - t0, c)) {
			NativeBlas.multiplyAdd(x, l, out, r0, r1, t0, t1, c0, c1, add);
			return;
		}
		final int rowBlocks = (p + TIMES_ROWS - 1) / TIMES_ROWS;
		// at least two column strips for a wide result, so that a few vectors use two cores
		final int strips = Math.max((c + TIMES_COLUMNS - 1) / TIMES_COLUMNS, c >= 384 &&
			rowBlocks == 1 ? 2 : 1);
		final int tasks = rowBlocks * strips;
		final IntConsumer task = b -> {
			final int v0 = r0 + (b / strips) * TIMES_ROWS, v1 = Math.min(r1, v0 + TIMES_ROWS);
			final int s = b % strips;
			KERNELS.timesBlock(x, l, out, v0, v1, c0 + stripEdge(s, strips, c), c0 +
				stripEdge(s + 1, strips, c), t0, t1);
		};
		if (tasks == 1 || (long) p * (t1 - t0) * c < 1 << 15) for (int b = 0; b < tasks; b++)
			task.accept(b);
		else IntStream.range(0, tasks).parallel().forEach(task);
	}

	/** {@code S x_v} for each vector of the block; S symmetric, given as rows. */
	public static double[][] symmetricTimesRows(final double[][] s, final double[][] block) {
		return times(block, s);
	}

	/** Rows of S copied at a time by {@link #symmetricTimesFlat}. */
	private static final int FLAT_ROWS = 256;

	/**
	 * {@link #symmetricTimesRows} of S given flat (m × m, row-major) for each of several
	 * blocks, without S's rows on the heap: a block wide enough for the native dgemm
	 * ({@link #nativePays}) is multiplied by S copied off-heap from where it is (the same
	 * native operands as {@link #multiplyAdd}'s, so the same bits); the others on the Java
	 * kernels, summed over t = 0 … m − 1 in bands of {@value #FLAT_ROWS} rows of S, each
	 * band copied once for all of them: every entry is one chain of fused multiply–adds
	 * over t in ascending order, continued from band to band, so the bits are those of the
	 * product with all rows at once.
	 */
	public static double[][][] symmetricTimesFlat(final double[] s, final int m,
		final double[][][] blocks)
	{
		final double[][][] out = new double[blocks.length][][];
		final boolean[] onNative = new boolean[blocks.length];
		boolean anyJava = false;
		for (int b = 0; b < blocks.length; b++) {
			out[b] = new double[blocks[b].length][m];
			onNative[b] = Backend.isNative() && nativePays(blocks[b].length, m, m);
			if (onNative[b]) NativeBlas.multiplyAdd(blocks[b], s, m, out[b], 0, blocks[b].length,
				0, m, 0, m, false);
			else anyJava |= blocks[b].length > 0;
		}
		if (!anyJava) return out;
		final double[][] rows = new double[m][];
		for (int t0 = 0; t0 < m; t0 += FLAT_ROWS) {
			final int t1 = Math.min(m, t0 + FLAT_ROWS);
			for (int t = t0; t < t1; t++)
				rows[t] = Arrays.copyOfRange(s, t * m, (t + 1) * m);
			for (int b = 0; b < blocks.length; b++)
				if (!onNative[b]) product(blocks[b], rows, out[b], 0, blocks[b].length, t0, t1, 0,
					m, true);
			for (int t = t0; t < t1; t++)
				rows[t] = null;
		}
		return out;
	}

	/** Multiply–adds from which {@link #multiplyAdd} calls the native dgemm. */
	private static final long NATIVE_PRODUCT = 1 << 16;
	/**
	 * Multiply–adds per value copied to and from the native memory below which
	 * {@link #multiplyAdd} stays on the Java kernels ({@link #nativePays}).
	 */
	private static final long NATIVE_REUSE = 32;

	/**
	 * Whether a p × q by q × c product goes to the native dgemm: large enough
	 * ({@link #NATIVE_PRODUCT}), and with at least {@value #NATIVE_REUSE} multiply–adds
	 * per value it copies (both factors in, the output in and out). A thin product — a
	 * matrix times a block of a few vectors, each step of the iterative solvers — reads
	 * the matrix once in the Java kernels; natively it is copied first and then read, and
	 * took three times as long (automatic α on 5,000 + 5,000 × 784 in a warm JVM:
	 * docs/speed.md). Depends on the shape only, so results stay bit-identical run to run.
	 * {@link ContrastSolver}, whose thin products reuse one matrix many times, keeps it
	 * off-heap instead ({@link NativeMatrix}).
	 */
	static boolean nativePays(final long p, final long q, final long c) {
		final long madds = p * q * c;
		return madds >= NATIVE_PRODUCT && madds >= NATIVE_REUSE * (p * q + q * c + 2 * p * c);
	}

	/**
	 * The pivoted Cholesky factorisation {@code G = LLᵀ} of a Gram matrix by LAPACK's
	 * {@code dpstrf} on the native backend ({@link NativeLapack#pivotedCholesky}): L as n
	 * rows of length r (the numerical rank) in the original order, pivots stopping at
	 * {@code tolerance} times the largest diagonal, the first {@code priority} rows pivoted
	 * first (flat G only). G is flat (row-major, kept) or given as rows, which are consumed
	 * (set to null one by one as they are copied). Null when the native backend is not in
	 * use or G's diagonal is not finite: the caller's Java factorisation answers
	 * (ReducedSpace.pivotedCholesky).
	 *
	 * @param pivots if not null (length ≥ n), receives the pivot row of each column of L
	 */
	public static double[][] nativePivotedCholesky(final double[] flat, final double[][] rows,
		final int n, final int priority, final double tolerance, final int[] pivots)
	{
		return Backend.isNative() ? NativeLapack.pivotedCholesky(flat, rows, n, priority,
			tolerance, pivots) : null;
	}

	/** Rows per panel of {@link #cholesky}. */
	private static final int CHOLESKY_PANEL = 32;

	/**
	 * Cholesky factorisation {@code S = RᵀR} of a symmetric positive definite matrix given
	 * as rows (only the upper triangle is read; the rows are overwritten and returned as
	 * R, upper triangular, zeros below the diagonal).
	 * <p>
	 * Right-looking and blocked, as LAPACK's potrf: the rows of a panel of
	 * {@value #CHOLESKY_PANEL} are factored one by one (row k scaled by 1/√s_kk, then
	 * {@code r_ki · r_k} subtracted from the panel's later rows i), and the rows below the
	 * panel are then updated once, {@code s_ij −= Σ_k r_ki r_kj} over the panel's rows k
	 * (j ≥ i), by the block-product kernel ({@link #KERNELS}, one task per band of rows):
	 * the trailing matrix is read once per panel instead of once per row of R. Every entry
	 * receives its updates in the same order whatever the split, so the result is
	 * deterministic. On the native backend, from {@value #CHOLESKY_PANEL} rows, LAPACK's
	 * {@code dpotrf} factors a native copy instead ({@link NativeLapack#cholesky}; the Java
	 * path still answers when a value is not finite).
	 *
	 * @throws ArithmeticException if a pivot is not positive (S not numerically SPD)
	 */
	public static double[][] cholesky(final double[][] s) {
		final int m = s.length;
		if (Backend.isNative() && m >= CHOLESKY_PANEL && NativeLapack.cholesky(s)) return s;
		for (int k0 = 0; k0 < m; k0 += CHOLESKY_PANEL) {
			final int k1 = Math.min(m, k0 + CHOLESKY_PANEL);
			for (int k = k0; k < k1; k++) {
				final double[] rk = s[k];
				final double pivot = rk[k];
				if (!(pivot > 0)) throw new ArithmeticException(
					"matrix is not positive definite (pivot " + pivot + " at " + k + ")");
				final double root = Math.sqrt(pivot);
				rk[k] = root;
				for (int j = k + 1; j < m; j++)
					rk[j] /= root;
				for (int i = k + 1; i < k1; i++) {
					final double f = rk[i];
					if (f == 0) continue;
					final double[] si = s[i];
					for (int j = i; j < m; j++)
						si[j] -= f * rk[j];
				}
			}
			if (k1 == m) break;
			// the rows below the panel: s_ij −= Σ_k r_ki r_kj as a block product with the
			// factors −r_ki (rows above k1 are not used); each band of rows from its diagonal
			final int width = k1 - k0, first = k1;
			final double[][] panel = Arrays.copyOfRange(s, k0, k1);
			final double[][] factors = new double[m][];
			for (int i = k1; i < m; i++) {
				final double[] f = new double[width];
				for (int t = 0; t < width; t++)
					f[t] = -panel[t][i];
				factors[i] = f;
			}
			final int bands = (m - k1 + CHOLESKY_PANEL - 1) / CHOLESKY_PANEL;
			final IntConsumer band = b -> {
				final int r0 = first + b * CHOLESKY_PANEL, r1 = Math.min(m, r0 +
					CHOLESKY_PANEL);
				KERNELS.timesBlock(factors, panel, s, r0, r1, r0, m, 0, width);
			};
			if ((long) (m - k1) * (m - k1) * width < 1 << 18) for (int b = 0; b < bands; b++)
				band.accept(b);
			else IntStream.range(0, bands).parallel().forEach(band);
		}
		for (int i = 0; i < m; i++)
			Arrays.fill(s[i], 0, i, 0.0);
		return s;
	}

	/**
	 * Solves {@code RᵀR c = w} for the k columns of w (m × k, row-major) with the upper
	 * factor R of {@link #cholesky}: forward substitution with Rᵀ, then back substitution
	 * with R. Returns c (m × k).
	 */
	public static double[] choleskySolve(final double[][] r, final double[] w, final int k) {
		final int m = r.length;
		final double[] c = w.clone();
		// Rᵀz = w: z_i = (w_i − Σ_{t<i} r_ti z_t)/r_ii, as row axpys: after z_t is known,
		// subtract r_t,i z_t from every later i
		for (int t = 0; t < m; t++) {
			final double[] rt = r[t];
			final double inv = 1 / rt[t];
			for (int col = 0; col < k; col++)
				c[t * k + col] *= inv;
			for (int i = t + 1; i < m; i++) {
				final double f = rt[i];
				if (f == 0) continue;
				for (int col = 0; col < k; col++)
					c[i * k + col] -= f * c[t * k + col];
			}
		}
		// R c = z: c_i = (z_i − Σ_{j>i} r_ij c_j)/r_ii
		for (int i = m - 1; i >= 0; i--) {
			final double[] ri = r[i];
			for (int col = 0; col < k; col++) {
				double sum = c[i * k + col];
				for (int j = i + 1; j < m; j++)
					sum -= ri[j] * c[j * k + col];
				c[i * k + col] = sum / ri[i];
			}
		}
		return c;
	}

	/** Rows of Y solved per panel of {@link #forwardSolveRows}. */
	private static final int SOLVE_PANEL = 32;

	/**
	 * Solves {@code Rᵀ Y = X} in place for the rows of X (m rows of any common length c),
	 * with the upper factor R of {@link #cholesky}: forward substitution,
	 * {@code y_t = (x_t − Σ_{s<t} r_st y_s)/r_tt}.
	 * <p>
	 * Blocked by panels of {@value #SOLVE_PANEL} rows (as a level-3 triangular solve): the
	 * rows of a panel are solved among themselves, then every later row is updated once
	 * with the whole panel, {@code x_i −= Σ_{t ∈ panel} r_ti y_t}, four panel rows per
	 * pass (chained fused multiply–adds that the JIT vectorises) while the panel stays in
	 * cache. So X is streamed from memory m/{@value #SOLVE_PANEL} times instead of m times.
	 * Later rows are spread over the cores; every entry receives its updates in the same
	 * order (t ascending, in groups of four) whatever the split, so the result is
	 * deterministic.
	 *
	 * @param upper solve only the upper triangle, {@code y_ij} for j ≥ i (X square): row i
	 *          of the solution needs only the columns j ≥ i of the rows above it, so this
	 *          is half the work when only the upper triangle of a symmetric result is
	 *          wanted
	 */
	static void forwardSolveRows(final double[][] r, final double[][] x,
		final boolean upper)
	{
		final int m = r.length;
		if (m == 0) return;
		final int c = x[0].length;
		if (upper && c != m) throw new IllegalArgumentException("upper needs a square X");
		for (int t0 = 0; t0 < m; t0 += SOLVE_PANEL) {
			final int t1 = Math.min(m, t0 + SOLVE_PANEL);
			// the panel among itself
			for (int t = t0; t < t1; t++) {
				final double[] xt = x[t];
				final double inv = 1 / r[t][t];
				for (int j = upper ? t : 0; j < c; j++)
					xt[j] *= inv;
				for (int i = t + 1; i < t1; i++) {
					final double f = -r[t][i];
					if (f == 0) continue;
					final double[] xi = x[i];
					for (int j = upper ? i : 0; j < c; j++)
						xi[j] = Math.fma(f, xt[j], xi[j]);
				}
			}
			final int rest = m - t1;
			if (rest == 0) break;
			final int p0 = t0, p1 = t1;
			final int blocks = (rest + ROW_BLOCK - 1) / ROW_BLOCK;
			final IntConsumer task = q -> {
				final int i0 = p1 + q * ROW_BLOCK, i1 = Math.min(m, i0 + ROW_BLOCK);
				panelUpdate(r, x, p0, p1, i0, i1, c, upper);
			};
			if ((long) rest * (t1 - t0) * c < 1 << 16) for (int q = 0; q < blocks; q++)
				task.accept(q);
			else IntStream.range(0, blocks).parallel().forEach(task);
		}
	}

	/**
	 * {@code x_i −= Σ_{t ∈ [t0, t1)} r_ti x_t} for rows i in [i0, i1) (only columns j ≥ i
	 * if {@code upper}).
	 */
	private static void panelUpdate(final double[][] r, final double[][] x, final int t0,
		final int t1, final int i0, final int i1, final int c, final boolean upper)
	{
		int t = t0;
		for (; t + 3 < t1; t += 4) {
			final double[] r0 = r[t], r1 = r[t + 1], r2 = r[t + 2], r3 = r[t + 3];
			final double[] l0 = x[t], l1 = x[t + 1], l2 = x[t + 2], l3 = x[t + 3];
			for (int i = i0; i < i1; i++) {
				final double a0 = -r0[i], a1 = -r1[i], a2 = -r2[i], a3 = -r3[i];
				if (a0 == 0 && a1 == 0 && a2 == 0 && a3 == 0) continue;
				final double[] y = x[i];
				for (int j = upper ? i : 0; j < c; j++)
					y[j] = Math.fma(a3, l3[j], Math.fma(a2, l2[j], Math.fma(a1, l1[j], Math.fma(a0,
						l0[j], y[j]))));
			}
		}
		for (; t < t1; t++) {
			final double[] l0 = x[t];
			for (int i = i0; i < i1; i++) {
				final double a0 = -r[t][i];
				if (a0 == 0) continue;
				final double[] y = x[i];
				for (int j = upper ? i : 0; j < c; j++)
					y[j] = Math.fma(a0, l0[j], y[j]);
			}
		}
	}

	/**
	 * Solves {@code R c = w} for the k columns of w (m × k, row-major) with an upper
	 * triangular R given as rows (back substitution); returns c (m × k).
	 */
	static double[] backSolve(final double[][] r, final double[] w, final int k) {
		final int m = r.length;
		final double[] c = w.clone();
		for (int i = m - 1; i >= 0; i--) {
			final double[] ri = r[i];
			for (int col = 0; col < k; col++) {
				double sum = c[i * k + col];
				for (int j = i + 1; j < m; j++)
					sum -= ri[j] * c[j * k + col];
				c[i * k + col] = sum / ri[i];
			}
		}
		return c;
	}

	/** {@code C = A·B} for small row-major matrices (A: r × m, B: m × c). */
	public static double[] multiply(final double[] a, final int r, final int m,
		final double[] b, final int c)
	{
		final double[] out = new double[r * c];
		for (int i = 0; i < r; i++)
			for (int t = 0; t < m; t++) {
				final double v = a[i * m + t];
				if (v == 0) continue;
				final int bo = t * c, oo = i * c;
				for (int j = 0; j < c; j++)
					out[oo + j] += v * b[bo + j];
			}
		return out;
	}

	/** {@code Aᵀ·B} for row-major A (m × r) and B (m × c): r × c. */
	public static double[] multiplyTransposed(final double[] a, final int m, final int r,
		final double[] b, final int c)
	{
		final double[] out = new double[r * c];
		for (int t = 0; t < m; t++)
			for (int i = 0; i < r; i++) {
				final double v = a[t * r + i];
				if (v == 0) continue;
				final int bo = t * c, oo = i * c;
				for (int j = 0; j < c; j++)
					out[oo + j] += v * b[bo + j];
			}
		return out;
	}

	/**
	 * Scores of the preprocessed samples of {@code x} on directions given as the columns of
	 * {@code v} (d × k, row-major): n × k.
	 * <p>
	 * Per sample, the preprocessed row is formed once in a buffer (a vectorised pass) and
	 * each score is a dot product with a contiguous copy of one column of v (four partial
	 * sums). Samples are spread over the cores; each score is computed the same way
	 * whatever the split, so the result is deterministic.
	 */
	public static double[] project(final Dataset x, final Preprocessing pre, final double[] v,
		final int k)
	{
		// score_c = Σ_j (x_j − μ_j)/σ_j · v_jc = Σ_j x_j u_jc − Σ_j μ_j u_jc with
		// u_jc = v_jc/σ_j: one pass over each raw row, two columns at a time
		final int n = x.samples(), d = x.features();
		final double[] mean = pre.mean(), scale = pre.scale();
		final double[][] u = new double[k][d];
		final double[] offset = new double[k];
		for (int c = 0; c < k; c++) {
			for (int j = 0; j < d; j++) {
				u[c][j] = scale == null ? v[j * k + c] : v[j * k + c] / scale[j];
				offset[c] += mean[j] * u[c][j];
			}
		}
		final double[] out = new double[n * k];
		final int block = 64;
		IntStream.range(0, (n + block - 1) / block).parallel().forEach(q -> {
			final int i1 = Math.min(n, (q + 1) * block);
			for (int i = q * block; i < i1; i += 2) {
				// two rows × two columns × two features: eight independent sums, so the
				// loop runs at the multiply–add throughput instead of the add latency
				final float[] r = x.row(i), t = i + 1 < i1 ? x.row(i + 1) : r;
				for (int c = 0; c < k; c += 2) {
					final double[] a = u[c], b = c + 1 < k ? u[c + 1] : u[c];
					double ra0 = 0, ra1 = 0, rb0 = 0, rb1 = 0, ta0 = 0, ta1 = 0, tb0 = 0, tb1 = 0;
					int j = 0;
					for (; j + 1 < d; j += 2) {
						final double r0 = r[j], r1 = r[j + 1], t0 = t[j], t1 = t[j + 1];
						final double a0 = a[j], a1 = a[j + 1], b0 = b[j], b1 = b[j + 1];
						ra0 = Math.fma(r0, a0, ra0);
						ra1 = Math.fma(r1, a1, ra1);
						rb0 = Math.fma(r0, b0, rb0);
						rb1 = Math.fma(r1, b1, rb1);
						ta0 = Math.fma(t0, a0, ta0);
						ta1 = Math.fma(t1, a1, ta1);
						tb0 = Math.fma(t0, b0, tb0);
						tb1 = Math.fma(t1, b1, tb1);
					}
					if (j < d) {
						ra0 = Math.fma(r[j], a[j], ra0);
						rb0 = Math.fma(r[j], b[j], rb0);
						ta0 = Math.fma(t[j], a[j], ta0);
						tb0 = Math.fma(t[j], b[j], tb0);
					}
					out[i * k + c] = (ra0 + ra1) - offset[c];
					if (c + 1 < k) out[i * k + c + 1] = (rb0 + rb1) - offset[c + 1];
					if (i + 1 < i1) {
						out[(i + 1) * k + c] = (ta0 + ta1) - offset[c];
						if (c + 1 < k) out[(i + 1) * k + c + 1] = (tb0 + tb1) - offset[c + 1];
					}
				}
			}
		});
		return out;
	}

}
