package org.cpca.core.contrast;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.cpca.core.Progress;
import org.cpca.core.linalg.ContrastSolver;
import org.cpca.core.linalg.Products;
import org.cpca.core.linalg.SymmetricEigen;
import org.cpca.core.linalg.TopEigen;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.model.FittedModel;

/**
 * cPCA's own models on a prepared {@link Cpca}: PCA of the target (α = 0), cPCA at a fixed
 * α, at α = ∞ (docs/math/cpca.md), the cold single-α solve and the warm solve the automatic
 * α sweep ({@link AlphaSelection}) steps with. The method family that offers them is
 * {@code org.cpca.core.cpca.CpcaFamily}; they stay beside the shared problem because the
 * other families build on them too (kernel cPCA and PCPCA take cPCA's model at α, the
 * significance tests refit it), and {@link Cpca#model}, {@link Cpca#pca} and
 * {@link Cpca#automatic} hand over to this class.
 */
final class CpcaModels {

	private final Cpca fit;
	private final CpcaOptions options;
	private final ContrastiveSpace space;

	CpcaModels(final Cpca fit) {
		this.fit = fit;
		this.options = fit.options();
		this.space = fit.space();
	}

	/** PCA of the target; background variances are reported when a background was given. */
	CpcaModel pca() {
		int k = options.components();
		if (options.varianceFraction() > 0) {
			final SymmetricEigen e = SymmetricEigen.of(space.a, space.dimension());
			double sum = 0;
			k = 0;
			while (k < e.size() && sum < options.varianceFraction() *
				space.targetTotalVariance * (1 - 1e-12))
				sum += Math.max(0, e.value(k++));
			k = Math.max(1, k);
			return fit.build("pca", Double.NaN, Arrays.copyOf(e.values(), k), e
				.vectors(k), k, new ArrayList<>(List.of("k = " + k + " retains " + String
					.format(Locale.ROOT, "%.4g", sum / space.targetTotalVariance) +
					" of the target variance (asked for " + options.varianceFraction() + ")")));
		}
		final TopEigen.Result top = TopEigen.solve(space.a, space.dimension(), k, null,
			options.seed());
		return fit.build("pca", Double.NaN, top.values, top.vectors, k, new ArrayList<>());
	}

	/**
	 * cPCA at α.
	 *
	 * @param alpha ≥ 0, or {@link Double#POSITIVE_INFINITY} for α = ∞
	 */
	CpcaModel model(final double alpha) {
		Cpca.checkAlpha(alpha);
		requireOneBackground("cPCA");
		if (alpha == Double.POSITIVE_INFINITY) return atInfinity();
		Cpca.requireResolved(space.normA, space.normB, alpha);
		final TopEigen.Result top = single(alpha);
		return fit.build("cpca", alpha, top.values, top.vectors, options.components(),
			new ArrayList<>());
	}

	/**
	 * Above {@code α‖B‖_F > DIRECT_RATIO·‖A‖_F} the direct path is not even tried: the top
	 * of A − αB then comes from the low end of B's spectrum, typically a crowded noise
	 * floor that only the prepared solver's preconditioner resolves quickly. Only speed
	 * depends on this rule (both paths are exact), and it depends only on the data and α.
	 */
	static final double DIRECT_RATIO = 4;


	/** Iteration budget of the direct single-α solve, from the problem size. */
	static int directIterations(final int m) {
		return Math.max(40, Math.min(120, m / 8));
	}

	/**
	 * One α, cold: first the direct LOBPCG on {@code A − αB} (no one-time preparation; see
	 * {@link ContrastSolver#direct}), and only if that does not converge within its budget
	 * the prepared solver. Both are deterministic functions of α, and which one is used
	 * depends only on α and the data, never on what was solved before: {@code model(α)} is
	 * bit-identical whatever the call order.
	 */
	private TopEigen.Result single(final double alpha) {
		return single(alpha, false);
	}

	/** @param solverBasis return the warm-start block in the prepared solver's basis */
	private TopEigen.Result single(final double alpha, final boolean solverBasis) {
		final int k = options.components(), m = space.dimension();
		final double[][][] partial = new double[1][][];
		final TopEigen.Result direct = alpha * space.normB > DIRECT_RATIO * space.normA ? null
			: ContrastSolver.direct(space.a, space.b, m, alpha, k, options
				.seed(), directIterations(m), partial);
		if (direct != null) return solverBasis ? fit.solver().inBasis(direct) : direct;
		// the direct attempt's last block is a better start than random vectors
		final ContrastSolver s = fit.solver();
		return s.solve(alpha, k, partial[0] == null ? null : s.inBasis(partial[0]), options
			.seed());
	}

	/** The automatic α selection of docs/math/cpca.md with this fit's options. */
	AlphaSelection<CpcaModel> automatic(final Progress progress) {
		requireOneBackground("automatic α");
		final double[] grid = options.alphaGrid();
		final double top = grid[grid.length - 1];
		if (!Cpca.resolved(space.normA, space.normB, top))
			throw new IllegalArgumentException("the α range reaches " + FittedModel.alphaText(
				top) + ", too large for these data: there the target is below the rounding of " +
				"α·C_b (α‖C_b‖_F > ‖C_t‖_F/ε); give a smaller α range (--alpha-range, or " +
				"alpha_range= in Fiji and macros)");
		return AlphaSelection.select(fit, progress);
	}

