package org.cpca.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import org.cpca.io.FitPipeline;
import org.cpca.io.FitRequest;
import org.cpca.io.TableInput;
import org.cpca.core.run.Settings;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code cpca fit}: fit PCA or cPCA and write the results into a folder. */
@Command(name = "fit", sortOptions = false, mixinStandardHelpOptions = true,
	description = { "Fit PCA or contrastive PCA of a target against a background and " +
		"write summary.json, scores.csv, model.json, components.tif (images) and " +
		"plots/*.png into --out.",
		"PATH is an image stack (any ImageJ-readable file), a folder of images (a " +
			"sequence, sorted by name) or a CSV table (header row; numeric columns are " +
			"the features)." },
	footerHeading = "%nExamples:%n",
	footer = { "  Two image stacks, automatic α (results and figures in results/):",
		"    cpca fit --target target.tif --background background.tif --out results",
		"  One fixed α, three components:",
		"    cpca fit --target target.tif --background background.tif \\",
		"      --alpha 2 -k 3 --out results-alpha2",
		"  Rows of one CSV table: treated against control, coloured by class:",
		"    cpca fit --target cells.csv --target-where Treatment=drug \\",
		"      --background cells.csv --background-where Treatment=control \\",
		"      --label-column Class --out results-table",
		"  cPCA* (automatic β), and online cPCA* streamed from disk:",
		"    cpca fit --method star --target t.tif --background b.tif --out r-star",
		"    cpca fit --method online --beta 0.5 --target t.tif --background b.tif \\",
		"      --out r-online",
		"  Apply a saved model to new data:",
		"    cpca apply --model results/model.json --input new.tif --out r-new",
		"", "Every flag: docs/cli-reference.md; workflows: docs/workflows/." })
final class FitCommand implements Callable<Integer> {

	@Spec
	CommandSpec spec;

	@Option(names = "--target", required = true, paramLabel = "PATH",
		description = "The target data: what you want to understand.")
	Path target;

