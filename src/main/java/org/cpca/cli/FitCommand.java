package org.cpca.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import org.cpca.flags.InputFlags;
import org.cpca.flags.LinearMethodFlags;
import org.cpca.io.FitPipeline;
import org.cpca.io.FitRequest;
import org.cpca.io.TableInput;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help.Layout;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.UsageMessageSpec;
import picocli.CommandLine.Mixin;
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

	/** What the fit reads (shared with cpca-spark fit). */
	@Mixin
	InputFlags input = new InputFlags();

	/** The linear methods' settings (shared with cpca-spark fit). */
	@Mixin
	LinearMethodFlags linear = new LinearMethodFlags();

	@Option(names = "--kernel", paramLabel = "linear|poly|rbf",
		description = "Kernel cPCA (--method kernel): the kernel (default: rbf).")
	String kernel;

	@Option(names = "--gamma", paramLabel = "VALUE|auto",
		description = "Kernel cPCA: γ > 0 of the rbf or poly kernel, or auto (default): " +
			"with --alpha auto the automatic (γ, α) selection (γ from 10^-3 to 10^2 times " +
			"the heuristic, and the linear limit γ → 0); with a fixed α the heuristic itself: rbf 1/median squared " +
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

	@Option(names = "--sparsity", paramLabel = "VALUE|auto",
		description = "--method cpca, gcpca: sparse loadings. VALUE ≥ 0 is the soft " +
			"threshold the solver applies to a unit-length loading at each step (not the L1 " +
			"weight λ₁, which is VALUE times the step's Lipschitz constant): 0 is dense, " +
			"larger values zero more entries (docs/math/sparse.md); or auto (a log path; the sparsest loadings whose LDA accuracy of the " +
			"labels stays within 5 points of the dense one if labels are given, else whose " +
			"scores keep the dense subspace); the summary reports " +
			"the fraction of zero loadings.")
	String sparsity;

	@Option(names = "--axes", paramLabel = "auto|planes|channels|cN",
		description = "How a hyperstack (channels × slices × frames) is read: planes (every " +
			"plane a sample), channels (channels side by side as features, slices × frames " +
			"as samples), c1, c2, … (one channel). Default auto: planes for one channel, " +
			"channels for several; the summary says how each axis was used.")
	String axes;

	@Option(names = "--eta", paramLabel = "η", defaultValue = "3",
		description = "Online cPCA*: dimensionless step size η, 0 < η < τ (default: " +
			"${DEFAULT-VALUE}): W steps by η/mean‖x‖², so the same η suits raw pixels and " +
			"standardised tables; annealed to η/100 over the epochs; lower it if the " +
			"curve is noisy.")
	double eta;

	@Option(names = "--tau", paramLabel = "τ", defaultValue = "10",
		description = "Online cPCA*: ratio τ of the W and M time scales (default: " +
			"${DEFAULT-VALUE}).")
	double tau;

	@Option(names = "--epochs", paramLabel = "N", defaultValue = "300",
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

	@Option(names = "--stream", description = "Read the inputs in passes by feature " +
		"tiles instead of into memory (exact; docs/memory.md). Without it this plan is " +
		"chosen when the samples do not fit in the heap.")
	boolean stream;

	@Option(names = "--out", required = true, paramLabel = "DIR",
		description = "Folder for the results: a new or empty folder (created; the " +
			"results appear all at once or not at all). Not an input, nor inside or " +
			"around one.")
	Path out;

	@Option(names = "--significance", paramLabel = "N", defaultValue = "0",
		description = "N seeded (--seed) permutations of samples between target and " +
			"background, each refitted at the result's own parameters: a p-value per " +
			"component, family-wise over the components (summary.json \"significance\" of " +
			"each result; docs/math/significance.md). Default 0: none.")
	int significance;

	@Option(names = "--significance-reselect", description = "With --significance and " +
		"automatic α (cPCA): choose α again inside each permutation and measure each " +
		"result at the α of its rank chosen there, so that the test accounts for α having " +
		"been picked on the same data (each permutation repeats the α sweep: slower; " +
		"docs/math/significance.md).")
	boolean significanceReselect;

	@Option(names = "--bootstrap", paramLabel = "B", defaultValue = "0",
		description = "B seeded (--seed) bootstrap resamples within each dataset, each " +
			"refitted at the result's own parameters: per component the median and 95th " +
			"percentile of the angle to the full-data component (summary.json \"bootstrap\" " +
			"of each result) and, for images, bootstrap_spread.tif, the per-pixel standard " +
			"deviation of each component; kernel cPCA: the angle between the centred scores " +
			"of the target's samples, no spread (docs/math/significance.md). Default 0: none.")
	int bootstrap;

	@Option(names = "--overwrite", description = "Write into a non-empty --out: " +
		"replaces the results of an earlier cpca run there as a set (its stale files " +
		"too) and leaves every other file alone.")
	boolean overwrite;

	@Option(names = "--no-plots", description = "Do not draw plots/ (faster; the " +
		"numbers, models and images are written as usual).")
	boolean noPlots;

	@Option(names = "--figures", paramLabel = "png|all", defaultValue = "png",
		description = "png (default): each figure in plots/ as a PNG; all: also as a 3× " +
			"high-resolution PNG (*_hires.png), as SVG (*.svg) and as PDF (*.pdf), for " +
			"papers (about a second more).")
	String figures;

	@Option(names = "--quiet", description = "No progress on standard error (by default a " +
		"line with the time left on a terminal, else a plain line per stage and every " +
		"10 s once a run takes more than 3 s).")
	boolean quiet;

	/** Help sections of the options, in order; an option not listed is a method option. */
	static final String[][] GROUPS = { //
		{ "Input:%n", "--target", "--background", "--labels", "--label-column", "--mask",
			"--bin", "--axes", "--missing", "--target-where", "--background-where", "--standardize", "--stream" },
		{ "Method:%n" }, // every option not named elsewhere
		{ "Kernel cPCA (--method kernel):%n", "--kernel", "--gamma", "--degree", "--coef0",
			"--landmarks" },
		{ "Online cPCA* (--method online):%n", "--eta", "--tau", "--epochs", "--order",
			"--centring", "--reference", "--checkpoints" },
		{ "Output:%n", "--out", "--overwrite", "--no-plots", "--figures", "--quiet" }, //
		{ "Help:%n", "--help", "--version" } };

	/**
	 * Replaces the one long option list of {@code cpca fit --help} by sections (input,
	 * method, kernel, online, output, help), each in declaration order.
	 */
	static void groupHelp(final CommandLine fit) {
		if (fit == null) return;
		fit.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_OPTION_LIST_HEADING,
			help -> "");
		fit.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_OPTION_LIST, help -> {
				final Map<String, Integer> groupOf = new LinkedHashMap<>();
				for (int g = 0; g < GROUPS.length; g++)
					for (int i = 1; i < GROUPS[g].length; i++)
						groupOf.put(GROUPS[g][i], g);
				final StringBuilder sb = new StringBuilder();
				for (int g = 0; g < GROUPS.length; g++) {
					final Layout layout = help.createDefaultLayout();
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
		final ConsoleProgress progress = ConsoleProgress.of(quiet);
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
		return FitRequest.builder().target(input.target).backgrounds(input.background).labels(
			input.labels).mask(input.mask).axes(axes).bin(input.bin).labelColumn(
				input.labelColumn).missing(input.missing()).targetWhere(input.targetWhere)
			.backgroundWhere(input.backgroundWhere()).settings(linear.settings()).out(out)
			.overwrite(overwrite).plots(!noPlots).allFigureFormats(figureFormats(figures))
			.stream(stream).build();
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
