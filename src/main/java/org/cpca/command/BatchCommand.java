package org.cpca.command;

import ij.IJ;
import ij.measure.ResultsTable;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.cpca.cli.Main;
import org.cpca.core.star.CpcaStar;
import org.cpca.core.kernel.KernelFunction;
import org.scijava.ItemIO;
import org.scijava.command.Command;
import org.scijava.command.ContextCommand;
import org.scijava.log.LogService;
import org.scijava.plugin.Parameter;
import org.scijava.plugin.Plugin;
import org.scijava.widget.FileWidget;

/**
 * Plugins &gt; Contrastive PCA &gt; Batch...: the command line's {@code cpca fit} on files
 * and folders, writing into an output folder; runs headless ({@code ImageJ --headless
 * --run "Batch..." "target='…',background='…',out='…'"}). With {@code per_file}, every
 * file of the target folder is fitted separately against the same background(s), into
 * {@code out/<file name>/}. Every method but online cPCA* (which has its own command) is
 * offered; UCA and rPCA take further backgrounds as comma-separated paths
 * ({@code more_backgrounds}).
 * <p>
 * The work is done by {@link Main#run(String...)} with the same options as
 * {@code cpca fit}, so a batch gives exactly the command line's files
 * ({@code summary.json}, {@code scores.csv}, {@code model.json}, {@code components.tif},
 * {@code plots/}); every output folder is written all at once.
 */
@Plugin(type = Command.class, menuPath = "Plugins>Contrastive PCA>Batch...",
	headless = true,
	description = "Contrastive PCA of files and folders into an output folder")
public class BatchCommand extends ContextCommand {


	@Parameter
	private LogService log;

	@Parameter(label = "Target", style = FileWidget.FILE_AND_DIRECTORY_STYLE,
		persist = false,
		description = "An image stack, a folder of images (one stack), or with per_file " +
			"a folder of stacks; CSV tables work too.")
	private File target;

	@Parameter(label = "Background", style = FileWidget.FILE_AND_DIRECTORY_STYLE,
		required = false, persist = false,
		description = "The background stack, folder or table (not needed for PCA).")
	private File background;

	@Parameter(label = "Further backgrounds", required = false, persist = false,
		description = "UCA, rPCA: further background stacks, folders or tables, as paths " +
			"separated by commas; each is one more background.")
	private String more_backgrounds = "";

	@Parameter(label = "Output folder", style = FileWidget.DIRECTORY_STYLE,
		persist = false,
		description = "Where the results go (created; per_file: one subfolder per file).")
	private File out;

	@Parameter(label = "One run per file in the target folder",
		description = "Fit every file of the target folder separately, into " +
			"out/<file name>/.")
	private boolean per_file;

	@Parameter(label = "Method", choices = { "cpca", "pca", "star", "cpcapp", "kernel",
		"uca", "rpca", "gcpca", "pcpca" },
		description = "cpca: contrastive PCA against the background. pca: PCA of the " +
			"target. star: cPCA* (β below). cpcapp: cPCA++ (target/background variance " +
			"ratio). kernel: kernel cPCA (kernel settings below). uca: UCA, tuning-free, " +
			"any number of backgrounds. rpca: residual PCA (k_b below).")
	private String method = "cpca";

	@Parameter(label = "α mode", choices = { "auto", "fixed", "inf" },
		description = "auto: automatic α selection. fixed: the α below. inf: the " +
			"background's null space.")
	private String alpha_mode = "auto";

	@Parameter(label = "α (fixed mode)", min = "0",
		description = "Contrast strength α ≥ 0 for alpha_mode=fixed.")
	private double alpha = 2;

	@Parameter(label = "β mode (cPCA*)", choices = { "auto", "fixed" },
		description = "For method=star. auto: automatic β selection. fixed: the β below.")
	private String beta_mode = "auto";

	@Parameter(label = "β (cPCA*, fixed mode)", min = "0", max = "1", stepSize = "0.05",
		description = "cPCA*'s β in [0, 1] for beta_mode=fixed: 0 is PCA, 1 is cPCA++.")
	private double beta = 0.5;

	@Parameter(label = "ε (cPCA++, cPCA* at β = 1)", min = "0", style = "format:0.##E0",
		description = "A singular background covariance (images with fewer slices than " +
			"pixels) is regularised as C_b + δI, δ = ε·trace(C_b)/d.")
	private double epsilon = CpcaStar.DEFAULT_REGULARIZATION;

	@Parameter(label = "Kernel (kernel cPCA)", choices = { "rbf", "poly", "linear" },
		description = "For method=kernel: rbf, poly or linear.")
	private String kernel = "rbf";

	@Parameter(label = "γ (kernel cPCA)",
		description = "For method=kernel: γ > 0, or auto (the median heuristic).")
	private String gamma = "auto";

	@Parameter(label = "Degree (poly kernel)", min = "1",
		description = "For kernel=poly: the degree, a whole number ≥ 1.")
	private int degree = KernelFunction.DEFAULT_DEGREE;

