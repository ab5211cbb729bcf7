package org.cpca.core.linalg;

import static org.bytedeco.openblas.global.openblas.CblasRowMajor;
import static org.bytedeco.openblas.global.openblas.CblasUpper;
import static org.bytedeco.openblas.global.openblas.cblas_dsymv;

import org.bytedeco.javacpp.DoublePointer;

import java.util.stream.IntStream;

/**
 * A symmetric m × m matrix held off-heap for the native backend's thin products: the
 * iterative solvers multiply one fixed matrix by blocks of a few vectors many times
 * ({@link ContrastSolver}: M = QᵀAQ at every α of a sweep, or C = A − αB for one α).
 * {@link Products#times} copies both factors to native memory on every call, which for a
 * thin block costs more than the product (hence {@link Products#nativePays}); here the
 * matrix is copied once, and each product copies only the block in and the result out.
 * <p>
 * Each vector is multiplied by one {@code dsymv} (upper triangle): it reads half of S
 * once per vector and packs nothing, where {@code dgemm} first packs all of S, which
 * for the blocks of 4–5 vectors of the solvers cost more than the product
 * (docs/speed.md). The vectors are spread over the cores; each result is one call's, so
 * the bits depend on nothing but S and the vector: not on the block, the thread count,
 * the timing or what was multiplied before. Meant for a matrix that stays in the cache
 * ({@link #FITS}); {@link #close} frees the native memory at once.
 */
final class NativeMatrix implements AutoCloseable {

	/**
	 * Largest m for which the solvers keep their matrix here (8 MB, a quarter of this
	 * machine's 32 MB L3): beyond it each {@code dsymv} reads S from memory, and the Java
	 * kernels, which read it once per block, took 3.3 ms for 5 vectors at m = 3,136
	 * against 5.5 ms (docs/speed.md).
	 */
	static final int FITS = 1024;

	private final int m;
	private final DoublePointer s;

	/** An m × m matrix to be filled row by row ({@link #putRow}). */
	NativeMatrix(final int m) {
		this.m = m;
		this.s = new DoublePointer((long) m * m);
	}

	/** A native copy of the symmetric matrix given as m rows of length m. */
	static NativeMatrix of(final double[][] rows) {
		final NativeMatrix out = new NativeMatrix(rows.length);
		for (int i = 0; i < rows.length; i++)
			out.putRow(i, rows[i]);
		return out;
	}

	/** Whether the solvers keep an m × m matrix here: native backend, m ≤ {@value #FITS}. */
	static boolean pays(final int m) {
		return Backend.isNative() && m <= FITS;
	}

	/** Sets row i of the matrix (length m; only its entries from the diagonal on are read). */
	void putRow(final int i, final double[] row) {
		s.position((long) i * m).put(row, 0, m);
		s.position(0);
	}

	/** {@code S x_v} for each vector of the block (p vectors of length m). */
	double[][] times(final double[][] block) {
		final int p = block.length;
		final double[][] out = new double[p][m];
		if (p == 0 || m == 0) return out;
		// vector v at v·m, its image at (p + v)·m: one allocation per product
		try (DoublePointer xy = new DoublePointer(2L * p * m)) {
			// zeroed: with β = 0 some BLAS builds still read y (0 · NaN would be NaN)
			xy.zero();
			final IntStream vectors = IntStream.range(0, p);
			(p > 1 ? vectors.parallel() : vectors).forEach(v -> {
				final DoublePointer x = xy.getPointer((long) v * m), y = xy.getPointer((long) (p +
					v) * m);
				x.put(block[v], 0, m);
				cblas_dsymv(CblasRowMajor, CblasUpper, m, 1.0, s, m, x, 1, 0.0, y, 1);
				y.get(out[v], 0, m);
			});
		}
		return out;
	}

	@Override
	public void close() {
		s.close();
	}
}
