package org.cpca.core.linalg;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Top-k eigenpairs of {@code C(α) = A − αB} for any number of α values, exact and fast.
 * <p>
 * <b>Once per fit</b>, B is reduced to tridiagonal form by Householder reflections,
 * {@code B = Q T Qᵀ} (Q orthogonal, T tridiagonal; {@link SymmetricEigen#tridiagonalize},
 * or on the native backend up to m = {@link NativeMatrix#FITS} LAPACK's {@code dsytrd} and
 * {@code dorgtr}, {@link NativeLapack#tridiagonalize}: in a fresh JVM the Java reduction
 * runs before the JIT has compiled it, docs/speed.md),
 * and A is carried into the same basis, {@code M = QᵀAQ}. This costs about one third of a
 * full eigen-decomposition of B: the expensive part of the latter, accumulating the QL
 * rotations into the eigenvectors, is never done. In this basis every α is the similar
 * matrix {@code S(α) = M − αT}: same eigenvalues, eigenvectors {@code v = Qy}.
 * <p>
 * <b>Per α</b>, the top k eigenpairs of S(α) are found by LOBPCG (Knyazev 2001: the
 * Rayleigh–Ritz procedure on span{X, W, P} with W the preconditioned block residual and
 * P the previous update direction). The residuals are preconditioned with
 * {@code (σI − tri S(α))⁻¹}, tri S(α) being the tridiagonal part of S(α) = tri(M) − αT (an
 * O(m) LDLᵀ solve), and one shift σ per iteration just above both the largest Ritz value
 * and the largest eigenvalue of tri S(α) (found by bisection on Sturm counts), so that
 * σI − tri S(α) is positive definite. This is the right preconditioner here: at large α
 * the spread of S(α) comes from −αT, which it contains exactly, so the iteration count
 * does not grow with α (unpreconditioned Krylov methods slow down like √(α‖B‖/gap)); and
 * near the top of the spectrum it acts as a shift-invert, so the crowded low end of B's
 * spectrum (many near-equal small background variances, which become the top of S at
 * large α) is resolved quickly. It never needs the eigenvectors of B. A shift by each
 * Ritz value θ instead (Davidson's choice) targets the eigenvalues nearest θ: a block
 * that has lost the top directions then converges to interior eigenpairs, which pass
 * the residual test (on pencils solvable on paper: 9 instead of 100 at α = 0, and pairs
 * missed after eigenvalue crossings in a warm sweep). For the same reason, after the
 * wanted pairs first converge, {@value #VERIFY_ITERATIONS} more iterations run with
 * {@value #VERIFY_VECTORS} seeded random vectors added to the block, so that an
 * eigenvalue the block missed rises into it. Since the residual test below does not
 * depend on the preconditioner, a poor step can only cost iterations, never accuracy.
 * Per iteration only the new directions W are multiplied by M (or by the dense C of the
 * direct path), the images of X and P being carried along by the same linear
 * combinations. On the Java kernels these thin products are {@link Products#times} on
 * rows, which reads the matrix once per block, and {@code −αT·x} a loop over T's three
 * diagonals. On the native backend, for m up to {@link NativeMatrix#FITS} (a matrix that
 * stays in the cache), the matrix is kept in native memory once — M from the first solve
 * that needs it until the last user lets it go (a sweep holds it across all its solves:
 * {@link #hold}), C formed straight into it instead of into heap rows — and each product
 * is one {@code dsymv} per vector and, for S(α), one {@code dsbmv} adding {@code −αT·x}
 * into its result, copying only the vector in and its image out ({@link NativeMatrix});
 * {@link Products#times} would copy the whole matrix at every product. Either way every
 * product depends only on the matrix and the vector, so the results do not depend on
 * what was solved before (docs/speed.md, the solvers' thin products).
 * <p>
 * The iteration's block steps — orthonormalising W, the Rayleigh–Ritz step on
 * {@code [X | W | P]} with P orthonormalised against the rest, the rotation of a restarted
 * block — are {@link BlockSteps}, written once here in their order: on the Java kernels
 * {@link JavaBlockSteps} (dot products and axpys, {@link SymmetricEigen}), on the native
 * backend up to {@link NativeMatrix#FITS} {@link NativeBlockSteps} (the basis off-heap,
 * {@code H = VᵀSV} and the Ritz vectors by {@code dgemm}, the small eigenproblem by
 * {@code dsyevd}, Gram–Schmidt by {@code dgemv}), and there the preconditioner's
 * {@code σI − tri S(α)}, positive definite by the choice of σ, is solved by LAPACK's
 * {@code dpttrf}/{@code dpttrs} (the guarded Java solve below should it report
 * otherwise). Each step depends only on its operands; a fresh JVM runs them at full
 * speed from the first call instead of interpreting and compiling Java loops
 * (docs/speed.md, LOBPCG's block steps).
 * A warm start (the previous α's vectors) typically converges in 15–30 iterations, the
 * check included (measured on 5,000 + 5,000 samples: 784 features, at most 34 per α; 3,136
 * features, at most 36, at α = 388.8, and no full decomposition over the default grid).
 * <p>
 * <b>One α without the preparation</b> ({@link #direct}). The preparation costs about
 * 8m³ flops (tridiagonalisation, Q, and M), far more than a few dozen products with an
 * m × m matrix. For a single α, the same LOBPCG is therefore first run on
 * {@code C = A − αB} itself with the Jacobi preconditioner; it converges quickly when
 * the top of C's spectrum is well separated (small and moderate α), and gives up early,
 * from the observed convergence rate, when it would not (then the prepared solver is
 * used). Both paths pass the same residual test. {@link Cpca} applies this rule to every
 * single-α request, so which path answers depends only on the data and α, never on the
 * call order.
 * <p>
 * <b>Exactness.</b> Convergence is declared only after the residuals are recomputed from a
 * fresh product: every returned pair satisfies
 * {@code ‖S y − θy‖ ≤ 10⁻¹² · s} ({@link #TOLERANCE}), where s is a lower bound of
 * ‖S(α)‖₂ (the largest |Ritz value| seen, or ‖S‖_F/√m), so also ≤ 10⁻¹²‖C(α)‖ in the
 * original basis up to the
 * rounding of Q (≈ ε‖A‖ + αε‖B‖). A cluster of eigenvalues at the top wider than the block
 * of k + {@value #BLOCK_EXTRA} vectors, too close together for the preconditioner to
 * separate, stalls the residuals: a prepared solve that finds itself stalled (from
 * iteration {@value #STALL_START}, by its observed rate) starts again with a block twice
 * as wide, as long as the budget lasts and the block stays within {@link
 * #largestBlock}. A problem that does not converge within the iteration budget is solved
 * by a full decomposition instead. Randomness (the cold start block) is seeded; all
 * parallel loops have a fixed split: same input, bit-identical output.
 * <p>
 * Length (about 730 lines of code): the direct solve, the prepared basis (tridiagonal
 * reduction of B, Qᵀ and M = QᵀAQ formed band by band), M's native copy, the warm-started
 * block iteration and its exactness checks share the prepared state, which a split would
 * have to pass around; the state is what automatic α's sweep reuses across its 41 solves.
 */
public final class ContrastSolver {

	/**
	 * The residual test: {@code ‖S y − θy‖ ≤ TOLERANCE · s} (see the class javadoc). Tighter
	 * than the other solvers' 10⁻¹⁰ ({@link TopEigen}) so that the native and Java backends'
	 * components agree within 10⁻⁸° on real data, not only on the tests': at 10⁻¹⁰ they
	 * differed by 1.36·10⁻⁸° at α = 18 on 5,000 + 5,000 × 784 (a small eigengap there), at
	 * 3·10⁻¹¹ by 1.0·10⁻⁹°; but with more features than samples (150 + 150 × 400, the
	 * reduced space, close top eigenvalues at α = 36.7: {@code AutoAlphaBackendsTest}) still by
	 * 4.2·10⁻⁸°, at 3·10⁻¹² by 6.4·10⁻⁹°, at 10⁻¹² by 1.6·10⁻⁹°. At 10⁻¹² the 5,000 + 5,000
	 * × 784 sweep takes at most 31 iterations per α instead of 28, its cold fit about 35 ms
	 * more (docs/math/solvers.md). The test stays far above the rounding of the residual
	 * itself (about ε√m · ‖S‖, 10⁻¹⁴ at m = 3,136).
	 */
	static final double TOLERANCE = 1e-12;
	private static final int MAX_ITERATIONS = 400;
	/** First iteration at which a direct solve may give up (see {@link #lobpcg}). */
	private static final int RATE_START = 12;
	/** Vectors beyond the k wanted in LOBPCG's block, at first. */
	static final int BLOCK_EXTRA = 3;
	/**
	 * First iteration at which a prepared solve may find itself stalled and start again
	 * with a block twice as wide ({@link #solve}): well above the 31–54 iterations the
	 * slowest α of the measured sweeps took (digits, the bundled images, 1,000 + 1,000
	 * slices of 64 × 64).
	 */
	static final int STALL_START = 60;
	/**
	 * The widest block a stalled solve grows to: {@value #GROWTH_FLOOR} vectors, or a tenth
	 * of m if more, and never beyond half of m. Much wider, the full decomposition (about
	 * m³ flops) costs less than a few dozen Rayleigh–Ritz steps on bases of three such
	 * blocks (about (3p)³ flops each); the floor lets small problems grow far enough to
	 * hold a cluster and to converge past it (with an eightfold cluster at m = 300, a block
	 * of 20 still stalled at one α, one of 40 converged).
	 */
	static int largestBlock(final int m) {
		return Math.min(m / 2, Math.max(m / 10, GROWTH_FLOOR));
	}

	/** See {@link #largestBlock}. */
	static final int GROWTH_FLOOR = 64;
	/** Iterations over which the convergence rate is measured. */
	private static final int RATE_WINDOW = 6;
	/** At or below this size a full decomposition per α is cheaper than iterating. */
	private static final int SMALL = 64;

	private final int m;
	private final double[] a;
	private final double[] b;
	/** Rows of Qᵀ: basis vector i in original coordinates. */
	private final double[][] qt;
	private final double[] td;
	private final double[] te;
	/** M = QᵀAQ as rows (m × m, symmetric). */
	private final double[][] mm;
	private final double mNorm2;
	private final double tNorm2;
	private final double mtDot;
	/** M's native copy while solves or a {@link #hold} use it, else null. */
	private NativeMatrix resident;
	/** Solves and holds using {@link #resident}. */
	private int residentUsers;

	private ContrastSolver(final int m, final double[] a, final double[] b,
		final double[][] qt, final double[] td, final double[] te, final double[][] mm)
	{
		this.m = m;
		this.a = a;
		this.b = b;
		this.qt = qt;
		this.td = td;
		this.te = te;
		this.mm = mm;
		double n2 = 0, t2 = 0, mt = 0;
		if (mm != null) {
			for (final double[] row : mm)
				for (final double v : row)
					n2 += v * v;
			for (int i = 0; i < m; i++) {
				t2 += td[i] * td[i] + (i + 1 < m ? 2 * te[i] * te[i] : 0);
				mt += mm[i][i] * td[i] + (i + 1 < m ? 2 * mm[i][i + 1] * te[i] : 0);
			}
		}
		this.mNorm2 = n2;
		this.tNorm2 = t2;
		this.mtDot = mt;
	}

	/** Prepares A − αB (both symmetric m × m, row-major; not modified, not copied). */
	public static ContrastSolver build(final double[] a, final double[] b, final int m) {
		if (m <= SMALL) return new ContrastSolver(m, a, b, null, null, null, null);
		final int nb = leadingBlock(b, m);
		if (m - nb >= SMALL) return buildBlocked(a, b, m, nb);
		return buildFull(a, b, m);
	}

	/** {@link #build} by a tridiagonalisation of the whole of B (m &gt; {@value #SMALL}). */
	static ContrastSolver buildFull(final double[] a, final double[] b, final int m) {
		final double[][] rows = new double[m][m];
		for (int i = 0; i < m; i++)
			for (int j = 0; j < m; j++)
				rows[i][j] = 0.5 * (b[i * m + j] + b[j * m + i]);
		final double[] td = new double[m], te = new double[m];
		final double[][] qt = tridiagonalize(rows, td, te);
		final double[][] mm = targetInBasis(a, qt, rows, m);
		return new ContrastSolver(m, a, b, qt, td, te, mm);
	}

	/**
	 * {@code B = QTQᵀ} of the symmetric rows, Qᵀ returned: by LAPACK on the native backend
	 * when B's native copy stays as small as M's ({@link Backend#keepsResident}), else by
	 * {@link SymmetricEigen#tridiagonalize} (which overwrites the rows; LAPACK reads them).
	 */
	private static double[][] tridiagonalize(final double[][] rows, final double[] d,
		final double[] e)
	{
		final double[][] lapack = Backend.keepsResident(rows.length) ? NativeLapack
			.tridiagonalize(rows, d, e) : null;
		return lapack != null ? lapack : SymmetricEigen.tridiagonalize(rows, d, e);
	}

	/**
	 * {@code M = QᵀAQ}, symmetrised, in the m × m rows {@code work} (B's copy, no longer
	 * needed; overwritten and returned), with no further m × m matrix on the heap
	 * (docs/memory.md). First {@code P = QᵀA} into {@code work}: by the native dgemm, A
	 * copied off-heap from where it is (no rows of it); on the Java kernels, Aᵀ is copied
	 * into {@code work} and {@code work ← work·Q = AᵀQ} formed band by band of its rows,
	 * each band written back over the rows it came from, then transposed in place (each
	 * entry of AᵀQ sums the same products in the same order as the entry of QᵀA it
	 * becomes, whatever the split: {@link Products#multiplyAdd}). Then {@code work ← P·Q}
	 * band by band. M is the same to the last bit as {@code (QᵀA)Q} formed whole (a test
	 * compares them); the native dgemm's entries do not depend on the row bands, but
	 * along an unrolled edge they do on the orientation, hence no transposition there.
	 */
	private static double[][] targetInBasis(final double[] a, final double[][] qt,
		final double[][] work, final int m)
	{
		if (Backend.isNative() && Products.nativePays(m, m, m)) NativeBlas.multiplyAdd(qt, a,
			m, work, 0, m, 0, m, 0, m, false);
		else {
			for (int i = 0; i < m; i++)
				for (int j = 0; j < m; j++)
					work[i][j] = a[j * m + i];
			transposeInPlace(qt); // Q
			timesInPlace(work, qt, false);
			transposeInPlace(qt);
			transposeInPlace(work);
		}
		transposeInPlace(qt);
		timesInPlace(work, qt, true);
		transposeInPlace(qt);
		for (int i = 0; i < m; i++)
			for (int j = i; j < m; j++) {
				final double v = 0.5 * (work[i][j] + work[j][i]);
				work[i][j] = v;
				work[j][i] = v;
			}
		return work;
	}

	/**
	 * Rows per band of {@link #timesInPlace}: all m up to 1,024 (at most 8 MB more), else
	 * bands of at least 512 rows, at most eight, a multiple of 32 (the last band holds the
	 * rest and may be shorter, e.g. 481 rows at m = 1,025). OpenBLAS's dgemm gave other bits
	 * for a band of a few dozen rows than for the same rows in a product with hundreds, and
	 * none for bands of 512 rows and more (a test compares them at m = 1,100, whose last band
	 * has 524 rows); the result is deterministic run to run whatever the split.
	 */
	static int band(final int m) {
		if (m <= 1024) return Math.max(1, m);
		final int bands = Math.min(8, m / 512);
		return ((m + bands - 1) / bands + 31) / 32 * 32;
	}

	/**
	 * {@code x ← x·l} (m × m rows each), band by band of x's rows: only one band of the
	 * product is held besides them. {@code sum}: as {@link Products#multiplyAdd} into
	 * zeros, else as {@link Products#times} (the two products of {@link #targetInBasis},
	 * as they were formed whole).
	 */
	private static void timesInPlace(final double[][] x, final double[][] l,
		final boolean sum)
	{
		final int m = x.length, band = band(m);
		final double[][] out = sum ? new double[Math.min(band, m)][m] : null;
		for (int r0 = 0; r0 < m; r0 += band) {
			final int r1 = Math.min(m, r0 + band);
			final double[][] rows = Arrays.copyOfRange(x, r0, r1);
			final double[][] product;
			if (sum) {
				for (final double[] row : out)
					Arrays.fill(row, 0.0);
				Products.multiplyAdd(rows, l, out, 0, r1 - r0, 0, m, 0, m);
				product = out;
			}
			else product = Products.times(rows, l);
			for (int i = r0; i < r1; i++)
				System.arraycopy(product[i - r0], 0, x[i], 0, m);
		}
	}

	/** Transposes a square matrix given as rows, in place. */
	private static void transposeInPlace(final double[][] x) {
		for (int i = 0; i < x.length; i++)
			for (int j = i + 1; j < x.length; j++) {
				final double v = x[i][j];
				x[i][j] = x[j][i];
				x[j][i] = v;
			}
	}

	/**
	 * Whether the one-time preparation was done ({@code m >} {@value #SMALL}); only then
	 * are {@link #basisRows}, {@link #tridiagonalDiagonal}, {@link #tridiagonalOffDiagonal}
	 * and {@link #targetInBasis} available. Shared with cPCA*'s β sweep ({@link BetaSolver}).
	 */
	public boolean prepared() {
		return mm != null;
	}

	/**
	 * Whether {@link #hold} keeps anything for an m × m problem: a prepared solver on the
	 * native backend with M small enough to stay in the cache ({@link NativeMatrix#FITS}).
	 */
	public static boolean resides(final int m) {
		return m > SMALL && Backend.keepsResident(m);
	}

	/**
	 * Keeps M's native copy until the hold is closed, so that the solves meanwhile (a
	 * sweep's, on any thread) share one copy instead of making one each; a no-op where
	 * {@link #resides} is false. The copy is freed when the last hold and solve using it
	 * end. Holding changes no result: where {@link #resides}, a solve always multiplies
	 * by a native copy of M, its own or the held one, which hold the same values. Closing
	 * the hold again does nothing.
	 */
	public Hold hold() {
		final NativeMatrix held = acquire();
		final AtomicBoolean open = new AtomicBoolean(true);
		return () -> {
			if (open.getAndSet(false)) release(held);
		};
	}

	/** A {@link #hold}: closing it (once) lets M's native copy go. */
	public interface Hold extends AutoCloseable {

		@Override
		void close();
	}

	/** M's native copy, made for the first user ({@link #resides}), or null. */
	private synchronized NativeMatrix acquire() {
		if (mm == null || !resides(m)) return null;
		// counted only once the copy exists: a failed allocation leaves no user behind
		if (residentUsers == 0) resident = NativeMatrix.of(mm);
		residentUsers++;
		return resident;
	}

	/** Whether M's native copy exists now (for the tests: a hold keeps it, none is left). */
	synchronized boolean holdsCopy() {
		return resident != null;
	}

	/** One user of {@link #acquire}'s copy is done; the last frees it. */
	private synchronized void release(final NativeMatrix held) {
		if (held == null) return;
		if (--residentUsers == 0) {
			resident.close();
			resident = null;
		}
	}

	/** Rows of Qᵀ: basis vector i in original coordinates (do not modify). */
	public double[][] basisRows() {
		return qt;
	}

	/** The diagonal of T in {@code B = QTQᵀ} (do not modify). */
	public double[] tridiagonalDiagonal() {
		return td;
	}

	/** The off-diagonal of T, {@code T[i][i+1]} at i (do not modify). */
	public double[] tridiagonalOffDiagonal() {
		return te;
	}

	/** {@code QᵀAQ} as rows (do not modify). */
	public double[][] targetInBasis() {
		return mm;
	}

	/**
	 * The size of the leading block outside which B is exactly zero: 1 + the last index i
	 * whose row or column of B has a nonzero entry (0 for B = 0). Kernel cPCA's exact
	 * features give such a B (the background's null space in feature space is the trailing
	 * block); for linear cPCA it means trailing features without background variance.
	 */
	static int leadingBlock(final double[] b, final int m) {
		for (int i = m - 1; i >= 0; i--)
			for (int j = 0; j < m; j++)
				if (b[i * m + j] != 0 || b[j * m + i] != 0) return i + 1;
		return 0;
	}

	/**
	 * {@link #build} for B zero outside its leading nb × nb block (at least {@value #SMALL}
	 * trailing rows): Q = diag(Q_b, I) with {@code B_bb = Q_b T_b Q_bᵀ} (Householder, nb ×
	 * nb), so that in the new basis B is still tridiagonal (T_b, then zeros) while the
	 * trailing block (the null space of B) keeps its original coordinates. The preparation
	 * costs about 2nb³ + nb·n_n·m multiply–adds and one reduction of size nb instead of 2m³
	 * and one of size m.
	 */
	private static ContrastSolver buildBlocked(final double[] a, final double[] b,
		final int m, final int nb)
	{
		final int nn = m - nb;
		final double[] td = new double[m], te = new double[m];
		final double[][] qb;
		if (nb > 0) {
			final double[][] rows = new double[nb][nb];
			for (int i = 0; i < nb; i++)
				for (int j = 0; j < nb; j++)
					rows[i][j] = 0.5 * (b[i * m + j] + b[j * m + i]);
			final double[] d = new double[nb], e = new double[nb];
			qb = tridiagonalize(rows, d, e);
			System.arraycopy(d, 0, td, 0, nb);
			System.arraycopy(e, 0, te, 0, nb - 1);
		}
		else qb = new double[0][];
		final double[][] qn = new double[nn][nn];
		for (int i = 0; i < nn; i++)
			qn[i][i] = 1;
		// Qᵀ as rows: diag(Q_bᵀ, Q_nᵀ)
		final double[][] qt = new double[m][m];
		for (int i = 0; i < nb; i++)
			System.arraycopy(qb[i], 0, qt[i], 0, nb);
		for (int i = 0; i < nn; i++)
			System.arraycopy(qn[i], 0, qt[nb + i], nb, nn);
		final double[][] mm = new double[m][m];
		if (nb > 0) {
			// M_bb = Q_bᵀ A_bb Q_b and M_bn = Q_bᵀ A_bn Q_n
			final double[][] abb = new double[nb][], abn = new double[nb][];
			for (int i = 0; i < nb; i++) {
				abb[i] = Arrays.copyOfRange(a, i * m, i * m + nb);
				abn[i] = Arrays.copyOfRange(a, i * m + nb, (i + 1) * m);
			}
			final double[][] bRows = Products.times(qb, abb), nRows = Products.times(qb, abn);
			final double[][] qbCols = new double[nb][nb], qnCols = new double[nn][nn];
			for (int i = 0; i < nb; i++)
				for (int j = 0; j < nb; j++)
					qbCols[j][i] = qb[i][j];
			for (int i = 0; i < nn; i++)
				for (int j = 0; j < nn; j++)
					qnCols[j][i] = qn[i][j];
			final double[][] mbb = Products.times(bRows, qbCols);
			final double[][] mbn = Products.times(nRows, qnCols);
			for (int i = 0; i < nb; i++) {
				for (int j = i; j < nb; j++)
					mm[i][j] = mm[j][i] = 0.5 * (mbb[i][j] + mbb[j][i]);
				for (int j = 0; j < nn; j++)
					mm[i][nb + j] = mm[nb + j][i] = mbn[i][j];
			}
		}
		for (int i = 0; i < nn; i++)
			for (int j = i; j < nn; j++)
				mm[nb + i][nb + j] = mm[nb + j][nb + i] = 0.5 * (a[(nb + i) * m + nb + j] + a[(nb +
					j) * m + nb + i]);
		return new ContrastSolver(m, a, b, qt, td, te, mm);
	}

	/**
	 * The top k eigenpairs of A − αB.
	 *
	 * @param warm the {@link TopEigen.Result#warmStart} of a previous α, or {@code null}
	 */
	public TopEigen.Result solve(final double alpha, final int k, final double[][] warm,
		final long seed)
	{
		if (mm == null) return full(a, b, m, null, alpha, k, 0);
		final NativeMatrix held = acquire();
		try {
			return solve(alpha, k, warm, seed, held);
		}
		finally {
			release(held);
		}
	}

	/** {@link #solve} with M's products by its native copy, if not null. */
	private TopEigen.Result solve(final double alpha, final int k, final double[][] warm,
		final long seed, final NativeMatrix held)
	{
		final double frobLower = Math.sqrt(Math.max(0, mNorm2 - 2 * alpha * mtDot +
			alpha * alpha * tNorm2) / m);
		// tri S(α) = tri(M) − αT: its diagonal and off-diagonal
		final double[] triD = new double[m], triE = new double[m];
		for (int i = 0; i < m; i++) {
			triD[i] = mm[i][i] - alpha * td[i];
			if (i + 1 < m) triE[i] = mm[i][i + 1] - alpha * te[i];
		}
		// T's band for the native products' dsbmv
		final double[] band = held != null && alpha != 0 ? NativeMatrix.band(td, te) : null;
		final Operator op = new Operator() {

			@Override
			public double[][] apply(final double[][] block) {
				if (held != null) return held.times(block, band, -alpha);
				return ContrastSolver.this.apply(alpha, block);
			}

			/** The factor of the last shift: one per iteration serves every residual. */
			private double factorTheta = Double.NaN, factorScale = Double.NaN;
			private double[][] factor;

			@Override
			public double[][] precondition(final double[][] r, final double theta,
				final double scale)
			{
				if (held != null) {
					// σI − tri S(α) is positive definite by the shift's choice: LAPACK's
					// dpttrf/dpttrs; should it find otherwise, the guarded solve below
					final double[][] z = positiveShiftedSolve(triD, triE, theta, r);
					if (z != null) return z;
				}
				if (factor == null || theta != factorTheta || scale != factorScale) {
					factor = shiftedFactor(alpha, theta, scale);
					factorTheta = theta;
					factorScale = scale;
				}
				final double[][] z = new double[r.length][];
				for (int q = 0; q < r.length; q++)
					z[q] = shiftedSolve(factor, r[q]);
				return z;
			}

			@Override
			public double top() {
				return largestTridiagonal(triD, triE);
			}
		};
		final int cap = SolverLog.lobpcgCap(MAX_ITERATIONS);
		int spare = BLOCK_EXTRA, used = 0;
		double[][] start = warm;
		Iterate it;
		while (true) {
			// a block that may not grow further runs to the budget, as before the growth
			final boolean grows = 2 * (k + spare) <= largestBlock(m);
			it = lobpcg(op, m, k, spare, start, seed, frobLower, cap - used, grows ? STALL_START
				: Integer.MAX_VALUE);
			used += it.iterations;
			if (it.theta != null || used >= cap || !grows) break;
			// stalled within the budget: a cluster of eigenvalues at the top wider than the
			// block, too close together for the preconditioner to separate (the residuals
			// stop falling); again with a block twice as wide, which holds the cluster and
			// resolves it by Rayleigh–Ritz, from a seeded random start: started from the
			// stalled block, whose vectors had converged much further than the new ones,
			// the iteration lost its conditioning near the tolerance and stalled again
			// (docs/math/solvers.md)
			start = null;
			spare = k + 2 * spare;
		}
		// stopped at the cap: the full decomposition answers (exact), and the log says so
		SolverLog.lobpcg(it.theta == null ? cap : used, cap, it.theta != null,
			it.theta == null);
		if (it.theta == null) return full(a, b, m, qt, alpha, k, cap);
		// a grown block's warm start for the next α: its first vectors, as many as the usual
		// block and its check hold (the next solve starts with the usual block anyway)
		return finish(it.theta, spare == BLOCK_EXTRA ? it.x : Arrays.copyOf(it.x, Math.min(
			it.x.length, k + BLOCK_EXTRA + VERIFY_VECTORS)), k, used);
	}

	/**
	 * The top k eigenpairs of A − αB for one α without any one-time preparation: the same
	 * LOBPCG (same convergence test, so the same exactness), but on the dense matrix
	 * {@code C = A − αB} in the original basis, with the Jacobi preconditioner
	 * {@code (σ − diag C)⁻¹}, σ above the largest Ritz value and the largest diagonal
	 * entry. Cheap when C's top eigenvalues are well separated from the rest of its
	 * spectrum (typical for moderate α); returns {@code null} when it does not
	 * converge within {@code maxIterations}, in which case the caller must use
	 * {@link #build}{@code .solve}. The result depends only on (A, B, α, k, seed).
	 */
	public static TopEigen.Result direct(final double[] a, final double[] b, final int m,
		final double alpha, final int k, final long seed, final int maxIterations)
	{
		return direct(a, b, m, alpha, k, seed, maxIterations, null);
	}

	/**
	 * {@link #direct}, and when it gives up, its last block (original basis) in
	 * {@code partial[0]}: a better start for the prepared solver than random vectors.
	 */
	public static TopEigen.Result direct(final double[] a, final double[] b, final int m,
		final double alpha, final int k, final long seed, final int maxIterations,
		final double[][][] partial)
	{
		return direct(a, b, m, alpha, k, seed, maxIterations, partial, null);
	}

	/** {@link #direct} started from the given block (original basis), or cold if null. */
	public static TopEigen.Result direct(final double[] a, final double[] b, final int m,
		final double alpha, final int k, final long seed, final int maxIterations,
		final double[][][] partial, final double[][] warm)
	{
		if (m <= SMALL) return full(a, b, m, null, alpha, k, 0);
		final double[] diag = new double[m], f2 = new double[1];
		if (!resides(m)) return direct(contrastRows(a, b, m, alpha, diag, f2), null, m, k,
			seed, maxIterations, partial, warm, diag, f2[0]);
		try (NativeMatrix c = contrastNative(a, b, m, alpha, diag, f2)) {
			return direct(null, c, m, k, seed, maxIterations, partial, warm, diag, f2[0]);
		}
	}

	/**
	 * {@link #direct} on C given as rows or as a native copy (the other null), with its
	 * diagonal and squared Frobenius norm.
	 */
	private static TopEigen.Result direct(final double[][] c, final NativeMatrix held,
		final int m, final int k, final long seed, final int maxIterations,
		final double[][][] partial, final double[][] warm, final double[] diag,
		final double f2)
	{
		final Operator op = new Operator() {

			@Override
			public double[][] apply(final double[][] block) {
				return held != null ? held.times(block) : Products.symmetricTimesRows(c, block);
			}

			@Override
			public double[][] precondition(final double[][] r, final double theta,
				final double scale)
			{
				final double guard = 1e-8 * scale;
				final double[][] z = new double[r.length][m];
				for (int q = 0; q < r.length; q++)
					for (int i = 0; i < m; i++) {
						double di = theta - diag[i];
						if (Math.abs(di) < guard) di = di < 0 ? -guard : guard;
						z[q][i] = r[q][i] / di;
					}
				return z;
			}

			@Override
			public double top() {
				double max = Double.NEGATIVE_INFINITY;
				for (final double v : diag)
					max = Math.max(max, v);
				return max;
			}
		};
		final int cap = SolverLog.lobpcgCap(maxIterations);
		final Iterate it = lobpcg(op, m, k, BLOCK_EXTRA, warm, seed, Math.sqrt(f2 / m), cap,
			RATE_START);
		// giving up within the budget hands over to the prepared solver: not a capped solve
		if (it.theta != null) SolverLog.lobpcg(it.iterations, cap, true, false);
		if (it.theta == null) {
			if (partial != null) partial[0] = it.x;
			return null;
		}
		final double[] vectors = new double[m * k];
		for (int col = 0; col < k; col++)
			for (int i = 0; i < m; i++)
				vectors[i * k + col] = it.x[col][i];
		return new TopEigen.Result(Arrays.copyOf(it.theta, k), vectors, it.x,
			it.iterations, false);
	}

	/**
	 * Vectors of the original basis carried into this solver's basis ({@code y = Qᵀv}), so
	 * that they can warm-start {@link #solve}.
	 */
	public double[][] inBasis(final double[][] v) {
		if (qt == null) return v;
		final double[][] y = new double[v.length][m];
		for (int c = 0; c < v.length; c++)
			for (int i = 0; i < m; i++)
				y[c][i] = TopEigen.dot(qt[i], v[c]);
		return y;
	}

	/** The same for a whole result of {@link #direct}: values and vectors unchanged. */
	public TopEigen.Result inBasis(final TopEigen.Result direct) {
		if (qt == null) return direct;
		return new TopEigen.Result(direct.values, direct.vectors, inBasis(direct.warmStart),
			direct.restarts, direct.fullDecomposition);
	}

	/** Rows and columns per tile of {@link #contrastRows} and band of {@link #contrastNative}. */
	private static final int TILE = 64;

	/**
	 * Rows of {@code (C + Cᵀ)/2} for {@code C = A − αB}, symmetrised tile by tile (64 × 64
	 * tiles and their mirror images) so that both reads stay in cache; its diagonal into
	 * {@code diag} and the sum of its squares, row by row, into {@code f2[0]}.
	 */
	static double[][] contrastRows(final double[] a, final double[] b, final int m,
		final double alpha, final double[] diag, final double[] f2)
	{
		final double[][] c = contrastRows(a, b, m, alpha);
		for (int i = 0; i < m; i++) {
			diag[i] = c[i][i];
			for (final double v : c[i])
				f2[0] += v * v;
		}
		return c;
	}

	/**
	 * {@link #contrastRows} as a native copy, formed band by band of {@value #TILE} rows
	 * (each entry the same sum, so the same values), with no m × m rows on the heap.
	 */
	private static NativeMatrix contrastNative(final double[] a, final double[] b,
		final int m, final double alpha, final double[] diag, final double[] f2)
	{
		final NativeMatrix c = new NativeMatrix(m);
		final double[][] band = new double[Math.min(TILE, m)][m];
		for (int i0 = 0; i0 < m; i0 += TILE) {
			final int i1 = Math.min(m, i0 + TILE);
			for (int j = 0; j < m; j++) {
				final int oj = j * m;
				for (int i = i0; i < i1; i++) {
					final int oi = i * m;
					// (x + y) = (y + x) exactly: the entry of contrastRows on either side
					band[i - i0][j] = 0.5 * ((a[oi + j] - alpha * b[oi + j]) + (a[oj + i] -
						alpha * b[oj + i]));
				}
			}
			for (int i = i0; i < i1; i++) {
				final double[] row = band[i - i0];
				diag[i] = row[i];
				for (final double v : row)
					f2[0] += v * v;
				c.putRow(i, row);
			}
		}
		return c;
	}

	/** Rows of {@code (C + Cᵀ)/2} for {@code C = A − αB} (see above). */
	static double[][] contrastRows(final double[] a, final double[] b, final int m,
		final double alpha)
	{
		final double[][] c = new double[m][m];
		final int tile = TILE;
		for (int i0 = 0; i0 < m; i0 += tile) {
			final int i1 = Math.min(m, i0 + tile);
			for (int j0 = i0; j0 < m; j0 += tile) {
				final int j1 = Math.min(m, j0 + tile);
				for (int i = i0; i < i1; i++) {
					final double[] ci = c[i];
					final int oi = i * m;
					for (int j = Math.max(j0, i); j < j1; j++) {
						final int oj = j * m;
						final double v = 0.5 * ((a[oi + j] - alpha * b[oi + j]) + (a[oj + i] -
							alpha * b[oj + i]));
						ci[j] = v;
						c[j][i] = v;
					}
				}
			}
		}
		return c;
	}

	/**
	 * After the wanted pairs first converge, LOBPCG goes on for this many iterations with
	 * {@value #VERIFY_VECTORS} seeded random vectors added to the block. A converged block
	 * can hold the wrong eigenpairs — exact ones, passing the residual test, but not the
	 * top: in a warm sweep an eigenvalue from outside the block crosses the tracked ones
	 * as α grows, and nothing in the block points at it. The random vectors have
	 * components along every eigenvector; the preconditioned ascent lifts the missed one
	 * into the block, and the wanted pairs must converge again.
	 */
	static final int VERIFY_ITERATIONS = 6;
	static final int VERIFY_VECTORS = 2;

	/**
	 * Growth of the largest wanted residual over its smallest since the last (re)start
	 * from which LOBPCG restarts from its current block ({@link #lobpcg}).
	 */
	static final double BREAKDOWN_GROWTH = 8;

	/** Margin of the preconditioner's shift above its matrix's top, relative to ‖S‖. */
	static final double SHIFT_MARGIN = 1e-3;

	/**
	 * The largest eigenvalue of the symmetric tridiagonal matrix (diagonal d, off-diagonal
	 * e[i] = T[i][i+1]) by bisection on Sturm counts (the number of negative pivots of
	 * the LDLᵀ factorisation of T − x is the number of eigenvalues below x), started from
	 * Gershgorin's interval: to about 10⁻¹⁴ of the spread, in O(m) per step.
	 */
	static double largestTridiagonal(final double[] d, final double[] e) {
		final int m = d.length;
		double lo = Double.POSITIVE_INFINITY, hi = Double.NEGATIVE_INFINITY;
		// the first and last rows outside the loops, whose bodies then read e at every
		// index: a read of e under a test of i made C2's loop predicates (hoisted on the
		// profile) trap at the ends and the method was compiled four times in one run
		double left = 0; // |e[i − 1]|
		for (int i = 0; i + 1 < m; i++) {
			final double right = Math.abs(e[i]);
			lo = Math.min(lo, d[i] - (left + right));
			hi = Math.max(hi, d[i] + (left + right));
			left = right;
		}
		lo = Math.min(lo, d[m - 1] - left);
		hi = Math.max(hi, d[m - 1] + left);
		final double tiny = Double.MIN_NORMAL / Math.ulp(1.0);
		for (int step = 0; step < 100 && hi - lo > 1e-14 * Math.max(Math.abs(lo), Math.abs(
			hi)); step++)
		{
			final double x = 0.5 * (lo + hi);
			final int below = sturmCount(d, e, x, tiny);
			if (below == m) hi = x;
			else lo = x;
		}
		return hi;
	}

	/**
	 * The number of negative pivots of the LDLᵀ factorisation of T − x (zero pivots taken
	 * as −tiny): the number of T's eigenvalues below x.
	 */
	private static int sturmCount(final double[] d, final double[] e, final double x,
		final double tiny)
	{
		double q = d[0] - x;
		if (q == 0) q = -tiny;
		int below = q < 0 ? 1 : 0;
		for (int i = 1; i < d.length; i++) {
			final double off = e[i - 1];
			q = d[i] - x - off * off / q;
			if (q == 0) q = -tiny;
			if (q < 0) below++;
		}
		return below;
	}

	/** The operator of an LOBPCG run: the matrix S and the preconditioner. */
	private interface Operator {

		/** S·x for each vector of the block. */
		double[][] apply(double[][] block);

		/**
		 * An approximation of (θ − S)⁻¹r for each vector r of the block (any fixed linear
		 * map is safe).
		 */
		double[][] precondition(double[][] r, double theta, double scale);

		/**
		 * The largest eigenvalue of the preconditioner's approximation P of S (the
		 * tridiagonal part, or the diagonal): shifts at or above it keep θ − P positive
		 * definite.
		 */
		double top();
	}

	/** An empty block. */
	private static final double[][] NONE = new double[0][];

	/** A converged LOBPCG run: Ritz values and vectors (p of them, k wanted). */
	private static final class Iterate {

		final double[] theta;
		final double[][] x;
		final int iterations;

		Iterate(final double[] theta, final double[][] x, final int iterations) {
			this.theta = theta;
			this.x = x;
			this.iterations = iterations;
		}
	}

	/**
	 * LOBPCG for the top k eigenpairs of the symmetric operator (block of k + spare
	 * vectors). If it does not converge within {@code maxIterations}, the result has no
	 * values ({@code theta == null}) and holds the last block. See the class comment
	 * for the method and the convergence test.
	 *
	 * @param giveUpFrom stop early (no values, the last block) once the observed
	 *          convergence rate of the largest wanted residual predicts that the budget
	 *          will not suffice: from this iteration on, the rate over the last
	 *          {@value #RATE_WINDOW} iterations is extrapolated ({@value #RATE_START} for
	 *          the direct solve, {@value #STALL_START} for the prepared one). A
	 *          deterministic function of the run, so it keeps results reproducible.
	 */
	private static Iterate lobpcg(final Operator op, final int m, final int k,
		final int spare, final double[][] warm, final long seed, final double frobLower,
		final int maxIterations, final int giveUpFrom)
	{
		// bases [X | W | P] of at most three blocks, each of k + spare vectors and the check's
		try (BlockSteps steps = BlockSteps.of(m, 3 * (Math.min(m, k + spare) +
			VERIFY_VECTORS)))
		{
			return lobpcg(op, steps, m, k, spare, warm, seed, frobLower, maxIterations,
				giveUpFrom);
		}
	}

	/** {@link #lobpcg} with the block steps given. */
	private static Iterate lobpcg(final Operator op, final BlockSteps steps, final int m,
		final int k, final int spare, final double[][] warm, final long seed,
		final double frobLower, final int maxIterations, final int giveUpFrom)
	{
		final double[] history = new double[maxIterations + 1];
		int p = Math.min(m, k + spare);
		// the check against missed eigenvalues (see VERIFY_ITERATIONS): not yet done
		boolean verified = p + VERIFY_VECTORS > m;
		int verifyUntil = -1;
		// first iteration at which the rate may stop the run (see giveUpFrom)
		int calmFrom = 0;
		final SplittableRandom random = new SplittableRandom(seed);
		final double tol = TOLERANCE;
		double[][] x = new double[p][];
		for (int c = 0; c < p; c++)
			x[c] = warm != null && c < warm.length && warm[c].length == m ? warm[c].clone()
				: TopEigen.gaussian(random, m);
		x = TopEigen.orthonormalize(x, new double[0][], random, m);
		double[][] sx = op.apply(x);
		final double top = op.top();
		double[][] pDir = new double[0][], sp = new double[0][];
		double[] theta = null;
		double scale = frobLower;
		boolean fresh = true; // sx computed directly from x (not by recurrence)
		double best = Double.POSITIVE_INFINITY; // smallest wanted residual since a (re)start
		for (int it = 0; it < maxIterations; it++) {
			// Rayleigh–Ritz on span{X, W, P}
			// X alone at a (re)start, else [X | W] and the directions P
			double[][] prior = x, priorImage = sx, directions = NONE, directionImages = NONE;
			final int nx = x.length;
			if (theta != null) {
				final double[] norms = new double[nx];
				final double[][] all = residuals(x, sx, theta, norms);
				final double[][] r = new double[nx][];
				int nr = 0;
				boolean done = true;
				double worst = 0;
				for (int c = 0; c < nx; c++) {
					final boolean ok = norms[c] <= tol * scale;
					if (c < k && !ok) done = false;
					if (c < k) worst = Math.max(worst, norms[c]);
					if (!ok) r[nr++] = all[c];
				}
				if (done && fresh && !verified) {
					// converged: add random vectors (seeded) and keep iterating a few times, so
					// that an eigenvalue the block missed (it can only come from outside the
					// block) rises into it and the wanted pairs re-converge
					verified = true;
					final double[][] extra = new double[VERIFY_VECTORS][];
					for (int c = 0; c < VERIFY_VECTORS; c++)
						extra[c] = TopEigen.gaussian(random, m);
					final double[][] eo = TopEigen.orthonormalize(extra, x, random, m);
					x = concat(x, eo);
					sx = concat(sx, op.apply(eo));
					p = x.length;
					pDir = new double[0][];
					sp = new double[0][];
					theta = null;
					best = Double.POSITIVE_INFINITY;
					verifyUntil = it + VERIFY_ITERATIONS;
					calmFrom = verifyUntil + RATE_WINDOW;
					it--;
					continue;
				}
				if (!fresh && worst > BREAKDOWN_GROWTH * best) {
					// the wanted residuals grew: the basis [X, W, P] has lost its conditioning
					// (typically once converged vectors keep iterating, as in the check
					// above) and the recurrence for SX drifts; restart from X alone, with
					// its image computed directly and no P
					x = TopEigen.orthonormalize(x, new double[0][], random, m);
					sx = op.apply(x);
					fresh = true;
					pDir = new double[0][];
					sp = new double[0][];
					theta = steps.rotate(x, sx);
					best = Double.POSITIVE_INFINITY;
					continue;
				}
				best = Math.min(best, worst);
				if (done && it < verifyUntil) done = nr == 0;
				if (done) {
					if (fresh) return new Iterate(theta, x, it);
					// confirm with a directly computed image before accepting
					sx = op.apply(x);
					fresh = true;
					theta = steps.rotate(x, sx);
					continue;
				}
				history[it] = worst;
				// (not while the check's random vectors may lift the residuals for a while,
				// as a missed eigenvalue rises into the block: that rise is no stall)
				if (it >= giveUpFrom && it >= calmFrom && history[it - RATE_WINDOW] > 0) {
					final double rate = Math.pow(worst / history[it - RATE_WINDOW], 1.0 /
						RATE_WINDOW);
					final double needed = rate >= 1 ? Double.POSITIVE_INFINITY : Math.log(tol *
						scale / worst) / Math.log(rate);
					if (it + needed > maxIterations) return new Iterate(null, x, it);
				}
				// one shift σ above both the largest Ritz value and the top of the
				// preconditioner's matrix P: σ − P is positive definite, so the step is a
				// preconditioned ascent towards the top of the spectrum (shifting by each θ
				// instead targets the eigenvalues nearest θ, and a block that has lost the
				// top directions, e.g. after an eigenvalue crossing in a warm sweep, then
				// converges to interior eigenpairs that pass the residual test)
				final double sigma = Math.max(theta[0], top) + SHIFT_MARGIN * scale;
				final double[][] w = op.precondition(Arrays.copyOf(r, nr), sigma, scale);
				final double[][] wo = steps.orthonormalize(w, x);
				final double[][] sw = op.apply(wo);
				prior = concat(x, wo);
				priorImage = concat(sx, sw);
				directions = pDir;
				directionImages = sp;
				fresh = false;
			}
			// P against X and W (carrying its image along), then the Ritz pairs
			final BlockSteps.Ritz ritz = steps.rayleighRitz(prior, priorImage, directions,
				directionImages, nx, p);
			final int nb = ritz.basisSize();
			for (int c = 0; c < nb; c++)
				scale = Math.max(scale, Math.abs(ritz.values[c]));
			theta = Arrays.copyOf(ritz.values, Math.min(p, nb));
			x = ritz.x;
			sx = ritz.sx;
			if (nb > nx) {
				pDir = ritz.p;
				sp = ritz.sp;
			}
		}
		return new Iterate(null, x, maxIterations);
	}

	// The loops of an iteration live in small methods of their own, so that the JIT
	// compiles each once, on its own; inlined into the long-running lobpcg they made it
	// one large method compiled again at each loop it entered hot (in a one-shot run of
	// the automatic α, 0.7 s of compilation on 2 cores, docs/speed.md).

	/** The residuals {@code S x_c − θ_c x_c} of the block, and their norms in {@code norms}. */
	private static double[][] residuals(final double[][] x, final double[][] sx,
		final double[] theta, final double[] norms)
	{
		final double[][] r = new double[x.length][];
		for (int c = 0; c < x.length; c++) {
			final double[] rc = new double[x[c].length];
			final double[] sxc = sx[c], xc = x[c];
			final double th = theta[c];
			for (int i = 0; i < rc.length; i++)
				rc[i] = sxc[i] - th * xc[i];
			norms[c] = Math.sqrt(TopEigen.dot(rc, rc));
			r[c] = rc;
		}
		return r;
	}

	/** The converged result: eigenvectors lifted to the original basis, v = Qy. */
	private TopEigen.Result finish(final double[] theta, final double[][] y, final int k,
		final int iterations)
	{
		final double[] vectors = new double[m * k];
		final double[][] v = new double[k][m];
		for (int i = 0; i < m; i++) {
			final double[] qi = qt[i];
			for (int c = 0; c < k; c++) {
				final double f = y[c][i];
				if (f != 0) TopEigen.axpy(f, qi, v[c]);
			}
		}
		for (int c = 0; c < k; c++)
			for (int i = 0; i < m; i++)
				vectors[i * k + c] = v[c][i];
		return new TopEigen.Result(Arrays.copyOf(theta, k), vectors, y, iterations, false);
	}

	/** Full decomposition of A − αB in the original basis (small or unconverged problems). */
	private static TopEigen.Result full(final double[] a, final double[] b, final int m,
		final double[][] qt, final double alpha, final int k, final int iterations)
	{
		final double[] c = new double[m * m];
		for (int i = 0; i < c.length; i++)
			c[i] = a[i] - alpha * b[i];
		final SymmetricEigen e = SymmetricEigen.of(c, m);
		final int p = Math.min(m, k + BLOCK_EXTRA);
		final double[][] warm = new double[p][];
		if (qt != null) {
			// warm vectors live in the Q basis: y = Qᵀv
			for (int col = 0; col < p; col++) {
				final double[] v = e.vector(col);
				warm[col] = new double[m];
				for (int i = 0; i < m; i++)
					warm[col][i] = TopEigen.dot(qt[i], v);
			}
		}
		else for (int col = 0; col < p; col++)
			warm[col] = e.vector(col).clone();
		return new TopEigen.Result(Arrays.copyOf(e.values(), k), e.vectors(k), warm,
			iterations, true);
	}

	/** S(α)·x = Mx − αTx for each vector of the block, on the Java kernels. */
	private double[][] apply(final double alpha, final double[][] block) {
		final double[][] out = Products.symmetricTimesRows(mm, block);
		if (alpha != 0) for (int c = 0; c < block.length; c++) {
			final double[] xc = block[c], oc = out[c];
			for (int i = 0; i < m; i++) {
				double t = td[i] * xc[i];
				if (i > 0) t += te[i - 1] * xc[i - 1];
				if (i + 1 < m) t += te[i] * xc[i + 1];
				oc[i] -= alpha * t;
			}
		}
		return out;
	}

	/**
	 * The LDLᵀ factor {d, l} of θI − tri(S), with tri(S) the tridiagonal part of
	 * S(α) = M − αT, for {@link #shiftedSolve}: (θI − tri(S))⁻¹ r. Tiny pivots are kept
	 * away from zero (the matrix may be indefinite, as in Davidson's method).
	 */
	private double[][] shiftedFactor(final double alpha, final double theta,
		final double scale)
	{
		final double[] dd = new double[m], ll = new double[m];
		final double guard = 1e-8 * scale;
		double prev = 1, off = 0;
		for (int i = 0; i < m; i++) {
			double di = theta - (mm[i][i] - alpha * td[i]);
			if (i > 0) {
				ll[i - 1] = off / prev;
				di -= ll[i - 1] * off;
			}
			if (Math.abs(di) < guard) di = di < 0 ? -guard : guard;
			dd[i] = di;
			prev = di;
			off = i + 1 < m ? -(mm[i][i + 1] - alpha * te[i]) : 0;
		}
		return new double[][] { dd, ll };
	}

	/**
	 * Preconditioner solves by LAPACK, and those that found σI − tri S(α) not positive
	 * definite (the guarded Java solve then answered), for the tests.
	 */
	static final AtomicLong SHIFTED_SOLVES = new AtomicLong(), SHIFTED_FALLBACKS =
		new AtomicLong();

	/**
	 * {@code (σI − tri S)⁻¹ r} for each r of the block by LAPACK ({@link
	 * NativeLapack#positiveTridiagonalSolve}), tri S of diagonal triD and off-diagonal
	 * triE; null (counted) when σI − tri S is not positive definite.
	 */
	private static double[][] positiveShiftedSolve(final double[] triD, final double[] triE,
		final double sigma, final double[][] r)
	{
		final int m = triD.length;
		final double[] d = new double[m], e = new double[Math.max(0, m - 1)];
		for (int i = 0; i < m; i++) {
			d[i] = sigma - triD[i];
			if (i + 1 < m) e[i] = -triE[i];
		}
		final double[][] z = NativeLapack.positiveTridiagonalSolve(d, e, r);
		(z == null ? SHIFTED_FALLBACKS : SHIFTED_SOLVES).incrementAndGet();
		return z;
	}

	/** {@code (LDLᵀ)⁻¹ r} for the factor {dd, ll} of {@link #shiftedFactor}. */
	private static double[] shiftedSolve(final double[][] factor, final double[] r) {
		final double[] dd = factor[0], ll = factor[1];
		final int m = r.length;
		final double[] z = r.clone();
		for (int i = 1; i < m; i++)
			z[i] -= ll[i - 1] * z[i - 1];
		for (int i = 0; i < m; i++)
			z[i] /= dd[i];
		for (int i = m - 2; i >= 0; i--)
			z[i] -= ll[i] * z[i + 1];
		return z;
	}

	private static double[][] concat(final double[][] a, final double[][] b) {
		return BlockSteps.concat(a, b);
	}
}