	@Parameter(label = "coef0 (poly kernel)", min = "0",
		description = "For kernel=poly: the offset coef0 ≥ 0.")
	private double coef0 = KernelFunction.DEFAULT_COEF0;

	@Parameter(label = "Landmarks (kernel cPCA)",
		description = "For method=kernel: auto, all (exact) or a number of Nyström " +
			"landmarks.")
	private String landmarks = "auto";

	@Parameter(label = "Pool backgrounds (stacked)",
		description = "UCA, rPCA with several backgrounds: pool them into one dataset.")
	private boolean stacked;

	@Parameter(label = "gcPCA variant", choices = { "v4", "v3", "v2", "v1" },
		description = "For method=gcpca (v1 uses the fixed α).")
	private String variant = "v4";

	@Parameter(label = "Orthogonal (gcPCA)",
		description = "For method=gcpca: orthonormal loadings.")
	private boolean orthogonal;

	@Parameter(label = "Shuffles (gcPCA)", min = "0",
		description = "For method=gcpca: seeded shuffles of the significance test (0: none).")
	private int shuffles = 0;

	@Parameter(label = "Sparsity (cPCA, gcPCA)",
		description = "none (dense), a value ≥ 0 or auto.")
	private String sparsity = "none";

	@Parameter(label = "Background components k_b (rPCA)",
		description = "rPCA: auto (elbow rule), a number, or one value per background.")
	private String k_b = "auto";

	@Parameter(label = "Components (k)", min = "1", description = "Number of components.")
	private int components = 2;

	@Parameter(label = "Standardize",
		description = "Divide each feature by its own dataset's standard deviation.")
	private boolean standardize;

	@Parameter(label = "Whiten scores",
		description = "Divide each score by the square root of its component's target " +
			"variance.")
	private boolean whiten;

	@Parameter(label = "Bin", min = "1",
		description = "Average bin × bin pixel blocks into one feature (1: none).")
	private int bin = 1;

	@Parameter(label = "Seed", description = "Seed of the automatic α clustering.")
	private long seed;

	@Parameter(label = "Labels file", required = false, persist = false,
		style = FileWidget.OPEN_STYLE,
		description = "Optional: one class label per target sample, one per line.")
	private File labels;

	@Parameter(label = "Mask", required = false, persist = false,
		style = FileWidget.OPEN_STYLE,
		description = "Optional image whose nonzero pixels are the features.")
	private File mask;

	@Parameter(label = "Runs", type = ItemIO.OUTPUT)
	private String report;

	private ResultsTable runs;

	@Override
	public void run() {
		try {
			if (target == null || target.getPath().isEmpty()) throw new IllegalArgumentException(
				"no target was given: choose an image stack, a folder or a table");
			if (out == null || out.getPath().isEmpty()) throw new IllegalArgumentException(
				"no output folder was given: choose a folder for the results");
			final List<Path> targets = new ArrayList<>();
			if (per_file) {
				if (!target.isDirectory()) throw new IllegalArgumentException(
					"per_file needs a folder of stacks as target but " + target +
						" is not a folder: give a folder, or turn per_file off");
				for (final Path p : filesIn(target.toPath()))
					if (!same(p, background) && !same(p, labels) && !same(p, mask) &&
						moreBackgrounds().stream().noneMatch(q -> same(p, q.toFile()))) targets.add(
							p);
				if (targets.isEmpty()) throw new IllegalArgumentException("folder " + target +
					" has no files: put the stacks to analyse into it");
			}
			else targets.add(target.toPath());
			runs = new ResultsTable();
			runs.showRowNumbers(false);
			final List<String> failures = new ArrayList<>();
			IJ.resetEscape();
			for (int i = 0; i < targets.size(); i++) {
				if (IJ.escapePressed()) throw new java.util.concurrent.CancellationException();
				final Path t = targets.get(i);
				final Path dir = per_file ? out.toPath().resolve(baseName(t)) : out.toPath();
				IJ.showStatus("Contrastive PCA batch: " + t.getFileName() + " (" + (i + 1) +
					"/" + targets.size() + ")");
				IJ.showProgress(i, targets.size());
				final String[] result = fit(t, dir);
				runs.incrementCounter();
				runs.addValue("target", t.toString());
				runs.addValue("out", dir.toString());
				runs.addValue("status", result[0] == null ? "ok" : "failed");
				runs.addValue("message", result[0] == null ? "" : result[0]);
				if (result[0] != null) failures.add(t.getFileName() + ": " + result[0]);
				if (log != null && !result[1].isEmpty()) log.info(result[1].trim());
			}
			IJ.showProgress(1.0);
			IJ.showStatus("");
			report = runs.size() - failures.size() + " of " + runs.size() +
				" run(s) succeeded; results in " + out;
			if (!failures.isEmpty()) throw new IllegalArgumentException(failures.size() +
				" of " + runs.size() + " run(s) failed: " + String.join("; ", failures));
		}
		catch (final RuntimeException e) {
			Feedback.fail(this, e);
		}
	}

