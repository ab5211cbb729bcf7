package org.cpca.flags;

import org.cpca.core.run.Settings;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * The settings of the linear methods (PCA, cPCA at a fixed α, ∞ or automatic α, cPCA*,
 * cPCA++, gcPCA, PCPCA, UCA, rPCA: those whose fit needs only each dataset's moments;
 * docs/cli-reference.md), a picocli mixin of {@code cpca fit} and
 * {@code cpca-spark fit}. Each flag is a {@link Settings} key in kebab-case and is parsed
 * there, once, by {@link #settings()}: the fields only give picocli the names, help texts
 * and the defaults shown.
 */
public final class LinearMethodFlags {

	/** The command this mixin is part of: its parsed flags are read from there. */
	@Spec(Spec.Target.MIXEE)
	CommandSpec command;

	@Option(names = "--alpha", paramLabel = "VALUE|auto|inf", defaultValue = "auto",
		description = "Contrast strength α ≥ 0 (0 is PCA), 'inf' (the background's null " +
			"space) or 'auto' (sweep, cluster and return representative values; default).")
	String alpha;

	@Option(names = "--alpha-mode", paramLabel = "auto|fixed|inf",
		description = "The same choice as --alpha, as Fiji's dialog offers it: auto, fixed " +
			"(then --alpha VALUE) or inf.")
	String alphaMode;

	@Option(names = "--beta", paramLabel = "VALUE|auto", defaultValue = "auto",
		description = "--method star: β in [0, 1] (0 is PCA, 1 is cPCA++) or 'auto' " +
			"(sweep β, cluster and return representative values; default). --method " +
			"online: a fixed β in [0, 1] (auto: 1/(1 + s), s the background's mean " +
			"feature variance).")
	String beta;

	@Option(names = "--beta-mode", paramLabel = "auto|fixed",
		description = "The same choice as --beta, as Fiji's dialog offers it: auto or fixed " +
			"(then --beta VALUE).")
	String betaMode;

	@Option(names = { "--components", "-k" }, paramLabel = "K", defaultValue = "2",
		description = "Number of components (default: ${DEFAULT-VALUE}).")
	int components;

	@Option(names = "--method", paramLabel = "NAME", defaultValue = "cpca",
		description = "pca, cpca, gcpca (generalized cPCA: α-free, both ends, see " +
			"--variant, --shuffles), pcpca (probabilistic cPCA at --alpha), star (cPCA*: C_t v = λ((1−β)I + βC_b)v), cpcapp " +
			"(cPCA++: C_t v = λC_b v), online (online cPCA*, inputs streamed from disk; " +
			"see --eta, --tau, --epochs), kernel (kernel cPCA; see --kernel), uca (unique " +
			"component analysis: tuning-free, any number of backgrounds) or rpca (residual " +
			"PCA) (default: ${DEFAULT-VALUE}).")
	String method;

	@Option(names = "--variant", paramLabel = "v1|v2|v3|v4",
		description = "--method gcpca: v4 (default; index in [−1, 1]: +1 only in the " +
			"target, −1 only in the background), v3 (ratio − 1), v2 (variance ratio, as " +
			"cPCA++) or v1 (cPCA at --alpha).")
	String variant;

	@Option(names = "--orthogonal", description = "--method gcpca: orthonormal loadings " +
		"(components found one at a time in the complement of those kept).")
	boolean orthogonal;

	@Option(names = "--shuffles", paramLabel = "N",
		description = "--method gcpca: N seeded shuffles (--seed) of each feature's samples " +
			"give a null distribution; significant components are marked in the summary " +
			"(default: 0, no test; cpca-spark fit, which keeps no samples, notes that it did " +
			"not run).")
	Integer shuffles;

	@Option(names = "--stacked", description = "uca, rpca with several backgrounds: pool " +
		"them into one dataset (one covariance, centred on the pooled mean) instead of " +
		"treating each on its own; for comparison.")
	boolean stacked;

	@Option(names = { "--k-b", "--background-components" },
		paramLabel = "N|auto|elbow|N,auto,…",
		defaultValue = "auto", description = "rpca: k_b, the number of principal " +
			"components removed from each background: a number for all, 'auto' for the " +
			"log-elbow rule (default: the elbow of log λ, scale-free), 'elbow' for the " +
			"original elbow rule on λ, or one value per background, e.g. 3,auto.")
	String backgroundComponents;

	@Option(names = "--retain", paramLabel = "FRACTION",
		description = "PCA only: use the smallest k whose components retain this " +
			"fraction of the target variance (0 < FRACTION ≤ 1) instead of --components.")
	Double retain;

	@Option(names = "--whiten", description = "Divide each score by the square root of " +
		"its component's target variance (for PCA: √λ).")
	boolean whiten;

	@Option(names = "--alpha-count", paramLabel = "N", defaultValue = "40",
		description = "Automatic α: number of log-spaced α values swept besides 0 " +
			"(default: ${DEFAULT-VALUE}).")
	int alphaCount;

	@Option(names = "--alpha-range", paramLabel = "MIN,MAX", defaultValue = "0.1,1000",
		split = ",", description = "Automatic α: the sweep's range (default: " +
			"${DEFAULT-VALUE}).")
	double[] alphaRange;

	@Option(names = "--alphas-returned", paramLabel = "N", defaultValue = "4",
		description = "Automatic α: number of α values returned, α = 0 included (default: " +
			"${DEFAULT-VALUE}).")
	int alphasReturned;

	@Option(names = "--beta-count", paramLabel = "N", defaultValue = "40",
		description = "Automatic β: number of β values swept strictly between 0 and 1 " +
			"(besides 0 and 1; default: ${DEFAULT-VALUE}).")
	int betaCount;

	@Option(names = "--betas-returned", paramLabel = "N", defaultValue = "4",
		description = "Automatic β: number of β values returned, β = 0 included (default: " +
			"${DEFAULT-VALUE}).")
	int betasReturned;

	@Option(names = "--epsilon", paramLabel = "ε|auto",
		description = "--method cpcapp, and star at β = 1: the background covariance is " +
			"regularised as C_b + δI, δ = ε·trace(C_b)/d; the model records δ. Default: " +
			"cpcapp chooses ε by the Ledoit–Wolf shrinkage of C_b; star at β = 1 uses 1e-6 when " +
			"C_b is singular. A value here is used as given (on a singular C_b only); auto " +
			"(or 0) is the default.")
	String epsilon;

	@Option(names = "--seed", paramLabel = "SEED", defaultValue = "0",
		description = "Seed of the automatic α clustering and start vectors; for online " +
			"cPCA* of the initial weights and the shuffled order (default: ${DEFAULT-VALUE}).")
	long seed;

	/**
	 * The settings the user gave on the command line: every flag of the command (this
	 * mixin's, and any other that is a {@link Settings} key, e.g. {@code --standardize} or
	 * {@code --kernel}) parsed by {@link Settings} under its key (the flag without "--");
	 * flags not given keep the settings' defaults.
	 */
	public Settings settings() {
		final Settings.Builder b = Settings.builder(Settings.Style.FLAG);
		final ParseResult parsed = command == null ? null : command.commandLine()
			.getParseResult();
		if (parsed != null) for (final OptionSpec o : parsed.matchedOptions())
			if (Settings.isKey(o.longestName())) b.set(o.longestName().substring(2), o.arity()
				.max == 0 ? "true" : String.join(",", o.stringValues()));
		return b.build();
	}
}
