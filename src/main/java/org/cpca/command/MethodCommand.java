package org.cpca.command;

import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.cpca.core.family.Family;
import org.cpca.core.kernel.KernelFunction;
import org.cpca.core.result.Method;
import org.cpca.core.run.Families;
import org.cpca.core.run.Settings;
import org.scijava.command.ContextCommand;
import org.scijava.plugin.Parameter;

/**
 * The method settings shared by the Fiji commands that fit (Contrastive PCA…, Batch…),
 * declared once: SciJava finds these inherited parameters, and their names are the macro
 * keys, the same as the command line's flags in snake_case ({@code alpha_mode} ↔
 * {@code --alpha-mode}, {@code k_b} ↔ {@code --k-b}). {@link #settings()} parses them
 * with {@link Settings}, the one parser every front end uses.
 * <p>
 * The dialog comes in two steps ({@link TwoStepDialog}): the method first, then only
 * the settings of that method (its family's declared keys and the shared ones it reads,
 * {@link #methodKeys}) and the ones every method shares.
 */
public abstract class MethodCommand extends ContextCommand implements TwoStepDialog {

	/**
	 * The method choice: each method's readable name with its code in brackets. The
	 * recorder writes the chosen text ({@code method=[Contrastive PCA (cpca)]}); a macro
	 * may give that or the plain code ({@code method=cpca}), as the command line does:
	 * {@link #code} maps either to the code. (Annotation values must be constants, so they
	 * are written here; {@code MethodChoiceTest} checks them against the registry.)
	 */
	static final String CPCA = "Contrastive PCA (cpca)", PCA = "PCA (pca)",
		STAR = "cPCA* (star)", CPCAPP = "cPCA++ (cpcapp)", KERNEL = "Kernel cPCA (kernel)",
		UCA = "Unique component analysis (uca)", RPCA = "Residual PCA (rpca)",
		GCPCA = "Generalized cPCA (gcpca)", PCPCA = "Probabilistic cPCA (pcpca)";

	/** A method's code in brackets at the end of a choice: {@code "cPCA* (star)"}. */
	private static final Pattern BRACKETED = Pattern.compile(".*\\(\\s*([A-Za-z+]+)\\s*\\)\\s*");

	/**
	 * The shared settings (α, β, the significance test, the bootstrap) each method reads. Its
	 * own settings are those its family declares ({@code Family.keys()}, {@link #needs}).
	 */
	private static final Map<String, Set<String>> SHARED_KEYS = Map.of( //
		"cpca", Set.of("alpha_mode", "alpha", "significance", "significance_reselect",
			"bootstrap"), //
		"pca", Set.of("significance", "bootstrap"), //
		"star", Set.of("beta_mode", "beta", "significance", "bootstrap"), //
		"cpcapp", Set.of("significance", "bootstrap"), //
		"kernel", Set.of("alpha_mode", "alpha", "significance", "bootstrap"), //
		"uca", Set.of("significance", "bootstrap"), //
		"rpca", Set.of("significance", "bootstrap"), //
		"gcpca", Set.of("alpha_mode", "alpha", "significance", "bootstrap"), // alpha: variant v1
		"pcpca", Set.of("alpha_mode", "alpha", "significance", "bootstrap"));

	/**
	 * The settings that depend on the method: every family's own keys, and the shared
	 * ones not every method reads; the others of this class ({@code components},
	 * {@code standardize}, {@code whiten}, {@code bin}, {@code seed}) every method uses.
	 */
	static final Set<String> METHOD_SPECIFIC = methodSpecific();

	private static Set<String> methodSpecific() {
		final Set<String> out = new TreeSet<>(Set.of("alpha_mode", "alpha", "beta_mode",
			"beta", "significance", "significance_reselect", "bootstrap"));
		for (final Family<?> f : Families.all())
			out.addAll(f.keys().names());
		return Collections.unmodifiableSet(out);
	}

	/**
	 * The method settings {@code method} (a code) uses: its family's own keys and the
	 * shared ones it reads; {@code null} for an unknown method.
	 */
	static Set<String> methodKeys(final String method) {
		final Set<String> shared = SHARED_KEYS.get(method);
		if (shared == null) return null;
		final Set<String> out = new TreeSet<>(shared);
		out.addAll(Families.of(Method.parse(method)).keys().names());
		return out;
	}

