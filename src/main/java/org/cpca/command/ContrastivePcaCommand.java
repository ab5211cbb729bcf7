package org.cpca.command;

import ij.ImagePlus;
import ij.measure.ResultsTable;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;

import org.cpca.core.star.CpcaStar;
import org.cpca.core.kernel.KernelFunction;
import org.cpca.core.model.ModelFile;
import org.scijava.ItemIO;
import org.scijava.command.Command;
import org.scijava.command.ContextCommand;
import org.scijava.plugin.Parameter;
import org.scijava.plugin.Plugin;
import org.scijava.widget.FileWidget;

/**
 * Plugins &gt; Contrastive PCA &gt; Contrastive PCA...: PCA or contrastive PCA of a target
 * image against a background (another image, or with pixels as samples the target's
 * selection), shown as eigen-images (or score images), scatter plots and tables. UCA and
 * rPCA take any number of backgrounds: further open images by title
 * ({@code more_backgrounds=[bg2.tif,bg3.tif]}), or with pixels as samples one background
 * region per ROI of the ROI Manager or of the target's overlay.
 * <p>
 * A thin command: the parameters become an {@link Analysis.Request}; {@link Analysis}
 * does the work. Parameter names are the macro keys and match the command line's
 * vocabulary, e.g.
 * {@code run("Contrastive PCA...", "target=digits.tif background_source=image
 * background=grass.tif samples=slices method=cpca alpha_mode=auto alpha=2 components=2")};
 * cPCA* takes {@code method=star beta_mode=auto} or {@code beta_mode=fixed beta=0.5},
 * cPCA++ {@code method=cpcapp}.
 * Kernel cPCA ({@code method=kernel kernel=rbf gamma=auto landmarks=auto}) has no
 * eigen-images: with slices as samples it shows the extreme samples of each component.
 * The inputs are never modified.
 */
@Plugin(type = Command.class, menuPath = "Plugins>Contrastive PCA>Contrastive PCA...",
	description = "Find what varies in a target image and not in a background (cPCA)")
public class ContrastivePcaCommand extends ContextCommand {

	@Parameter(label = "Target", persist = false,
		description = "The image to understand: a stack (slices as samples) or an image " +
			"whose pixels are the samples.")
	private ImagePlus target;

	@Parameter(label = "Background from", choices = { "image", "selection", "mask",
		"roi manager", "overlay" }, description = "image: another open image (and the " +
			"further backgrounds below). selection: the pixels inside the target's " +
			"selection. mask: the pixels where the background mask is nonzero. roi " +
			"manager / overlay: each ROI of the ROI Manager / of the target's overlay is " +
			"one background region (UCA, rPCA). All but image: pixels as samples only.")
	private String background_source = "image";

	@Parameter(label = "Background mask", required = false, persist = false,
		description = "For background from mask: an image of the target's width × height " +
			"whose nonzero pixels are the background region.")
	private ImagePlus background_mask;

	@Parameter(label = "Background", required = false, persist = false,
		description = "The variation to ignore: an image with the same features as the " +
			"target (same width × height for slices as samples, same number of planes " +
			"for pixels as samples). Not needed for PCA.")
	private ImagePlus background;

	@Parameter(label = "Further backgrounds", required = false,
		description = "UCA, rPCA: titles of further open background images, separated by " +
			"commas (e.g. bg2.tif,bg3.tif); each is one more background.")
	private String more_backgrounds = "";

	@Parameter(label = "Samples are", choices = { "slices", "pixels" },
		description = "slices: each slice is a sample and its pixels are the features. " +
			"pixels: each pixel is a sample and its values in the channels/slices are " +
			"the features.")
	private String samples = "slices";

	@Parameter(label = "Method", choices = { "cpca", "pca", "star", "cpcapp", "kernel",
		"uca", "rpca", "gcpca", "pcpca" }, description = "cpca: contrastive PCA against the " +
			"background. gcpca: generalized cPCA (α-free; target- and background-enriched " +
			"ends). pcpca: probabilistic cPCA at a fixed α (noise variance, denoising). pca: " +
			"ordinary PCA of the target. star: cPCA*, C_t v = λ((1−β)I + βC_b)v. cpcapp: " +
			"cPCA++, the target/background variance ratio C_t v = λC_b v. kernel: kernel " +
			"cPCA (nonlinear; see the kernel settings). uca: unique component analysis, " +
			"tuning-free, any number of backgrounds. rpca: residual PCA, the target " +
			"projected off each background's top components.")
	private String method = "cpca";

	@Parameter(label = "α mode", choices = { "auto", "fixed", "inf" },
		description = "auto: sweep α, cluster and show representative values (α = 0, PCA, " +
			"first). fixed: use α below. inf: the background's null space.")
	private String alpha_mode = "auto";

	@Parameter(label = "α (fixed mode)", min = "0",
		description = "Contrast strength α ≥ 0 for alpha_mode=fixed (0 is PCA).")
	private double alpha = 2;

