package org.cpca.analysis;

import org.cpca.image.PixelSamples;

import ij.ImagePlus;
import ij.gui.Plot;
import ij.gui.Roi;
import ij.measure.ResultsTable;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.cpca.core.contrast.AlphaSelection;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.star.CpcaStar;
import org.cpca.core.Memory;
import org.cpca.core.contrast.StreamedGram;
import org.cpca.core.data.Dataset;
import org.cpca.core.data.SampleSource;
import org.cpca.core.run.StreamedRun;
import org.cpca.core.model.FittedModel;
import org.cpca.core.kernel.KernelFunction;
import org.cpca.core.result.Method;
import org.cpca.core.run.MethodRunner;
import org.cpca.core.Progress;
import org.cpca.core.result.Solution;
import org.cpca.image.DivergingLut;
import org.cpca.image.FeatureLayout;
import org.cpca.image.StackSamples;
import org.cpca.render.ExtremeSamples;
import org.cpca.render.Palette;
import org.cpca.render.ModelViews;
import org.cpca.render.ScatterPlot;
import org.cpca.render.ScreePlot;
import org.cpca.render.VariancePairsPlot;

/**
 * One PCA / contrastive PCA run on open images and the ImageJ outputs made from it:
 * shared by the SciJava commands and the ImageJ 1.x macro extension, so both give the
 * same results. No mathematics here: the inputs become {@link Dataset}s (slices as
 * samples through {@link StackSamples}, or pixels as samples through
 * {@link PixelSamples}), {@link Cpca} fits them, and the models are turned into images,
 * plots and tables.
 * <p>
 * Where the background comes from:
 * <ul>
 * <li><b>slices as samples</b>: another open stack of the same width × height and type;
 * a selection on the target restricts the features to the pixels inside it;</li>
 * <li><b>pixels as samples</b>: the pixels inside the target's selection (the target's
 * samples are then all of its pixels), or the pixels of another image with the same
 * number of planes (inside its selection, if it has one; the target's samples are then
 * the pixels inside the target's selection, if any).</li>
 * </ul>
 * Input images are only read, never modified.
 */
public final class Analysis {

	/** Attribute key of the sample orientation in model files ("slices" or "pixels"). */
	public static final String SAMPLES_KEY = "samples";
	/**
	 * Attribute key of how a slices-as-samples model read a hyperstack's axes (planes,
	 * channels, cN; {@link org.cpca.image.Axes}), so that Apply Model reads an input the
	 * same way.
	 */
	public static final String AXES_KEY = "image.axes";
	/** Attribute key of the number of planes (features) of a pixels-as-samples model. */
	public static final String PLANES_KEY = "image.planes";

	final AnalysisRequest request;
	/** The target's samples in memory; {@code null} when they were streamed. */
	final Dataset targetData;
	/** The target's sample count, class labels (or null) and sample names (or null). */
	final int targetSamples;
	final List<String> targetLabels, targetNames;
	final Solution solution;
	/** Slices as samples: the pixel layout of the features. */
	final FeatureLayout layout;
	/** Pixels as samples: the target pixels that are samples (null: all). */
	final boolean[] targetPixels;
	/** Pixels as samples inside a selection: a copy of the target taken before the fit. */
	ImagePlus targetSnapshot;
	/** How the images were read (a hyperstack's axes). */
	final List<String> notes = new ArrayList<>();
	/** Slices as samples: the axes mode (planes, channels, cN). */
	String axesMode;
	/** This run's mark on its result windows ({@link ResultWindows}). */
	final String run;

	private Analysis(final AnalysisRequest request, final Dataset targetData,
		final Solution solution, final FeatureLayout layout, final boolean[] targetPixels)
	{
		this.request = request;
		this.targetData = targetData;
		this.targetSamples = targetData.samples();
		this.targetLabels = targetData.labels();
		this.targetNames = targetData.sampleNames();
		this.solution = solution;
		this.layout = layout;
		this.targetPixels = targetPixels;
		this.run = ResultWindows.newRun(request.target.getTitle());
	}

	/** Slices as samples streamed from virtual stacks: no samples in memory. */
	private Analysis(final AnalysisRequest request, final SampleSource target,
		final List<String> targetNames, final Solution solution, final FeatureLayout layout)
	{
		this.request = request;
		this.targetData = null;
		this.targetSamples = target.samples();
		this.targetLabels = target.labels();
		this.targetNames = targetNames;
		this.solution = solution;
		this.layout = layout;
		this.targetPixels = null;
		this.run = ResultWindows.newRun(request.target.getTitle());
	}