	@Parameter(label = "Method", choices = { CPCA, PCA, STAR, CPCAPP, KERNEL, UCA, RPCA,
		GCPCA, PCPCA }, description = "cpca: contrastive PCA against the " +
			"background. gcpca: generalized cPCA (α-free; target- and background-enriched " +
			"ends). pcpca: probabilistic cPCA at a fixed α (noise variance, denoising). pca: " +
			"ordinary PCA of the target. star: cPCA*, C_t v = λ((1−β)I + βC_b)v. cpcapp: " +
			"cPCA++, the target/background variance ratio C_t v = λC_b v. kernel: kernel " +
			"cPCA (nonlinear; see the kernel settings). uca: unique component analysis, " +
			"tuning-free, any number of backgrounds. rpca: residual PCA, the target " +
			"projected off each background's top components. A macro gives the name or " +
			"only the code in brackets (method=cpca).")
	protected String method = CPCA;

	@Parameter(label = "α mode", choices = { "auto", "fixed", "inf" },
		description = "auto: sweep α, cluster and show representative values (α = 0, PCA, " +
			"first). fixed: use α below. inf: the background's null space.")
	protected String alpha_mode = "auto";

	@Parameter(label = "α (fixed mode)", min = "0",
		description = "Contrast strength α ≥ 0 for alpha_mode=fixed (0 is PCA).")
	protected double alpha = 2;

	@Parameter(label = "β mode (cPCA*)", choices = { "auto", "fixed" },
		description = "For method=star. auto: sweep β, cluster and show representative " +
			"values (β = 0, PCA, first). fixed: use β below.")
	protected String beta_mode = "auto";

	@Parameter(label = "β (cPCA*, fixed mode)", min = "0", max = "1", stepSize = "0.05",
		description = "cPCA*'s β in [0, 1] for beta_mode=fixed: 0 is PCA, 1 is cPCA++.")
	protected double beta = 0.5;

	@Parameter(label = "ε (cPCA++, cPCA* at β = 1; 0 = auto)", min = "0", style =
		"format:0.##E0", description = "The background covariance is regularised as C_b + " +
			"δI, δ = ε·trace(C_b)/d. 0 (auto): cPCA++ chooses ε by the Ledoit–Wolf shrinkage " +
			"of C_b, cPCA* at β = 1 uses 1e-6 on a singular C_b.")
	protected double epsilon = 0;

	@Parameter(label = "Kernel (kernel cPCA)", choices = { "rbf", "poly", "linear" },
		description = "For method=kernel: rbf exp(−γ‖x−y‖²), poly (γxᵀy + coef0)^degree, " +
			"or linear xᵀy (equals cPCA).")
	protected String kernel = "rbf";

	@Parameter(label = "γ (kernel cPCA)",
		description = "For method=kernel: γ > 0 of the rbf or poly kernel, or auto: rbf " +
			"1/median squared distance, poly 1/mean squared norm, over a seeded subsample " +
			"of at most 1000 samples.")
	protected String gamma = "auto";

	@Parameter(label = "Degree (poly kernel)", min = "1",
		description = "For kernel=poly: the degree, a whole number ≥ 1.")
	protected int degree = KernelFunction.DEFAULT_DEGREE;

	@Parameter(label = "coef0 (poly kernel)", min = "0",
		description = "For kernel=poly: the offset coef0 ≥ 0.")
	protected double coef0 = KernelFunction.DEFAULT_COEF0;

	@Parameter(label = "Landmarks (kernel cPCA)",
		description = "For method=kernel: auto (exact up to 2000 samples in all, else " +
			"Nyström with 500 seeded landmarks), all (always exact) or a number of Nyström " +
			"landmarks.")
	protected String landmarks = "auto";

	@Parameter(label = "Pool backgrounds (stacked)",
		description = "UCA, rPCA with several backgrounds: pool them into one dataset " +
			"instead of treating each on its own (for comparison).")
	protected boolean stacked;

	// the key is k_b, not background_components: ImageJ's Macro.getValue finds a key
	// after an underscore too, so a key ending in another key ("components") is misread
	@Parameter(label = "Background components k_b (rPCA)",
		description = "rPCA: k_b, the principal components removed from each background: " +
			"auto (elbow rule), a number, or one value per background (e.g. 3,auto).")
	protected String k_b = "auto";

	@Parameter(label = "gcPCA variant", choices = { "v4", "v3", "v2", "v1" },
		description = "For method=gcpca: v4 index in [−1, 1] (+1 only in the target, −1 " +
			"only in the background), v3 ratio − 1, v2 variance ratio, v1 cPCA at fixed α.")
	protected String variant = "v4";

	@Parameter(label = "Orthogonal (gcPCA)",
		description = "For method=gcpca: orthonormal loadings.")
	protected boolean orthogonal;

