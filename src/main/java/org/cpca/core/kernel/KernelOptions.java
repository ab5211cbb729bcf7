package org.cpca.core.kernel;

/**
 * Options of kernel cPCA besides those of {@link CpcaOptions} (k, seed, whitening, the α
 * grid, standardisation of the kernel input): an immutable value with defaults.
 * <ul>
 * <li>{@code kernel} (default rbf with automatic γ; see {@link KernelFunction});</li>
 * <li>{@code landmarks}: {@link #AUTOMATIC} (default): the exact path when N = n_t + n_b ≤
 * {@value KernelCpca#EXACT_LIMIT}, else Nyström with
 * min({@value KernelCpca#DEFAULT_LANDMARKS}, N) landmarks; {@link #ALL}: always exact;
 * a positive number: Nyström with that many landmarks.</li>
 * </ul>
 */
public final class KernelOptions {

	/** Choose the path from N. */
	public static final int AUTOMATIC = 0;
	/** The exact path whatever N (every sample is its own landmark). */
	public static final int ALL = -1;

	private final KernelFunction kernel;
	private final int landmarks;

	private KernelOptions(final KernelFunction kernel, final int landmarks) {
		this.kernel = kernel;
		this.landmarks = landmarks;
	}

	/** RBF with automatic γ, path chosen from N. */
	public static KernelOptions defaults() {
		return new KernelOptions(KernelFunction.rbf(Double.NaN), AUTOMATIC);
	}

	public KernelOptions withKernel(final KernelFunction h) {
		if (h == null) throw new IllegalArgumentException("give a kernel");
		return new KernelOptions(h, landmarks);
	}

	/**
	 * @param count {@link #AUTOMATIC}, {@link #ALL}, or the number of Nyström landmarks
	 *          (≥ 1; at fitting it must also be ≥ k and ≤ N)
	 */
	public KernelOptions withLandmarks(final int count) {
		if (count < ALL) throw new IllegalArgumentException("the number of landmarks must " +
			"be positive (got " + count + "), or auto / all");
		return new KernelOptions(kernel, count);
	}

	public KernelFunction kernel() {
		return kernel;
	}

	/** {@link #AUTOMATIC}, {@link #ALL}, or a number of landmarks. */
	public int landmarks() {
		return landmarks;
	}
}
