package org.cpca.core.linalg;

import static org.bytedeco.openblas.global.openblas.CblasColMajor;
import static org.bytedeco.openblas.global.openblas.CblasNoTrans;
import static org.bytedeco.openblas.global.openblas.CblasTrans;
import static org.bytedeco.openblas.global.openblas.LAPACK_COL_MAJOR;
import static org.bytedeco.openblas.global.openblas.LAPACKE_dsyevd;
import static org.bytedeco.openblas.global.openblas.cblas_dgemm;
import static org.bytedeco.openblas.global.openblas.cblas_dgemv;
import static org.bytedeco.openblas.global.openblas.cblas_dnrm2;
import static org.bytedeco.openblas.global.openblas.cblas_dscal;

import org.bytedeco.javacpp.DoublePointer;

import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link BlockSteps} on OpenBLAS and LAPACK (one thread per call, {@link NativeBlas}): the
 * basis V = [X | W | P] and its image SV as column-major m × nb blocks in native memory
 * held for one LOBPCG run, {@code H = VᵀSV} by one {@code dgemm}, its eigenpairs by
 * {@code dsyevd}, the Ritz vectors {@code V·U} and their images {@code SV·U} by
 * {@code dgemm}, and the orthonormalisations by classical Gram–Schmidt, twice, each vector
 * against the columns before it by two {@code dgemv} (its image carried along by a third).
 * A step copies its operands in and its results out, one vector at a time; each result
 * depends only on the step's operands. LAPACK reporting a failure of the small
 * eigenproblem hands that step to {@link JavaBlockSteps} (counted, {@link #FALLBACKS}).
 * {@link #close} frees the native memory.
 */
final class NativeBlockSteps implements BlockSteps {

	private static final byte VECTORS = 'V', UPPER = 'U';
	/** Rayleigh–Ritz steps and rotations done natively, for the tests. */
	static final AtomicLong STEPS = new AtomicLong();
	/** Steps handed to the Java ones after a LAPACK failure, for the tests. */
	static final AtomicLong FALLBACKS = new AtomicLong();

	private final int m;
	/** V and SV (m × capacity each), the results (m × 4 capacity), H, its values, GS coefficients. */
	private final DoublePointer v, sv, out, h, values, t;
	/** The columns of V, SV and the results (X, SX, P, SP, capacity columns each). */
	private final DoublePointer[] vColumns, svColumns, outColumns;

	NativeBlockSteps(final int m, final int capacity) {
		this.m = m;
		final long block = (long) m * capacity;
		v = new DoublePointer(block);
		sv = new DoublePointer(block);
		out = new DoublePointer(4 * block);
		h = new DoublePointer((long) capacity * capacity);
		values = new DoublePointer(capacity);
		t = new DoublePointer(capacity);
		// zeroed once: the outputs of calls with β = 0 are read by some BLAS builds all the
		// same (0 · NaN would be NaN; as NativeMatrix.times), and nothing then depends on
		// what the memory held before
		for (final DoublePointer p : new DoublePointer[] { v, sv, out, h, values, t })
			p.zero();
		vColumns = columns(v, capacity);
		svColumns = columns(sv, capacity);
		outColumns = columns(out, 4 * capacity);
	}

	/** Views of the first n columns of the block (made once: no allocation per step). */
	private DoublePointer[] columns(final DoublePointer block, final int n) {
		final DoublePointer[] c = new DoublePointer[n];
		for (int j = 0; j < n; j++)
			c[j] = NativeMatrix.at(block, (long) j * m);
		return c;
	}

	/** Copies the vectors into the columns 0, 1, … given. */
	private void put(final DoublePointer[] columns, final double[][] vectors) {
		for (int c = 0; c < vectors.length; c++)
			columns[c].put(vectors[c], 0, m);
	}

	/** A column as a new array. */
	private double[] get(final DoublePointer column) {
		final double[] x = new double[m];
		column.get(x, 0, m);
		return x;
	}

	@Override
	public double[][] orthonormalize(final double[][] w, final double[][] x) {
		put(vColumns, x);
		final int kept = gramSchmidt(w, null, x.length, 1e-10);
		final double[][] o = new double[kept][];
		for (int c = 0; c < kept; c++)
			o[c] = get(vColumns[x.length + c]);
		return o;
	}

	/**
	 * Appends the vectors (and their images, if given) to the first n orthonormal columns
	 * of V (and SV): each by classical Gram–Schmidt against the columns before it, twice,
	 * kept (normalised) when its norm is then above {@code drop} times its norm before,
	 * else dropped. Returns how many were kept.
	 */
	private int gramSchmidt(final double[][] vectors, final double[][] images, final int n,
		final double drop)
	{
		int kept = 0;
		for (int c = 0; c < vectors.length; c++) {
			final int j = n + kept;
			final DoublePointer vj = vColumns[j], sj = images == null ? null : svColumns[j];
			vj.put(vectors[c], 0, m);
			if (sj != null) sj.put(images[c], 0, m);
			final double before = cblas_dnrm2(m, vj, 1);
			if (!(before > 0)) continue;
			for (int pass = 0; pass < 2 && j > 0; pass++) {
				// t = V[:, 0:j]ᵀ v_j, then v_j −= V t and s_j −= SV t
				cblas_dgemv(CblasColMajor, CblasTrans, m, j, 1.0, v, m, vj, 1, 0.0, t, 1);
				cblas_dgemv(CblasColMajor, CblasNoTrans, m, j, -1.0, v, m, t, 1, 1.0, vj, 1);
				if (sj != null) cblas_dgemv(CblasColMajor, CblasNoTrans, m, j, -1.0, sv, m, t, 1,
					1.0, sj, 1);
			}
			final double after = cblas_dnrm2(m, vj, 1);
			// a direction mostly already in the basis: its image would be inaccurate
			if (!(after > drop * before)) continue;
			cblas_dscal(m, 1 / after, vj, 1);
			if (sj != null) cblas_dscal(m, 1 / after, sj, 1);
			kept++;
		}
		return kept;
	}

	@Override
	public Ritz rayleighRitz(final double[][] prior, final double[][] priorImage,
		final double[][] directions, final double[][] directionImages, final int nx,
		final int p)
	{
		put(vColumns, prior);
		put(svColumns, priorImage);
		final int nb = prior.length + gramSchmidt(directions, directionImages, prior.length,
			1e-6);
		final double[] all = eigen(nb);
		if (all == null) {
			FALLBACKS.incrementAndGet();
			return JavaBlockSteps.INSTANCE.rayleighRitz(prior, priorImage, directions,
				directionImages, nx, p);
		}
		final int keep = Math.min(p, nb);
		// the top keep eigenvectors: the last columns of H, ascending
		final DoublePointer u = NativeMatrix.at(h, (long) (nb - keep) * nb);
		final int cap = vColumns.length;
		final DoublePointer ox = outColumns[0], osx = outColumns[cap], op = outColumns[2 * cap],
			osp = outColumns[3 * cap];
		cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, keep, nb, 1.0, v, m, u, nb,
			0.0, ox, m);
		cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, keep, nb, 1.0, sv, m, u, nb,
			0.0, osx, m);
		final boolean update = nb > nx;
		if (update) {
			// the same combinations of W and P: rows nx … nb − 1 of U
			final DoublePointer uw = NativeMatrix.at(u, nx);
			cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, keep, nb - nx, 1.0,
				vColumns[nx], m, uw, nb, 0.0, op, m);
			cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, keep, nb - nx, 1.0,
				svColumns[nx], m, uw, nb, 0.0, osp, m);
		}
		final double[][] x = new double[keep][], sx = new double[keep][];
		final double[][] pd = new double[update ? keep : 0][], sp = new double[pd.length][];
		for (int c = 0; c < keep; c++) {
			final int col = keep - 1 - c; // descending
			x[c] = get(outColumns[col]);
			sx[c] = get(outColumns[cap + col]);
			if (update) {
				pd[c] = get(outColumns[2 * cap + col]);
				sp[c] = get(outColumns[3 * cap + col]);
			}
		}
		STEPS.incrementAndGet();
		return new Ritz(all, x, sx, pd, sp);
	}

	@Override
	public double[] rotate(final double[][] x, final double[][] sx) {
		final int n = x.length;
		put(vColumns, x);
		put(svColumns, sx);
		final double[] all = eigen(n);
		if (all == null) {
			FALLBACKS.incrementAndGet();
			return JavaBlockSteps.INSTANCE.rotate(x, sx);
		}
		final int cap = vColumns.length;
		cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, n, 1.0, v, m, h, n, 0.0,
			outColumns[0], m);
		cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, n, 1.0, sv, m, h, n, 0.0,
			outColumns[cap], m);
		for (int c = 0; c < n; c++) {
			x[c] = get(outColumns[n - 1 - c]);
			sx[c] = get(outColumns[cap + n - 1 - c]);
		}
		STEPS.incrementAndGet();
		return all;
	}

	/**
	 * {@code H = VᵀSV} of the first nb columns, symmetrised, and its eigenpairs by
	 * {@code dsyevd}: the vectors overwrite H (column j for the j-th smallest value);
	 * returns the values descending, or null when LAPACK reports a failure.
	 */
	private double[] eigen(final int nb) {
		cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, nb, nb, m, 1.0, v, m, sv, m, 0.0,
			h, nb);
		final double[] a = new double[nb * nb];
		h.get(a, 0, nb * nb);
		for (int i = 0; i < nb; i++)
			for (int j = i + 1; j < nb; j++)
				a[i * nb + j] = a[j * nb + i] = 0.5 * (a[i * nb + j] + a[j * nb + i]);
		h.put(a, 0, nb * nb);
		if (LAPACKE_dsyevd(LAPACK_COL_MAJOR, VECTORS, UPPER, nb, h, nb, values) != 0)
			return null;
		final double[] all = new double[nb];
		for (int c = 0; c < nb; c++)
			all[c] = values.get(nb - 1 - c);
		return all;
	}

	@Override
	public void close() {
		v.close();
		sv.close();
		out.close();
		h.close();
		values.close();
		t.close();
	}
}