	/**
	 * Reads the images, fits and solves.
	 *
	 * @throws IllegalArgumentException naming the problem and what to do
	 * @throws java.util.concurrent.CancellationException if {@code progress} says so
	 */
	public static Analysis run(final AnalysisRequest r, final Progress progress) {
		final Method method = r.settings.method();
		if (r.target == null) throw new IllegalArgumentException(
			"there is no target image: open the target stack and choose it as target");
		final List<ImagePlus> images = new ArrayList<>();
		if (r.background != null) images.add(r.background);
		for (final ImagePlus imp : r.moreBackgrounds)
			if (imp != null && !images.contains(imp)) images.add(imp);
		if (r.background == null && !images.isEmpty()) throw new IllegalArgumentException(
			"further backgrounds were given but no first background: choose the first " +
				"background image, then the others");
		final boolean hasBackground = !images.isEmpty() || r.backgroundFromSelection ||
			r.backgroundRois != null;
		if (method != Method.PCA && !hasBackground) throw new IllegalArgumentException(
			"contrastive PCA needs a background: choose a background image (or, with " +
				"pixels as samples, draw a selection on the target), or use method=pca");
		if (images.contains(r.target))
			throw new IllegalArgumentException("the background is the target image itself (" +
				r.target.getTitle() + "): choose another image as background" + (r.samples ==
					Samples.PIXELS ? ", or use the target's selection as background" : ""));

		progress.stage("reading images", 0);
		// pixels as samples inside a selection: the score images later need every pixel,
		// so the target is snapshotted now (later edits of the image change nothing)
		final ImagePlus snapshot = r.samples == Samples.PIXELS && !r.backgroundFromSelection
			&& r.target.getRoi() != null && r.target.getRoi().isArea() ? new ImagePlus(r.target
				.getTitle(), r.target.getStack().duplicate()) : null;
		final ImageDatasets.Streamed streamed = ImageDatasets.streamed(r, images);
		if (streamed != null) return streamed(r, streamed, progress);
		final ImageDatasets data = ImageDatasets.read(r, images);
		progress.checkCancelled();
		// on a worker thread, so that Esc stops even a step without checkpoints at once
		final Solution solution = Interruptible.call(() -> data.targetMissing != null
			? MethodRunner.runMissing(r.settings, data.target, data.targetMissing,
				data.backgroundsMissing, progress)
			: MethodRunner.run(r.settings, data.target, data.backgrounds, progress), progress);
		progress.stage("done", 1);
		final Analysis a = new Analysis(r, data.target, solution, data.layout,
			data.targetPixels);
		a.targetSnapshot = data.targetPixels == null ? null : snapshot;
		a.notes.addAll(data.notes);
		a.axesMode = data.axesMode;
		return a;
	}

	/**
	 * Virtual stacks, slices as samples: read in passes by feature tiles, never copied
	 * into memory (docs/memory.md).
	 */
	private static Analysis streamed(final AnalysisRequest r,
		final ImageDatasets.Streamed s, final Progress progress)
	{
		final long n = s.target.samples() + s.backgrounds.stream().mapToLong(
			SampleSource::samples).sum();
		final long d = s.target.features();
		// what the fit from G keeps alive beside a tile (docs/memory.md)
		final long tile = StreamedGram.tileBytes(n, d, Memory.available() - StreamedGram
			.fitBytes(n, s.backgrounds.size()));
		final Solution solution;
		try {
			solution = Interruptible.call(() -> StreamedRun.run(r.settings, s.target,
				s.backgrounds, s.target.labels(), tile, progress), progress);
		}
		finally {
			s.close();
		}
		progress.stage("done", 1);
		final Analysis a = new Analysis(r, s.target, s.names, solution, s.layout);
		a.notes.addAll(s.notes);
		a.notes.add("read in passes by feature tiles (a virtual stack is never copied " +
			"into memory; docs/memory.md)");
		a.axesMode = s.axesMode;
		return a;
	}

	/** The method's name: "pca", "cpca", … (see {@link Method}). */
	public String method() {
		return solution.method().id;
	}

	/** Everything the method produced. */
	public Solution solution() {
		return solution;
	}

	public Samples samples() {
		return request.samples;
	}

	/** The models: one, or for automatic α one per chosen α (α = 0 first). */
	public List<FittedModel> models() {
		return solution.models();
	}

	/** The automatic α selection, or {@code null}. */
	public AlphaSelection selection() {
		return solution.selection();
	}

	/** The linear fit, for further α ({@link Cpca#model}); {@code null} for kernel cPCA. */
	public Cpca cpca() {
		return solution.fit();
	}

	/** The target as samples × features. */
	/** Slices as samples: how features map to pixels; {@code null} for pixels as samples. */
	public FeatureLayout layout() {
		return layout;
	}

	public Dataset targetData() {
		return targetData;
	}

	/** The number of target samples (also when they were streamed). */
	public int targetSamples() {
		return targetSamples;
	}

	/** The target's class labels, or {@code null} (also when its samples were streamed). */
	public List<String> targetLabels() {
		return targetLabels;
	}

	/** Notes of all models, without repeats. */
	public List<String> diagnostics() {
		if (notes.isEmpty()) return solution.diagnostics();
		final List<String> all = new ArrayList<>(notes);
		all.addAll(solution.diagnostics());
		return all;
	}

	/** The main model: PCA's, the fixed α's, or the first α &gt; 0 of automatic α. */
	public FittedModel primary() {
		return solution.primary();
	}

	/** The model to save: {@link #primary()} with how its features map to pixels. */
	public FittedModel modelForFile() {
		return modelForFile(primary());
	}

	/** {@code m} with the attributes that let "Apply model" map features to pixels. */
	public FittedModel modelForFile(final FittedModel m) {
		final Map<String, String> attributes = new LinkedHashMap<>();
		if (layout != null) {
			attributes.put(SAMPLES_KEY, "slices");
			attributes.putAll(layout.attributes());
			if (axesMode != null) attributes.put(AXES_KEY, axesMode);
		}
		else {
			attributes.put(SAMPLES_KEY, "pixels");
			attributes.put(PLANES_KEY, Integer.toString(request.target.getStackSize()));
		}
		return m.withAttributes(attributes);
	}

	/** "PC" for PCA, "cPC" for cPCA, … */
	public String prefix() {
		return ModelViews.prefix(primary());
	}

	/** α as text: "0", "2.5", "inf", or "" for PCA. */
	public static String alphaText(final double alpha) {
		return ModelViews.alphaText(alpha);
	}


	/** The images, plots and tables made from this analysis. */
	public AnalysisViews views() {
		return new AnalysisViews(this);
	}

	String targetTitle() {
		return request.target.getTitle();
	}
}
