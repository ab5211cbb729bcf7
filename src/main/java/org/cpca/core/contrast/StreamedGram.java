package org.cpca.core.contrast;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;

import org.cpca.core.Memory;
import org.cpca.core.Progress;
import org.cpca.core.data.Preprocessing;
import org.cpca.core.data.SampleSource;
import org.cpca.core.linalg.GramSum;
import org.cpca.core.linalg.Products;

/**
 * The Gram matrix {@code G = ZZᵀ} of the stacked preprocessed samples of datasets that are
 * read, not held ({@link SampleSource}: a TIFF slice by slice, a folder file by file, a
 * virtual stack), for {@link Cpca#fromGram}: the plan for data larger than memory of
 * docs/memory.md. The features are cut into tiles of {@link #tileWidth} features; a tile
 * holds every sample of every dataset for its features (N × width doubles), so each
 * dataset's mean (and standard deviation) of those features is computed there, exactly as
 * {@link Preprocessing#fit} computes it (sums in sample order, in double), and the tile's
 * centred values go to the in-memory Gram matrix's own sum ({@link GramSum}: the same
 * panels of features whatever the tile, its accumulator carried across tiles), so G is
 * the in-memory one to the bit. One pass over the data in all; a source that reads feature ranges
 * ({@link SampleSource#readsRanges}) reads each value once, any other reads each sample
 * once per tile. Components are one further pass ({@link #lift}), shared by the models
 * of an automatic α or β ({@link Cpca#componentsAhead}); scores need none.
 */
public final class StreamedGram {

	/** Tile size by default: 64 MB of doubles. */
	public static final long DEFAULT_TILE_BYTES = 64L << 20;
	/** The largest tile {@link #tileBytes} chooses: beyond it a tile's product gains nothing. */
	public static final long MAX_TILE_BYTES = 256L << 20;

	/** The stages the passes report ({@link Progress}: tiles done / tiles). */
	static final String GRAM_PASS = "Gram matrix by feature tiles",
		COMPONENTS_PASS = "components by feature tiles";

	private final List<SampleSource> sets;
	private final int n, d, width;
	private final Preprocessing[] pres;
	/**
	 * Each sample's ‖z_i‖², summed over the features in order as the tiles pass (the sum
	 * of {@link Cpca#backgroundFourthMoment} in memory, so cPCA++'s ridge is the same to the
	 * bit; G's diagonal holds the same value summed otherwise).
	 */
	private final double[] squares;
	/** Each background's raw feature variances (n − 1), or {@code null} if not asked for. */
	private double[][] variances;
	private double[] gram;
	private long tilesRead;

	private StreamedGram(final List<SampleSource> sets, final int n, final int d,
		final int width)
	{
		this.sets = sets;
		this.n = n;
		this.d = d;
		this.width = width;
		this.pres = new Preprocessing[sets.size()];
		this.squares = new double[n];
	}

	/**
	 * Features per tile: as many as fit in {@code tileBytes} as N doubles each (at least
	 * one, at most d).
	 */
	public static int tileWidth(final long samples, final int features,
		final long tileBytes)
	{
		return (int) Math.max(1, Math.min(features, tileBytes / (8 * Math.max(1, samples))));
	}

	/**
	 * Bytes per N² the fit from G keeps alive beside a tile and beside each background's
	 * covariance B_j (8·N² each, {@link #fitBytes}; docs/memory.md): L (N × r), A, the
	 * prepared solver's Qᵀ and M (8·N² each, r ≤ N), and 8·N² for the rest (a band of
	 * the solver's preparation, the sweep's solutions, the JVM's own). Measured at N =
	 * 4,000 with one background and automatic α: 43·N² alive after full collections at
	 * the peak (the five matrices are 40·N²); LᵀL's factor is formed only once the solver
	 * is let go, for the lift.
	 */
	public static final long FIT_PER_N2 = 40;

	/**
	 * ({@value #FIT_PER_N2} + 8·backgrounds)·N² bytes: what the fit from the Gram matrix of
	 * n samples keeps (48·N² with one background).
	 */
	public static long fitBytes(final long n, final int backgrounds) {
		return Memory.times(FIT_PER_N2 + 8L * Math.max(1, backgrounds), Memory.times(n, n));
	}