	@Parameter(label = "Shuffles (gcPCA)", min = "0",
		description = "For method=gcpca: seeded shuffles of the significance test (0: none).")
	protected int shuffles = 0;

	@Parameter(label = "Sparsity (cPCA, gcPCA)",
		description = "none (dense), a value ≥ 0 (the soft threshold per solver step on a " +
			"unit-length loading: larger gives more zero loadings) or auto.")
	protected String sparsity = "none";

	@Parameter(label = "Components (k)", min = "1",
		description = "Number of components.")
	protected int components = 2;

	@Parameter(label = "Standardize",
		description = "Divide each feature by its own dataset's standard deviation.")
	protected boolean standardize;

	@Parameter(label = "Whiten scores",
		description = "Divide each score by the square root of its component's target " +
			"variance.")
	protected boolean whiten;

	@Parameter(label = "Bin (slices as samples)", min = "1",
		description = "Average bin × bin pixel blocks into one feature (1: none).")
	protected int bin = 1;

	// not remembered between runs (persist = false): a slow test is asked for each time
	@Parameter(label = "Significance (permutations)", min = "0", persist = false,
		description = "N seeded permutations of samples between target and background, " +
			"each refitted at the result's parameters: a p_value per component in the " +
			"components table, family-wise over the components (0: none; 999 gives p down " +
			"to 0.001).")
	protected int significance;

	@Parameter(label = "Bootstrap (resamples)", min = "0", persist = false,
		description = "B seeded resamples within each dataset, each refitted at the " +
			"result's parameters: per component the median angle to the full-data component " +
			"in the components table, and an image of each component's per-pixel spread " +
			"(kernel cPCA: the angle between scores of the target's samples, no image; " +
			"0: none; e.g. 200).")
	protected int bootstrap;

	@Parameter(label = "Re-select α in each permutation", persist = false,
		description = "With a significance test and automatic α: choose α again inside " +
			"each permutation (slower), so that the p-values account for α having been " +
			"picked on the same data.")
	protected boolean significance_reselect;

	@Parameter(label = "Seed",
		description = "Seed of the automatic α clustering and start vectors.")
	protected long seed;

	@Override
	public List<String> firstStep() {
		return List.of("method");
	}

	/**
	 * A method setting only for the methods that use it ({@link #methodKeys}); every
	 * other key always. An unknown method shows every setting (its run then names the
	 * method as unknown).
	 */
	@Override
	public boolean needs(final String key) {
		if (!METHOD_SPECIFIC.contains(key)) return true;
		final Set<String> keys = methodKeys(methodCode());
		return keys == null || keys.contains(key);
	}

	@Override
	public String choice() {
		try {
			return Method.parse(methodCode()).displayName;
		}
		catch (final IllegalArgumentException e) {
			return String.valueOf(method);
		}
	}

	/** The chosen method's code ({@link #code}). */
	protected String methodCode() {
		return code(method);
	}

	/**
	 * The method code of a choice or a macro's value: the code in brackets of a readable
	 * choice ({@code "cPCA* (star)"} → {@code star}), else the text itself (a macro's
	 * {@code method=star}), trimmed and in lower case.
	 */
	static String code(final String choice) {
		if (choice == null) return "";
		final Matcher m = BRACKETED.matcher(choice);
		return (m.matches() ? m.group(1) : choice).trim().toLowerCase(Locale.ROOT);
	}

	/** Whether the method takes more than one background (UCA, rPCA). */
	protected boolean manyBackgrounds() {
		final String m = methodCode();
		return m.equals("uca") || m.equals("rpca");
	}

	/**
	 * The method settings of this dialog. A dialog passes every field, so settings the
	 * chosen method does not use are ignored ({@link Settings.Builder#lenient()}).
	 *
	 * @throws IllegalArgumentException naming the key and what it accepts
	 */
	protected Settings settings() {
		return Settings.builder().lenient().set("method", methodCode()).set("alpha_mode",
			alpha_mode).set("alpha", alpha).set("beta_mode", beta_mode).set("beta", beta).set(
				"epsilon", epsilon).set("kernel", kernel).set("gamma", gamma).set("degree",
					degree).set("coef0", coef0).set("landmarks", landmarks).set("stacked",
						stacked).set("k_b", k_b).set("variant", variant).set("orthogonal", orthogonal).set(
							"shuffles", shuffles).set("sparsity", sparsity).set("components", components).set(
							"standardize", standardize).set("whiten", whiten).set("seed", seed)
			.set("significance", significance).set("bootstrap", bootstrap)
			.set("significance_reselect", significance_reselect).build();
	}
}