	private void requireOneBackground(final String what) {
		if (fit.backgroundCount() > 1) throw new IllegalArgumentException(what +
			" takes one background but " + fit.backgroundCount() + " were given: use UCA for " +
			"several backgrounds, or pool them into one");
	}

	/**
	 * Solves at α on the grid with a warm start; used by the sweep. Without a warm start
	 * (the first grid value) this is exactly {@link #model}'s solve, so the sweep's first
	 * model equals {@code model(α)}; a direct result's vectors are then carried into the
	 * solver's basis to warm-start the next α.
	 */
	TopEigen.Result solve(final double alpha, final double[][] warm) {
		if (warm == null) return single(alpha, true);
		return fit.solver().solve(alpha, options.components(), warm, options.seed());
	}

	/**
	 * α = ∞ (docs/math/cpca.md): target PCA inside the null space of C_b, taken <b>inside the
	 * span of the data</b>. The span is the range of {@code A/‖A‖ + B/‖B‖} (both positive
	 * semi-definite, each scaled so that neither dataset's units hide the other's range); a
	 * direction outside it has no variance in either dataset (two collinear table columns,
	 * a constant pixel) and is no candidate, exactly as for finite α. Inside the span, the
	 * directions with background eigenvalue ≤ tol·λ_max(C_b) form the null space; if fewer
	 * than k of its directions carry target variance, those are returned with a diagnostic.
	 */
	private CpcaModel atInfinity() {
		if (fit.backgroundCount() == 0) throw new IllegalArgumentException(
			"α = ∞ needs a background");
		final int m = space.dimension();
		// 1. an orthonormal basis P (m × s) of the data's span
		final double na = space.normA, nbk = space.normB;
		final double[] sum = new double[m * m];
		for (int i = 0; i < sum.length; i++)
			sum[i] = (na > 0 ? space.a[i] / na : 0) + (nbk > 0 ? space.b[i] / nbk : 0);
		final SymmetricEigen es = SymmetricEigen.of(sum, m);
		final double spanThreshold = Cpca.NULL_SPACE_TOLERANCE * Math.max(es.value(0), 0);
		int s = 0;
		while (s < m && es.value(s) > spanThreshold)
			s++;
		final double[] p = es.vectors(s);
		// 2. the background inside the span and its null space N (s × q)
		final double[] bs = Products.multiplyTransposed(p, m, s, Products.multiply(space.b, m,
			m, p, s), s);
		final double[] as = Products.multiplyTransposed(p, m, s, Products.multiply(space.a, m,
			m, p, s), s);
		symmetrise(bs, s);
		symmetrise(as, s);
		final SymmetricEigen eb = SymmetricEigen.of(bs, s);
		final double threshold = Cpca.NULL_SPACE_TOLERANCE * Math.max(eb.value(0), 0);
		int rank = 0;
		while (rank < s && eb.value(rank) > threshold)
			rank++;
		final int q = s - rank;
		if (q == 0) throw new IllegalArgumentException("α = ∞ is undefined here: inside the " +
			"data's span the background covariance has no null space (the background varies " +
			"in every direction the target does); use a finite α, automatic α, or rPCA");
		final double[] all = eb.vectors();
		final double[] nb = new double[s * q];
		for (int i = 0; i < s; i++)
			System.arraycopy(all, i * s + rank, nb, i * q, q);
		// 3. target PCA inside the null space
		final double[] an = Products.multiplyTransposed(nb, s, q, Products.multiply(as, s, s,
			nb, q), q);
		symmetrise(an, q);
		final SymmetricEigen e = SymmetricEigen.of(an, q);
		final double targetThreshold = Cpca.NULL_SPACE_TOLERANCE * Math.max(SymmetricEigen.of(
			space.a, m).value(0), 0);
		int withVariance = 0;
		while (withVariance < q && e.value(withVariance) > targetThreshold)
			withVariance++;
		final List<String> notes = new ArrayList<>();
		int k = options.components();
		if (withVariance == 0) throw new IllegalArgumentException("α = ∞ is undefined here: " +
			"the background's null space inside the data's span (" + q + " dimension(s)) " +
			"carries no target variance; use a finite α, automatic α, or rPCA");
		if (withVariance < k) {
			notes.add("α = ∞: inside the data's span only " + withVariance + " direction(s) " +
				"of the background's null space carry target variance; returning " +
				withVariance + " component(s) instead of " + k);
			k = withVariance;
		}
		final double[] w = Products.multiply(p, m, s, Products.multiply(nb, s, q, e.vectors(
			k), k), k);
		notes.add("α = ∞: target PCA inside the " + q + "-dimensional null space of the " +
			"background covariance (within the " + s + "-dimensional span of the data)");
		return fit.build("cpca", Double.POSITIVE_INFINITY, Arrays.copyOf(e.values(),
			k), w, k, notes);
	}

	private static void symmetrise(final double[] x, final int n) {
		for (int i = 0; i < n; i++)
			for (int j = i + 1; j < n; j++) {
				final double v = 0.5 * (x[i * n + j] + x[j * n + i]);
				x[i * n + j] = v;
				x[j * n + i] = v;
			}
	}
}
