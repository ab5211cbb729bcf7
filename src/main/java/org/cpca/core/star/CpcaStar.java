package org.cpca.core.star;

import org.cpca.core.Progress;
import org.cpca.core.contrast.ContrastiveSpace;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.linalg.GeneralizedEigen;
import org.cpca.core.linalg.Products;
import org.cpca.core.linalg.TopEigen;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.result.Solution;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Arrays;
import java.util.Locale;

/**
 * cPCA* (Golkar, Lipshutz, Tesileanu &amp; Chklovskii, "An online algorithm for contrastive
 * PCA"; docs/math/star.md): the top-k eigenvectors of the symmetric-definite generalized
 * problem
 *
 * <pre>
 * C_t v = λ B_β v,   B_β = (1 − β) I + β C_b,   β ∈ [0, 1]
 * </pre>
 *
 * on a {@link Cpca} fit (so one fit serves every β, and PCA, cPCA and cPCA++ too). β = 0
 * is PCA of the target; as β → 1 the components maximise the ratio of target to
 * background variance (cPCA++, {@link CpcaPlusPlus}, when C_b is invertible). For
 * β ∈ (0, 1) B_β is C_b plus isotropic noise of variance (1−β)/β, up to the factor β.
 * <p>
 * <b>Solver.</b> {@link #model} factors {@code B_β = RᵀR} by Cholesky and solves
 * {@code R⁻ᵀC_tR⁻¹w = λw}, {@code v = R⁻¹w} ({@link GeneralizedEigen}). The sweep of
 * {@link #automatic} uses the tridiagonal form of C_b that the fit prepares once for cPCA's
 * α path instead ({@link BetaSolver}): the same problem at O(m²) per β.
 * <p>
 * <b>Reduced space (exact).</b> With the orthonormal basis Q of the row space of the
 * stacked centred data ({@link ReducedSpace}), {@code C_t = Q A Qᵀ}, {@code C_b = Q B Qᵀ}
 * and {@code B_β = Q((1−β)I_r + βB)Qᵀ + (1−β)(I − QQᵀ)}: B_β is block diagonal in
 * {@code [Q, Q⊥]}. Inside span(Q) the problem is the r × r one
 * {@code A w = λ((1−β)I_r + βB)w}; outside it {@code C_t u = 0} so the generalized
 * eigenvalue is 0 ({@code B_β u = (1−β)u ≠ 0} for β &lt; 1, {@code δu} at a regularised
 * β = 1). Every eigenvalue inside is ≥ 0, so the top k lie inside (ties at 0 only when
 * the target has rank &lt; k).
 * <p>
 * <b>β = 1 with a singular C_b</b> (always when d exceeds the background's samples, or in
 * the reduced space when r &lt; d, since C_b then vanishes on Q⊥): the problem is
 * regularised, {@code C_b + δI} with {@code δ = ε·trace(C_b)/d}, ε =
 * {@value #DEFAULT_REGULARIZATION} by default, recorded in the model's diagnostics and
 * parameters ("regularization" = δ). d is the number of <em>features</em>, not r: then
 * {@code C_b + δI_d = Q(B + δI_r)Qᵀ + δ(I − QQᵀ)} and the reduced solve with
 * {@code B + δI_r} is exactly the full one (trace(B) = trace(C_b) as Q is orthonormal).
 * Since {@code C_b + δI = B_β'/β'} with {@code β' = 1/(1+δ)}, the regularised β = 1
 * solution is cPCA* at β' with its eigenvalues multiplied by β'. For β &lt; 1 within
 * round-off of 1 (1 − β below about 10⁻¹³ of the background's scale) the factorisation
 * of B_β can fail although B_β is positive definite; its diagonal is then raised by the
 * round-off level, recorded in the diagnostics.
 * <p>
 * <b>Normalisation.</b> Components are reported as <em>unit vectors</em> (for display,
 * eigen-images and projection); they are B_β-orthogonal, not orthogonal to each other, so
 * {@link CpcaModel#inverseTransform} is not a least-squares reconstruction. Eigenvalues are
 * the generalized ones, {@code λ = vᵀC_tv / vᵀB_βv}; target and background variances per
 * component are {@code vᵀC_tv} and {@code vᵀC_bv} of the unit vector, as for cPCA. The
 * sign rule of {@link Cpca} applies.
 * <p>
 * <b>Automatic β</b> ({@link #automatic}): the analogue of automatic α (docs/math/cpca.md) over a grid of β: β = 0, {@code count} values whose odds β/(1−β), in units of the
 * background's mean variance {@code s = trace(C_b)/d}, are log-spaced
 * ({@code log10(s·β/(1−β))} evenly over [min, max], default −2 … 4), and β = 1. The grid
 * is relative to s because only {@code (β/(1−β))·C_b} against I matters: it covers the
 * change from B_β ≈ I to B_β ≈ C_b whatever the units of the data.
 */
