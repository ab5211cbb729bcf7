package org.cpca.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import org.cpca.core.AlphaSelection;
import org.cpca.core.Cpca;
import org.cpca.core.CpcaModel;
import org.cpca.core.CpcaOptions;
import org.cpca.core.Dataset;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code cpca fit}: fit PCA or cPCA and write the results into a folder. */
@Command(name = "fit", sortOptions = false, mixinStandardHelpOptions = true,
	description = { "Fit PCA or contrastive PCA of a target against a background and " +
		"write summary.json, scores.csv, model.json, components.tif (images) and " +
		"plots/*.png into --out.",
		"PATH is an image stack (any ImageJ-readable file), a folder of images (a " +
			"sequence, sorted by name) or a CSV table (header row; numeric columns are " +
			"the features)." })
final class FitCommand implements Callable<Integer> {

	@Spec
	CommandSpec spec;

	@Option(names = "--target", required = true, paramLabel = "PATH",
		description = "The target data: what you want to understand.")
	Path target;

	@Option(names = "--background", paramLabel = "PATH",
		description = "The background data: variation to ignore (same features as the " +
			"target). Required for cPCA.")
	List<Path> background = new ArrayList<>();

	@Option(names = "--alpha", paramLabel = "VALUE|auto|inf", defaultValue = "auto",
		description = "Contrast strength α ≥ 0 (0 is PCA), 'inf' (the background's null " +
			"space) or 'auto' (sweep, cluster and return representative values; default).")
	String alpha;

	@Option(names = { "--components", "-k" }, paramLabel = "K", defaultValue = "2",
		description = "Number of components (default: ${DEFAULT-VALUE}).")
	int components;

	@Option(names = "--method", paramLabel = "pca|cpca", defaultValue = "cpca",
		description = "pca or cpca (default: ${DEFAULT-VALUE}).")
	String method;

	@Option(names = "--retain", paramLabel = "FRACTION",
		description = "PCA only: use the smallest k whose components retain this " +
			"fraction of the target variance (0 < FRACTION ≤ 1) instead of --components.")
	Double retain;

	@Option(names = "--whiten", description = "Divide each score by the square root of " +
		"its component's target variance (for PCA: √λ).")
	boolean whiten;

	@Option(names = "--standardize", description = "Divide each feature by its own " +
		"dataset's standard deviation (for tables whose columns have different units).")
	boolean standardize;

	@Option(names = "--missing", paramLabel = "drop|mean|zero", defaultValue = "drop",
		description = "Empty cells of CSV tables: drop the row, fill with the column mean, " +
			"or fill with 0 (default: ${DEFAULT-VALUE}).")
	String missing;

	@Option(names = "--target-where", paramLabel = "COLUMN=VALUE",
		description = "Tables: use only the target rows whose COLUMN equals VALUE " +
			"(repeat to require several), e.g. --target-where Treatment=Saline.")
	List<String> targetWhere = new ArrayList<>();

	@Option(names = "--background-where", paramLabel = "COLUMN=VALUE",
		description = "Tables: the same for the background rows (the background may be " +
			"the same file as the target).")
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

	@Option(names = "--seed", paramLabel = "SEED", defaultValue = "0",
		description = "Seed of the automatic α clustering and start vectors (default: " +
			"${DEFAULT-VALUE}).")
	long seed;

	@Option(names = "--out", required = true, paramLabel = "DIR",
		description = "Folder for the results (created; written atomically).")
	Path out;

	/** Where results are reported: the command line's output writer. */
	PrintWriter out() {
		return spec != null ? spec.commandLine().getOut() : new PrintWriter(System.out, true);
	}

