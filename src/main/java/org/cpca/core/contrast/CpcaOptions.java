package org.cpca.core.contrast;

/**
 * Options of a PCA / cPCA fit: an immutable, validated value with defaults; change a copy
 * with the {@code with…} methods.
 * <ul>
 * <li>{@code components} (k, default 2): number of components;</li>
 * <li>{@code varianceFraction} (PCA only, default 0 = off): if in (0, 1], k is the
 * smallest number of principal components retaining that fraction of the target
 * variance;</li>
 * <li>{@code standardize} (default false): divide each feature by its dataset's own
 * standard deviation (population), after centring on its own mean;</li>
 * <li>{@code whiten} (default false): divide scores by the square root of each component's
 * target variance (for PCA: √λ);</li>
 * <li>{@code space} (default AUTO): feature space or exact reduced space;</li>
 * <li>the automatic α grid and clustering of docs/math/cpca.md: {@code alphaCount} (40
 * log-spaced values, plus α = 0), {@code minLogAlpha} (−1), {@code maxLogAlpha} (3),
 * {@code alphasReturned} (4, α = 0 included), {@code seed} (for the start vectors and the
 * k-means++ clustering), {@code kmeansRestarts} (100, the minimum used).</li>
 * </ul>
 */
public final class CpcaOptions {

	private int components = 2;
	private double varianceFraction = 0;
	private boolean standardize = false;
	private boolean whiten = false;
	private ContrastiveSpace.Choice space = ContrastiveSpace.Choice.AUTO;
	private int alphaCount = 40;
	private double minLogAlpha = -1;
	private double maxLogAlpha = 3;
	private int alphasReturned = 4;
	private long seed = 0;
	private int kmeansRestarts = 100;

	/** The defaults. */
	public static CpcaOptions defaults() {
		return new CpcaOptions();
	}

	private CpcaOptions copy() {
		final CpcaOptions o = new CpcaOptions();
		o.components = components;
		o.varianceFraction = varianceFraction;
		o.standardize = standardize;
		o.whiten = whiten;
		o.space = space;
		o.alphaCount = alphaCount;
		o.minLogAlpha = minLogAlpha;
		o.maxLogAlpha = maxLogAlpha;
		o.alphasReturned = alphasReturned;
		o.seed = seed;
		o.kmeansRestarts = kmeansRestarts;
		return o;
	}

	public CpcaOptions withComponents(final int k) {
		if (k < 1) throw new IllegalArgumentException("the number of components k must be" +
			" at least 1 (got " + k + ")");
		final CpcaOptions o = copy();
		o.components = k;
		return o;
	}

	public CpcaOptions withVarianceFraction(final double fraction) {
		if (!(fraction >= 0 && fraction <= 1)) throw new IllegalArgumentException(
			"the retained-variance fraction must be in (0, 1] (got " + fraction +
				"), or 0 to give k directly");
		final CpcaOptions o = copy();
		o.varianceFraction = fraction;
		return o;
	}

	public CpcaOptions withStandardize(final boolean on) {
		final CpcaOptions o = copy();
		o.standardize = on;
		return o;
	}

	public CpcaOptions withWhiten(final boolean on) {
		final CpcaOptions o = copy();
		o.whiten = on;
		return o;
	}

	/** Forces the d × d feature space (true) or the reduced space (false); AUTO if null. */
	public CpcaOptions withFeatureSpace(final Boolean features) {
		final CpcaOptions o = copy();
		o.space = features == null ? ContrastiveSpace.Choice.AUTO : features
			? ContrastiveSpace.Choice.FEATURES : ContrastiveSpace.Choice.REDUCED;
		return o;
	}

	/**
	 * The automatic α grid: α = 0 plus {@code count} values log-spaced over
	 * [10^minLog, 10^maxLog].
	 */
	public CpcaOptions withAlphaGrid(final int count, final double minLog,
		final double maxLog)
	{
		if (count < 1) throw new IllegalArgumentException(
			"the α grid needs at least 1 value (got " + count + ")");
		if (!(minLog <= maxLog) || !Double.isFinite(minLog) || !Double.isFinite(maxLog))
			throw new IllegalArgumentException("the α grid's log10 range must satisfy min ≤ " +
				"max (got " + minLog + " … " + maxLog + ")");
		final CpcaOptions o = copy();
		o.alphaCount = count;
		o.minLogAlpha = minLog;
		o.maxLogAlpha = maxLog;
		return o;
	}

	/** Number of α values returned by automatic selection, α = 0 included (≥ 2). */
	public CpcaOptions withAlphasReturned(final int count) {
		if (count < 2) throw new IllegalArgumentException(
			"automatic α selection returns α = 0 and at least one more value: ask for ≥ 2 " +
				"(got " + count + ")");
		final CpcaOptions o = copy();
		o.alphasReturned = count;
		return o;
	}

	public CpcaOptions withSeed(final long newSeed) {
		final CpcaOptions o = copy();
		o.seed = newSeed;
		return o;
	}

	public CpcaOptions withKmeansRestarts(final int restarts) {
		if (restarts < 1) throw new IllegalArgumentException(
			"k-means needs at least one restart (got " + restarts + ")");
		final CpcaOptions o = copy();
		o.kmeansRestarts = restarts;
		return o;
	}

	public int components() {
		return components;
	}

	public double varianceFraction() {
		return varianceFraction;
	}

	public boolean standardize() {
		return standardize;
	}

	public boolean whiten() {
		return whiten;
	}

	ContrastiveSpace.Choice space() {
		return space;
	}

	public int alphaCount() {
		return alphaCount;
	}

	public double minLogAlpha() {
		return minLogAlpha;
	}

	public double maxLogAlpha() {
		return maxLogAlpha;
	}

	public int alphasReturned() {
		return alphasReturned;
	}

	public long seed() {
		return seed;
	}

	public int kmeansRestarts() {
		return kmeansRestarts;
	}

	/** The grid: α = 0 followed by the log-spaced values, ascending. */
	public double[] alphaGrid() {
		final double[] grid = new double[alphaCount + 1];
		for (int i = 0; i < alphaCount; i++) {
			final double t = alphaCount == 1 ? 0 : (double) i / (alphaCount - 1);
			grid[i + 1] = Math.pow(10, minLogAlpha + t * (maxLogAlpha - minLogAlpha));
		}
		return grid;
	}
}
