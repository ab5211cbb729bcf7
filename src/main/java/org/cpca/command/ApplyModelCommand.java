package org.cpca.command;

import org.cpca.analysis.ModelApplication;

import ij.ImagePlus;
import ij.measure.ResultsTable;

import java.io.File;

import org.scijava.ItemIO;
import org.scijava.command.Command;
import org.scijava.command.ContextCommand;
import org.scijava.log.LogService;
import org.scijava.plugin.Parameter;
import org.scijava.plugin.Plugin;
import org.scijava.widget.FileWidget;

/**
 * Plugins &gt; Contrastive PCA &gt; Apply Model...: projects an open image with a saved
 * model (a {@code model.json} from "Contrastive PCA..." or {@code cpca fit}) and shows the
 * scores, the reconstruction and the background-removed image (the input minus its
 * projection on the model's components); see {@link ModelApplication}. A kernel cPCA
 * model gives scores only (it has no components in input space to reconstruct from).
 * Macro:
 * {@code run("Apply Model...", "model=/path/model.json input=target.tif")}.
 */
@Plugin(type = Command.class, menuPath = "Plugins>Contrastive PCA>Apply Model...",
	description = "Project an image with a saved contrastive PCA model")
public class ApplyModelCommand extends ContextCommand {

	@Parameter
	private LogService log;

	@Parameter(label = "Model file", style = FileWidget.OPEN_STYLE, persist = false,
		description = "A model.json written by Contrastive PCA... (save_model) or by " +
			"cpca fit.")
	private File model;

	@Parameter(label = "Input", persist = false,
		description = "The image to project: same width × height (slices as samples) or " +
			"same number of planes (pixels as samples) as the model's target.")
	private ImagePlus input;

	@Parameter(label = "Show reconstruction",
		description = "Show mean + scores · components for every sample.")
	private boolean show_reconstruction = true;

	@Parameter(label = "Show background-removed",
		description = "Show the input minus its projection on the model's components.")
	private boolean show_background_removed = true;

	@Parameter(label = "Show scores",
		description = "Show the scores table (slices) or score images (pixels).")
	private boolean show_scores = true;

	@Parameter(label = "Reconstruction", type = ItemIO.OUTPUT)
	private ImagePlus reconstruction;

	@Parameter(label = "Background removed", type = ItemIO.OUTPUT)
	private ImagePlus background_removed;

	@Parameter(label = "Score images", type = ItemIO.OUTPUT)
	private ImagePlus score_images;

	private ResultsTable scores;

	@Override
	public void run() {
		try {
			if (model == null || model.getPath().isEmpty()) throw new IllegalArgumentException(
				"no model file was given: choose a model.json saved by Contrastive PCA...");
			final ModelApplication a = ModelApplication.apply(model.toPath(), input);
			if (!a.hasReconstruction() && (show_reconstruction || show_background_removed) &&
				log != null) log.info("Apply Model: " + model.getName() + " is a kernel cPCA " +
					"model, which has no components in input space: scores only, no " +
					"reconstruction or background-removed image");
			if (show_reconstruction) reconstruction = a.reconstruction();
			if (show_background_removed) background_removed = a.backgroundRemoved();
			scores = a.scoresTable();
			if (show_scores) {
				score_images = a.scoreImages();
				Feedback.show(scores, "cPCA scores of " + input.getTitle());
			}
		}
		catch (final RuntimeException e) {
			Feedback.fail(this, e);
		}
		catch (final OutOfMemoryError e) { // an estimate missed it: one line, no trace
			Feedback.fail(this, new IllegalArgumentException(Feedback.outOfMemory()));
		}
	}

	/** The scores table of the last run (slices as samples), or null. */
	public ResultsTable scoresTable() {
		return scores;
	}
}