	@Option(names = "--background", paramLabel = "PATH",
		description = "The background data: variation to ignore (same features as the " +
			"target). Required for cPCA; repeat it for methods that take several.")
	List<Path> background = new ArrayList<>();

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
			"online: a fixed β in [0, 1] (auto: 0.5).")
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

	@Option(names = "--kernel", paramLabel = "linear|poly|rbf",
		description = "Kernel cPCA (--method kernel): the kernel (default: rbf).")
	String kernel;

	@Option(names = "--gamma", paramLabel = "VALUE|auto",
		description = "Kernel cPCA: γ > 0 of the rbf or poly kernel, or auto (default): " +
			"with --alpha auto the automatic (γ, α) selection (γ from 10^-3 to 10^2 times " +
			"the heuristic); with a fixed α the heuristic itself: rbf 1/median squared " +
			"distance, poly 1/mean squared norm, over a seeded subsample of at most 1000 " +
			"samples.")
	String gamma;

	@Option(names = "--degree", paramLabel = "D",
		description = "Kernel cPCA: degree of the poly kernel, a whole number ≥ 1 " +
			"(default: 3).")
	Double degree;

	@Option(names = "--coef0", paramLabel = "C",
		description = "Kernel cPCA: offset c₀ ≥ 0 of the poly kernel (γxᵀy + c₀)^D " +
			"(default: 1).")
	Double coef0;

	@Option(names = "--landmarks", paramLabel = "L|auto|all",
		description = "Kernel cPCA: auto (default: exact up to 2000 samples in all, else " +
			"Nyström with 500 seeded landmarks), all (always exact) or L Nyström landmarks.")
	String landmarks;

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
			"(default: 0, no test).")
	Integer shuffles;

	@Option(names = "--sparsity", paramLabel = "VALUE|auto",
		description = "--method cpca, gcpca: sparse loadings with L1 weight λ₁ ≥ 0 (0 is " +
			"dense) or auto (a log path; silhouette of the labels if given, else the " +
			"sparsest loadings whose scores keep the dense subspace); the summary reports " +
			"the fraction of zero loadings.")
	String sparsity;

	@Option(names = "--retain", paramLabel = "FRACTION",
		description = "PCA only: use the smallest k whose components retain this " +
			"fraction of the target variance (0 < FRACTION ≤ 1) instead of --components.")
	Double retain;

	@Option(names = "--whiten", description = "Divide each score by the square root of " +
		"its component's target variance (for PCA: √λ).")
	boolean whiten;

	@Option(names = "--standardize", description = "Divide each feature by its own " +
		"dataset's standard deviation (for tables whose columns have different units); " +
		"--method online needs --centring pass for it.")
	boolean standardize;

	@Option(names = "--missing", paramLabel = "drop|mean|zero|model", defaultValue = "drop",
		description = "Empty cells of CSV tables: drop the row, fill with the column mean, " +
			"fill with 0, or (--method pcpca) model them by EM over the observed values " +
			"(default: ${DEFAULT-VALUE}).")
	String missing;

	@Option(names = "--target-where", paramLabel = "COLUMN=VALUE",
		description = "Tables: use only the target rows whose COLUMN equals VALUE " +
			"(repeat to require several), e.g. --target-where Treatment=Saline.")
	List<String> targetWhere = new ArrayList<>();

	@Option(names = "--background-where", paramLabel = "[N:]COLUMN=VALUE",
		description = "Tables: the same for the background rows (the background may be " +
			"the same file as the target). Applies to every background, or with the prefix " +
			"N: to the N-th --background only (1-based), e.g. --background-where " +
			"2:Treatment=Memantine.")
	List<String> backgroundWhere = new ArrayList<>();

	@Option(names = "--labels", paramLabel = "FILE",
		description = "Class label of each target sample, one per line, in sample order " +
			"(for plots and separation measures). Images: repeated slice labels are used " +
			"when this is not given.")
	Path labels;

	@Option(names = "--label-column", paramLabel = "NAME",
		description = "CSV column holding the class label of each row.")
	String labelColumn;

	@Option(names = "--mask", paramLabel = "PATH",
		description = "Image whose nonzero pixels select the pixels used as features.")
	Path mask;

	@Option(names = "--axes", paramLabel = "auto|planes|channels|cN",
		description = "How a hyperstack (channels × slices × frames) is read: planes (every " +
			"plane a sample), channels (channels side by side as features, slices × frames " +
			"as samples), c1, c2, … (one channel). Default auto: planes for one channel, " +
			"channels for several; the summary says how each axis was used.")
	String axes;

	@Option(names = "--bin", paramLabel = "N", defaultValue = "1",
		description = "Average N × N pixel blocks into one feature (default: " +
			"${DEFAULT-VALUE}).")
	int bin;

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

	@Option(names = "--epsilon", paramLabel = "ε",
		description = "--method cpcapp, and star at β = 1: the background covariance is " +
			"regularised as C_b + δI, δ = ε·trace(C_b)/d; the model records δ. Default: " +
			"cpcapp chooses ε by the Ledoit–Wolf shrinkage of C_b; star at β = 1 uses 1e-6 when " +
			"C_b is singular. A value here is used as given (on a singular C_b only).")
	Double epsilon;

	@Option(names = "--seed", paramLabel = "SEED", defaultValue = "0",
		description = "Seed of the automatic α clustering and start vectors; for online " +
			"cPCA* of the initial weights and the shuffled order (default: ${DEFAULT-VALUE}).")
	long seed;

	@Option(names = "--eta", paramLabel = "η", defaultValue = "0.3",
		description = "Online cPCA*: dimensionless step size η, 0 < η < τ (default: " +
			"${DEFAULT-VALUE}): W steps by η/mean‖x‖², so the same η suits raw pixels and " +
			"standardised tables; annealed to η/10 over the epochs; lower it if the run " +
			"diverges.")
	double eta;

	@Option(names = "--tau", paramLabel = "τ", defaultValue = "1",
		description = "Online cPCA*: ratio τ of the W and M time scales (default: " +
			"${DEFAULT-VALUE}).")
	double tau;

	@Option(names = "--epochs", paramLabel = "N", defaultValue = "10",
		description = "Online cPCA*: passes over the data (default: ${DEFAULT-VALUE}).")
	int epochs;

	@Option(names = "--order", paramLabel = "shuffled|sequential", defaultValue = "shuffled",
		description = "Online cPCA*: order of each dataset's samples in an epoch: a new " +
			"seeded shuffle per epoch, or file order (default: ${DEFAULT-VALUE}). Target " +
			"and background are always interleaved in proportion to their counts.")
	String order;

	@Option(names = "--centring", paramLabel = "running|pass", defaultValue = "running",
		description = "Online cPCA*: centre each sample on its dataset's running mean " +
			"(exact after the first epoch), or make an extra first pass for the exact means " +
			"(default: ${DEFAULT-VALUE}).")
	String centring;

	@Option(names = "--reference", paramLabel = "auto|offline|none", defaultValue = "auto",
		description = "Online cPCA*: compare with offline cPCA* at the same β for the " +
			"convergence curve (alignment): auto does so when both datasets together have " +
			"at most 2·10^7 values, offline always (reads them into memory), none never " +
			"(the curve is then the subspace change between checkpoints) (default: " +
			"${DEFAULT-VALUE}).")
	String reference;

	@Option(names = "--checkpoints", paramLabel = "N", defaultValue = "200",
		description = "Online cPCA*: points of the convergence curve (default: " +
			"${DEFAULT-VALUE}).")
	int checkpoints;

	@Option(names = "--out", required = true, paramLabel = "DIR",
		description = "Folder for the results: a new or empty folder (created; the " +
			"results appear all at once or not at all). Not an input, nor inside or " +
			"around one.")
	Path out;

	@Option(names = "--overwrite", description = "Write into a non-empty --out: " +
		"replaces the results of an earlier cpca run there as a set (its stale files " +
		"too) and leaves every other file alone.")
	boolean overwrite;

	@Option(names = "--no-plots", description = "Do not draw plots/ (faster; the " +
		"numbers, models and images are written as usual).")
	boolean noPlots;

	@Option(names = "--figures", paramLabel = "png|all", defaultValue = "png",
		description = "png (default): each figure in plots/ as a PNG; all: also as a 3× " +
			"high-resolution PNG (*_hires.png) and as SVG (*.svg), for papers (about a " +
			"second more).")
	String figures;

	/** Help sections of the options, in order; an option not listed is a method option. */
	static final String[][] GROUPS = { //
		{ "Input:%n", "--target", "--background", "--labels", "--label-column", "--mask",
			"--bin", "--axes", "--missing", "--target-where", "--background-where", "--standardize" },
		{ "Method:%n" }, // every option not named elsewhere
		{ "Kernel cPCA (--method kernel):%n", "--kernel", "--gamma", "--degree", "--coef0",
			"--landmarks" },
		{ "Online cPCA* (--method online):%n", "--eta", "--tau", "--epochs", "--order",
			"--centring", "--reference", "--checkpoints" },
		{ "Output:%n", "--out", "--overwrite", "--no-plots", "--figures" }, //
		{ "Help:%n", "--help", "--version" } };

	/**
	 * Replaces the one long option list of {@code cpca fit --help} by sections (input,
	 * method, kernel, online, output, help), each in declaration order.
	 */
	static void groupHelp(final picocli.CommandLine fit) {
		if (fit == null) return;
		fit.getHelpSectionMap().put(picocli.CommandLine.Model.UsageMessageSpec
			.SECTION_KEY_OPTION_LIST_HEADING, help -> "");
		fit.getHelpSectionMap().put(picocli.CommandLine.Model.UsageMessageSpec
			.SECTION_KEY_OPTION_LIST, help -> {
				final Map<String, Integer> groupOf = new LinkedHashMap<>();
				for (int g = 0; g < GROUPS.length; g++)
					for (int i = 1; i < GROUPS[g].length; i++)
						groupOf.put(GROUPS[g][i], g);
				final StringBuilder sb = new StringBuilder();
				for (int g = 0; g < GROUPS.length; g++) {
					final picocli.CommandLine.Help.Layout layout = help.createDefaultLayout();
					int n = 0;
					for (final OptionSpec o : help.commandSpec().options()) {
						if (o.hidden()) continue;
						final Integer og = groupOf.get(o.longestName());
						if ((og == null ? 1 : og) != g) continue;
						layout.addOption(o, help.createDefaultParamLabelRenderer());
						n++;
					}
					if (n == 0) continue;
					sb.append(sb.length() == 0 ? "" : System.lineSeparator()).append(GROUPS[g][0]
						.replace("%n", System.lineSeparator())).append(layout.toString());
				}
				return sb.toString();
			});
	}

	/** Where results are reported: the command line's output writer. */
	PrintWriter out() {
		return spec != null ? spec.commandLine().getOut() : new PrintWriter(System.out, true);
	}

	@Override
	public Integer call() throws Exception {
		final ConsoleProgress progress = ConsoleProgress.forTerminal();
		try {
			final String report = FitPipeline.run(request(), progress);
			progress.done();
			out().println(report);
			out().flush();
			return 0;
		}
		finally {
			progress.done();
		}
	}

	/** The fit this command line asks for. */
	FitRequest request() {
		final List<List<String>> where = new ArrayList<>();
		for (int j = 0; j < background.size(); j++)
			where.add(whereFor(j, background.size()));
		return FitRequest.builder().target(target).backgrounds(background).labels(labels)
			.mask(mask).axes(axes).bin(bin).labelColumn(labelColumn).missing(parseMissing(missing))
			.targetWhere(targetWhere).backgroundWhere(where).settings(settings()).out(out)
			.overwrite(overwrite).plots(!noPlots).allFigureFormats(figureFormats(figures))
			.build();
	}

	/**
	 * The settings the user gave on the command line, each flag parsed by
	 * {@link Settings} under its key (the flag without "--", kebab-case); flags not given
	 * keep the settings' defaults.
	 */
	Settings settings() {
		final Settings.Builder b = Settings.builder(Settings.Style.FLAG);
		if (spec == null) return b.build();
		final ParseResult parsed = spec.commandLine().getParseResult();
		if (parsed != null) for (final OptionSpec o : parsed.matchedOptions())
			if (Settings.isKey(o.longestName())) b.set(o.longestName().substring(2), o.arity()
				.max == 0 ? "true" : String.join(",", o.stringValues()));
		return b.build();
	}

	/**
	 * The row filters of background j (0-based) of {@code count}: every
	 * {@code --background-where COLUMN=VALUE}, and those given as {@code N:COLUMN=VALUE}
	 * with N = j + 1.
	 */
	List<String> whereFor(final int j, final int count) {
		final List<String> out = new ArrayList<>();
		for (final String w : backgroundWhere) {
			final java.util.regex.Matcher m = java.util.regex.Pattern.compile(
				"^\\s*(\\d+)\\s*:(.*)$").matcher(w);
			if (!m.matches()) {
				out.add(w);
				continue;
			}
			final int n = Integer.parseInt(m.group(1));
			if (n < 1 || n > count) throw new IllegalArgumentException("--background-where " +
				w + " names background " + n + " but " + count + " --background " + (count ==
					1 ? "was" : "were") + " given: use N:COLUMN=VALUE with 1 ≤ N ≤ " + count);
			if (n == j + 1) out.add(m.group(2));
		}
		return out;
	}

	/** --figures: png (false) or all (true). */
	static boolean figureFormats(final String text) {
		final String s = text == null ? "png" : text.trim().toLowerCase(Locale.ROOT);
		if (s.equals("png")) return false;
		if (s.equals("all")) return true;
		throw new IllegalArgumentException("--figures " + text + " is not known: use png " +
			"(PNG only) or all (also high-resolution PNG and SVG)");
	}

	static TableInput.Missing parseMissing(final String text) {
		return TableInput.parseMissing(text);
	}
}
