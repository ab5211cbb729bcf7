package org.cpca.core.linalg;

import static org.bytedeco.openblas.global.openblas.CblasNoTrans;
import static org.bytedeco.openblas.global.openblas.CblasRowMajor;
import static org.bytedeco.openblas.global.openblas.CblasTrans;
import static org.bytedeco.openblas.global.openblas.CblasUpper;
import static org.bytedeco.openblas.global.openblas.cblas_dgemm;
import static org.bytedeco.openblas.global.openblas.cblas_dsyrk;

import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.openblas.global.openblas;
import org.bytedeco.openblas.presets.openblas_nolapack;

import java.io.File;
import java.io.IOException;
import java.nio.DoubleBuffer;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * The native backend's products: OpenBLAS's {@code dgemm} for covariances and Gram matrices
 * (the upper part of {@code PᵀP}, accumulated panel by panel in an off-heap matrix) and for
 * block products,
 * through JavaCPP's presets, which carry OpenBLAS and its LAPACK for each platform inside
 * a jar and load them from there, so nothing is installed on the machine (docs/speed.md,
 * backends). OpenBLAS picks its kernels for the CPU at run time.
 * <p>
 * <b>Threads.</b> OpenBLAS runs one thread per call ({@link #load}); a large product is
 * cut into blocks of its output whose sizes depend on its shape only (a Gram matrix's
 * update: bands of rows of its upper part, {@link #bandEdges}; a block product:
 * {@link #productBlock} rows × up to {@value #PRODUCT_STRIP} columns), each one or two calls,
 * spread over the cores by the JVM's common pool.
 * OpenBLAS's own threads wait for work by spinning: on a machine shared with other
 * processes (this project's 2-core one ran at a load of 27) two of them took 2–4 × the CPU
 * time of one for the same product, while the pool's idle threads sleep. Every output
 * entry is one call's sum over the same index range, so the results do not depend on the
 * thread count or the timing: bit-identical run to run (FamilyPropertyTest checks runs
 * for equality; docs/speed.md, backends).
 */
final class NativeBlas {

	/** Output rows per {@code dgemm} call of a block product, about ({@link #productBlock}). */
	static final int PRODUCT_ROWS = 512;
	/** Output columns per {@code dgemm} call of a block product, at most. */
	static final int PRODUCT_STRIP = 2048;
	/** Why the native backend is off when its jars are not on the class path. */
	static final String MISSING = "the JavaCPP and OpenBLAS jars are missing";

	private NativeBlas() {}

	/**
	 * Loads the library and pins its thread count; returns null, or why it failed in a
	 * few words.
	 */
	static String load() {
		try {
			Loader.load(openblas.class);
			oneThreadPerCall();
			return null;
		}
		catch (final NoClassDefFoundError e) {
			return MISSING;
		}
		catch (final LinkageError | RuntimeException e) {
			final String message = e.getMessage();
			return e.getClass().getSimpleName() + (message == null ? "" : ": " + message
				.lines().findFirst().orElse(""));
		}
	}

	/**
	 * {@code openblas_set_num_threads(1)}, found by the dynamic linker's global lookup
	 * after OpenBLAS's libraries are made global. Not the presets' {@code
	 * blas_set_num_threads}: it also looks for MKL's setters, and a name the global lookup
	 * misses makes JavaCPP walk every loaded library ({@code dl_iterate_phdr}), opening and
	 * closing each inside the walk. That takes the C library's two loader locks in the
	 * opposite order to any other thread's loading of a new library at the same moment, and
	 * both threads wait for good: a {@code cpca fit} hung before reading its input, the
	 * backend loading ahead while the main thread loaded AWT's library for ImageJ
	 * ({@code NativeLoadRaceTest}, docs/speed.md). Here, on Linux and macOS, only
	 * {@code dlopen} of loaded libraries and one {@code dlsym} run, which take the locks
	 * like any library load (on Windows JavaCPP searches the loaded modules, which has no
	 * such lock order). Without a loaded {@code libopenblas*} — JavaCPP pointed at another
	 * BLAS with {@code -Dorg.bytedeco.openblas.load} — this fails and the Java kernels
	 * answer (the backend's diagnostic says why).
	 */
	static void oneThreadPerCall() {
		boolean global = false;
		// (JavaCPP's map is a copy, taken under its loading lock)
		for (final String path : Loader.getLoadedLibraries().values())
			if (path != null && new File(path).getName().startsWith("libopenblas")) {
				Loader.loadGlobal(path);
				global = true;
			}
		// (without a global OpenBLAS, the lookup would be the walk: not tried)
		final Pointer set = global ? Loader.addressof("openblas_set_num_threads") : null;
		if (set == null) throw new UnsatisfiedLinkError("OpenBLAS's openblas_set_num_threads " +
			"was not found among the loaded libraries");
		// the presets' function-pointer type, allocated through its protected constructor
		new openblas_nolapack.SetNumThreads() {}.put(set).call(1);
	}

	/** "native (OpenBLAS 0.3.30-1.5.12 + LAPACK, one thread per call, calls on n cores)". */
	static String describe() {
		String version;
		try {
			version = Loader.getVersion("org.bytedeco", "openblas");
		}
		catch (final IOException e) {
			version = null;
		}
		return String.format(Locale.ROOT, "native (OpenBLAS%s + LAPACK, one thread per " +
			"call, calls on %d cores)", version == null ? "" : " " + version, Runtime
				.getRuntime().availableProcessors());
	}

	/**
	 * Values per panel of a symmetric sum ({@link Gram}, {@link #addCrossProduct}): at most
	 * {@value #PANEL_VALUES} (16 MB).
	 */
	private static final int PANEL_VALUES = 1 << 21;
	/**
	 * Most vectors per panel of a symmetric sum, by layout: the widths at which dsyrk ran
	 * fastest here, 1,024 vectors as rows of the panel, 512 as its columns (docs/speed.md).
	 */
	private static final int VECTORS_AS_ROWS = 1024, VECTORS_AS_COLUMNS = 512;
	/** Rows of G per band of a symmetric sum, about, before the bands are made equal in work. */
	private static final int BAND = 400;

	/** Vectors (of length m) per panel of a symmetric sum ({@link #PANEL_VALUES}). */
	static int panelWidth(final int m, final boolean vectorsAsRows) {
		return Math.max(8, Math.min(vectorsAsRows ? VECTORS_AS_ROWS : VECTORS_AS_COLUMNS,
			PANEL_VALUES / Math.max(1, m)) & ~7);
	}

	/**
	 * Where the bands of rows of an m × m upper triangle start, and m at the end: an even
	 * number of bands (one from m < 128), about {@value #BAND} rows each, of equal work
	 * (each band's rows from its diagonal to column m), so that two or four cores finish
	 * together; the first bands are shorter than the last. Edges at multiples of 8. Bands
	 * of about 400 rows ran 2–4 % faster per CPU-second than of 256 or 128 here
	 * (docs/speed.md). A function of m alone: the results do not depend on the thread
	 * count.
	 */
	static int[] bandEdges(final int m) {
		final int count = m < 128 ? 1 : 2 * ((m + 2 * BAND - 1) / (2 * BAND));
		final int[] edges = new int[count + 1];
		int last = 0;
		for (int b = 1; b < count; b++) {
			final int e = (m - (int) Math.round(m * Math.sqrt(1 - (double) b / count))) & ~7;
			edges[b] = last = Math.max(last, e);
		}
		edges[count] = m;
		return edges;
	}

	/**
	 * {@code G(band) = β·G(band) + Σ_s v_s v_sᵀ} on the upper part of one band of rows
	 * [i0, i1) of a symmetric m × m G, over {@code count} vectors v_s of length m in a
	 * row-major panel: the vectors as its rows ({@code vectorsAsRows}, count × m, G = PᵀP)
	 * or as its columns (m × count, G = PPᵀ). Either way no transposition: the diagonal
	 * block by {@code dsyrk}, the rest of the band's rows by {@code dgemm}, with the
	 * transpose flags saying how the panel lies. The band's rows of G start at
	 * {@code band} (the entry (i0, i0)), {@code ld} apart.
	 */
	private static void bandUpdate(final DoublePointer p, final boolean vectorsAsRows,
		final int m, final int count, final int i0, final int i1, final double beta,
		final DoublePointer band, final int ld)
	{
		final int h = i1 - i0, rest = m - i1;
		// where entry i of every vector starts, and the panel's leading dimension
		final long step = vectorsAsRows ? 1 : count;
		final int lead = vectorsAsRows ? m : count;
		final DoublePointer rows = p.getPointer(i0 * step);
		cblas_dsyrk(CblasRowMajor, CblasUpper, vectorsAsRows ? CblasTrans : CblasNoTrans, h,
			count, 1.0, rows, lead, beta, band, ld);
		if (rest > 0) cblas_dgemm(CblasRowMajor, vectorsAsRows ? CblasTrans : CblasNoTrans,
			vectorsAsRows ? CblasNoTrans : CblasTrans, h, rest, count, 1.0, rows, lead, p
				.getPointer(i1 * step), lead, beta, band.getPointer(h), ld);
	}

	/**
	 * A symmetric m × m sum {@code G = Σ_s v_s v_sᵀ} over vectors of length m, held
	 * off-heap with one panel of vectors while it is accumulated: the caller writes each
	 * panel straight into native memory ({@link #panel}), as rows or as columns of the
	 * panel, whichever its data give without a transposition, and {@code dsyrk} on each
	 * band's diagonal block plus {@code dgemm} beside it add it to the upper part of G
	 * (rows in bands of equal work, {@link #bandEdges}, spread over the cores). The first
	 * panel overwrites G, so G is never zeroed.
	 */
	static final class Gram implements AutoCloseable {

		private final int m;
		private final boolean vectorsAsRows;
		private final int width;
		private final int[] edges;
		private final DoublePointer g;
		private final DoublePointer panel;
		private final DoubleBuffer values;
		private boolean empty = true;

		/**
		 * @param vectorsAsRows whether the panel holds the vectors as its rows (count × m,
		 *          vector s at {@code s · m}) or as its columns (m × count, entry i of every
		 *          vector at {@code i · count})
		 */
		Gram(final int m, final boolean vectorsAsRows) {
			this.m = m;
			this.vectorsAsRows = vectorsAsRows;
			this.width = panelWidth(m, vectorsAsRows);
			this.edges = bandEdges(m);
			this.g = new DoublePointer((long) m * m);
			this.panel = new DoublePointer((long) m * width);
			this.values = panel.asBuffer();
		}

		/** The most vectors a panel holds. */
		int width() {
			return width;
		}

		/**
		 * The panel's storage, to be filled with count ≤ {@link #width} vectors in the
		 * layout given to the constructor before {@link #add(int)}; absolute puts from
		 * several threads at once are fine.
		 */
		DoubleBuffer panel() {
			return values;
		}

		/** {@code G += Σ v_s v_sᵀ} over the count vectors of the panel just written. */
		void add(final int count) {
			if (count <= 0) return;
			final double beta = empty ? 0.0 : 1.0;
			IntStream.range(0, edges.length - 1).parallel().forEach(b -> {
				final int i0 = edges[b];
				bandUpdate(panel, vectorsAsRows, m, count, i0, edges[b + 1], beta, g.getPointer(
					(long) i0 * m + i0), m);
			});
			empty = false;
		}

		/** Row i's entries from the diagonal on (G_ij, j ≥ i) into out[i … m). */
		private void upperRow(final int i, final double[] out) {
			if (empty) Arrays.fill(out, i, m, 0.0);
			else g.position((long) i * m + i).get(out, i, m - i);
		}

		/** The full matrix (both triangles), row-major, times factor. */
		double[] symmetric(final double factor) {
			final double[] out = new double[m * m];
			final double[] row = new double[m];
			for (int i = 0; i < m; i++) {
				upperRow(i, row);
				for (int j = i; j < m; j++)
					out[i * m + j] = out[j * m + i] = row[j] * factor;
			}
			g.position(0);
			return out;
		}

		/** The full matrix as m rows of length m (both triangles). */
		double[][] rows() {
			final double[][] out = new double[m][m];
			for (int i = 0; i < m; i++) {
				upperRow(i, out[i]);
				for (int j = i + 1; j < m; j++)
					out[j][i] = out[i][j];
			}
			g.position(0);
			return out;
		}

		@Override
		public void close() {
			g.close();
			panel.close();
		}
	}

	/**
	 * Copies rows [from, from + count) (each of length m) into a native panel, one row
	 * after the other.
	 */
	private static void putRows(final double[][] rows, final int from, final int count,
		final DoublePointer panel, final int m)
	{
		for (int s = 0; s < count; s++)
			panel.position((long) s * m).put(rows[from + s], 0, m);
		panel.position(0);
	}

	/** {@code G += Σ_s rows[s] rows[s]ᵀ} over the first count rows (each of length m). */
	static void add(final Gram g, final double[][] rows, final int count) {
		for (int s0 = 0; s0 < count; s0 += g.width) {
			final int c = Math.min(g.width, count - s0);
			putRows(rows, s0, c, g.panel, g.m);
			g.add(c);
		}
	}

	/**
	 * {@code upper[i][j] += Σ_{s < count} rows[s][i] rows[s][j]} for j ≥ i (rows of length
	 * m) with no m × m native matrix: the rows are copied into one native panel as they
	 * lie, and each band of rows of the result ({@link #bandEdges}) is computed into a
	 * native band of its own (overwritten, never zeroed) and added to the caller's rows.
	 * The bands run on all cores or, with {@code parallel} false, in the calling thread,
	 * in the same blocks: the same bits either way.
	 */
	static void addCrossProduct(final double[][] upper, final double[][] rows,
		final int count, final boolean parallel)
	{
		final int m = upper.length;
		if (count <= 0 || m == 0) return;
		final int[] edges = bandEdges(m);
		try (DoublePointer p = new DoublePointer((long) count * m)) {
			putRows(rows, 0, count, p, m);
			final IntStream bands = IntStream.range(0, edges.length - 1);
			(parallel ? bands.parallel() : bands).forEach(b -> {
				final int i0 = edges[b], i1 = edges[b + 1], w = m - i0;
				try (DoublePointer band = new DoublePointer((long) (i1 - i0) * w)) {
					bandUpdate(p, true, m, count, i0, i1, 0.0, band, w);
					final double[] row = new double[w];
					for (int i = i0; i < i1; i++) {
						// entry (i, j) of the band at (i − i0)·w + j − i0
						band.position((long) (i - i0) * w + i - i0).get(row, i - i0, w - (i - i0));
						final double[] ui = upper[i];
						for (int j = i; j < m; j++)
							ui[j] += row[j - i0];
					}
				}
			});
		}
	}

	/**
	 * Output rows per {@code dgemm} call of a block product with p output rows: all of
	 * them below 256, else an even number of equal bands of about {@value #PRODUCT_ROWS}
	 * (rounded up to a multiple of 8). A function of p alone (the blocks, and so every
	 * result's bits, do not depend on the thread count). Larger blocks than the 128 × 512
	 * of before pack each factor fewer times: 784³ ran 5–8 % faster per CPU-second
	 * (docs/speed.md, backends).
	 */
	static int productBlock(final int p) {
		final int bands = p < 256 ? 1 : 2 * ((p + 2 * PRODUCT_ROWS - 1) / (2 * PRODUCT_ROWS));
		return ((p + bands - 1) / bands + 7) & ~7;
	}

	/**
	 * Column strips of a block product with c output columns in bands of {@code height}
	 * of its p rows: at most {@value #PRODUCT_STRIP} columns each, and two from 512
	 * columns when there is one band, so that two cores share it. Shape only.
	 */
	static int productStrips(final int p, final int height, final int c) {
		final int strips = (c + PRODUCT_STRIP - 1) / PRODUCT_STRIP;
		return Math.max(strips, height >= p && c >= 512 ? 2 : 1);
	}

	/**
	 * {@code out[r][c] += Σ_{t ∈ [t0, t1)} x[r][t] · l[t][c]} for r in [r0, r1), c in
	 * [c0, c1), by {@code dgemm} on off-heap copies: the right factor whole (its rows
	 * copied on all cores), the left factor and the output one band of rows at a time per
	 * core. With {@code add} false the output block is taken as zero and not copied in.
	 */
	static void multiplyAdd(final double[][] x, final double[][] l, final double[][] out,
		final int r0, final int r1, final int t0, final int t1, final int c0, final int c1,
		final boolean add)
	{
		multiplyAdd(x, (b, t) -> b.put(l[t], c0, c1 - c0), out, r0, r1, t0, t1, c0, c1, add);
	}

	/**
	 * {@link #multiplyAdd(double[][], double[][], double[][], int, int, int, int, int, int,
	 * boolean)} with the right factor a flat row-major matrix of {@code width} columns,
	 * copied off-heap from where it is (no rows of it on the heap): the same native
	 * operands, so the same bits.
	 */
	static void multiplyAdd(final double[][] x, final double[] l, final int width,
		final double[][] out, final int r0, final int r1, final int t0, final int t1,
		final int c0, final int c1, final boolean add)
	{
		multiplyAdd(x, (b, t) -> b.put(l, t * width + c0, c1 - c0), out, r0, r1, t0, t1, c0,
			c1, add);
	}

	/** Copies row t of a right factor's columns c0 … c1 − 1 to the pointer. */
	private interface RightRows {

		void put(DoublePointer to, int t);
	}

	private static void multiplyAdd(final double[][] x, final RightRows l,
		final double[][] out, final int r0, final int r1, final int t0, final int t1,
		final int c0, final int c1, final boolean add)
	{
		final int p = r1 - r0, q = t1 - t0, c = c1 - c0;
		try (DoublePointer b = new DoublePointer((long) q * c)) {
			IntStream.range(0, q).parallel().forEach(t -> l.put(b.getPointer((long) t * c), t0 +
				t));
			final int height = productBlock(p);
			final int strips = productStrips(p, height, c);
			final int width = ((c + strips - 1) / strips + 7) & ~7;
			final double beta = add ? 1.0 : 0.0;
			// block by block: only the right factor and one band of the left factor and of
			// the output per core are off-heap at a time (docs/memory.md)
			IntStream.range(0, (p + height - 1) / height * strips).parallel().forEach(task -> {
				final int i0 = task / strips * height, h = Math.min(height, p - i0);
				final int j0 = Math.min(c, task % strips * width), w = Math.min(width, c - j0);
				if (w <= 0) return;
				try (DoublePointer a = new DoublePointer((long) h * q);
					DoublePointer o = new DoublePointer((long) h * w))
				{
					for (int i = 0; i < h; i++) {
						a.position((long) i * q).put(x[r0 + i0 + i], t0, q);
						if (add) o.position((long) i * w).put(out[r0 + i0 + i], c0 + j0, w);
					}
					a.position(0);
					o.position(0);
					cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, h, w, q, 1.0, a, q, b
						.getPointer(j0), c, beta, o, w);
					for (int i = 0; i < h; i++)
						o.position((long) i * w).get(out[r0 + i0 + i], c0 + j0, w);
				}
			});
		}
	}

}
