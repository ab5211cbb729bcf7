package org.cpca.core.linalg;

import static org.bytedeco.openblas.global.openblas.CblasNoTrans;
import static org.bytedeco.openblas.global.openblas.CblasRowMajor;
import static org.bytedeco.openblas.global.openblas.CblasTrans;
import static org.bytedeco.openblas.global.openblas.cblas_dgemm;

import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.openblas.global.openblas;
import org.bytedeco.openblas.presets.openblas_nolapack;

import java.io.IOException;
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
 * update: {@value #BLOCK} rows of its upper part; a block product: {@link #productBlock}
 * rows × {@value #PRODUCT_STRIP} columns), each one {@code dgemm} call, spread over the
 * cores by the JVM's common pool.
 * OpenBLAS's own threads wait for work by spinning: on a machine shared with other
 * processes (this project's 2-core one ran at a load of 27) two of them took 2–4 × the CPU
 * time of one for the same product, while the pool's idle threads sleep. Every output
 * entry is one call's sum over the same index range, so the results do not depend on the
 * thread count or the timing: bit-identical run to run (FamilyPropertyTest checks runs
 * for equality; docs/speed.md, backends).
 */
final class NativeBlas {

	/** Rows of G per {@code dgemm} call of a Gram matrix's update. */
	private static final int BLOCK = 128;
	/** Output rows per {@code dgemm} call of a block product ({@link #productBlock}). */
	static final int PRODUCT_ROWS = 128;
	/** Output columns per {@code dgemm} call of a block product. */
	static final int PRODUCT_STRIP = 512;
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
			openblas_nolapack.blas_set_num_threads(1);
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
	 * A symmetric m × m sum {@code G = Σ P_kᵀ P_k} over panels {@code P_k} (rows of length
	 * m), held off-heap (upper part) while it is accumulated by {@code dgemm}.
	 */
	static final class Gram implements AutoCloseable {

		private final int m;
		private final DoublePointer g;
		private DoublePointer panel;
		private int panelRows;

		Gram(final int m) {
			this.m = m;
			this.g = new DoublePointer((long) m * m);
			g.zero();
		}

		/** {@code G += Σ_{s < count} rows[s] rows[s]ᵀ} (each row of length m). */
		void add(final double[][] rows, final int count) {
			if (count <= 0) return;
			if (count > panelRows) {
				if (panel != null) panel.close();
				panel = new DoublePointer((long) count * m);
				panelRows = count;
			}
			for (int s = 0; s < count; s++)
				panel.position((long) s * m).put(rows[s], 0, m);
			panel.position(0);
			final DoublePointer p = panel;
			// row block b of G (upper part, its diagonal block whole): PᵀP over its columns
			IntStream.range(0, (m + BLOCK - 1) / BLOCK).parallel().forEach(b -> {
				final int i0 = b * BLOCK, height = Math.min(BLOCK, m - i0);
				cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, height, m - i0, count, 1.0, p
					.getPointer(i0), m, p.getPointer(i0), m, 1.0, g.getPointer((long) i0 * m +
						i0), m);
			});
		}

		/** The full matrix (both triangles), row-major, times factor. */
		double[] symmetric(final double factor) {
			final double[] out = new double[m * m];
			final double[] row = new double[m];
			for (int i = 0; i < m; i++) {
				g.position((long) i * m + i).get(row, i, m - i);
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
				g.position((long) i * m + i).get(out[i], i, m - i);
				for (int j = i + 1; j < m; j++)
					out[j][i] = out[i][j];
			}
			g.position(0);
			return out;
		}

		/** The upper triangle added into the caller's rows ({@code upper[i][j] += G_ij}, j ≥ i). */
		void addUpperTo(final double[][] upper) {
			final double[] row = new double[m];
			for (int i = 0; i < m; i++) {
				g.position((long) i * m + i).get(row, i, m - i);
				final double[] ui = upper[i];
				for (int j = i; j < m; j++)
					ui[j] += row[j];
			}
			g.position(0);
		}

		@Override
		public void close() {
			g.close();
			if (panel != null) panel.close();
		}
	}

	/**
	 * Output rows per {@code dgemm} call of a block product with p output rows:
	 * {@value #PRODUCT_ROWS}. A function of p alone (the blocks, and so every result's
	 * bits, do not depend on the thread count). Equal bands of up to 256 rows × 2,048
	 * columns ran 6 points of the peak faster, but their other rounding made a hard
	 * LOBPCG solve ({@code HardSpectraTest}, α = 1000) run into its cap instead of
	 * converging in 17 iterations (docs/speed.md, backends): not kept.
	 */
	static int productBlock(final int p) {
		return Math.min(Math.max(1, p), PRODUCT_ROWS);
	}

	/**
	 * {@code out[r][c] += Σ_{t ∈ [t0, t1)} x[r][t] · l[t][c]} for r in [r0, r1), c in
	 * [c0, c1), by {@code dgemm} on off-heap copies: the right factor whole, the left
	 * factor and the output one band of rows at a time per core.
	 */
	static void multiplyAdd(final double[][] x, final double[][] l, final double[][] out,
		final int r0, final int r1, final int t0, final int t1, final int c0, final int c1)
	{
		final int p = r1 - r0, q = t1 - t0, c = c1 - c0;
		try (DoublePointer b = new DoublePointer((long) q * c)) {
			for (int t = 0; t < q; t++)
				b.position((long) t * c).put(l[t0 + t], c0, c);
			b.position(0);
			final int strips = (c + PRODUCT_STRIP - 1) / PRODUCT_STRIP;
			final int height = productBlock(p);
			// band by band: only the right factor and one band of the left factor and of the
			// output per core are off-heap at a time (docs/memory.md)
			IntStream.range(0, (p + height - 1) / height).parallel().forEach(band -> {
				final int i0 = band * height, h = Math.min(height, p - i0);
				try (DoublePointer a = new DoublePointer((long) h * q);
					DoublePointer o = new DoublePointer((long) h * c))
				{
					for (int i = 0; i < h; i++) {
						a.position((long) i * q).put(x[r0 + i0 + i], t0, q);
						o.position((long) i * c).put(out[r0 + i0 + i], c0, c);
					}
					a.position(0);
					o.position(0);
					for (int s = 0; s < strips; s++) {
						final int j0 = s * PRODUCT_STRIP;
						cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, h, Math.min(
							PRODUCT_STRIP, c - j0), q, 1.0, a, q, b.getPointer(j0), c, 1.0, o
								.getPointer(j0), c);
					}
					for (int i = 0; i < h; i++)
						o.position((long) i * c).get(out[r0 + i0 + i], c0, c);
				}
			});
		}
	}

}
