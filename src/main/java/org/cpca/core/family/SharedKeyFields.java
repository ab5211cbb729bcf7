package org.cpca.core.family;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The dialog fields of the shared settings (the method, α and β, the components, the
 * preprocessing, the significance test, the seed: their keys are parsed by {@code
 * core.run.Settings}), and of the keys that several families declare alike: sparse
 * loadings (cPCA, gcPCA) and pooled backgrounds (UCA, rPCA), which each of those families
 * declares with the one field here. A shared field's default is what the dialog starts
 * with: α's and β's value fields hold the value their fixed mode uses ({@code alpha_mode}
 * and {@code beta_mode} start at auto), the others are the settings' defaults.
 */
public final class SharedKeyFields {

	private SharedKeyFields() {}

	/**
	 * The method choice: each method's readable name with its code in brackets ({@code
	 * "cPCA* (star)"}); online cPCA* has its own command.
	 */
	private static final String[] METHOD_CHOICES = { "Contrastive PCA (cpca)", "PCA (pca)",
		"cPCA* (star)", "cPCA++ (cpcapp)", "Kernel cPCA (kernel)",
		"Unique component analysis (uca)", "Residual PCA (rpca)", "Generalized cPCA (gcpca)",
		"Probabilistic cPCA (pcpca)" };

	private static final Map<String, KeyField> SHARED = new LinkedHashMap<>();

	private static void shared(final String key, final KeyField field) {
		SHARED.put(key, field);
	}

	static {
		shared("method", KeyField.of("Method", METHOD_CHOICES[0], "cpca: contrastive PCA " +
			"against the background. gcpca: generalized cPCA (α-free; target- and " +
			"background-enriched ends). pcpca: probabilistic cPCA at a fixed α (noise " +
			"variance, denoising). pca: ordinary PCA of the target. star: cPCA*, C_t v = " +
			"λ((1−β)I + βC_b)v. cpcapp: cPCA++, the target/background variance ratio C_t v = " +
			"λC_b v. kernel: kernel cPCA (nonlinear; see the kernel settings). uca: unique " +
			"component analysis, tuning-free, any number of backgrounds. rpca: residual PCA, " +
			"the target projected off each background's top components. A macro gives the " +
			"name or only the code in brackets (method=cpca).").choices(METHOD_CHOICES));
		shared("alpha_mode", KeyField.of("α mode", "auto", "auto: sweep α, cluster and show " +
			"representative values (α = 0, PCA, first). fixed: use α below. inf: the " +
			"background's null space.").choices("auto", "fixed", "inf"));
		shared("alpha", KeyField.of("α (fixed mode)", "2",
			"Contrast strength α ≥ 0 for alpha_mode=fixed (0 is PCA).").min(0));
		shared("beta_mode", KeyField.of("β mode (cPCA*)", "auto", "For method=star. auto: " +
			"sweep β, cluster and show representative values (β = 0, PCA, first). fixed: use " +
			"β below.").choices("auto", "fixed"));
		shared("beta", KeyField.of("β (cPCA*, fixed mode)", "0.5", "cPCA*'s β in [0, 1] for " +
			"beta_mode=fixed: 0 is PCA, 1 is cPCA++.").min(0).max(1).step(0.05));
		shared("components", KeyField.of("Components (k)", "2", "Number of components.").min(
			1));
		shared("standardize", KeyField.of("Standardize", "false",
			"Divide each feature by its own dataset's standard deviation."));
		shared("whiten", KeyField.of("Whiten scores", "false", "Divide each score by the " +
			"square root of its component's target variance."));
		shared("significance", KeyField.of("Significance (permutations)", "0", "N seeded " +
			"permutations of samples between target and background, each refitted at the " +
			"result's parameters: a p_value per component in the components table, " +
			"family-wise over the components (0: none; 999 gives p down to 0.001).").min(0));
		shared("bootstrap", KeyField.of("Bootstrap (resamples)", "0", "B seeded resamples " +
			"within each dataset, each refitted at the result's parameters: per component the " +
			"median angle to the full-data component in the components table, and an image " +
			"of each component's per-pixel spread (kernel cPCA: the angle between scores of " +
			"the target's samples, no image; 0: none; e.g. 200).").min(0));
		shared("significance_reselect", KeyField.of("Re-select α in each permutation", "false",
			"With a significance test and automatic α: choose α again inside each " +
				"permutation (slower), so that the p-values account for α having been picked " +
				"on the same data."));
		shared("seed", KeyField.of("Seed", "0",
			"Seed of the automatic α clustering and start vectors."));
	}

	/** A shared setting's dialog field, or {@code null} for another key. */
	public static KeyField of(final String key) {
		return SHARED.get(key);
	}

	/** {@code sparsity}: the soft threshold per solver step ({@link Parse#sparsity}). */
	public static final KeyField SPARSITY = KeyField.of("Sparsity (cPCA, gcPCA)", "none",
		"none (dense), a value ≥ 0 (the soft threshold per solver step on a unit-length " +
			"loading: larger gives more zero loadings) or auto.");

	/** {@code stacked}: several backgrounds pooled into one. */
	public static final KeyField STACKED = KeyField.of("Pool backgrounds (stacked)", "false",
		"UCA, rPCA with several backgrounds: pool them into one dataset instead of " +
			"treating each on its own (for comparison).");
}