	/** The {@code cpca fit} arguments of this batch for one target and output folder. */
	List<String> arguments(final Path t, final Path dir) {
		final String mode = alpha_mode == null ? "" : alpha_mode.trim().toLowerCase(
			Locale.ROOT);
		final String alphaText;
		if (mode.equals("auto") || mode.equals("inf")) alphaText = mode;
		else if (mode.equals("fixed")) alphaText = Double.toString(alpha);
		else throw new IllegalArgumentException("alpha_mode=" + alpha_mode +
			" is not known: use auto, fixed or inf");
		final List<String> a = new ArrayList<>(List.of("fit", "--target", t.toString(),
			"--method", method, "--alpha", alphaText, "--components", Integer.toString(
				components), "--bin", Integer.toString(bin), "--seed", Long.toString(seed),
			"--out", dir.toString()));
		if (background != null && !background.getPath().isEmpty()) a.addAll(List.of(
			"--background", background.getPath()));
		for (final Path more : moreBackgrounds())
			a.addAll(List.of("--background", more.toString()));
		final String m = method == null ? "" : method.trim().toLowerCase(Locale.ROOT);
		if (m.equals("kernel")) a.addAll(List.of("--kernel", kernel, "--gamma", gamma,
			"--degree", Integer.toString(degree), "--coef0", Double.toString(coef0),
			"--landmarks", landmarks));
		if ((m.equals("uca") || m.equals("rpca")) && stacked) a.add("--stacked");
		if (m.equals("rpca")) a.addAll(List.of("--background-components", k_b));
		if (m.equals("gcpca")) {
			a.addAll(List.of("--variant", variant, "--shuffles", Integer.toString(shuffles)));
			if (orthogonal) a.add("--orthogonal");
		}
		if ((m.equals("cpca") || m.equals("gcpca")) && sparsity != null && !sparsity.trim()
			.equalsIgnoreCase("none")) a.addAll(List.of("--sparsity", sparsity.trim()));
		if ("star".equalsIgnoreCase(method)) {
			final String b = beta_mode == null ? "" : beta_mode.trim().toLowerCase(Locale.ROOT);
			if (!b.equals("auto") && !b.equals("fixed")) throw new IllegalArgumentException(
				"beta_mode=" + beta_mode + " is not known: use auto or fixed");
			a.addAll(List.of("--beta", b.equals("auto") ? "auto" : Double.toString(beta)));
		}
		if (m.equals("star") || m.equals("cpcapp")) a.addAll(List.of("--epsilon", Double
			.toString(epsilon)));
		if (standardize) a.add("--standardize");
		if (whiten) a.add("--whiten");
		if (labels != null && !labels.getPath().isEmpty()) a.addAll(List.of("--labels",
			labels.getPath()));
		if (mask != null && !mask.getPath().isEmpty()) a.addAll(List.of("--mask", mask
			.getPath()));
		return a;
	}

	/** The further backgrounds' paths, in the order given. */
	private List<Path> moreBackgrounds() {
		final List<Path> paths = new ArrayList<>();
		if (more_backgrounds != null) for (final String p : more_backgrounds.split(","))
			if (!p.trim().isEmpty()) paths.add(Paths.get(p.trim()));
		return paths;
	}

	/** Runs {@code cpca fit}: {error message or null, what it printed}. */
	private String[] fit(final Path t, final Path dir) {
		final java.io.StringWriter out = new java.io.StringWriter(),
				err = new java.io.StringWriter();
		final int code = Main.run(new java.io.PrintWriter(out), new java.io.PrintWriter(err),
			arguments(t, dir).toArray(new String[0]));
		final String message = err.toString().trim();
		if (code == 0) return new String[] { null, out.toString() };
		final String first = message.isEmpty() ? "cpca fit failed with exit code " + code
			: message.split("\n")[0];
		return new String[] { first.startsWith("cpca: ") ? first.substring(6) : first, out
			.toString() };
	}

	/** Regular, non-hidden files of a folder, sorted by name (labels files excluded). */
	static List<Path> filesIn(final Path folder) {
		try (Stream<Path> s = Files.list(folder)) {
			return s.filter(p -> Files.isRegularFile(p) && !p.getFileName().toString()
				.startsWith(".") && !p.getFileName().toString().toLowerCase(Locale.ROOT)
					.endsWith(".txt") && !p.getFileName().toString().toLowerCase(Locale.ROOT)
						.endsWith(".json")).sorted().collect(Collectors.toList());
		}
		catch (final IOException e) {
			throw new IllegalArgumentException("cannot list folder " + folder + ": " + e
				.getMessage());
		}
	}

	private static boolean same(final Path p, final File f) {
		return f != null && !f.getPath().isEmpty() && p.toAbsolutePath().normalize().equals(f
			.toPath().toAbsolutePath().normalize());
	}

	private static String baseName(final Path file) {
		final String name = file.getFileName().toString();
		final int dot = name.lastIndexOf('.');
		return dot > 0 ? name.substring(0, dot) : name;
	}

	/** One row per run: target, out, status, message; or null before a run. */
	public ResultsTable runsTable() {
		return runs;
	}
}