	@Parameter(label = "β mode (cPCA*)", choices = { "auto", "fixed" },
		description = "For method=star. auto: sweep β, cluster and show representative " +
			"values (β = 0, PCA, first). fixed: use β below.")
	private String beta_mode = "auto";

	@Parameter(label = "β (cPCA*, fixed mode)", min = "0", max = "1", stepSize = "0.05",
		description = "cPCA*'s β in [0, 1] for beta_mode=fixed: 0 is PCA, 1 is cPCA++.")
	private double beta = 0.5;

	@Parameter(label = "ε (cPCA++, cPCA* at β = 1)", min = "0", style = "format:0.##E0",
		description = "A singular background covariance (images with fewer slices than " +
			"pixels) is regularised as C_b + δI, δ = ε·trace(C_b)/d.")
	private double epsilon = CpcaStar.DEFAULT_REGULARIZATION;

	@Parameter(label = "Kernel (kernel cPCA)", choices = { "rbf", "poly", "linear" },
		description = "For method=kernel: rbf exp(−γ‖x−y‖²), poly (γxᵀy + coef0)^degree, " +
			"or linear xᵀy (equals cPCA).")
	private String kernel = "rbf";

	@Parameter(label = "γ (kernel cPCA)",
		description = "For method=kernel: γ > 0 of the rbf or poly kernel, or auto: rbf " +
			"1/median squared distance, poly 1/mean squared norm, over a seeded subsample " +
			"of at most 1000 samples.")
	private String gamma = "auto";

	@Parameter(label = "Degree (poly kernel)", min = "1",
		description = "For kernel=poly: the degree, a whole number ≥ 1.")
	private int degree = KernelFunction.DEFAULT_DEGREE;

	@Parameter(label = "coef0 (poly kernel)", min = "0",
		description = "For kernel=poly: the offset coef0 ≥ 0.")
	private double coef0 = KernelFunction.DEFAULT_COEF0;

	@Parameter(label = "Landmarks (kernel cPCA)",
		description = "For method=kernel: auto (exact up to 2000 samples in all, else " +
			"Nyström with 500 seeded landmarks), all (always exact) or a number of Nyström " +
			"landmarks.")
	private String landmarks = "auto";

	@Parameter(label = "Pool backgrounds (stacked)",
		description = "UCA, rPCA with several backgrounds: pool them into one dataset " +
			"instead of treating each on its own (for comparison).")
	private boolean stacked;

	// the key is k_b, not background_components: ImageJ's Macro.getValue finds a key
	// anywhere, so a key ending in another key ("components") would be misread
	@Parameter(label = "Background components k_b (rPCA)",
		description = "rPCA: k_b, the principal components removed from each background: " +
			"auto (elbow rule), a number, or one value per background (e.g. 3,auto).")
	private String k_b = "auto";

	@Parameter(label = "gcPCA variant", choices = { "v4", "v3", "v2", "v1" },
		description = "For method=gcpca: v4 index in [−1, 1] (+1 only in the target, −1 " +
			"only in the background), v3 ratio − 1, v2 variance ratio, v1 cPCA at fixed α.")
	private String variant = "v4";

	@Parameter(label = "Orthogonal (gcPCA)",
		description = "For method=gcpca: orthonormal loadings.")
	private boolean orthogonal;

	@Parameter(label = "Shuffles (gcPCA)", min = "0",
		description = "For method=gcpca: seeded shuffles of the significance test (0: none).")
	private int shuffles = 0;

	@Parameter(label = "Sparsity (cPCA, gcPCA)",
		description = "none (dense), a value ≥ 0 (larger gives more zero loadings) or auto.")
	private String sparsity = "none";

	@Parameter(label = "Components (k)", min = "1",
		description = "Number of components.")
	private int components = 2;

	@Parameter(label = "Standardize",
		description = "Divide each feature by its own dataset's standard deviation.")
	private boolean standardize;

	@Parameter(label = "Whiten scores",
		description = "Divide each score by the square root of its component's target " +
			"variance.")
	private boolean whiten;

	@Parameter(label = "Bin (slices as samples)", min = "1",
		description = "Average bin × bin pixel blocks into one feature (1: none).")
	private int bin = 1;

	@Parameter(label = "Seed",
		description = "Seed of the automatic α clustering and start vectors.")
	private long seed;

	@Parameter(label = "Show images",
		description = "Show the eigen-images (slices as samples) or score images (pixels " +
			"as samples).")
	private boolean show_images = true;

	@Parameter(label = "Show plots",
		description = "Show the scatter plot(s) and the eigenvalue (scree) plot.")
	private boolean show_plots = true;

	@Parameter(label = "Show tables",
		description = "Show the tables of scores and of per-component variances.")
	private boolean show_tables = true;

	@Parameter(label = "Save model to", required = false, persist = false,
		style = FileWidget.SAVE_STYLE,
		description = "Optional model.json for Apply Model... (for automatic α or β: the " +
			"first value > 0).")
	private File save_model;

