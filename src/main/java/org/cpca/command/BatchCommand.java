package org.cpca.command;

import ij.IJ;
import ij.measure.ResultsTable;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.cpca.analysis.IjProgress;
import org.cpca.analysis.Interruptible;
import org.cpca.core.run.Settings;
import org.cpca.image.ImageInput;
import org.cpca.image.TiffCheck;
import org.cpca.io.FitPipeline;
import org.cpca.io.FitRequest;
import org.cpca.io.OutputFolder;
import org.scijava.ItemIO;
import org.scijava.command.Command;
import org.scijava.plugin.Parameter;
import org.scijava.plugin.Plugin;
import org.scijava.widget.FileWidget;
import java.io.UncheckedIOException;
import java.util.concurrent.CancellationException;

/**
 * Plugins &gt; Contrastive PCA &gt; Batch...: the command line's {@code cpca fit} on files
 * and folders, writing into an output folder; runs headless ({@code ImageJ --headless
 * --run "Batch..." "target='…',background='…',out='…'"}). With {@code per_file}, every
 * file of the target folder is fitted separately against the same background(s), into
 * {@code out/<file name without extension>/} ({@code out/<file name>/} for files that
 * share a name without extension, such as {@code s1.tif} and {@code s1.tiff}). Every method but online cPCA* (which has its own command) is
 * offered; UCA and rPCA take further backgrounds as comma-separated paths
 * ({@code more_backgrounds}).
 * <p>
 * The work is done by {@link FitPipeline}, the same path as {@code cpca fit}, so a
 * batch gives exactly the command line's files
 * ({@code summary.json}, {@code scores.csv}, {@code model.json}, {@code components.tif},
 * {@code plots/}); every output folder is written all at once.
 */
@Plugin(type = Command.class, menuPath = "Plugins>Contrastive PCA>Batch...",
	headless = true,
	description = "Contrastive PCA of files and folders into an output folder")
public class BatchCommand extends MethodCommand {


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

	@Parameter(label = "Overwrite earlier results", persist = false,
		description = "Write into a non-empty output folder: replaces the results of an " +
			"earlier run there as a set and leaves every other file alone.")
	private boolean overwrite;

	@Parameter(label = "No plots", persist = false, description = "Skip plots/ (the numbers, models and " +
		"images only; faster for large batches).")
	private boolean no_plots;

	@Parameter(label = "One run per file in the target folder",
		description = "Fit every file of the target folder separately, into " +
			"out/<file name>/. Off: a folder of stacks is pooled into one target (the Log " +
			"says so).")
	private boolean per_file;

