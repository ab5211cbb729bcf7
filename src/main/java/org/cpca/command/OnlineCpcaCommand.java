package org.cpca.command;

import org.cpca.analysis.IjProgress;
import org.cpca.analysis.OnlineAnalysis;

import ij.ImagePlus;
import ij.measure.ResultsTable;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;

import org.cpca.core.modelfile.ModelFile;
import org.cpca.core.online.OnlineOptions;
import org.cpca.core.online.OnlineFamily;
import org.cpca.core.run.Settings;
import org.scijava.ItemIO;
import org.scijava.command.Command;
import org.scijava.command.ContextCommand;
import org.scijava.plugin.Parameter;
import org.scijava.plugin.Plugin;
import org.scijava.widget.FileWidget;
import java.util.List;

/**
 * Plugins &gt; Contrastive PCA &gt; Online cPCA star... (ASCII, as macros are read as Latin-1): online cPCA* (Golkar et al.; docs/math/online.md) on stacks too large for memory: the target and the background are each an open
 * image — a virtual stack is read slice by slice — or a folder read one file per sample.
 * Shows the learned eigen-images, the scores, and the convergence curve (alignment with
 * offline cPCA* when the data are small enough, otherwise the subspace change between
 * checkpoints), with a progress bar; Esc cancels and leaves no output.
 * <p>
 * Thin: the parameters become {@link Settings} (as every front end's do), and {@link
 * OnlineAnalysis} does the work.
 * Macro: {@code run("Online cPCA star...", "target_source=folder target_folder=/data/t
 * background_source=image background=bg.tif components=2 beta=0.5 eta=0.003 tau=1
 * epochs=5 seed=0 order=shuffled centring=running reference=auto bin=1 show_images
 * show_plots show_tables")}.
 */
@Plugin(type = Command.class, menuPath = "Plugins>Contrastive PCA>Online cPCA star...",
	description = "Online cPCA*: contrastive components of stacks streamed from disk")
public class OnlineCpcaCommand extends ContextCommand implements TwoStepDialog {

	@Parameter(label = "Target from", choices = { "image", "folder" },
		description = "image: an open image (a virtual stack is read slice by slice). " +
			"folder: a folder of images, read one file per sample.")
	private String target_source = "image";

	@Parameter(label = "Target", required = false, persist = false,
		description = "For target from image: the stack to understand (slices as samples).")
	private ImagePlus target;

	@Parameter(label = "Target folder", required = false, persist = false,
		style = FileWidget.DIRECTORY_STYLE,
		description = "For target from folder: one image per sample, sorted by name.")
	private File target_folder;

	@Parameter(label = "Background from", choices = { "image", "folder" },
		description = "image: an open image (virtual stacks are read slice by slice). " +
			"folder: a folder of images, one file per sample.")
	private String background_source = "image";

	@Parameter(label = "Background", required = false, persist = false,
		description = "For background from image: the variation to ignore, same width × " +
			"height and type as the target.")
	private ImagePlus background;

	@Parameter(label = "Background folder", required = false, persist = false,
		style = FileWidget.DIRECTORY_STYLE,
		description = "For background from folder: one image per sample.")
	private File background_folder;

	@Parameter(label = "Components (k)", min = "1", description = "Number of components.")
	private int components = 2;

	@Parameter(label = "β",
		description = "Contrast β ∈ [0, 1] of cPCA* (0 is PCA of the target), or auto: " +
			"β = 1/(1 + s), s the background's mean feature variance, from one extra pass.")
	private String beta = "auto";

	@Parameter(label = "η (step size)", min = "0",
		description = "Dimensionless learning rate η, 0 < η < τ (W steps by η/mean‖x‖², so " +
			"the same η suits raw pixels and standardised tables; annealed to η/100 over the " +
			"epochs); lower it if the convergence curve is noisy.")
	private double eta = OnlineOptions.DEFAULT_ETA;

	@Parameter(label = "τ", min = "0",
		description = "Ratio τ of the W and M learning time scales (paper: 1).")
	private double tau = OnlineOptions.DEFAULT_TAU;

	@Parameter(label = "Epochs", min = "1", description = "Passes over the data.")
	private int epochs = OnlineOptions.DEFAULT_EPOCHS;

	@Parameter(label = "Seed",
		description = "Seed of the initial weights and of the shuffled order.")
	private long seed;

	@Parameter(label = "Order", choices = { "shuffled", "sequential" },
		description = "Order of each dataset's samples in an epoch: a new seeded shuffle " +
			"per epoch, or stack order. Target and background are interleaved in " +
			"proportion to their counts.")
	private String order = "shuffled";

	@Parameter(label = "Centring", choices = { "running", "pass" },
		description = "running: each sample is centred on its dataset's running mean " +
			"(exact after the first epoch). pass: an extra first pass computes the means.")
	private String centring = "running";

	@Parameter(label = "Standardize (needs centring pass)",
		description = "Also divide each feature by its own dataset's standard deviation, " +
			"from the first pass of centring=pass (for features in different units).")
	private boolean standardize;

	@Parameter(label = "Compare with offline cPCA*", choices = { "auto", "offline",
		"none" }, description = "auto: compute offline cPCA* for the alignment curve when " +
			"the data are small (at most 2·10^7 values); offline: always (reads the data " +
			"into memory); none: the curve shows the subspace change between checkpoints.")
	private String reference = "auto";

	@Parameter(label = "Bin", min = "1",
		description = "Average bin × bin pixel blocks into one feature (1: none).")
	private int bin = 1;

