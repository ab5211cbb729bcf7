package org.cpca.core.gcpca;

import org.cpca.core.contrast.Cpca;
import org.cpca.core.family.Choice;
import org.cpca.core.family.Family;
import org.cpca.core.family.FamilyInput;
import org.cpca.core.family.OptionKeys;
import org.cpca.core.family.KeyField;
import org.cpca.core.family.Parse;
import org.cpca.core.family.SharedKeyFields;
import org.cpca.core.result.Method;
import org.cpca.core.result.Solution;

/**
 * gcPCA: the variant ({@code variant}; v1 takes the shared α), orthonormal loadings
 * ({@code orthogonal}), the shuffle test ({@code shuffles}) and sparse loadings
 * ({@code sparsity}); docs/math/gcpca.md. Sparse loadings build on gcPCA (package
 * {@code core.sparse}), so the registry hands that step in ({@link SparseStep}).
 */
public final class GcpcaFamily implements Family<GcpcaFamily.Options> {

	/** Sparse loadings of a dense gcPCA solution ({@code g} the problem it solved). */
	@FunctionalInterface
	public interface SparseStep {

		/** @param sparsity the soft threshold per step ≥ 0 (docs/math/sparse.md), or NaN for automatic */
		Solution apply(Solution dense, Gcpca g, double sparsity);
	}

	/** gcPCA's own settings. */
	public static final class Options {

		private final Gcpca.Variant variant;
		private final boolean orthogonal;
		private final int shuffles;
		private final Double sparsity;

		private Options(final Builder b) {
			variant = b.variant;
			orthogonal = b.orthogonal;
			shuffles = b.shuffles;
			sparsity = b.sparsity;
		}

		/** The variant, v1 … v4 (v4 by default). */
		public Gcpca.Variant variant() {
			return variant;
		}

		/** The orthogonal variants (loadings orthonormal in feature space). */
		public boolean orthogonal() {
			return orthogonal;
		}

		/** Seeded shuffles of the significance test (0: none). */
		public int shuffles() {
			return shuffles;
		}

		/** λ₁ of sparse loadings; {@code null} for dense loadings, NaN for automatic. */
		public Double sparsity() {
			return sparsity;
		}
	}

	private static final class Builder {

		Gcpca.Variant variant;
		boolean orthogonal;
		int shuffles;
		Double sparsity;
	}

	private static final OptionKeys<Builder, Options> KEYS = OptionKeys.of(Builder::new,
		Options::new).key("variant", "v1, v2, v3 or v4", KeyField.of("gcPCA variant", "v4",
			"For method=gcpca: v4 index in [−1, 1] (+1 only in the target, −1 only in the " +
				"background), v3 ratio − 1, v2 variance ratio, v1 cPCA at fixed α.").choices(
					"v4", "v3", "v2", "v1"), (b, t, k) -> b.variant = Gcpca.Variant.parse(t)).key(
						"orthogonal", "true or false", KeyField.of("Orthogonal (gcPCA)", "false",
							"For method=gcpca: orthonormal loadings."), (b, t, k) -> b.orthogonal =
								Parse.bool(t, k)).key("shuffles",
									"a whole number ≥ 0 (0: no significance test)", KeyField.of(
										"Shuffles (gcPCA)", "0", "For method=gcpca: seeded shuffles " +
											"of the significance test (0: none).").min(0), (b, t,
												k) -> b.shuffles = shuffles(t, k)).key("sparsity",
													"none, a value ≥ 0 or auto", SharedKeyFields.SPARSITY, (b, t,
														k) -> b.sparsity = Parse.sparsity(t, Choice.name(k)))
		.samplesOnly("sparsity");

	private static int shuffles(final String t, final String k) {
		final long v = Parse.longValue(t, k);
		if (v < 0 || v > Integer.MAX_VALUE) throw new IllegalArgumentException(Choice.name(k) +
			" must be ≥ 0 (got " + t + "): 0 for no significance test, e.g. 100 for one");
		return (int) v;
	}

	private final SparseStep sparse;

	/** @param sparse the sparse-loadings step ({@code core.sparse}) */
	public GcpcaFamily(final SparseStep sparse) {
		this.sparse = sparse;
	}

	/** gcPCA forms its pencil's matrices beside A and B (docs/memory.md "Per method"). */
	@Override
	public int fitBytesPerN2() {
		return 32;
	}

	@Override
	public Method method() {
		return Method.GCPCA;
	}

	@Override
	public OptionKeys<?, Options> keys() {
		return KEYS;
	}

	@Override
	public Solution run(final Options o, final FamilyInput input) {
		final Cpca fit = input.fit(false);
		if (o.sparsity != null && fit.target() == null) throw Parse.needsSamples("sparsity");
		final Gcpca g = Gcpca.of(fit, o.variant, o.orthogonal, input.alpha());
		final Solution dense = GcpcaRun.run(g, fit, o.shuffles, input.progress());
		return o.sparsity == null ? dense : sparse.apply(dense, g, o.sparsity);
	}
}