	/**
	 * The tile for {@code left} bytes of free memory (after the Gram matrix): a third of
	 * it, at least 256 features of every sample, at most {@link #MAX_TILE_BYTES} and all d
	 * features. Larger tiles mean fewer reads for sources that read whole samples.
	 */
	public static long tileBytes(final long samples, final long features, final long left) {
		final long all = 8 * samples * features, min = 8 * samples * Math.min(features, 256);
		return Math.min(all, Math.max(min, Math.min(MAX_TILE_BYTES, left / 3)));
	}

	/**
	 * One pass over every dataset by feature tiles: the preprocessing of each and G.
	 *
	 * @param sets the target, then each background (all with the same features)
	 * @param standardize divide each feature by its standard deviation (per dataset)
	 * @param tileBytes the tile's size ({@link #tileWidth})
	 * @param diagnostics receives a note per dataset with constant features (when
	 *          standardising), as {@link Preprocessing#fit} does
	 * @param featureVariances also keep each background's variance of each feature
	 *          ({@link #featureVariances}: d doubles per background)
	 */
	public static StreamedGram build(final List<SampleSource> sets,
		final boolean standardize, final long tileBytes, final List<String> diagnostics,
		final boolean featureVariances, final Progress progress) throws IOException
	{
		return build(sets, standardize, tileBytes, diagnostics, featureVariances, null,
			progress);
	}

	/**
	 * {@link #build(List, boolean, long, List, boolean, Progress)} with G summed in float
	 * blocks or not ({@link GramSum#of(int, int, boolean)}), or as the backend and the size
	 * choose ({@code null}, as in memory): tests compare both precisions with memory's.
	 */
	static StreamedGram build(final List<SampleSource> sets, final boolean standardize,
		final long tileBytes, final List<String> diagnostics, final boolean featureVariances,
		final Boolean inFloat, final Progress progress) throws IOException
	{
		long total = 0;
		final int d = sets.get(0).features();
		for (final SampleSource s : sets) {
			total += s.samples();
			if (s.features() != d) throw new IllegalArgumentException(s.name() + " has " + s
				.features() + " features but " + sets.get(0).name() + " has " + d +
				": both must have the same features (the same image width × height, mask " +
				"and binning, or the same table columns)");
		}
		if (total > 46_000) throw new IllegalArgumentException(total + " samples in all: " +
			"the N × N Gram matrix of the streamed plan holds at most 46,000 (2³¹ entries); " +
			"use --method online (streams with memory independent of the samples)");
		final int n = (int) total;
		final StreamedGram g = new StreamedGram(sets, n, d, tileWidth(n, d, tileBytes));
		if (featureVariances) g.variances = new double[sets.size() - 1][d];
		g.accumulate(standardize, diagnostics, inFloat != null ? inFloat : GramSum.inFloat(n,
			d), progress);
		return g;
	}

	private void accumulate(final boolean standardize, final List<String> diagnostics,
		final boolean inFloat, final Progress progress) throws IOException
	{
		final double[][] mean = new double[sets.size()][d];
		final double[][] scale = standardize ? new double[sets.size()][d] : null;
		final int[] constant = new int[sets.size()];
		final double[][] panel = new double[width][n];
		try (GramSum sum = GramSum.of(n, d, inFloat)) {
			progress.stage(GRAM_PASS, 0);
			for (int f0 = 0; f0 < d; f0 += width) {
				final int count = Math.min(width, d - f0), first = f0;
				read(panel, f0, count, GRAM_PASS, progress);
				for (int s = 1, row = sets.get(0).samples(); variances != null && s < sets
					.size(); row += sets.get(s).samples(), s++)
					variances(panel, count, row, sets.get(s).samples(), f0, variances[s - 1]);
				for (int s = 0, row = 0; s < sets.size(); row += sets.get(s).samples(), s++)
					centre(panel, count, row, sets.get(s).samples(), f0, mean[s], scale == null
						? null : scale[s], constant, s);
				for (int t = 0; t < count; t++) {
					final double[] p = panel[t];
					for (int i = 0; i < n; i++)
						squares[i] += p[i] * p[i];
				}
				// the in-memory Gram matrix's own sum: the same panels whatever the tile
				sum.add(f0, f0 + count, (sample, from, to, out) -> {
					for (int f = from; f < to; f++)
						out[f - from] = panel[f - first][sample];
				});
				progress.stage(GRAM_PASS, tilesDone(f0 + count));
			}
			Arrays.fill(panel, null);
			gram = sum.symmetric();
		}
		for (int s = 0; s < sets.size(); s++) {
			pres[s] = Preprocessing.of(mean[s], scale == null ? null : scale[s]);
			if (constant[s] > 0 && diagnostics != null) diagnostics.add(sets.get(s).name() +
				": " + constant[s] + " feature(s) have zero variance; they stay 0 after centring");
		}
	}

