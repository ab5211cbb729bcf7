package org.cpca.core.linalg;

import static org.bytedeco.openblas.global.openblas.CblasColMajor;
import static org.bytedeco.openblas.global.openblas.CblasRowMajor;
import static org.bytedeco.openblas.global.openblas.CblasUpper;
import static org.bytedeco.openblas.global.openblas.cblas_dsbmv;
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

	/** Sets row i of the matrix (length m; only its entries from the diagonal on are read). */
	void putRow(final int i, final double[] row) {
		s.position((long) i * m).put(row, 0, m);
		s.position(0);
	}

	/** {@code S x_v} for each vector of the block (p vectors of length m). */
	double[][] times(final double[][] block) {
		return times(block, null, 0);
	}

	/**
	 * {@code S x_v + f·T x_v} for each vector of the block, T the symmetric tridiagonal
	 * matrix in the band storage of {@link #band} (or none if null), f the factor: T's part
	 * by one {@code dsbmv} into the {@code dsymv}'s result.
	 */
	double[][] times(final double[][] block, final double[] band, final double f) {
		final int p = block.length;
		final double[][] out = new double[p][m];
		if (p == 0 || m == 0) return out;
		// vector v at v·m, its image at (p + v)·m, then T's band: one allocation per product
		final long bandAt = 2L * p * m;
		try (DoublePointer xy = new DoublePointer(bandAt + (band == null ? 0 : 2L * m))) {
			// zeroed: with β = 0 some BLAS builds still read y (0 · NaN would be NaN)
			xy.zero();
			final DoublePointer t = band == null ? null : at(xy, bandAt).put(band, 0, 2 * m);
			final IntStream vectors = IntStream.range(0, p);
			(p > 1 ? vectors.parallel() : vectors).forEach(v -> {
				final DoublePointer x = at(xy, (long) v * m), y = at(xy, (long) (p + v) * m);
				x.put(block[v], 0, m);
				cblas_dsymv(CblasRowMajor, CblasUpper, m, 1.0, s, m, x, 1, 0.0, y, 1);
				if (t != null) cblas_dsbmv(CblasColMajor, CblasUpper, m, 1, f, t, 2, x, 1, 1.0, y,
					1);
				y.get(out[v], 0, m);
			});
		}
		return out;
	}

	/**
	 * A view of p from i values on (p's memory, which p frees). Not {@code p.getPointer(i)},
	 * which finds the constructor by reflection at every call: in a fresh JVM that cost
	 * more than the BLAS calls of the solvers' small steps.
	 */
	static DoublePointer at(final DoublePointer p, final long i) {
		return new DoublePointer(p).position(p.position() + i);
	}

	/**
	 * The symmetric tridiagonal matrix of diagonal d and off-diagonal e ({@code e[i] =
	 * T[i][i+1]}) in the column-major upper band storage of {@code dsbmv} (one
	 * superdiagonal, leading dimension 2): {@code T[j−1][j]} at 2j, {@code T[j][j]} at 2j + 1.
	 */
	static double[] band(final double[] d, final double[] e) {
		final int m = d.length;
		final double[] band = new double[2 * m];
		for (int j = 0; j < m; j++) {
			if (j > 0) band[2 * j] = e[j - 1];
			band[2 * j + 1] = d[j];
		}
		return band;
	}

	@Override
	public void close() {
		s.close();
	}
}