public final class CpcaStar {

	/** Default ε of the β = 1 regularisation δ = ε·trace(C_b)/d. */
	public static final double DEFAULT_REGULARIZATION = 1e-6;

	/** What is computed once per fit and shared by every copy (lazily, thread-safe). */
	private static final class Prepared {

		volatile Boolean singular;
		volatile BetaSolver solver;
	}

	private final Cpca fit;
	private final double epsilon;
	/**
	 * Why the β = 1 ridge is applied whether or not C_b is singular (cPCA++'s shrinkage,
	 * {@link #withRidge}); {@code null}: only a singular C_b is regularised.
	 */
	private final String ridge;
	private final int gridCount;
	private final double minLogOdds;
	private final double maxLogOdds;
	private final int returned;
	private final Prepared prepared;

	private CpcaStar(final Cpca fit, final double epsilon, final String ridge,
		final int gridCount, final double minLogOdds, final double maxLogOdds,
		final int returned, final Prepared prepared)
	{
		this.fit = fit;
		this.epsilon = epsilon;
		this.ridge = ridge;
		this.gridCount = gridCount;
		this.minLogOdds = minLogOdds;
		this.maxLogOdds = maxLogOdds;
		this.returned = returned;
		this.prepared = prepared;
	}

	/**
	 * cPCA* on a fit with exactly one background (the fit's options give k, whitening,
	 * the seed and the k-means restarts of the automatic β).
	 */
	public static CpcaStar of(final Cpca fit) {
		if (fit.backgroundCount() != 1) throw new IllegalArgumentException(
			"cPCA* takes one background but " + fit.backgroundCount() + " were given: " +
				(fit.backgroundCount() == 0 ? "give a background" : "use UCA for several " +
					"backgrounds, or pool them into one"));
		return new CpcaStar(fit, DEFAULT_REGULARIZATION, null, 40, -2, 4, 4, new Prepared());
	}

	/** ε of the β = 1 regularisation δ = ε·trace(C_b)/d (used only if C_b is singular). */
	public CpcaStar withRegularization(final double newEpsilon) {
		if (!(newEpsilon > 0) || Double.isInfinite(newEpsilon))
			throw new IllegalArgumentException("the regularisation ε must be > 0 (got " +
				newEpsilon + "), e.g. 1e-6");
		return new CpcaStar(fit, newEpsilon, null, gridCount, minLogOdds, maxLogOdds,
			returned, prepared);
	}

	/**
	 * The β = 1 problem with {@code C_b + δI}, δ = ε·trace(C_b)/d, whether or not C_b is
	 * singular (cPCA++'s shrinkage, {@link CpcaPlusPlus#withShrinkage}).
	 *
	 * @param reason how ε was chosen, for the diagnostic
	 */
	CpcaStar withRidge(final double newEpsilon, final String reason) {
		return new CpcaStar(withRegularization(newEpsilon).fit, newEpsilon, reason,
			gridCount, minLogOdds, maxLogOdds, returned, prepared);
	}

	/**
	 * The automatic β grid: β = 0, {@code count} values with
	 * {@code log10(s·β/(1−β))} evenly spaced over [minLog, maxLog] (s = trace(C_b)/d),
	 * and β = 1.
	 */
	public CpcaStar withBetaGrid(final int count, final double minLog,
		final double maxLog)
	{
		if (count < 1) throw new IllegalArgumentException(
			"the β grid needs at least 1 value between 0 and 1 (got " + count + ")");
		if (!(minLog <= maxLog) || !Double.isFinite(minLog) || !Double.isFinite(maxLog))
			throw new IllegalArgumentException("the β grid's log10 odds range must " +
				"satisfy min ≤ max (got " + minLog + " … " + maxLog + ")");
		return new CpcaStar(fit, epsilon, ridge, count, minLog, maxLog, returned, prepared);
	}