	/** The fraction of a pass done with its tiles up to feature {@code end}: tiles done / tiles. */
	private double tilesDone(final int end) {
		return (double) ((end + width - 1) / width) / ((d + width - 1) / width);
	}

	/**
	 * Features {@code f0 … f0 + count − 1} of every sample of every dataset into the
	 * panel, feature-major (panel row t holds feature f0 + t of all N samples), raw; every
	 * 64 samples the pass's fraction (tiles done / tiles, this one's samples read counted
	 * as its part) goes to {@code progress}.
	 */
	private void read(final double[][] panel, final int f0, final int count,
		final String stage, final Progress progress) throws IOException
	{
		final float[][] block = new float[BLOCK_SAMPLES][count];
		final double before = tilesDone(f0), share = tilesDone(f0 + count) - before;
		for (int s = 0, row = 0; s < sets.size(); s++) {
			final SampleSource src = sets.get(s);
			final float[] whole = src.readsRanges() ? null : new float[d];
			for (int i0 = 0; i0 < src.samples(); i0 += BLOCK_SAMPLES) {
				final int rows = Math.min(BLOCK_SAMPLES, src.samples() - i0);
				if ((i0 & 63) == 0) {
					progress.checkCancelled();
					progress.stage(stage, before + share * (row + i0) / n);
				}
				for (int r = 0; r < rows; r++)
					if (whole == null) src.readRange(i0 + r, f0, f0 + count, block[r]);
					else {
						src.read(i0 + r, whole);
						System.arraycopy(whole, f0, block[r], 0, count);
					}
				transpose(block, rows, count, panel, row + i0);
			}
			row += src.samples();
		}
		tilesRead++;
	}

	/** Samples read before they are transposed into the panel together. */
	private static final int BLOCK_SAMPLES = 16;

	/**
	 * The first {@code rows} samples of the block into panel columns {@code column …}: the
	 * writes of a block touch one or two cache lines of each panel row, so they stay in cache
	 * (one sample at a time would touch a new line of every panel row for every sample).
	 */
	private static void transpose(final float[][] block, final int rows, final int count,
		final double[][] panel, final int column)
	{
		for (int t0 = 0; t0 < count; t0 += 64) {
			final int t1 = Math.min(count, t0 + 64);
			for (int r = 0; r < rows; r++) {
				final float[] b = block[r];
				final int c = column + r;
				for (int t = t0; t < t1; t++)
					panel[t][c] = b[t];
			}
		}
	}

	/**
	 * One dataset's rows {@code from … from + rows − 1} of the panel: its mean of each
	 * feature (and standard deviation), then the values centred (and scaled) in place —
	 * the sums and the formulas of {@link Preprocessing#fit} and
	 * {@link Preprocessing#apply(float[], int, int, double[], int, int)}.
	 */
	private static void centre(final double[][] panel, final int count, final int from,
		final int rows, final int f0, final double[] mean, final double[] scale,
		final int[] constant, final int set)
	{
		for (int t = 0; t < count; t++) {
			final double[] p = panel[t];
			double sum = 0;
			for (int i = from; i < from + rows; i++)
				sum += p[i];
			final double mu = sum / rows;
			mean[f0 + t] = mu;
			double sc = 1;
			if (scale != null) {
				double ss = 0;
				for (int i = from; i < from + rows; i++) {
					final double c = p[i] - mu;
					ss += c * c;
				}
				final double sd = Math.sqrt(ss / rows);
				if (sd > 0) sc = sd;
				else constant[set]++;
				scale[f0 + t] = sc;
			}
			if (scale == null) for (int i = from; i < from + rows; i++)
				p[i] = p[i] - mu;
			else for (int i = from; i < from + rows; i++)
				p[i] = (p[i] - mu) / sc;
		}
	}