	@Override
	public Integer call() throws Exception {
		final long t0 = System.nanoTime();
		final String m = method.toLowerCase(Locale.ROOT);
		if (!m.equals("pca") && !m.equals("cpca")) throw new IllegalArgumentException(
			"--method " + method + " is not known: use pca or cpca");
		if (background.size() > 1) throw new IllegalArgumentException("--background was " +
			"given " + background.size() + " times but " + m + " takes one background");
		if (m.equals("cpca") && background.isEmpty()) throw new IllegalArgumentException(
			"cPCA needs --background PATH (or use --method pca)");
		final double alphaValue = parseAlpha(alpha);
		if (retain != null && !m.equals("pca")) throw new IllegalArgumentException(
			"--retain applies to --method pca only; for cPCA give --components");
		if (alphaRange.length != 2 || !(alphaRange[0] > 0) || !(alphaRange[1] >= alphaRange[0]))
			throw new IllegalArgumentException("--alpha-range needs MIN,MAX with 0 < MIN ≤ MAX" +
				" (e.g. 0.1,1000)");
		CpcaOptions options = CpcaOptions.defaults().withComponents(components)
			.withStandardize(standardize).withWhiten(whiten).withSeed(seed).withAlphaGrid(
				alphaCount, Math.log10(alphaRange[0]), Math.log10(alphaRange[1]))
			.withAlphasReturned(alphasReturned);
		if (retain != null) {
			if (!(retain > 0 && retain <= 1)) throw new IllegalArgumentException("--retain " +
				retain + " is not a fraction in (0, 1]: e.g. --retain 0.95");
			options = options.withVarianceFraction(retain);
		}
		final LoadedData.Reading how = new LoadedData.Reading();
		how.mask = mask;
		how.bin = bin;
		how.labelColumn = labelColumn;
		how.missing = parseMissing(missing);
		how.where = targetWhere;
		final ConsoleProgress progress = ConsoleProgress.forTerminal();
		try {
			progress.stage("reading " + target, 0);
			final LoadedData t = LoadedData.load("target", target, how);
			LoadedData b = null;
			if (!background.isEmpty()) {
				final LoadedData.Reading bh = new LoadedData.Reading();
				bh.mask = mask;
				bh.bin = bin;
				bh.missing = how.missing;
				bh.where = backgroundWhere;
				bh.layout = t.layout;
				bh.featureNames = t.featureNames;
				bh.compatibleWith = t.image;
				progress.stage("reading " + background.get(0), 0);
				b = LoadedData.load("background", background.get(0), bh);
				if (t.isImage() != b.isImage()) throw new IllegalArgumentException(
					"the target is " + (t.isImage() ? "an image" : "a table") +
						" but the background is " + (b.isImage() ? "an image" : "a table") +
						": give both as images or both as tables");
			}
			Dataset targetData = t.dataset;
			if (labels != null) targetData = targetData.withLabels(LoadedData.readLabels(labels,
				targetData.samples()));
			final long t1 = System.nanoTime();
			final Cpca cpca = Cpca.fit(targetData, b == null ? null : b.dataset, options,
				progress);
			final long t2 = System.nanoTime();
			final List<CpcaModel> models = new ArrayList<>();
			AlphaSelection selection = null;
			if (m.equals("pca")) models.add(cpca.pca());
			else if (Double.isNaN(alphaValue)) {
				selection = cpca.automatic(progress);
				models.addAll(selection.models());
			}
			else models.add(cpca.model(alphaValue));
			final long t3 = System.nanoTime();
			progress.done();
			final Map<String, Double> timings = new LinkedHashMap<>();
			timings.put("read", (t1 - t0) / 1e9);
			timings.put("fit", (t2 - t1) / 1e9);
			timings.put("solve", (t3 - t2) / 1e9);
			final Results results = new Results(m, alpha, t, b, targetData, cpca, models,
				selection, timings);
			results.write(out, inputs(t, b));
			out().println(results.report(out));
			out().flush();
			return 0;
		}
		finally {
			progress.done();
		}
	}

	private List<Path> inputs(final LoadedData t, final LoadedData b) {
		final List<Path> in = new ArrayList<>();
		in.add(t.path);
		if (b != null) in.add(b.path);
		if (labels != null) in.add(labels);
		if (mask != null) in.add(mask);
		return in;
	}

	/** NaN for auto. */
	static double parseAlpha(final String text) {
		final String s = text.trim().toLowerCase(Locale.ROOT);
		if (s.equals("auto")) return Double.NaN;
		if (s.equals("inf") || s.equals("infinity") || s.equals("∞"))
			return Double.POSITIVE_INFINITY;
		final double v;
		try {
			v = Double.parseDouble(s);
		}
		catch (final NumberFormatException e) {
			throw new IllegalArgumentException("--alpha " + text +
				" is not a number: use a value ≥ 0, inf or auto");
		}
		if (!(v >= 0) || Double.isInfinite(v)) throw new IllegalArgumentException(
			"--alpha must be ≥ 0 (got " + text + "): use 0 for PCA, a positive value, inf " +
				"or auto");
		return v;
	}

	static TableInput.Missing parseMissing(final String text) {
		try {
			return TableInput.Missing.valueOf(text.trim().toUpperCase(Locale.ROOT));
		}
		catch (final IllegalArgumentException e) {
			throw new IllegalArgumentException("--missing " + text +
				" is not known: use drop, mean or zero");
		}
	}
}