	@Parameter(label = "Hyperstack axes", choices = { "auto", "planes", "channels", "c1",
		"c2", "c3", "c4" }, required = false,
		description = "How a hyperstack (channels × slices × frames) is read: planes (every " +
			"plane a sample), channels (channels side by side as features), c1, c2, … (one " +
			"channel). auto: planes for one channel, channels for several.")
	private String axes = "auto";

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
			final Settings settings = settings();
			final List<String> folders = per_file ? folderNames(targets) : List.of("");
			final String pooled = per_file || !target.isDirectory() ? null : poolNote(target
				.toPath());
			if (pooled != null) Feedback.log(pooled);
			if (per_file) for (int i = 0; i < targets.size(); i++)
				if (!folders.get(i).equals(baseName(targets.get(i)))) Feedback.log(targets.get(i)
					.getFileName() + " shares its name without extension with another file: its " +
					"results go to " + out.toPath().resolve(folders.get(i)));
			IJ.resetEscape();
			for (int i = 0; i < targets.size(); i++) {
				if (IJ.escapePressed()) throw new CancellationException();
				final Path t = targets.get(i);
				final Path dir = per_file ? out.toPath().resolve(folders.get(i)) : out.toPath();
				IJ.showStatus("Contrastive PCA batch: " + t.getFileName() + " (" + (i + 1) +
					"/" + targets.size() + ")");
				IJ.showProgress(i, targets.size());
				final String[] result = fit(t, dir, settings);
				runs.incrementCounter();
				runs.addValue("target", t.toString());
				runs.addValue("out", dir.toString());
				runs.addValue("status", result[0] == null ? "ok" : "failed");
				runs.addValue("message", result[0] == null ? "" : result[0]);
				if (result[0] != null) failures.add(t.getFileName() + ": " + result[0]);
				if (!result[1].isEmpty()) Feedback.log(result[1].trim());
			}
			IJ.showProgress(1.0);
			IJ.showStatus("");
			report = (pooled == null ? "" : pooled + "\n") + (runs.size() - failures.size()) +
				" of " + runs.size() + " run(s) succeeded; results in " + out;
			if (!failures.isEmpty()) throw new IllegalArgumentException(failures.size() +
				" of " + runs.size() + " run(s) failed: " + String.join("; ", failures));
		}
		catch (final RuntimeException e) {
			Feedback.fail(this, e);
		}
		catch (final OutOfMemoryError e) { // an estimate missed it: one line, no trace
			Feedback.fail(this, new IllegalArgumentException(Feedback.outOfMemory()));
		}
	}

	/** The fit of one target into one output folder, with this dialog's settings. */
	FitRequest request(final Path t, final Path dir, final Settings settings) {
		final FitRequest.Builder b = FitRequest.builder().target(t).settings(settings).bin(
			bin).axes(axes).out(dir).overwrite(overwrite).plots(!no_plots).names(OutputFolder.Names.FIJI);
		if (background != null && !background.getPath().isEmpty()) b.background(background
			.toPath());
		for (final Path more : moreBackgrounds())
			b.background(more);
		if (labels != null && !labels.getPath().isEmpty()) b.labels(labels.toPath());
		if (mask != null && !mask.getPath().isEmpty()) b.mask(mask.toPath());
		return b.build();
	}

	/** First the files, the output folder and the method; then that method's fields. */
	@Override
	public List<String> firstStep() {
		return List.of("target", "background", "out", "method");
	}

	@Override
	public boolean needs(final String key) {
		if (key.equals("more_backgrounds")) return manyBackgrounds();
		return super.needs(key);
	}

	/** The further backgrounds' paths, in the order given. */
	private List<Path> moreBackgrounds() {
		final List<Path> paths = new ArrayList<>();
		if (more_backgrounds != null) for (final String p : more_backgrounds.split(","))
			if (!p.trim().isEmpty()) paths.add(Paths.get(p.trim()));
		return paths;
	}

	/** Runs one fit: {error message or null, the report}. */
	private String[] fit(final Path t, final Path dir, final Settings settings) {
		try {
			final IjProgress progress = new IjProgress();
			final FitRequest request = request(t, dir, settings);
			// Esc stops the file's fit within about a second (not only between files)
			return new String[] { null, Interruptible.call(() -> FitPipeline.run(request,
				progress), progress) };
		}
		catch (final IllegalArgumentException | IllegalStateException e) {
			return new String[] { e.getMessage(), "" };
		}
		catch (final UncheckedIOException e) {
			return new String[] { "cannot write " + dir + ": " + e.getCause().getMessage(),
				"" };
		}
	}

	/**
	 * The line that says a target folder of stacks is pooled into one target (every
	 * slice of every stack a sample, labelled file:label), or null when the folder holds
	 * single images (one stack) or only one file: TIFF headers only are read.
	 */
	static String poolNote(final Path folder) {
		final List<Path> files;
		try {
			files = ImageInput.imageFiles(folder);
		}
		catch (final IllegalArgumentException e) {
			return null; // no image: the run says so
		}
		int stacks = 0;
		for (final Path f : files)
			try {
				if (TiffCheck.of(f).slices > 1) stacks++;
			}
			catch (final RuntimeException e) {
				// not a TIFF ImageJ reads: one image, or the run names the problem
			}
		if (stacks == 0 || files.size() < 2) return null;
		return "target folder " + folder.getFileName() + " holds " + stacks + " stacks of " +
			files.size() + " files: they are pooled into one target (labels file:label); " +
			"for one run per stack check per_file";
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

	/**
	 * The output folder's name for each file of a per-file batch: its name without
	 * extension, or, where two files share that name ({@code s1.tif}, {@code s1.tiff}), the
	 * whole file name, so that no file's results replace another's. Names are compared
	 * ignoring case (as macOS and Windows file systems do).
	 *
	 * @throws IllegalArgumentException naming both files when no distinct names exist
	 */
	static List<String> folderNames(final List<Path> files) {
		final Map<String, Integer> count = new HashMap<>();
		for (final Path f : files)
			count.merge(key(baseName(f)), 1, Integer::sum);
		final List<String> names = new ArrayList<>();
		final Map<String, Path> taken = new HashMap<>();
		for (final Path f : files) {
			final String name = count.get(key(baseName(f))) > 1 ? f.getFileName().toString()
				: baseName(f);
			final Path other = taken.putIfAbsent(key(name), f);
			if (other != null) throw new IllegalArgumentException(other.getFileName() + " and " +
				f.getFileName() + " would write their results into the same folder " + name +
				": rename one of them, or run them in separate batches");
			names.add(name);
		}
		return names;
	}

	private static String key(final String name) {
		return name.toLowerCase(Locale.ROOT);
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
