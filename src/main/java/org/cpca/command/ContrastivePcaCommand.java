package org.cpca.command;

import org.cpca.analysis.Analysis;
import org.cpca.analysis.AnalysisRequest;
import org.cpca.analysis.Samples;
import org.cpca.analysis.Backgrounds;
import org.cpca.analysis.IjProgress;

import ij.ImagePlus;
import ij.measure.ResultsTable;

import java.awt.GraphicsEnvironment;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

import org.cpca.core.modelfile.ModelFile;
import org.scijava.ItemIO;
import org.scijava.command.Command;
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
 * A thin command: the parameters become an {@link AnalysisRequest}; {@link Analysis}
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
public class ContrastivePcaCommand extends MethodCommand {

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
	private String more_backgrounds;

	@Parameter(label = "Samples are", choices = { "slices", "pixels" },
		description = "slices: each slice is a sample and its pixels are the features. " +
			"pixels: each pixel is a sample and its values in the channels/slices are " +
			"the features.")
	private String samples = "slices";

	// not remembered: the axes belong to an image (c3 of the last hyperstack would fail
	// on a stack with one channel); auto decides by each image's shape
	@Parameter(label = "Hyperstack axes", choices = { "auto", "planes", "channels", "c1",
		"c2", "c3", "c4" }, required = false, persist = false,
		description = "With slices as samples, how a hyperstack (channels × slices × " +
			"frames) is read: planes (every plane a sample), channels (channels side by " +
			"side as features, slices × frames as samples), c1, c2, … (one channel). auto: " +
			"planes for one channel, channels for several. The diagnostics say how each " +
			"axis was used.")
	private String axes = "auto";

	@Parameter(label = "NaN pixels", choices = { "drop", "mean", "zero", "model" },
		required = false, description = "Missing (NaN) pixels of 32-bit stacks, slices as " +
			"samples: drop refuses them, mean or zero fills them, model lets PCPCA fit them " +
			"by EM over the observed pixels (method pcpca).")
	private String missing = "drop";

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
			"default model, the best separation of the slice-label classes, else the first " +
			"value > 0).")
	private File save_model;

	@Parameter(label = "Eigen-images", type = ItemIO.OUTPUT)
	private ImagePlus eigen_images;

	@Parameter(label = "Eigen-images with colour bar", type = ItemIO.OUTPUT)
	private ImagePlus eigen_image_figure;

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
			final AnalysisRequest request = new AnalysisRequest().target(target).samples(
				Samples.parse(samples)).settings(settings()).bin(bin).axes(axes).missing(missing);
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
			else request.background(methodCode().equals("pca") && background == null
				? null : background).moreBackgrounds(Backgrounds.byTitles(more_backgrounds));
			if (save_model != null && !save_model.getPath().isEmpty()) ModelFile
				.checkSaveTarget(save_model.toPath(), "save_model"); // before the run
			analysis = Analysis.run(request, progress);
			if (save_model != null && !save_model.getPath().isEmpty()) {
				try {
					ModelFile.write(analysis.modelForFile(), save_model.toPath());
				}
				catch (final IOException e) {
					throw new UncheckedIOException(e);
				}
			}
			final boolean pixels = analysis.samples() == Samples.PIXELS;
			final boolean linear = analysis.solution().linear();
			if (show_images) {
				if (pixels) score_images = analysis.views().scoreImages();
				else if (linear) {
					eigen_images = analysis.views().eigenImages();
					eigen_image_figure = analysis.views().eigenImageFigure(eigen_images);
				}
				else extreme_samples = analysis.views().extremeSamples(); // kernel: no eigen-images
			}
			if (show_plots) {
				scatter_plot = analysis.views().scatterPlot();
				// several α (β, …): one real plot window per setting; the output is the main
				// model's, the others are shown here
				if (!GraphicsEnvironment.isHeadless()) for (final ImagePlus p : analysis
					.views().scatterPlots())
					if (p != scatter_plot && !p.getTitle().equals(scatter_plot.getTitle())) p
						.show();
				scree_plot = analysis.views().screePlot();
				if (analysis.selection() != null && analysis.cpca() != null)
					variance_pairs_plot = analysis.views().variancePairsPlot();
				if (pixels && linear) loadings_plot = analysis.views().loadingsPlot();
				final List<ImagePlus> curves = analysis.views().curvePlots();
				if (!curves.isEmpty()) {
					// real plot windows: the first is the output, the others are shown here
					curve_plot = curves.get(0);
					if (!GraphicsEnvironment.isHeadless()) for (final ImagePlus p : curves
						.subList(1, curves.size()))
						p.show();
				}
			}
			// pixels as samples: a row per pixel only for small images (the score images
			// hold the same numbers)
			if (!pixels || analysis.targetSamples() <= MAX_SCORE_ROWS) scores = analysis
				.views().scoresTable();
			componentsTable = analysis.views().componentsTable();
			if (show_tables) {
				Feedback.show(scores, analysis.views().scoresTitle());
				Feedback.show(componentsTable, analysis.views().componentsTitle());
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
		catch (final OutOfMemoryError e) { // an estimate missed it: one line, no trace
			Feedback.fail(this, new IllegalArgumentException(Feedback.outOfMemory()));
		}
	}

	/**
	 * First the images, where the background comes from, what the samples are and the
	 * method; then the fields of that choice.
	 */
	@Override
	public List<String> firstStep() {
		return List.of("target", "background_source", "background", "samples",
			"method");
	}

	/**
	 * The background mask only for background from mask, further backgrounds only for
	 * UCA and rPCA with backgrounds from images, the hyperstack axes and the NaN-pixel rule
	 * only with slices as samples; the method settings of the chosen method ({@link MethodCommand#needs}).
	 */
	@Override
	public boolean needs(final String key) {
		switch (key) {
			case "background_mask":
				return "mask".equals(background_source);
			case "more_backgrounds":
				return "image".equals(background_source) && manyBackgrounds();
			case "axes":
			case "missing":
				return !"pixels".equals(samples);
			default:
				return super.needs(key);
		}
	}

	/** The scores table of the last run (also shown as "cPCA scores of" the target), or null. */
	public ResultsTable scoresTable() {
		return scores;
	}

	/** The per-component table of the last run (shown as "cPCA components of" the target), or null. */
	public ResultsTable componentsTable() {
		return componentsTable;
	}

	/** The analysis of the last run, or null. */
	public Analysis analysis() {
		return analysis;
	}
}