	/**
	 * One dataset's variance (n − 1) of each feature of the tile, from its raw rows
	 * {@code from … from + rows − 1} of the panel: the running mean and sum of squares in
	 * sample order, as UCA computes them from samples held in memory (so the median it
	 * takes of them is the same).
	 */
	private static void variances(final double[][] panel, final int count, final int from,
		final int rows, final int f0, final double[] into)
	{
		for (int t = 0; t < count; t++) {
			final double[] p = panel[t];
			double mean = 0, ss = 0;
			for (int i = 0; i < rows; i++) {
				final double x = p[from + i], delta = x - mean;
				mean += delta / (i + 1);
				ss += delta * (x - mean);
			}
			into[f0 + t] = rows < 2 ? 0 : ss / (rows - 1);
		}
	}

	/**
	 * Each background's variance (n − 1) of each raw feature, in background order, or
	 * {@code null} unless {@link #build} was asked to keep them.
	 */
	public double[][] featureVariances() {
		return variances;
	}

	/** G (N × N, row-major), handed over once: this object no longer holds it. */
	public double[] takeGram() {
		if (gram == null) throw new IllegalStateException("the Gram matrix was handed over");
		final double[] g = gram;
		gram = null;
		return g;
	}

	/** The preprocessing of dataset {@code set} (0: the target), learnt in the pass. */
	public Preprocessing preprocessing(final int set) {
		return pres[set];
	}

	/** Number of samples of all datasets, N. */
	public int samples() {
		return n;
	}

	/** Features per tile. */
	public int width() {
		return width;
	}

	/** Tiles read so far (the Gram pass's, then each lift's). */
	public long tilesRead() {
		return tilesRead;
	}

	/**
	 * {@code Σ_i ‖z_i‖⁴} over the samples of dataset {@code set}: ‖z_i‖² was summed in the
	 * Gram pass, so cPCA++'s Ledoit–Wolf ridge ({@link Cpca.FourthMoments}) needs no pass.
	 */
	public double fourthMoment(final int set) {
		int from = 0;
		for (int s = 0; s < set; s++)
			from += sets.get(s).samples();
		double sum = 0;
		for (int i = from; i < from + sets.get(set).samples(); i++)
			sum += squares[i] * squares[i];
		return sum;
	}

	/**
	 * {@code Zᵀy} for {@link Cpca#fromGram}: one pass by feature tiles, each tile's
	 * preprocessed values times the sample coefficients.
	 */
	public GramLift lift(final Progress progress) {
		return (y, k) -> {
			try {
				final double[][] v = new double[k][d];
				final double[][] coefficients = new double[n][];
				for (int i = 0; i < n; i++)
					coefficients[i] = Arrays.copyOfRange(y, i * k, (i + 1) * k);
				final double[][] panel = new double[width][n];
				progress.stage(COMPONENTS_PASS, 0);
				for (int f0 = 0; f0 < d; f0 += width) {
					final int count = Math.min(width, d - f0);
					read(panel, f0, count, COMPONENTS_PASS, progress);
					for (int s = 0, row = 0; s < sets.size(); row += sets.get(s).samples(), s++)
						preprocess(panel, count, row, sets.get(s).samples(), f0, pres[s]);
					final double[][] part = Products.times(Arrays.copyOf(panel, count),
						coefficients);
					for (int t = 0; t < count; t++)
						for (int c = 0; c < k; c++)
							v[c][f0 + t] = part[t][c];
					progress.stage(COMPONENTS_PASS, tilesDone(f0 + count));
				}
				return v;
			}
			catch (final IOException e) {
				throw new UncheckedIOException(e);
			}
		};
	}

	/** Rows {@code from … from + rows − 1} of the panel preprocessed in place by pre. */
	private static void preprocess(final double[][] panel, final int count, final int from,
		final int rows, final int f0, final Preprocessing pre)
	{
		for (int t = 0; t < count; t++) {
			final double[] p = panel[t];
			for (int i = from; i < from + rows; i++)
				p[i] = pre.apply(f0 + t, p[i]);
		}
	}
}
