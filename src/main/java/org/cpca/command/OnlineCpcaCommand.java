package org.cpca.command;

import org.cpca.analysis.IjProgress;
import org.cpca.analysis.OnlineAnalysis;

import ij.ImagePlus;
import ij.measure.ResultsTable;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;

import org.cpca.core.modelfile.ModelFile;
import org.cpca.core.online.OnlineFamily;
import org.cpca.core.online.OnlineOptions;
import org.cpca.core.result.Method;
import org.cpca.core.run.Settings;
import org.scijava.ItemIO;
import org.scijava.command.Command;
import org.scijava.command.DynamicCommand;
import org.scijava.module.MethodCallException;
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
 * Thin: the method settings are bare fields named by their keys, which take their labels,
 * help texts, defaults, ranges and choices from online cPCA*'s declarations ({@link
 * DeclaredFields#of(Method, String)}: {@code core.online.OnlineFamily}'s keys, and the
 * shared settings it reads with its own meaning); they become {@link Settings} (as every
 * front end's do), and {@link OnlineAnalysis} does the work.
 * Macro: {@code run("Online cPCA star...", "target_source=folder target_folder=/data/t
 * background_source=image background=bg.tif components=2 beta=0.5 eta=0.003 tau=1
 * epochs=5 seed=0 order=shuffled centring=running reference=auto bin=1 show_images
 * show_plots show_tables")}.
 */
@Plugin(type = Command.class, menuPath = "Plugins>Contrastive PCA>Online cPCA star...",
	description = "Online cPCA*: contrastive components of stacks streamed from disk")
public class OnlineCpcaCommand extends DynamicCommand implements TwoStepDialog {

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

	// the method settings: bare slots named by their keys, described by their
	// declarations (online cPCA*'s family, else the shared settings'; DeclaredFields)
	@Parameter
	private int components;

	@Parameter
	private String beta;

	@Parameter
	private double eta;

	@Parameter
	private double tau;

	@Parameter
	private int epochs;

	@Parameter
	private long seed;

	@Parameter
	private String order;

	@Parameter
	private String centring;

	@Parameter
	private boolean standardize;

	@Parameter
	private String reference;

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

	/** The method settings' fields, as online cPCA*'s dialog declares them. */
	static final DeclaredFields.Slots DECLARED = new DeclaredFields.Slots(
		OnlineCpcaCommand.class, key -> DeclaredFields.of(Method.ONLINE, key));

	/** A command whose method settings hold their declared defaults. */
	public OnlineCpcaCommand() {
		DECLARED.start(this);
	}

	/**
	 * Before the dialog (Fiji's pre-processing, or the ImageJ 1.x bridge): each method
	 * setting's field takes the label, help text, default, range and choices its key
	 * declares.
	 */
	@Override
	public void initialize() throws MethodCallException {
		DECLARED.declare(this);
		super.initialize();
	}

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
