package org.cpca.core.gcpca;

import org.cpca.core.Memory;
import org.cpca.core.Progress;
import org.cpca.core.contrast.ContrastiveSpace;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.data.Dataset;
import org.cpca.core.linalg.SymmetricEigen;
import org.cpca.core.model.CpcaModel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * gcPCA (docs/math/gcpca.md, docs/math/gcpca.md): each variant maximises a generalised
 * Rayleigh quotient {@code vᵀNv / vᵀDv} of the target covariance A and the background
 * covariance B:
 * <table>
 * <caption>variants</caption>
 * <tr><th>variant</th><th>N</th><th>D</th><th>value</th></tr>
 * <tr><td>v1</td><td>A − αB</td><td>I</td><td>cPCA's eigenvalue</td></tr>
 * <tr><td>v2</td><td>A</td><td>B</td><td>ratio r (cPCA++)</td></tr>
 * <tr><td>v3</td><td>A − B</td><td>B</td><td>r − 1</td></tr>
 * <tr><td>v4 (default)</td><td>A − B</td><td>A + B</td><td>(r − 1)/(r + 1) in [−1, 1]</td></tr>
 * </table>
 * The problem is solved exactly on the fit's contrastive space (the m × m restriction of A
 * and B: d × d for tables, the reduced space of the stacked data for images), as the
 * symmetric problem {@code D^{-1/2} N D^{-1/2} y = λy}, {@code v = D^{-1/2}y}. When
 * cond(D) exceeds {@value #MAX_CONDITION} the smallest ridge δ that brings it to that value
 * is added to D and recorded ("ridge").
 * <p>
 * Both ends are results: the model holds 2k components, first the k of largest value
 * (target-enriched, descending), then the k of smallest value (background-enriched, most
 * negative first). The orthogonal variants (v2.1–v4.1 of the paper) extract them one at a
 * time in the orthogonal complement of those already kept, alternating the most
 * target-enriched and the most background-enriched, so all 2k are orthonormal.
 * <p>
 * Significance ({@link #run} with shuffles &gt; 0): each shuffle permutes every feature's
 * samples independently within the target and within the background (seeded), refits the
 * same variant and keeps its largest and smallest value. A target-enriched component is
 * significant when its value exceeds the 97.5 % quantile of the shuffles' largest values; a
 * background-enriched one when its value lies below the 2.5 % quantile of their smallest
 * values (a max-statistic null: one threshold per end, for every component of that end).
 * <p>
 * Length (about 530 lines of code): the four variants, their orthogonal forms, both ends and
 * the shuffle test share the pencil, the restriction to the fit's space and the ridge.
 */
public final class Gcpca {

	/** The largest condition number of D solved without a ridge. */
	public static final double MAX_CONDITION = 1e13;

	/** The variants of the paper's Table 1. */
	public enum Variant {
		V1, V2, V3, V4;

		/** "v1" … "v4". */
		public String id() {
			return name().toLowerCase(Locale.ROOT);
		}

		/** The variant named {@code text} ("v1" … "v4", also "1" … "4"). */
		public static Variant parse(final String text) {
			final String s = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
			for (final Variant v : values())
				if (v.id().equals(s) || v.id().substring(1).equals(s)) return v;
			throw new IllegalArgumentException("gcPCA variant '" + text + "' is not known: " +
				"use v1 (cPCA at α), v2 (variance ratio), v3 (ratio − 1) or v4 (the default: " +
				"index in [−1, 1])");
		}

		/** What the sign of a value means, for the summary and the notes. */
		public String meaning() {
			switch (this) {
				case V1:
					return "value > 0: more target than α × background variance";
				case V2:
					return "value = target/background variance ratio: > 1 target-enriched, " +
						"< 1 background-enriched";
				case V3:
					return "value = ratio − 1: > 0 target-enriched, < 0 background-enriched";
				default:
					return "value in [−1, 1]: +1 varies only in the target, −1 only in the " +
						"background, 0 equally in both";
			}
		}
	}

	/** The solution of one problem in the space's coordinates. */
	public static final class Spectrum {

		/** 2k values: the k largest descending, then the k smallest ascending. */
		public final double[] values;
		/** m × 2k, row-major: unit columns in the space's (orthonormal) coordinates. */
		public final double[] w;
		/** The ridge added to D (0 when none was needed). */
		public final double ridge;
		/** Condition number of D before the ridge (+∞ when D is singular). */
		public final double condition;

		Spectrum(final double[] values, final double[] w, final double ridge,
			final double condition)
		{
			this.values = values;
			this.w = w;
			this.ridge = ridge;
			this.condition = condition;
		}

		/** The largest value (of the target-enriched end). */
		public double top() {
			return values[0];
		}

		/** The smallest value (of the background-enriched end). */
		public double bottom() {
			return values[values.length / 2];
		}
	}

	private final Cpca fit;
	private final Variant variant;
	private final boolean orthogonal;
	private final double alpha;

	private Gcpca(final Cpca fit, final Variant variant, final boolean orthogonal,
		final double alpha)
	{
		this.fit = fit;
		this.variant = variant;
		this.orthogonal = orthogonal;
		this.alpha = alpha;
	}

	/**
	 * gcPCA on a fit with one background.
	 *
	 * @param alpha α ≥ 0 (finite) for v1; ignored (NaN) for the other variants
	 */
	public static Gcpca of(final Cpca fit, final Variant variant, final boolean orthogonal,
		final double alpha)
	{
		if (fit.backgroundCount() != 1) throw new IllegalArgumentException(
			"gcPCA needs exactly one background (got " + fit.backgroundCount() +
				"): give one --background, or pool several into one");
		if (variant == Variant.V1 && !(alpha >= 0 && alpha < Double.POSITIVE_INFINITY))
			throw new IllegalArgumentException("gcPCA v1 is cPCA at a fixed α: give a " +
				"finite α ≥ 0 (got " + alpha + "), or use v2, v3 or v4, which need no α");
		if (variant == Variant.V1) Cpca.requireResolved(fit.space().normA, fit.space().normB,
			alpha);
		final int k = fit.options().components();
		final int room = variant == Variant.V1 ? fit.rank() : pooled(fit);
		if (2 * k > room) throw new IllegalArgumentException("gcPCA returns k " +
			"target-enriched and k background-enriched components, 2k = " + 2 * k +
			" in all, but the data allow at most " + room + " (the rank of the centred " +
			"target and background, at most the smaller sample count − 1): choose k ≤ " +
			room / 2);
		return new Gcpca(fit, variant, orthogonal, variant == Variant.V1 ? alpha
			: Double.NaN);
	}

	/**
	 * The number of pooled principal components solved in: min(n_t − 1, n_b − 1) when that
	 * is below the space's dimension (more features than samples), else the whole space.
	 * v1 (cPCA) always uses the whole space.
	 */
	static int pooled(final Cpca f) {
		return (int) Math.min(f.rank(), Math.min(f.targetSamples(), f.backgroundSamples(0)) -
			1);
	}

	public Variant variant() {
		return variant;
	}

	public boolean orthogonal() {
		return orthogonal;
	}

	/** The fit this runs on. */
	public Cpca fit() {
		return fit;
	}

	/**
	 * The number of pooled principal components the problem is solved in (the space's
	 * dimension when it is solved in the whole space).
	 */
	public int pooledComponents() {
		return dimension(fit, fit.options().components());
	}

	/**
	 * The orthonormal rows (length m, in the space's coordinates) spanning the space the
	 * problem is solved in: the span of the data, restricted to the pooled principal
	 * components with fewer samples than features ({@link #basis(double[], double[], int,
	 * int)}); the whole space for v1.
	 */
	public double[][] basis() {
		final ContrastiveSpace s = fit.space();
		if (variant == Variant.V1) return identity(s.dimension());
		return basis(s.a, s.b, s.dimension(), dimension(fit, fit.options().components()));
	}

	/** The problem solved on the fit's space. */
	public Spectrum spectrum() {
		final ContrastiveSpace s = fit.space();
		return solve(s.a, s.b, s.dimension(), variant, alpha, fit.options().components(),
			orthogonal, dimension(fit, fit.options().components()));
	}

	/**
	 * The number of pooled principal components solved in: the whole space for v1, every
	 * direction with variance whenever both datasets have more samples than that (then the
	 * problem is solved exactly); with fewer samples than features
	 * {@link #chooseDimension}.
	 */
	int dimension(final Cpca f, final int k) {
		final ContrastiveSpace s = f.space();
		if (variant == Variant.V1) return s.dimension();
		final int room = pooled(f);
		if (room >= f.rank()) return room;
		return chooseDimension(s.a, s.b, s.dimension(), k, f.targetSamples(), (int) f
			.backgroundSamples(0), room);
	}

	/** The model without a significance test. */
	public CpcaModel model() {
		return run(0, 0, Progress.NONE);
	}

	/**
	 * The model, with a shuffle null of {@code shuffles} refits (none for 0).
	 *
	 * @param seed seed of the shuffles (shuffle s uses its own stream derived from it)
	 */
	public CpcaModel run(final int shuffles, final long seed, final Progress progress) {
		checkShuffles(shuffles);
		final Spectrum sp = spectrum();
		final int k = fit.options().components();
		final int pooled = dimension(fit, k);
		final Map<String, Object> parameters = new LinkedHashMap<>();
		parameters.put("variant", variant.id());
		parameters.put("orthogonal", orthogonal ? "true" : "false");
		parameters.put("ridge", sp.ridge);
		final List<String> notes = new ArrayList<>();
		notes.add("gcPCA " + variant.id() + (orthogonal ? " (orthogonal)" : "") + ": " +
			"components 1–" + k + " are target-enriched, " + (k + 1) + "–" + 2 * k +
			" background-enriched; " + variant.meaning());
		if (pooled < fit.rank()) {
			parameters.put("pooled_components", (double) pooled);
			notes.add("gcPCA: solved in the top " + pooled + " principal components of the " +
				"pooled covariance A + B (of " + fit.rank() + " directions with variance; at " +
				"most " + pooled(fit) + " allowed by the sample counts): with fewer samples " +
				"than features the number is chosen where the values exceed the null's " +
				"random-matrix edges the most (docs/math/gcpca.md#fewer-samples-than-features)");
		}
		if (sp.ridge > 0) notes.add(String.format(Locale.ROOT, "gcPCA: the denominator D " +
			"has condition number %.3g > %.0e; the ridge δ = %.4g was added to it (recorded " +
			"as \"ridge\")", sp.condition, MAX_CONDITION, sp.ridge));
		if (shuffles > 0) {
			final double[][] nulls = nullDistribution(shuffles, seed, progress);
			final double upper = quantile(nulls[0], 0.975), lower = quantile(nulls[1], 0.025);
			final double[] significant = new double[2 * k];
			int top = 0, bottom = 0;
			for (int c = 0; c < 2 * k; c++) {
				final boolean s = c < k ? sp.values[c] > upper : sp.values[c] < lower;
				significant[c] = s ? 1 : 0;
				if (s && c < k) top++;
				if (s && c >= k) bottom++;
			}
			parameters.put("shuffles", (double) shuffles);
			parameters.put("null_upper", upper);
			parameters.put("null_lower", lower);
			parameters.put("significant", significant);
			notes.add(String.format(Locale.ROOT, "gcPCA shuffle test (%d shuffles, seed %d): " +
				"%d of %d target-enriched components exceed the null's 97.5 %% quantile " +
				"(%.4g), %d of %d background-enriched lie below its 2.5 %% quantile (%.4g)",
				shuffles, seed, top, k, upper, bottom, k, lower));
		}
		return fit.build("gcpca", alpha, parameters, sp.values, sp.w, 2 * k, notes);
	}

	static void checkShuffles(final int shuffles) {
		if (shuffles < 0) throw new IllegalArgumentException("the number of shuffles must " +
			"be ≥ 0 (got " + shuffles + "): 0 for no significance test, e.g. 100 for one");
		// the largest and the smallest value of each shuffle
		Memory.require("the gcPCA shuffle test (" + shuffles + " shuffles)", Memory.doubles(2,
			shuffles), "use fewer shuffles (--shuffles, shuffles=; 100 to 1000 estimate its " +
				"97.5 % quantile)");
	}

	/**
	 * Per shuffle, the largest and the smallest value: {@code {tops, bottoms}}. Each shuffle
	 * permutes every feature's samples independently within each dataset (preprocessing
	 * is refitted, so the shuffled data are centred on their own means as the original).
	 */
	double[][] nullDistribution(final int shuffles, final long seed,
		final Progress progress)
	{
		final Dataset t = fit.target(), b = fit.backgrounds().get(0);
		final double[] tops = new double[shuffles], bottoms = new double[shuffles];
		progress.stage("gcPCA shuffle test", 0);
		for (int s = 0; s < shuffles; s++) {
			progress.checkCancelled();
			final SplittableRandom random = new SplittableRandom(seed * 1_000_003L + s);
			final Dataset ts = shuffled(t, random), bs = shuffled(b, random);
			final Cpca f = Cpca.fit(ts, bs, fit.options(), Progress.NONE);
			final int room = variant == Variant.V1 ? f.rank() : pooled(f);
			final int ks = Math.max(1, Math.min(fit.options().components(), room / 2));
			final Spectrum sp = solve(f.space().a, f.space().b, f.space().dimension(),
				variant, alpha, ks, orthogonal, dimension(f, ks));
			tops[s] = sp.top();
			bottoms[s] = sp.bottom();
			progress.stage("gcPCA shuffle test", (s + 1.0) / shuffles);
		}
		return new double[][] { tops, bottoms };
	}

	/** Every feature's values permuted over the samples, each feature on its own. */
	static Dataset shuffled(final Dataset x, final SplittableRandom random) {
		final int n = x.samples(), d = x.features();
		final float[][] rows = new float[n][d];
		final int[] p = new int[n];
		for (int j = 0; j < d; j++) {
			for (int i = 0; i < n; i++)
				p[i] = i;
			for (int i = n - 1; i > 0; i--) {
				final int r = random.nextInt(i + 1), tmp = p[i];
				p[i] = p[r];
				p[r] = tmp;
			}
			for (int i = 0; i < n; i++)
				rows[i][j] = x.row(p[i])[j];
		}
		return Dataset.wrap(x.name() + " (shuffled)", rows);
	}

	/**
	 * With fewer samples than features, the number q of pooled principal components to
	 * solve in (docs/math/gcpca.md#fewer-samples-than-features). In q dimensions the
	 * sample covariances of n_t and n_b samples give, when target and background share
	 * one distribution, variance ratios spread over the F-matrix (Wachter) support
	 * {@code [(1 − h)²/(1 − y_b)², (1 + h)²/(1 − y_b)²]}, {@code y = q/(n − 1)},
	 * {@code h = √(y_t + y_b − y_t y_b)} ({@link #nullEdges}), whatever that distribution:
	 * the ratios are unchanged by any invertible linear map of the features. With q close
	 * to the sample counts these edges reach ±1, so the extreme values are noise. Among
	 * q = 2k, ⌈2k·√2⌉, … up to {@code room}, this takes the q at which the v4 values of
	 * the two ends exceed their null edges the most (the sum of both ends' excesses).
	 * Uses no labels.
	 *
	 * @param room the largest q allowed (min(n_t, n_b) − 1, at most the rank)
	 */
	static int chooseDimension(final double[] a, final double[] b, final int m, final int k,
		final int nt, final int nb, final int room)
	{
		if (room <= 2 * k) return room;
		final double[][] basis = basis(a, b, m, room);
		final int top = basis.length;
		final double[] ra = restrict(a, basis, m), rb = restrict(b, basis, m);
		int best = top;
		double bestScore = Double.NEGATIVE_INFINITY;
		for (double g = 2 * k; ; g = Math.max(g + 1, Math.ceil(g * Math.sqrt(2)))) {
			final int q = (int) Math.min(top, g);
			final double[] aq = new double[q * q], bq = new double[q * q];
			for (int i = 0; i < q; i++)
				for (int j = 0; j < q; j++) {
					aq[i * q + j] = ra[i * top + j];
					bq[i * q + j] = rb[i * top + j];
				}
			final double[][] nd = numeratorDenominator(aq, bq, q, Variant.V4, Double.NaN);
			final double[] values = pencil(nd[0], nd[1], q)[0];
			final double[] edges = nullEdges(q, nt, nb);
			final double score = Math.max(0, values[0] - edges[1]) + Math.max(0, edges[0] -
				values[q - 1]);
			if (score > bestScore) {
				bestScore = score;
				best = q;
			}
			if (q == top) break;
		}
		return best;
	}

	/**
	 * The v4 values' null edges {lower, upper} in q dimensions for n_t target and n_b
	 * background samples: the F-matrix support of the variance ratio, mapped by
	 * r ↦ (r − 1)/(r + 1); {−1, 1} when q reaches a sample count − 1.
	 */
	static double[] nullEdges(final int q, final int nt, final int nb) {
		final double yt = q / (nt - 1.0), yb = q / (nb - 1.0);
		if (yt >= 1 || yb >= 1) return new double[] { -1, 1 };
		final double h = Math.sqrt(yt + yb - yt * yb), s = (1 - yb) * (1 - yb);
		final double lo = (1 - h) * (1 - h) / s, hi = (1 + h) * (1 + h) / s;
		return new double[] { (lo - 1) / (lo + 1), (hi - 1) / (hi + 1) };
	}

	/** The q-quantile with linear interpolation between order statistics. */
	static double quantile(final double[] values, final double q) {
		final double[] s = values.clone();
		Arrays.sort(s);
		final double pos = q * (s.length - 1);
		final int lo = (int) Math.floor(pos), hi = Math.min(s.length - 1, lo + 1);
		return s[lo] + (pos - lo) * (s[hi] - s[lo]);
	}

	/**
	 * Solves a variant on m × m matrices (row-major, symmetric).
	 *
	 * @param alpha v1 only
	 * @param k the number of components at each end (2k ≤ m)
	 */
	public static Spectrum solve(final double[] a, final double[] b, final int m,
		final Variant variant, final double alpha, final int k, final boolean orthogonal)
	{
		return solve(a, b, m, variant, alpha, k, orthogonal, m);
	}

	/**
	 * Solves a variant inside the span of the top {@code pooled} eigenvectors of A + B (the
	 * pooled principal subspace); {@code pooled ≥ m} solves in the whole space. With fewer
	 * samples than features each dataset spans only its own n − 1 directions, and in the
	 * directions one of them spans and the other does not every v4 value is exactly ±1:
	 * restricting to at most min(n_t, n_b) − 1 pooled components (as the original does)
	 * keeps both datasets' variance in every direction solved.
	 */
	public static Spectrum solve(final double[] a, final double[] b, final int m,
		final Variant variant, final double alpha, final int k, final boolean orthogonal,
		final int pooled)
	{
		if (variant != Variant.V1) {
			final double[][] basis = basis(a, b, m, pooled);
			if (2 * k > basis.length) throw new IllegalArgumentException("gcPCA returns k " +
				"target-enriched and k background-enriched components, 2k = " + 2 * k +
				" in all, but the target and background vary together in only " + basis.length +
				" direction(s) (the others have no variance in either: duplicated or constant " +
				"features): choose k ≤ " + basis.length / 2);
			if (basis.length < m) {
				final int q = basis.length;
				final Spectrum inner = solveInSpace(restrict(a, basis, m), restrict(b, basis, m),
					q, variant, alpha, k, orthogonal);
				return new Spectrum(inner.values, lift(inner.w, basis, 2 * k, m), inner.ridge,
					inner.condition);
			}
		}
		return solveInSpace(a, b, m, variant, alpha, k, orthogonal);
	}

	/**
	 * The orthonormal rows (length m) spanning the space the v2–v4 problem is solved in: the
	 * span of the data, the directions where {@code A/‖A‖ + B/‖B‖} exceeds
	 * {@link Cpca#NULL_SPACE_TOLERANCE} times its largest eigenvalue (as α = ∞ takes it: a
	 * duplicated or constant feature adds a direction of no variance in either dataset,
	 * where every variant's value is 0/0), and inside it, when {@code pooled} is smaller,
	 * the top {@code pooled} eigenvectors of A + B (the pooled principal components).
	 */
	public static double[][] basis(final double[] a, final double[] b, final int m,
		final int pooled)
	{
		final double na = frobenius(a), nb = frobenius(b);
		final double[] sum = new double[m * m];
		for (int i = 0; i < sum.length; i++)
			sum[i] = (na > 0 ? a[i] / na : 0) + (nb > 0 ? b[i] / nb : 0);
		final SymmetricEigen span = SymmetricEigen.of(sum, m);
		final double threshold = Cpca.NULL_SPACE_TOLERANCE * Math.max(span.value(0), 0);
		int s = 0;
		while (s < m && span.value(s) > threshold)
			s++;
		final int q = Math.min(s, pooled);
		if (s == m && q == m) return identity(m);
		final double[][] rows = new double[s][];
		for (int c = 0; c < s; c++)
			rows[c] = span.vector(c).clone();
		if (q == s) return rows;
		// the top q pooled principal components inside the span
		final double[] as = restrict(a, rows, m), bs = restrict(b, rows, m);
		final double[] pooledSum = new double[s * s];
		for (int i = 0; i < pooledSum.length; i++)
			pooledSum[i] = as[i] + bs[i];
		final SymmetricEigen e = SymmetricEigen.of(pooledSum, s);
		final double[][] out = new double[q][m];
		for (int c = 0; c < q; c++) {
			final double[] y = e.vector(c);
			for (int r = 0; r < s; r++)
				for (int i = 0; i < m; i++)
					out[c][i] += y[r] * rows[r][i];
		}
		return out;
	}

	private static double[][] identity(final int m) {
		final double[][] rows = new double[m][m];
		for (int c = 0; c < m; c++)
			rows[c][c] = 1;
		return rows;
	}

	private static double frobenius(final double[] x) {
		double s = 0;
		for (final double v : x)
			s += v * v;
		return Math.sqrt(s);
	}

	/** {@code Pᵀ y} for the q × cols coefficients y (row-major) and the rows P of basis. */
	private static double[] lift(final double[] y, final double[][] basis, final int cols,
		final int m)
	{
		final double[] w = new double[m * cols];
		for (int r = 0; r < basis.length; r++)
			for (int c = 0; c < cols; c++) {
				final double x = y[r * cols + c];
				for (int i = 0; i < m; i++)
					w[i * cols + c] += x * basis[r][i];
			}
		return w;
	}

	/** A variant solved in the whole m-dimensional space (D ridged when ill-conditioned). */
	private static Spectrum solveInSpace(final double[] a, final double[] b, final int m,
		final Variant variant, final double alpha, final int k, final boolean orthogonal)
	{
		final double[][] nd = numeratorDenominator(a, b, m, variant, alpha);
		final double[] n = nd[0], d = nd[1];
		double ridge = 0, condition = 1;
		if (variant == Variant.V1) for (int i = 0; i < m; i++)
			d[i * m + i] = 1;
		else {
			final SymmetricEigen e = SymmetricEigen.of(d, m);
			final double max = e.value(0), min = e.value(m - 1);
			if (!(max > 0)) throw new IllegalArgumentException("gcPCA " + variant.id() +
				" divides by the " + (variant == Variant.V4 ? "summed" : "background") +
				" variance, but it is zero in every direction (a constant background): use " +
				"v4 or cPCA");
			condition = min > 0 ? max / min : Double.POSITIVE_INFINITY;
			if (condition > MAX_CONDITION) {
				ridge = (max - MAX_CONDITION * min) / (MAX_CONDITION - 1);
				for (int i = 0; i < m; i++)
					d[i * m + i] += ridge;
			}
		}
		if (!orthogonal) {
			final double[][] p = pencil(n, d, m);
			return new Spectrum(ends(p[0], k, m), columns(p, 1, k, m), ridge, condition);
		}
		// orthogonal: one vector at a time in the complement of those kept, alternating ends
		final double[][] kept = new double[2 * k][];
		final double[] values = new double[2 * k];
		for (int step = 0; step < 2 * k; step++) {
			final boolean top = step % 2 == 0;
			final int slot = top ? step / 2 : k + step / 2;
			final double[][] basis = complement(kept, step, m); // rows: orthonormal m-vectors
			final int q = basis.length;
			final double[] nq = restrict(n, basis, m), dq = restrict(d, basis, m);
			final double[][] p = pencil(nq, dq, q);
			final int c = top ? 0 : q - 1;
			final double[] y = p[1 + c], v = new double[m];
			for (int r = 0; r < q; r++)
				for (int i = 0; i < m; i++)
					v[i] += y[r] * basis[r][i];
			normalize(v);
			values[slot] = p[0][c];
			kept[slot] = v;
		}
		final double[] w = new double[m * 2 * k];
		for (int c = 0; c < 2 * k; c++)
			for (int i = 0; i < m; i++)
				w[i * 2 * k + c] = kept[c][i];
		return new Spectrum(values, w, ridge, condition);
	}

	/** The k largest values (descending), then the k smallest (ascending). */
	private static double[] ends(final double[] values, final int k, final int m) {
		final double[] out = new double[2 * k];
		for (int c = 0; c < k; c++) {
			out[c] = values[c];
			out[k + c] = values[m - 1 - c];
		}
		return out;
	}

	/** m × 2k block of the pencil's unit vectors in the order of {@link #ends}. */
	private static double[] columns(final double[][] p, final int offset, final int k,
		final int m)
	{
		final double[] w = new double[m * 2 * k];
		for (int c = 0; c < 2 * k; c++) {
			final double[] v = p[offset + (c < k ? c : m - 1 - (c - k))];
			for (int i = 0; i < m; i++)
				w[i * 2 * k + c] = v[i];
		}
		return w;
	}

	/**
	 * The pencil (N, D), D positive definite: {@code {values (descending), v_1, …, v_m}}, the
	 * vectors of unit Euclidean length, solving N v = λ D v.
	 */
	static double[][] pencil(final double[] n, final double[] d, final int m) {
		final SymmetricEigen ed = SymmetricEigen.of(d, m);
		// D^{-1/2} = U diag(1/√μ) Uᵀ
		final double[] h = new double[m * m];
		for (int c = 0; c < m; c++) {
			final double mu = ed.value(c);
			if (!(mu > 0)) throw new ArithmeticException("gcPCA: the denominator is not " +
				"positive definite (eigenvalue " + mu + ")");
			final double f = 1 / Math.sqrt(mu);
			final double[] u = ed.vector(c);
			for (int i = 0; i < m; i++) {
				final double ui = f * u[i];
				for (int j = 0; j < m; j++)
					h[i * m + j] += ui * u[j];
			}
		}
		final double[] mm = multiply(h, multiply(n, h, m), m);
		final SymmetricEigen e = SymmetricEigen.of(mm, m);
		final double[][] out = new double[m + 1][];
		out[0] = e.values();
		for (int c = 0; c < m; c++) {
			final double[] y = e.vector(c), v = new double[m];
			for (int i = 0; i < m; i++) {
				double s = 0;
				for (int j = 0; j < m; j++)
					s += h[i * m + j] * y[j];
				v[i] = s;
			}
			normalize(v);
			out[c + 1] = v;
		}
		return out;
	}

	/** Orthonormal rows spanning the complement of the first {@code count} kept vectors. */
	private static double[][] complement(final double[][] kept, final int count,
		final int m)
	{
		final double[] p = new double[m * m];
		for (int i = 0; i < m; i++)
			p[i * m + i] = 1;
		for (final double[] v : kept)
			if (v != null) for (int i = 0; i < m; i++)
				for (int j = 0; j < m; j++)
					p[i * m + j] -= v[i] * v[j];
		final SymmetricEigen e = SymmetricEigen.of(p, m);
		final double[][] basis = new double[m - count][];
		for (int c = 0; c < m - count; c++)
			basis[c] = e.vector(c).clone();
		return basis;
	}

	/** {@code PᵀSP} for the rows P of {@code basis}. */
	public static double[] restrict(final double[] s, final double[][] basis, final int m) {
		final int q = basis.length;
		final double[][] sp = new double[q][m];
		for (int r = 0; r < q; r++)
			for (int i = 0; i < m; i++) {
				double x = 0;
				for (int j = 0; j < m; j++)
					x += s[i * m + j] * basis[r][j];
				sp[r][i] = x;
			}
		final double[] out = new double[q * q];
		for (int r = 0; r < q; r++)
			for (int c = 0; c < q; c++) {
				double x = 0;
				for (int i = 0; i < m; i++)
					x += basis[r][i] * sp[c][i];
				out[r * q + c] = x;
			}
		return out;
	}

	public static double[] multiply(final double[] x, final double[] y, final int m) {
		final double[] out = new double[m * m];
		for (int i = 0; i < m; i++)
			for (int t = 0; t < m; t++) {
				final double v = x[i * m + t];
				if (v == 0) continue;
				for (int j = 0; j < m; j++)
					out[i * m + j] += v * y[t * m + j];
			}
		return out;
	}

	private static void normalize(final double[] v) {
		double s = 0;
		for (final double x : v)
			s += x * x;
		s = Math.sqrt(s);
		if (s > 0) for (int i = 0; i < v.length; i++)
			v[i] /= s;
	}

	/**
	 * The numerator N and denominator D (m × m, row-major) of a variant's Rayleigh quotient
	 * from the target and background matrices A and B: v1 N = A − αB (D unused, zero), v2
	 * N = A, D = B; v3 N = A − B, D = B; v4 N = A − B, D = A + B. No ridge.
	 */
	public static double[][] numeratorDenominator(final double[] a, final double[] b,
		final int m, final Variant variant, final double alpha)
	{
		final double[] n = new double[m * m], d = new double[m * m];
		for (int i = 0; i < m * m; i++) {
			switch (variant) {
				case V1:
					n[i] = a[i] - alpha * b[i];
					break;
				case V2:
					n[i] = a[i];
					d[i] = b[i];
					break;
				case V3:
					n[i] = a[i] - b[i];
					d[i] = b[i];
					break;
				default:
					n[i] = a[i] - b[i];
					d[i] = a[i] + b[i];
			}
		}
		return new double[][] { n, d };
	}
}