	/** Number of β values returned by {@link #automatic}, β = 0 included (≥ 2). */
	public CpcaStar withBetasReturned(final int count) {
		if (count < 2) throw new IllegalArgumentException(
			"automatic β selection returns β = 0 and at least one more value: ask for ≥ 2 " +
				"(got " + count + ")");
		return new CpcaStar(fit, epsilon, ridge, gridCount, minLogOdds, maxLogOdds, count,
			prepared);
	}

	/** The fit this works on. */
	public Cpca fit() {
		return fit;
	}

	public double regularizationEpsilon() {
		return epsilon;
	}

	public int betasReturned() {
		return returned;
	}

	/**
	 * cPCA* at β: method "star", parameters {"beta": β} (and "regularization": δ at
	 * β = 1, 0 when C_b is invertible).
	 *
	 * @throws IllegalArgumentException for β outside [0, 1] or NaN, or β = 1 with a
	 *           background that does not vary
	 */
	public CpcaModel model(final double beta) {
		checkBeta(beta);
		return build("star", beta + 0.0, solve(beta + 0.0)); // −0 → 0
	}

	/** The automatic β selection (sweep, spectral clustering, medoids). */
	public BetaSelection automatic(final Progress progress) {
		return BetaSelection.select(this, progress);
	}

	/**
	 * The grid of {@link #automatic}: 0, the log-odds values (ascending), 1.
	 *
	 * @throws IllegalArgumentException if the background does not vary (every β &lt; 1
	 *           is then PCA)
	 */
	public double[] betaGrid() {
		final double s = backgroundScale();
		if (!(s > 0)) throw new IllegalArgumentException(constantBackground() +
			": cPCA* equals PCA for every β < 1, so there is no β to choose");
		final double[] grid = new double[gridCount + 2];
		for (int i = 0; i < gridCount; i++) {
			final double t = gridCount == 1 ? 0.5 : (double) i / (gridCount - 1);
			final double odds = Math.pow(10, minLogOdds + t * (maxLogOdds - minLogOdds)) / s;
			grid[i + 1] = odds / (1 + odds);
		}
		grid[gridCount + 1] = 1;
		return grid;
	}

	/**
	 * Whether C_b (d × d) is numerically singular: in the reduced space when r &lt; d, when
	 * the background has fewer than d + 1 samples, or when its Cholesky factor has a pivot
	 * ≤ 1e-10 of the largest diagonal entry.
	 */
	public boolean backgroundSingular() {
		Boolean s = prepared.singular;
		if (s == null) prepared.singular = s = computeSingular();
		return s;
	}

	/** The δ added to C_b at β = 1: ε·trace(C_b)/d if C_b is singular, otherwise 0. */
	public double regularization() {
		return ridge != null || backgroundSingular() ? epsilon * backgroundScale() : 0;
	}

	static void checkBeta(final double beta) {
		if (!(beta >= 0 && beta <= 1)) throw new IllegalArgumentException("β must be in " +
			"[0, 1] (got " + beta + "): 0 is PCA, values towards 1 weight the background " +
			"more, 1 is cPCA++; or use auto");
	}

	/** A solved β: generalized eigenvalues, unit coefficient columns (m × k), notes. */
	static final class Solution {

		final double[] values;
		final double[] w;
		final List<String> notes;
		final double regularization;
		final double[][] warmStart;

		Solution(final double[] values, final double[] w, final List<String> notes,
			final double regularization, final double[][] warmStart)
		{
			this.values = values;
			this.w = w;
			this.notes = notes;
			this.regularization = regularization;
			this.warmStart = warmStart;
		}
	}

	/** β by the Cholesky factor of B_β. */
	Solution solve(final double beta) {
		final ContrastiveSpace space = fit.space();
		final int m = space.dimension(), k = fit.options().components();
		final long seed = fit.options().seed();
		final List<String> notes = new ArrayList<>();
		final double delta = atOne(beta, notes);
		TopEigen.Result top;
		try {
			top = GeneralizedEigen.top(space.a, BetaSolver.matrix(space.b, m, beta, delta, 0),
				k, seed);
		}
		catch (final ArithmeticException e) {
			// mathematically B_β ≥ (1−β)I, but the round-off of a singular C_b can make it
			// indefinite for β within round-off of 1: raise the diagonal by that much
			final double eta = BetaSolver.shift(space.b, m, beta);
			notes.add(BetaSolver.shiftNote(beta, eta));
			top = GeneralizedEigen.top(space.a, BetaSolver.matrix(space.b, m, beta, delta,
				eta), k, seed);
		}
		return finish(top, delta, notes);
	}