	// not remembered: the axes belong to an image (c3 of the last hyperstack would fail
	// on a stack with one channel); auto decides by each image's shape
	@Parameter(label = "Hyperstack axes", choices = { "auto", "planes", "channels", "c1",
		"c2", "c3", "c4" }, required = false, persist = false,
		description = "How an open hyperstack (channels × slices × frames) is read: planes " +
			"(every plane a sample), channels (channels side by side as features, slices × " +
			"frames as samples), c1, c2, … (one channel); channels and cN read the image " +
			"into memory. auto: planes for one channel, channels for several. Folders are " +
			"read as planes.")
	private String axes = "auto";

	@Parameter(label = "Show images", description = "Show the eigen-images.")
	private boolean show_images = true;

	@Parameter(label = "Show plots",
		description = "Show the scatter plot of the scores and the convergence curve.")
	private boolean show_plots = true;

	@Parameter(label = "Show tables",
		description = "Show the tables of scores, components and convergence.")
	private boolean show_tables = true;

	@Parameter(label = "Save model to", required = false, persist = false,
		style = FileWidget.SAVE_STYLE,
		description = "Optional model.json for Apply Model...")
	private File save_model;

	@Parameter(label = "Eigen-images", type = ItemIO.OUTPUT)
	private ImagePlus eigen_images;

	@Parameter(label = "Scatter plot", type = ItemIO.OUTPUT)
	private ImagePlus scatter_plot;

	@Parameter(label = "Convergence", type = ItemIO.OUTPUT)
	private ImagePlus convergence_plot;

	private OnlineAnalysis analysis;

	/**
	 * The dialog's fields as {@link Settings}: parsed and validated by the one parser every
	 * front end uses, under the keys the macros and the command line use.
	 */
	Settings settings() {
		return Settings.builder().set("method", "online").set("components", components).set(
			"beta", beta == null ? "auto" : beta).set("eta", eta).set("tau", tau).set("epochs",
				epochs).set("seed", seed).set("order", order).set("centring", centring).set(
					"standardize", standardize).set("reference", reference).build();
	}

	@Override
	public void run() {
		final IjProgress progress = new IjProgress();
		try {
			final Settings settings = settings();
			final OnlineOptions options = settings.onlineOptions();
			if (save_model != null && !save_model.getPath().isEmpty()) ModelFile
				.checkSaveTarget(save_model.toPath(), "save_model"); // before the run
			analysis = OnlineAnalysis.run(input("target", target_source, target,
				target_folder), input("background", background_source, background,
					background_folder), options, settings.options(OnlineFamily.Options.class)
					.reference(), bin, axes, progress);
			// the run is complete: only now are outputs made
			if (save_model != null && !save_model.getPath().isEmpty()) try {
				ModelFile.write(analysis.model(), save_model.toPath());
			}
			catch (final IOException e) {
				throw new UncheckedIOException(e);
			}
			if (show_images) eigen_images = analysis.eigenImages();
			if (show_plots) {
				scatter_plot = analysis.scatterPlot();
				convergence_plot = analysis.convergencePlot();
			}
			if (show_tables) {
				Feedback.show(analysis.scoresTable(), "Online cPCA* scores");
				Feedback.show(analysis.componentsTable(), "Online cPCA* components");
				Feedback.show(analysis.convergenceTable(), "Online cPCA* convergence");
			}
			progress.done();
		}
		catch (final UncheckedIOException e) {
			analysis = null;
			Feedback.fail(this, new IllegalArgumentException("could not " + (save_model ==
				null ? "read the input" : "write the model file " + save_model) + " (" + e
					.getCause().getMessage() + ")"));
		}
		catch (final IOException e) {
			analysis = null;
			Feedback.fail(this, new IllegalArgumentException("could not read the input (" + e
				.getMessage() + "): check the files"));
		}
		catch (final RuntimeException e) {
			analysis = null;
			Feedback.fail(this, e);
		}
		catch (final OutOfMemoryError e) { // an estimate missed it: one line, no trace
			analysis = null;
			Feedback.fail(this, new IllegalArgumentException(Feedback.outOfMemory()));
		}
	}

	private static OnlineAnalysis.Input input(final String role, final String source,
		final ImagePlus image, final File folder)
	{
		if ("folder".equals(source)) {
			if (folder == null) throw new IllegalArgumentException(role + "_source=folder " +
				"needs " + role + "_folder: choose the folder of images");
			return OnlineAnalysis.Input.folder(folder);
		}
		if (!"image".equals(source)) throw new IllegalArgumentException(role + "_source=" +
			source + " is not known: use image or folder");
		if (image == null) throw new IllegalArgumentException(role + "_source=image needs " +
			"an open " + role + " image");
		return OnlineAnalysis.Input.image(image);
	}

	/** First where the target and the background come from (an open image or a folder). */
	@Override
	public List<String> firstStep() {
		return List.of("target_source", "background_source");
	}

	/**
	 * The image or the folder of each, as chosen; the hyperstack axes only when an open
	 * image is read (folders are read as planes).
	 */
	@Override
	public boolean needs(final String key) {
		switch (key) {
			case "target":
				return !"folder".equals(target_source);
			case "target_folder":
				return "folder".equals(target_source);
			case "background":
				return !"folder".equals(background_source);
			case "background_folder":
				return "folder".equals(background_source);
			case "axes":
				return !"folder".equals(target_source);
			default:
				return true;
		}
	}

	@Override
	public String choice() {
		return "target from " + target_source + ", background from " + background_source;
	}

	/** The analysis of the last run, or null (also after a failure or cancel). */
	public OnlineAnalysis analysis() {
		return analysis;
	}

	/** The scores table of the last run, or null. */
	public ResultsTable scoresTable() {
		return analysis == null ? null : analysis.scoresTable();
	}
}
