package org.cpca.core.linalg;

/**
 * The three inner loops behind every covariance, Gram matrix and block product of
 * {@link Products}, in two implementations with bit-identical results:
 * {@link ScalarKernels} (plain Java, vectorised by the JIT where it manages) and
 * {@code VectorKernels} (the JDK's incubating Vector API, register-blocked tiles, about
 * 2.5 × faster; compiled from {@code src/main/vector} for Java 17). The vector kernels are
 * used when this JVM was started with {@code --add-modules jdk.incubator.vector} (the
 * {@code cpca} launcher does) on a CPU with 256-bit or wider vectors, unless the system
 * property {@code cpca.kernels} is {@code scalar}, and only once the JIT has compiled
 * them ({@link WarmingKernels}); see docs/speed.md. These are the Java kernels: where
 * the native backend is in use ({@link Backend}) they do only the work below its size
 * thresholds and the float Gram blocks a caller asks for.
 * <p>
 * <b>Why the results are identical.</b> Both compute every output entry as the same
 * sequence of fused multiply–adds, {@code y ← fma(a_s, b_s, y)} for the summation index s
 * in ascending order starting from the entry's current value: a fused multiply–add is
 * exactly specified by IEEE 754, so the order is all that decides the rounding, and
 * neither implementation reorders. Which one runs therefore changes the speed, never a
 * number, and tests compare the two for exact equality (KernelsTest).
 */
interface Kernels {

	/**
	 * {@code g[i][j] += Σ_{s < count} p[s][i] · p[s][j]} for rows {@code i0 ≤ i < i1} and
	 * columns {@code i ≤ j < m} (the upper triangle), {@code m = g.length}. Entries below
	 * the diagonal are workspace: an implementation may change them, callers never read
	 * them (likewise in {@link #floatRows}).
	 */
	void syrkRows(double[][] g, double[][] p, int count, int i0, int i1);

	/**
	 * {@code acc[i][j] += Σ_{c0 ≤ s < c1} p[s][i] · p[s][j]} in float for rows
	 * {@code i0 ≤ i < i1} and columns {@code i ≤ j < n}, {@code n = acc.length}.
	 */
	void floatRows(float[][] acc, float[][] p, int c0, int c1, int i0, int i1);

	/**
	 * {@code out[v][i] += Σ_{t0 ≤ t < q} x[v][t] · l[t][i]} for rows {@code v0 ≤ v < v1}
	 * and columns {@code i0 ≤ i < i1}.
	 */
	void timesBlock(double[][] x, double[][] l, double[][] out, int v0, int v1, int i0,
		int i1, int t0, int q);

	/** The three kinds of inner loop, in the order of the methods above. */
	enum Kind {
		/** {@link #syrkRows}. */
		SYMMETRIC,
		/** {@link #floatRows}. */
		FLOAT,
		/** {@link #timesBlock}. */
		PRODUCT
	}

	/**
	 * Told before a product of about this many flops of one kind starts, so that kernels
	 * which need preparing for large work can start it at once ({@link WarmingKernels}).
	 */
	default void expect(final Kind kind, final double flops) {}

	/**
	 * The vector kernels where this JVM can run them fast, else the scalar ones. Nothing of
	 * the Vector API is loaded here (about 10 ms in a fresh JVM): {@link WarmingKernels}
	 * loads it when the work first asks for it.
	 */
	static Kernels best() {
		if ("scalar".equals(System.getProperty("cpca.kernels"))) return new ScalarKernels();
		if (!ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent())
			return new ScalarKernels();
		return new WarmingKernels(new ScalarKernels(), Kernels::vectorKernels);
	}

	/**
	 * The vector kernels, or null where they cannot be had: the class is missing or too new
	 * for this JVM, or the CPU has no 256-bit vectors (the API would emulate them slowly).
	 */
	static Kernels vectorKernels() {
		try {
			return (Kernels) Class.forName("org.cpca.core.linalg.VectorKernels")
				.getDeclaredConstructor().newInstance();
		}
		catch (final ReflectiveOperationException | LinkageError | RuntimeException e) {
			return null;
		}
	}
}