	/** β on the sweep: the prepared tridiagonal basis, warm-started. */
	Solution sweep(final double beta, final double[][] warm) {
		final List<String> notes = new ArrayList<>();
		final double delta = atOne(beta, notes);
		final TopEigen.Result top = solver().solve(beta, delta, fit.options().components(),
			warm, fit.options().seed(), notes);
		return finish(top, delta, notes);
	}

	/** δ for β (0 unless β = 1 and C_b is singular); the note that records it. */
	private double atOne(final double beta, final List<String> notes) {
		if (beta != 1) return 0;
		if (!(backgroundScale() > 0)) throw new IllegalArgumentException(
			constantBackground() + ": β = 1 (cPCA++) divides by the background variance; " +
				"use β < 1 (which equals PCA here)");
		if (ridge != null) {
			final double delta = regularization();
			notes.add(String.format(Locale.ROOT, "β = 1: the background covariance " +
				"was regularised as C_b + δI with δ = ε·trace(C_b)/d = %.6g (ε = %.3g, d = %d; " +
				"%s)", delta, epsilon, fit.space().features(), ridge));
			return delta;
		}
		if (!backgroundSingular()) return 0;
		final double delta = regularization();
		notes.add(String.format(Locale.ROOT, "β = 1: the background covariance is singular; " +
			"regularised as C_b + δI with δ = ε·trace(C_b)/d = %.6g (ε = %.3g, d = %d)", delta,
			epsilon, fit.space().features()));
		return delta;
	}

	private Solution finish(final TopEigen.Result top, final double delta,
		final List<String> notes)
	{
		final int m = fit.space().dimension(), k = fit.options().components();
		final double[] w = top.vectors.clone();
		for (int c = 0; c < k; c++) {
			double norm = 0;
			for (int i = 0; i < m; i++)
				norm += w[i * k + c] * w[i * k + c];
			norm = Math.sqrt(norm);
			if (norm > 0) for (int i = 0; i < m; i++)
				w[i * k + c] /= norm;
		}
		int positive = 0;
		final double scale = Math.max(top.values[0], 0);
		for (int c = 0; c < k; c++)
			if (top.values[c] > 1e-12 * scale && scale > 0) positive++;
		if (positive < k) notes.add("only " + positive + " of " + k + " directions carry " +
			"target variance (generalized eigenvalue > 0); the others are returned but " +
			"carry none");
		return new Solution(top.values.clone(), w, notes, delta, top.warmStart);
	}

	CpcaModel build(final String method, final double beta, final Solution s) {
		final Map<String, Object> parameters = new LinkedHashMap<>();
		if (!"cpcapp".equals(method)) parameters.put("beta", beta);
		if (beta == 1) parameters.put("regularization", s.regularization);
		return fit.build(method, Double.NaN, parameters, s.values, s.w.clone(), fit.options()
			.components(), new ArrayList<>(s.notes));
	}

	/** The sweep solver (its preparation is the fit's, shared with cPCA's α path). */
	BetaSolver solver() {
		BetaSolver s = prepared.solver;
		if (s == null) prepared.solver = s = BetaSolver.of(fit);
		return s;
	}

	/** trace(C_b)/d: the background's mean variance per feature. */
	private double backgroundScale() {
		final ContrastiveSpace space = fit.space();
		final int m = space.dimension();
		double trace = 0;
		for (int i = 0; i < m; i++)
			trace += space.b[i * m + i];
		return trace / space.features();
	}

	private String constantBackground() {
		return fit.backgroundNames().get(0) + " does not vary (zero covariance)";
	}

	private boolean computeSingular() {
		final ContrastiveSpace space = fit.space();
		final int m = space.dimension(), d = space.features();
		if (d > m) return true; // C_b vanishes outside span(Q)
		if (fit.backgroundSamples(0) - 1 < d) return true; // rank ≤ n_b − 1
		final double[][] rows = new double[m][];
		double maxDiag = 0;
		for (int i = 0; i < m; i++) {
			rows[i] = Arrays.copyOfRange(space.b, i * m, (i + 1) * m);
			maxDiag = Math.max(maxDiag, rows[i][i]);
		}
		if (!(maxDiag > 0)) return true;
		try {
			final double[][] r = Products.cholesky(rows);
			for (int i = 0; i < m; i++)
				if (!(r[i][i] * r[i][i] > Cpca.NULL_SPACE_TOLERANCE * maxDiag)) return true;
			return false;
		}
		catch (final ArithmeticException e) {
			return true;
		}
	}
}
