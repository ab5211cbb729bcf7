package org.cpca.core.contrast;

import org.cpca.core.Progress;
import org.cpca.core.linalg.ContrastSolver;
import org.cpca.core.linalg.Products;
import org.cpca.core.linalg.SolverLog;
import org.cpca.core.linalg.TopEigen;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.model.FittedModel;
import org.cpca.core.selection.SpectralChoice;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.IntConsumer;

import org.apache.commons.math3.linear.MatrixUtils;
import org.apache.commons.math3.linear.SingularValueDecomposition;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Automatic α selection (Abid et al. 2018, Methods; docs/math/cpca.md).
 * <ol>
 * <li>Grid: α = 0 plus {@code alphaCount} values log-spaced over
 * [10^minLog, 10^maxLog].</li>
 * <li>For each α, the top-k subspace and the target scores S_α (n_t × k); each solve is
 * warm-started from the previous α. An α whose top eigenvalue is at or below the rounding
 * level ({@link #contrastLevel}) has no positive contrast, and one with a top-k eigenvalue
 * within the rounding level of 0 has a top-k direction without variance in either
 * dataset: neither has a top-k subspace the data define, and both are left out of the next
 * two steps ({@link #excluded()}, {@link #defined}).</li>
 * <li>Affinity of α_i and α_j: the product of the cosines of the principal angles between
 * span(S_αi) and span(S_αj) (the singular values of Q_iᵀQ_j after QR); 1 on the
 * diagonal; 0 for a numerically zero score matrix.</li>
 * <li>Spectral clustering into {@code alphasReturned} clusters: normalised affinity
 * D^{-1/2}AD^{-1/2}, its top eigenvectors with rows scaled to unit length, k-means++ with
 * a fixed seed and at least {@value #MIN_RESTARTS} restarts plus deterministic
 * farthest-point starts; the lowest-cost partition is kept, so the chosen α set does not
 * depend on the seed unless two partitions truly tie ({@link #spectralClusters}).</li>
 * <li>The cluster containing α = 0 is dropped; each other cluster returns its medoid
 * (largest summed affinity to its mates). α = 0 is always returned, first; the others
 * follow in ascending order.</li>
 * </ol>
 * The sweep runs on any fit that reduces to {@code A − αB} in a prepared space: linear
 * cPCA ({@link Cpca#automatic}) and kernel cPCA, which is linear cPCA on kernel features
 * ({@link KernelCpca#automatic}, whose models are this selection's models
 * {@linkplain #map mapped} to {@link KernelCpcaModel}s).
 * <p>
 * A little over 500 lines: the sweep and the selection's result (the chosen models, every
 * grid point's facts and the curves the front ends plot) are one job and one value; the
 * clustering itself is {@code core.selection.SpectralChoice}.
 *
 * @param <M> the kind of model returned per chosen α
 */
public final class AlphaSelection<M extends FittedModel> {

	private final double[] grid;
	private final double[][] affinity;
	private final int[] clusters;
	private final List<M> models;
	private final double clusteringCost;
	private final double spectralGap;
	private final double[] contrastGaps;

	/** Grid values left out for want of positive contrast (see {@link #excluded()}). */
	private double[] excluded = new double[0];
	/** {@link #scaleNote(double, double, double[])} of this selection, or null. */
	private String scaleNote;

	/** Per grid α: target and background variance of the top component (the sweep's own). */
	private final double[] topTargetVariance, topBackgroundVariance;

	private AlphaSelection(final double[] grid, final double[][] affinity,
		final SpectralChoice.Result choice, final double[] contrastGaps, final List<M> models,
		final double[] topTargetVariance, final double[] topBackgroundVariance)
	{
		this.topTargetVariance = topTargetVariance;
		this.topBackgroundVariance = topBackgroundVariance;
		this.grid = grid;
		this.affinity = affinity;
		this.clusters = choice.clusters;
		this.clusteringCost = choice.cost;
		this.spectralGap = choice.spectralGap;
		this.contrastGaps = contrastGaps;
		this.models = Collections.unmodifiableList(models);
	}

	static AlphaSelection<CpcaModel> select(final Cpca cpca, final Progress progress) {
		final CpcaOptions o = cpca.options();
		final int k = o.components();
		final double[] grid = o.alphaGrid();
		final int g = grid.length;
		final TopEigen.Result[] solutions = sweep(cpca, grid, progress);
		final double[] tv = new double[g], bv = new double[g];
		final ContrastiveSpace space = cpca.space();
		// grid values without positive contrast (top eigenvalue at the rounding level or
		// below) have no top-k subspace the data define: left out of affinity and clustering
		final boolean[] defined = defined(cpca, grid, solutions);
		final List<Integer> kept = new ArrayList<>();
		final List<Double> excluded = new ArrayList<>();
		for (int i = 0; i < g; i++)
			if (defined[i]) kept.add(i);
			else excluded.add(grid[i]);
		// A·V of every solution (the affinities need them) and B·v of each top component, in
		// one product with A and one with B
		final double[][][] cols = new double[g][][], tops = new double[g][][];
		for (int i = 0; i < g; i++) {
			cols[i] = columns(solutions[i].vectors, k);
			tops[i] = new double[][] { cols[i][0] };
		}
		final int m = space.dimension();
		final double[][][] av = images(space.a, m, cols), bv1 = images(space.b, m, tops);
		for (int i = 0; i < g; i++) {
			// the top component's variances, kept for the variance-pairs plot (no re-solve)
			tv[i] = TopEigen.dot(cols[i][0], av[i][0]);
			bv[i] = TopEigen.dot(cols[i][0], bv1[i][0]);
		}
		final double[][][] keptCols = new double[kept.size()][][], keptAv =
			new double[kept.size()][][];
		for (int c = 0; c < kept.size(); c++) {
			keptCols[c] = cols[kept.get(c)];
			keptAv[c] = av[kept.get(c)];
		}
		final double[][] vectors = new double[kept.size()][];
		for (int c = 0; c < vectors.length; c++)
			vectors[c] = solutions[kept.get(c)].vectors;
		final double[][] keptAffinity = affinities(cpca, vectors, keptCols, keptAv, k);
		final SpectralChoice.Result choice = SpectralChoice.choose(keptAffinity, o.alphasReturned(), o.seed(), o
			.kmeansRestarts()).onGrid(kept, g);
		// the whole grid's affinity: NaN where a value was left out
		final double[][] affinity = new double[g][g];
		for (final double[] row : affinity)
			Arrays.fill(row, Double.NaN);
		for (int a = 0; a < vectors.length; a++)
			for (int b = 0; b < vectors.length; b++)
				affinity[kept.get(a)][kept.get(b)] = keptAffinity[a][b];
		final List<CpcaModel> models = new ArrayList<>();
		final double[] gaps = new double[choice.chosen.size()];
		// the gaps solve again: before the components, which may let the solver go
		for (int c = 0; c < gaps.length; c++) {
			final int i = choice.chosen.get(c);
			gaps[c] = contrastGap(cpca, grid[i], solutions[i].warmStart);
		}
		cpca.componentsAhead(choice.chosen.stream().map(i -> solutions[i].vectors).collect(
			Collectors.toList()), o.components());
		for (int c = 0; c < gaps.length; c++) {
			final int i = choice.chosen.get(c);
			models.add(cpca.build("cpca", grid[i], Collections.emptyMap(),
				solutions[i].values, solutions[i].vectors, o.components(), new ArrayList<>()));
		}
		final AlphaSelection<CpcaModel> out = new AlphaSelection<>(grid, affinity, choice,
			gaps, models, tv, bv);
		out.excluded = excluded.stream().mapToDouble(Double::doubleValue).toArray();
		out.scaleNote = scaleNote(space.normA, space.normB, grid);
		return out;
	}

	/**
	 * How far apart the two covariances' scales must be for the grid to miss them: at
	 * every grid α the background weighs less than 1/{@value} of the target, or more than
	 * {@value} times it (in Frobenius norm).
	 */
	static final double SCALE_MARGIN = 1e3;

	/**
	 * The diagnostic of a grid that misses the data's scale (docs/math/cpca.md), or null:
	 * when {@code α‖C_b‖_F} stays below ‖C_t‖_F/{@value #SCALE_MARGIN} over the whole grid,
	 * every model is the target's PCA but for a relative change of that size; when it stays
	 * above {@value #SCALE_MARGIN}·‖C_t‖_F, every model is close to α = ∞. Typically the
	 * two are in different units (a gain, an exposure, a bit depth).
	 *
	 * @param grid α = 0 first, then the swept values in increasing order
	 */
	static String scaleNote(final double normA, final double normB, final double[] grid) {
		if (!(normA > 0) || !(normB > 0) || grid.length < 2) return null;
		final double lo = grid[1], hi = grid[grid.length - 1], balance = normA / normB;
		final String what;
		if (hi * normB * SCALE_MARGIN < normA) what = "the background never counts (α‖C_b‖_F " +
			"stays below 1/" + (int) SCALE_MARGIN + " of ‖C_t‖_F: every model is the target's " +
			"PCA)";
		else if (lo * normB > SCALE_MARGIN * normA) what = "the background outweighs the " +
			"target at every α (α‖C_b‖_F stays above " + (int) SCALE_MARGIN + " × ‖C_t‖_F: " +
			"every model is close to α = ∞)";
		else return null;
		return String.format(Locale.ROOT, "automatic α: ‖C_t‖_F is %.3g × ‖C_b‖_F, " +
			"so on the grid α = %.4g … %.4g %s; if target and background are in different " +
			"units (gain, exposure, bit depth), standardise them or bring them to the same " +
			"units, otherwise give an α range around %.2g (--alpha-range %.2g,%.2g; " +
			"alpha_range= in Fiji and macros)", balance, lo, hi, what, balance, balance / 10,
			balance * 1000);
	}

	/** The diagnostic of a grid that misses the data's scale, or {@code null}. */
	public String scaleNote() {
		return scaleNote;
	}

	/**
	 * The rounding level of the top eigenvalue of {@code C(α) = A − αB}: {@value
	 * #CONTRAST_LEVEL}·(‖A‖_F + α‖B‖_F), the eigensolver's relative accuracy (1e-10 of the
	 * operator's norm, with a margin of 10) times a bound on ‖C(α)‖₂. A top eigenvalue at or
	 * below it is no positive contrast (docs/math/cpca.md).
	 */
	public static double contrastLevel(final double normA, final double normB,
		final double alpha)
	{
		return CONTRAST_LEVEL * (normA + alpha * normB);
	}

	/**
	 * Whether the top-k solution with these (descending) eigenvalues defines a target-score
	 * subspace: positive contrast ({@code λ_1 > level}) and no top-k eigenvalue within the
	 * rounding level of 0 — such a direction is, but for rounding, one with no variance in
	 * either dataset (its target scores vanish, and with two of them the subspace is not
	 * unique).
	 */
	static boolean defined(final double[] values, final int k, final double level) {
		if (!(values[0] > level)) return false;
		for (int j = 1; j < Math.min(k, values.length); j++)
			if (!(Math.abs(values[j]) > level)) return false;
		return true;
	}

	/**
	 * Which values of a sweep ({@link #sweep}) define a top-k subspace ({@link #defined}
	 * at the rounding level {@link #contrastLevel} of the fit's covariances); the first
	 * value (α = 0) always does. The others are left out of the affinity and the
	 * clustering (docs/math/cpca.md, "Grid values without contrast are left out").
	 */
	public static boolean[] defined(final Cpca cpca, final double[] grid,
		final TopEigen.Result[] solutions)
	{
		final ContrastiveSpace space = cpca.space();
		final double normA = space.normA, normB = space.normB;
		final int k = cpca.options().components();
		final boolean[] out = new boolean[grid.length];
		for (int i = 0; i < grid.length; i++)
			out[i] = i == 0 || defined(solutions[i].values, k, contrastLevel(normA, normB,
				grid[i]));
		return out;
	}

	/** See {@link #contrastLevel}. */
	public static final double CONTRAST_LEVEL = 1e-9;

	/**
	 * Step 2 alone, for sweeps over more than α (kernel cPCA's (γ, α) grid): the top-k
	 * solution at every α of {@code grid}. The grid is swept as two chains, each solve
	 * warm-started from the previous one of its chain: the first from α = 0 up, the second
	 * from its own cold start at grid value {@link #split} up, on another core. The split
	 * depends only on the grid's length, never on the number of cores, so the solutions are
	 * bit-identical on one core or many (docs/speed.md).
	 */
	public static TopEigen.Result[] sweep(final Cpca cpca, final double[] grid,
		final Progress progress)
	{
		// the solves share one native copy of the solver's matrix (ContrastSolver.hold)
		try (ContrastSolver.Hold held = grid.length > 1 ? cpca.holdSolver() : () -> {}) {
			return sweep(cpca, grid, progress, new TopEigen.Result[grid.length]);
		}
	}

	private static TopEigen.Result[] sweep(final Cpca cpca, final double[] grid,
		final Progress progress, final TopEigen.Result[] solutions)
	{
		final int g = grid.length, mid = split(g);
		if (mid == g) {
			chain(cpca, grid, 0, g, solutions, progress::checkCancelled, i -> progress.stage(
				"α sweep", (i + 1.0) / g));
			return solutions;
		}
		// the caller's thread runs the first chain and reports; the second stops with it
		final AtomicBoolean stop = new AtomicBoolean();
		final AtomicReference<RuntimeException> failed = new AtomicReference<>();
		final ForkJoinTask<?> second = ForkJoinPool.commonPool().submit(SolverLog.carried(
			() -> {
				try {
					chain(cpca, grid, mid, g, solutions, () -> {
						if (stop.get()) throw new CancellationException("stopped");
					}, i -> {});
				}
				catch (final RuntimeException e) {
					failed.set(e);
				}
			}));
		try {
			chain(cpca, grid, 0, mid, solutions, progress::checkCancelled, i -> progress.stage(
				"α sweep", (i + 1.0) / mid));
			second.join();
		}
		finally {
			stop.set(true);
		}
		// the second chain's own exception, as the caller would have seen it in one chain
		if (failed.get() != null) throw failed.get();
		return solutions;
	}

	/** Grids of at least this many values are swept as two chains ({@link #sweep}). */
	static final int TWO_CHAINS = 16;

	/**
	 * Where the second chain of {@link #sweep} starts, from the grid's length g alone: g
	 * below {@value #TWO_CHAINS} (one chain), else {@code (g + 3) / 2}: the second chain
	 * two or three solves shorter than the first (19 and 22 of the default 41), since its
	 * cold start costs about as much as two warm-started solves (docs/speed.md).
	 */
	static int split(final int g) {
		return g >= TWO_CHAINS ? (g + 3) / 2 : g;
	}

	/** Solves grid values from..to-1, each warm-started from the one before. */
	private static void chain(final Cpca cpca, final double[] grid, final int from,
		final int to, final TopEigen.Result[] solutions, final Runnable checkCancelled,
		final IntConsumer done)
	{
		double[][] warm = null;
		for (int i = from; i < to; i++) {
			checkCancelled.run();
			solutions[i] = cpca.solve(grid[i], warm);
			warm = solutions[i].warmStart;
			done.accept(i);
		}
	}

	/**
	 * Step 3 for solutions of different fits on the same target samples: the affinity of
	 * the target-score subspaces given as n × k score matrices (row-major, flat).
	 */
	public static double[][] scoreAffinities(final List<double[]> scores, final int n,
		final int k)
	{
		final int g = scores.size();
		final double[][][] bases = new double[g][][];
		for (int i = 0; i < g; i++)
			bases[i] = orthonormalColumns(scores.get(i), n, k);
		final double[][] affinity = new double[g][g];
		for (int i = 0; i < g; i++) {
			affinity[i][i] = bases[i] == null ? 0 : 1;
			for (int j = i + 1; j < g; j++)
				affinity[i][j] = affinity[j][i] = affinity(bases[i], bases[j]);
		}
		return affinity;
	}

	/** The diagnostic of a chosen α whose top eigenvalue is ≤ 0 (docs/math/cpca.md). */
	public static String noContrast(final double alpha, final double top) {
		return String.format(Locale.ROOT, "automatic α: the chosen α = %.6g has " +
			"no positive contrast (top eigenvalue %.4g ≤ 0: no direction has more target " +
			"than background variance); its components carry no contrast, lower α or use " +
			"another chosen value", alpha, top);
	}

	/**
	 * The contrast eigengap at α: {@code (λ_k − λ_{k+1}) / |λ_1|} of C(α) (how sharply the
	 * top-k subspace is defined), or −∞ when λ_1 ≤ 0 (no contrast) or k is the space's
	 * dimension. Used to pick the default model when no labels are known.
	 */
	public static double contrastGap(final Cpca cpca, final double alpha) {
		return contrastGap(cpca, alpha, null);
	}

	/**
	 * {@link #contrastGap(Cpca, double)} started from the sweep's own solution at this α
	 * ({@link TopEigen.Result#warmStart}; its k vectors, one more from the seed), so it
	 * converges in a few iterations instead of from scratch.
	 */
	static double contrastGap(final Cpca cpca, final double alpha, final double[][] warm) {
		final int k = cpca.options().components();
		if (alpha == 0 || k + 1 > cpca.rank()) return Double.NEGATIVE_INFINITY;
		final TopEigen.Result r = cpca.solver().solve(alpha, k + 1, warm, cpca.options()
			.seed());
		if (!(r.values[0] > 0)) return Double.NEGATIVE_INFINITY;
		return (r.values[k - 1] - r.values[k]) / Math.abs(r.values[0]);
	}

	/**
	 * Step 3 for any sweep over one parameter: the affinity between the target-score
	 * subspaces of the solutions, given as m × k coefficient blocks (row-major) in the
	 * fit's space. Principal angles come from A without forming the scores
	 * ({@link #metricBasis}) unless a score matrix is numerically rank-deficient, in which
	 * case the scores themselves are orthonormalised.
	 */
	public static double[][] affinities(final Cpca cpca, final double[][] vectors, final int k) {
		final double[][][] cols = new double[vectors.length][][];
		for (int i = 0; i < vectors.length; i++)
			cols[i] = columns(vectors[i], k);
		return affinities(cpca, vectors, cols, images(cpca.space().a, cpca.space().dimension(),
			cols), k);
	}

	/**
	 * {@link #affinities(Cpca, double[][], int)} with each solution's k columns and their
	 * images under A already at hand.
	 */
	private static double[][] affinities(final Cpca cpca, final double[][] vectors,
		final double[][][] cols, final double[][][] av, final int k)
	{
		final int g = vectors.length;
		final double[][][][] metric = new double[g][][][];
		boolean allMetric = true;
		for (int i = 0; i < g; i++) {
			metric[i] = metricBasis(cols[i], av[i]);
			allMetric &= metric[i] != null;
		}
		final double[][] affinity = new double[g][g];
		if (allMetric) {
			// every score matrix has full, well-conditioned rank: principal angles from A
			for (int i = 0; i < g; i++) {
				affinity[i][i] = 1;
				for (int j = i + 1; j < g; j++)
					affinity[i][j] = affinity[j][i] = metricAffinity(metric[i], metric[j]);
			}
		}
		else {
			final double[][][] bases = new double[g][][];
			for (int i = 0; i < g; i++)
				bases[i] = orthonormalColumns(cpca.targetScores(vectors[i], k), cpca
					.targetSamples(), k);
			for (int i = 0; i < g; i++) {
				affinity[i][i] = bases[i] == null ? 0 : 1;
				for (int j = i + 1; j < g; j++)
					affinity[i][j] = affinity[j][i] = affinity(bases[i], bases[j]);
			}
		}
		return affinity;
	}

	/**
	 * {@code S x} for every column x of every solution (S symmetric m × m, flat), as one
	 * product of S with all the columns stacked: one pass over S, flat (no m × m rows of it
	 * beside the solver's: docs/memory.md), and on the native backend one dgemm once the
	 * block is wide enough ({@link Products#symmetricTimesFlat}; 41 solutions of 2
	 * components at m = 784 are). On the Java kernels every entry is summed as in a
	 * product per solution, so the bits do not depend on the stacking.
	 */
	static double[][][] images(final double[] s, final int m, final double[][][] cols) {
		int count = 0;
		for (final double[][] c : cols)
			count += c.length;
		final double[][] block = new double[count][];
		int at = 0;
		for (final double[][] c : cols)
			for (final double[] x : c)
				block[at++] = x;
		final double[][] images = Products.symmetricTimesFlat(s, m, new double[][][] {
			block })[0];
		final double[][][] out = new double[cols.length][][];
		at = 0;
		for (int i = 0; i < cols.length; i++) {
			out[i] = new double[cols[i].length][];
			for (int c = 0; c < cols[i].length; c++)
				out[i][c] = images[at++];
		}
		return out;
	}

	/** The k columns of an m × k row-major block. */
	private static double[][] columns(final double[] v, final int k) {
		final int m = v.length / k;
		final double[][] cols = new double[k][m];
		for (int i = 0; i < m; i++)
			for (int c = 0; c < k; c++)
				cols[c][i] = v[i * k + c];
		return cols;
	}

	/**
	 * The principal angles between span(S_i) and span(S_j) without forming the n_t × k
	 * score matrices: S = X̃_t V (or L_t V in the reduced space) has
	 * {@code SᵢᵀSⱼ = (n_t − 1) VᵢᵀAVⱼ}, so with {@code VᵀAV = RᵀR} (Cholesky, k × k) the
	 * orthonormalised scores {@code Q = SR⁻¹} satisfy {@code QᵢᵀQⱼ = EᵢᵀFⱼ} for
	 * {@code E = VR⁻¹} and {@code F = AVR⁻¹}. Exactly the same cosines as the QR of the scores,
	 * at O(m k) per α instead of O(n_t d k).
	 *
	 * @param cols V's k columns (each of length m)
	 * @param av AV's k columns
	 * @return {E columns, F columns}, or {@code null} if VᵀAV is not safely positive
	 *         definite (a numerically rank-deficient score matrix: the caller then uses
	 *         the scores themselves)
	 */
	static double[][][] metricBasis(final double[][] cols, final double[][] av) {
		final int k = cols.length, m = k == 0 ? 0 : cols[0].length;
		final double[][] r = new double[k][k];
		// Cholesky of G = VᵀAV, column by column (G_cd = v_c · Av_d)
		double maxDiag = 0;
		for (int c = 0; c < k; c++)
			maxDiag = Math.max(maxDiag, TopEigen.dot(cols[c], av[c]));
		if (!(maxDiag > 0)) return null;
		for (int d = 0; d < k; d++) {
			for (int c = 0; c <= d; c++) {
				double s = 0.5 * (TopEigen.dot(cols[c], av[d]) + TopEigen.dot(cols[d], av[c]));
				for (int t = 0; t < c; t++)
					s -= r[t][c] * r[t][d];
				if (c < d) r[c][d] = s / r[c][c];
				else {
					// relative column norm of the scores ≥ 1e-6: well inside double range
					if (!(s > 1e-12 * maxDiag)) return null;
					r[d][d] = Math.sqrt(s);
				}
			}
		}
		// E = V R⁻¹, F = AV R⁻¹ (column d = (x_d − Σ_{c<d} r_cd e_c) / r_dd)
		final double[][] e = new double[k][], f = new double[k][];
		for (int d = 0; d < k; d++) {
			e[d] = cols[d].clone();
			f[d] = av[d].clone();
			for (int c = 0; c < d; c++) {
				TopEigen.axpy(-r[c][d], e[c], e[d]);
				TopEigen.axpy(-r[c][d], f[c], f[d]);
			}
			for (int i = 0; i < m; i++) {
				e[d][i] /= r[d][d];
				f[d][i] /= r[d][d];
			}
		}
		return new double[][][] { e, f };
	}

	/** Product of the singular values (capped at 1) of EᵢᵀFⱼ, symmetrised. */
	static double metricAffinity(final double[][][] bi, final double[][][] bj) {
		final int k = bi[0].length;
		final double[][] m = new double[k][k];
		for (int a = 0; a < k; a++)
			for (int b = 0; b < k; b++)
				m[a][b] = 0.5 * (TopEigen.dot(bi[0][a], bj[1][b]) + TopEigen.dot(bi[1][a],
					bj[0][b]));
		double product = 1;
		for (final double s : new SingularValueDecomposition(MatrixUtils
			.createRealMatrix(m)).getSingularValues())
			product *= Math.min(1, s);
		return product;
	}

	/** Orthonormal basis (n × k, column-major arrays) of the score columns, or null if ~0. */
	static double[][] orthonormalColumns(final double[] scores, final int n, final int k) {
		final double[][] cols = new double[k][n];
		double norm = 0;
		for (int i = 0; i < n; i++)
			for (int c = 0; c < k; c++) {
				cols[c][i] = scores[i * k + c];
				norm = Math.max(norm, Math.abs(scores[i * k + c]));
			}
		if (norm == 0) return null;
		final double[][] q = TopEigen.orthonormalize(cols, new double[0][], null, n);
		return q.length == 0 ? null : q;
	}

	/** Product of the cosines of the principal angles between two subspaces. */
	static double affinity(final double[][] qi, final double[][] qj) {
		if (qi == null || qj == null) return 0;
		if (qi.length != qj.length) return 0; // a rank-deficient score matrix
		final double[][] m = new double[qi.length][qj.length];
		for (int a = 0; a < qi.length; a++)
			for (int b = 0; b < qj.length; b++)
				m[a][b] = TopEigen.dot(qi[a], qj[b]);
		double product = 1;
		for (final double s : new SingularValueDecomposition(MatrixUtils
			.createRealMatrix(m)).getSingularValues())
			product *= Math.min(1, s);
		return product;
	}

	/**
	 * Target variance vᵀC_t v of the top component at each α of {@link #grid()}, as the
	 * sweep solved it; {@code null} for selections that do not keep it.
	 */
	public double[] topTargetVariance() {
		return topTargetVariance == null ? null : topTargetVariance.clone();
	}

	/** Background variance vᵀC_b v of the top component at each α of the grid. */
	public double[] topBackgroundVariance() {
		return topBackgroundVariance == null ? null : topBackgroundVariance.clone();
	}

	/** The α grid that was swept (α = 0 first). */
	public double[] grid() {
		return grid.clone();
	}

	/** Affinity between every pair of grid values; NaN for a value left out ({@link #excluded()}). */
	public double[][] affinity() {
		final double[][] out = new double[affinity.length][];
		for (int i = 0; i < out.length; i++)
			out[i] = affinity[i].clone();
		return out;
	}

	/**
	 * The grid values left out of the affinity and the clustering because C(α) has no
	 * positive contrast in its top k there ({@link #defined}: the top-k subspace is not
	 * defined by the data); empty when every value has contrast.
	 */
	public double[] excluded() {
		return excluded.clone();
	}

	/**
	 * The diagnostic that names the grid values left out ({@link #excluded()}), or
	 * {@code null} when there are none.
	 */
	public String exclusionNote() {
		if (excluded.length == 0) return null;
		final boolean one = excluded.length == 1;
		return String.format(Locale.ROOT, "automatic α: %d of the %d grid values " +
			"(α = %s) %s no positive contrast in %s top k: the top eigenvalue of C_t − αC_b " +
			"is at most %.0e·(‖C_t‖_F + α‖C_b‖_F) (below 0: no direction varies more in the " +
			"target than α times in the background; near 0: only directions with no " +
			"variance in either dataset), or one of the top k is that close to 0 (a direction " +
			"with no variance in either dataset); %s left out of the affinity and the " +
			"clustering", excluded.length, grid.length, Arrays.stream(excluded)
				.mapToObj(a -> String.format(Locale.ROOT, "%.4g", a)).collect(
					Collectors.joining(", ")), one ? "has" : "have", one ? "its"
						: "their", CONTRAST_LEVEL, one ? "it was" : "they were");
	}

	/** Cluster index of every grid value; −1 for a value left out ({@link #excluded()}). */
	public int[] clusters() {
		return clusters.clone();
	}

	/** k-means cost of the kept partition of the spectral embedding (lower is tighter). */
	public double clusteringCost() {
		return clusteringCost;
	}

	/** Eigengap μ_c − μ_{c+1} of the normalised affinity at the cluster count c. */
	public double spectralGap() {
		return spectralGap;
	}

	/**
	 * Per chosen α (in the order of {@link #alphas()}), the relative contrast eigengap
	 * {@code (λ_k − λ_{k+1})/|λ_1|} of C(α); −∞ for α = 0 and for α without positive
	 * contrast.
	 */
	public double[] contrastGaps() {
		return contrastGaps.clone();
	}

	/** The chosen α values: 0 first, then ascending. */
	public double[] alphas() {
		final double[] a = new double[models.size()];
		for (int i = 0; i < a.length; i++)
			a[i] = models.get(i).alpha();
		return a;
	}

	/** One model per chosen α, in the order of {@link #alphas()}. */
	public List<M> models() {
		return models;
	}

	/**
	 * The same selection (grid, affinity, clusters, chosen α) with every model turned into
	 * another by {@code f}, which must keep its α.
	 */
	public <N extends FittedModel> AlphaSelection<N> map(final Function<? super M, N> f) {
		final List<N> mapped = new ArrayList<>();
		for (final M m : models) {
			final N n = f.apply(m);
			if (Double.compare(n.alpha(), m.alpha()) != 0) throw new IllegalStateException(
				"a mapped model must keep its α (" + m.alpha() + " became " + n.alpha() + ")");
			mapped.add(n);
		}
		final AlphaSelection<N> out = new AlphaSelection<>(grid, affinity, new SpectralChoice.Result(
			clusters, List.of(), clusteringCost, spectralGap), contrastGaps, mapped,
			topTargetVariance, topBackgroundVariance);
		out.excluded = excluded;
		return out;
	}
}
