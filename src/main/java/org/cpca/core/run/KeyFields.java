package org.cpca.core.run;

import java.util.LinkedHashMap;
import java.util.Map;

import org.cpca.core.family.Family;
import org.cpca.core.family.KeyField;

/**
 * The dialog field of every setting a dialog shows, each declared once: the shared
 * settings' fields here (beside their keys in {@link Settings}), a family's own in its
 * declaration ({@link org.cpca.core.family.OptionKeys}). The Fiji commands apply them to
 * their fields when a dialog opens (docs/architecture.md, "How to add a setting").
 * <p>
 * A shared field's default is what the dialog starts with: α's and β's value fields hold
 * the value their fixed mode uses ({@code alpha_mode} and {@code beta_mode} start at
 * auto), the other defaults are those of {@link Settings#defaults()}.
 */
public final class KeyFields {

	private KeyFields() {}

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
			"of each component's per-pixel spread (0: none; e.g. 200).").min(0));
		shared("significance_reselect", KeyField.of("Re-select α in each permutation", "false",
			"With a significance test and automatic α: choose α again inside each " +
				"permutation (slower), so that the p-values account for α having been picked " +
				"on the same data."));
		shared("seed", KeyField.of("Seed", "0",
			"Seed of the automatic α clustering and start vectors."));
	}

	/**
	 * {@code key}'s dialog field: a shared setting's, or the one the families declaring it
	 * declare; {@code null} for a setting no dialog shows.
	 *
	 * @throws IllegalStateException if two families declare the key with different fields
	 */
	public static KeyField of(final String key) {
		final KeyField shared = SHARED.get(key);
		if (shared != null) return shared;
		KeyField out = null;
		boolean seen = false;
		for (final Family<?> f : Families.all()) {
			if (!f.keys().names().contains(key)) continue;
			final KeyField field = f.keys().field(key);
			if (seen && field != out) throw new IllegalStateException(key + " is " +
				"declared with two dialog fields: declare one for every family");
			out = field;
			seen = true;
		}
		return out;
	}
}