	@Parameter(label = "Eigen-images", type = ItemIO.OUTPUT)
	private ImagePlus eigen_images;

	@Parameter(label = "Score images", type = ItemIO.OUTPUT)
	private ImagePlus score_images;

	@Parameter(label = "Extreme samples", type = ItemIO.OUTPUT)
	private ImagePlus extreme_samples;

	@Parameter(label = "Scatter plot", type = ItemIO.OUTPUT)
	private ImagePlus scatter_plot;

	@Parameter(label = "Eigenvalues", type = ItemIO.OUTPUT)
	private ImagePlus scree_plot;

	@Parameter(label = "Target vs background variance", type = ItemIO.OUTPUT)
	private ImagePlus variance_pairs_plot;

	@Parameter(label = "Components across planes", type = ItemIO.OUTPUT)
	private ImagePlus loadings_plot;

	@Parameter(label = "Curves (e.g. separation against β)", type = ItemIO.OUTPUT)
	private ImagePlus curve_plot;

	/** Most pixels listed in the scores table with pixels as samples. */
	static final int MAX_SCORE_ROWS = 100_000;

	private ResultsTable scores;
	private ResultsTable componentsTable;
	private Analysis analysis;

	@Override
	public void run() {
		final IjProgress progress = new IjProgress();
		try {
			final Analysis.Request request = new Analysis.Request().target(target).samples(
				Analysis.Samples.parse(samples)).method(method).alpha(alpha_mode, alpha).beta(
					beta_mode, beta).epsilon(epsilon)
				.components(components).standardize(standardize).whiten(whiten).bin(bin)
				.seed(seed).kernel(kernel, gamma, degree, coef0, landmarks).stacked(stacked)
				.backgroundComponents(k_b).gcpca(variant, orthogonal, shuffles, sparsity);
			if ("selection".equals(background_source)) request.backgroundFromSelection();
			else if ("mask".equals(background_source)) request.backgroundFromMask(
				background_mask);
			else if ("roi manager".equals(background_source)) request.backgroundsFromRois(
				Backgrounds.roiManager());
			else if ("overlay".equals(background_source)) request.backgroundsFromRois(
				Backgrounds.overlay(target));
			else if (!"image".equals(background_source)) throw new IllegalArgumentException(
				"background_source=" + background_source + " is not known: use image, " +
					"selection, mask, roi manager or overlay");
			else request.background(method.equalsIgnoreCase("pca") && background == null
				? null : background).moreBackgrounds(Backgrounds.byTitles(more_backgrounds));
			analysis = Analysis.run(request, progress);
			if (save_model != null && !save_model.getPath().isEmpty()) {
				try {
					ModelFile.write(analysis.modelForFile(), save_model.toPath());
				}
				catch (final IOException e) {
					throw new UncheckedIOException(e);
				}
			}
			final boolean pixels = analysis.samples() == Analysis.Samples.PIXELS;
			final boolean linear = analysis.solution().linear();
			if (show_images) {
				if (pixels) score_images = analysis.scoreImages();
				else if (linear) eigen_images = analysis.eigenImages();
				else extreme_samples = analysis.extremeSamples(); // kernel: no eigen-images
			}
			if (show_plots) {
				scatter_plot = analysis.scatterPlot();
				scree_plot = analysis.screePlot();
				if (analysis.selection() != null && analysis.cpca() != null)
					variance_pairs_plot = analysis.variancePairsPlot();
				if (pixels && linear) loadings_plot = analysis.loadingsPlot();
				final java.util.List<ImagePlus> curves = analysis.curvePlots();
				if (!curves.isEmpty()) {
					curve_plot = curves.size() == 1 ? curves.get(0) : org.cpca.render.Panels
						.montage(curves, 2);
					curve_plot.setTitle(analysis.solution().method().displayName +
						" curves of " + target.getTitle());
				}
			}
			// pixels as samples: a row per pixel only for small images (the score images
			// hold the same numbers)
			if (!pixels || analysis.targetData().samples() <= MAX_SCORE_ROWS) scores = analysis
				.scoresTable();
			componentsTable = analysis.componentsTable();
			if (show_tables) {
				Feedback.show(scores, "cPCA scores");
				Feedback.show(componentsTable, "cPCA components");
			}
			progress.done();
		}
		catch (final UncheckedIOException e) {
			Feedback.fail(this, new IllegalArgumentException("could not write the model " +
				"file " + save_model + " (" + e.getCause().getMessage() +
				"): choose a writable location"));
		}
		catch (final RuntimeException e) {
			Feedback.fail(this, e);
		}
	}

	/** The scores table of the last run (also shown as "cPCA scores"), or null. */
	public ResultsTable scoresTable() {
		return scores;
	}

	/** The per-component table of the last run (shown as "cPCA components"), or null. */
	public ResultsTable componentsTable() {
		return componentsTable;
	}

	/** The analysis of the last run, or null. */
	public Analysis analysis() {
		return analysis;
	}
}
