package org.cpca.io;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonIOException;
import com.google.gson.JsonObject;

import ij.ImagePlus;

import org.cpca.core.contrast.AlphaSelection;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.Curve;
import org.cpca.core.data.Dataset;
import org.cpca.core.model.FittedModel;
import org.cpca.core.result.Convergence;
import org.cpca.core.result.Method;
import org.cpca.core.result.Solution;
import org.cpca.core.contrast.Measures;
import org.cpca.core.modelfile.ModelFile;
import org.cpca.image.ComponentImages;
import org.cpca.image.TiffFiles;
import org.cpca.render.CurvePlot;
import org.cpca.render.ExtremeSamples;
import org.cpca.render.ModelViews;
import org.cpca.render.PlotFiles;
import org.cpca.render.PlotStyle;
import org.cpca.render.ScatterPlot;
import org.cpca.render.ScreePlot;
import org.cpca.render.Spectrum;
import org.cpca.render.VariancePairsPlot;

/**
 * The results of one {@code cpca fit} and how they are written: {@code summary.json},
 * {@code scores.csv}, {@code model.json} (plus {@code models/} for automatic α),
 * {@code components.tif} for images, and {@code plots/*.png} (with {@code --figures all} each figure also as {@code *_hires.png}, {@code *.svg} and {@code *.pdf}).
 */
public final class Results {

	/** Every figure also as a high-resolution PNG and SVG ({@code --figures all}). */
	private boolean allFormats;

	/** The legend's title on the scatter plots: what the classes are. */
	private String classTitle = ScatterPlot.CLASS;

	/**
	 * Names the classes on the scatter plots' legends, e.g. the label column; null keeps
	 * "class".
	 */
	public Results classTitle(final String title) {
		if (title != null && !title.trim().isEmpty()) classTitle = title.trim();
		return this;
	}

	/**
	 * Whether every figure is written also as {@code *_hires.png}, {@code *.svg} and {@code *.pdf}
	 * (slower: about a second more for the default outputs) or as PNG only (the default).
	 */
	public Results allFigureFormats(final boolean all) {
		allFormats = all;
		return this;
	}

	public static final Gson GSON = new GsonBuilder().setPrettyPrinting().serializeNulls()
		.disableHtmlEscaping().create();

	private final Solution solution;
	private final LoadedData target;
	private final List<LoadedData> backgrounds;
	private final List<String> labels;
	private final List<FittedModel> models;
	private final Map<String, Double> timings;
	private final List<Map<String, Double>> separations = new ArrayList<>();

	public Results(final Solution solution, final LoadedData target,
		final List<LoadedData> backgrounds, final Dataset targetData,
		final Map<String, Double> timings)
	{
		this(solution, target, backgrounds, targetData.labels(), timings);
	}

	/**
	 * @param labels class labels of the target samples (from --labels, the slices or the
	 *          label column), or null
	 */
	public Results(final Solution solution, final LoadedData target,
		final List<LoadedData> backgrounds, final List<String> labels,
		final Map<String, Double> timings)
	{
		this.solution = solution;
		this.target = target;
		this.backgrounds = backgrounds;
		this.labels = labels;
		this.models = solution.models();
		this.timings = timings;
		final boolean classes = labels != null && new HashSet<>(labels)
			.size() >= 2;
		for (final FittedModel m : models)
			separations.add(classes ? Measures.separation(m.targetScores(), labels) : null);
	}

	/** The model written as model.json: the only one, or the first after α = 0 / β = 0. */
	FittedModel primary() {
		return solution.primary();
	}

	private String prefix() {
		return ModelViews.prefix(primary());
	}

	public static String alphaText(final double alpha) {
		return ModelViews.alphaText(alpha);
	}

	/** The scalar parameters of the models (e.g. beta), as extra columns of scores.csv. */
	private List<String> scalarParameters() {
		final LinkedHashSet<String> keys = new LinkedHashSet<>();
		for (final FittedModel m : models)
			m.parameters().forEach((k, v) -> {
				if (v instanceof Double) keys.add(k);
			});
		return new ArrayList<>(keys);
	}

	/** {@link #write(Path, List, boolean)} into a new or empty folder (no overwrite). */
	public void write(final Path dir, final List<Path> inputs) throws IOException {
		write(dir, inputs, false);
	}

	/**
	 * Writes the results into a folder as one set (see {@link OutputFolder}); used where
	 * no folder was opened before the run.
	 */
	public void write(final Path dir, final List<Path> inputs, final boolean overwrite)
		throws IOException
	{
		try (OutputFolder out = OutputFolder.open(dir, inputs, overwrite)) {
			write(out, true);
		}
	}

	/**
	 * Writes the results into an opened output folder and commits them as one set.
	 * <p>
	 * The files are written side by side ({@link WriteJobs}: as many threads as cores):
	 * the tables, each model file, the component images and each figure's encoding are
	 * jobs of their own, and the spectrum for the scree plot is computed beside them.
	 * ImageJ's plots are drawn one after the other on one thread ({@link #drawPlots}):
	 * their custom markers run ImageJ macros, whose interpreter keeps static state. Every
	 * file is registered with the folder before any is written, in a fixed order (its
	 * manifest lists them so), and the files are the bytes a one-thread run writes
	 * ({@value WriteJobs#THREADS} = 1; ResultsConcurrencyTest). A failure of any job
	 * leaves nothing behind: the other jobs end before the folder is given up.
	 *
	 * @param plots false to skip plots/ (batch users who only want the numbers)
	 */
	public void write(final OutputFolder out, final boolean plots) throws IOException {
		final long t0 = System.nanoTime();
		try {
			final WriteJobs jobs = new WriteJobs(out.writeGate());
			final Path scores = out.file("scores.csv");
			final Map<String, String> attributes = new LinkedHashMap<>();
			if (target.isImage()) attributes.putAll(target.layout.attributes());
			if (target.isImage() && target.facts.get("axes") != null) attributes.put(
				"image.axes", String.valueOf(target.facts.get("axes"))); // for cpca apply
			else {
				attributes.put("table.columns", GSON.toJson(target.featureNames));
				// the missing-value rule, so that cpca apply reads new tables the same way
				if (target.facts.get("missing") != null) attributes.put("table.missing", String
					.valueOf(target.facts.get("missing")));
			}
			final Path model = out.file("model.json");
			final List<Path> modelFiles = new ArrayList<>();
			if (models.size() > 1) for (int i = 0; i < models.size(); i++)
				modelFiles.add(out.file("models/" + settingKey(i) + ".json"));
			final WriteJobs.Job images = target.isImage() ? images(out, plots) : null;
			final FutureTask<double[]> spectrum = new FutureTask<>(() -> Spectrum.of(
				primary(), solution.fit()));
			final List<Path> curveFiles = new ArrayList<>(), curveFigures = new ArrayList<>();
			final WriteJobs.Job figures = plots ? plots(out, jobs, spectrum, curveFigures)
				: null;
			for (final Curve c : solution.curves()) {
				curveFiles.add(out.file(c.name + ".csv"));
				if (plots) curveFigures.add(figure(out, "plots/" + c.name + ".png"));
			}
			// the longest first: the plots' thread, then the spectrum it waits for
			if (figures != null) {
				jobs.add(figures);
				jobs.add(spectrum::run);
			}
			if (images != null) jobs.add(images);
			jobs.add(() -> writeScores(scores));
			// a job per model file; the primary model's own file is model.json's bytes,
			// copied, not encoded again
			jobs.add(() -> {
				ModelFile.write(primary().withAttributes(attributes), model);
				for (int i = 0; i < modelFiles.size(); i++)
					if (models.get(i) == primary()) Files.copy(model, modelFiles.get(i),
						StandardCopyOption.REPLACE_EXISTING);
			});
			for (int i = 0; i < modelFiles.size(); i++) {
				final FittedModel m = models.get(i);
				final Path file = modelFiles.get(i);
				if (m != primary()) jobs.add(() -> ModelFile.write(m.withAttributes(attributes),
					file));
			}
			for (int i = 0; i < curveFiles.size(); i++) {
				final Curve c = solution.curves().get(i);
				final Path csv = curveFiles.get(i);
				jobs.add(() -> Files.write(csv, c.csv().getBytes(StandardCharsets.UTF_8)));
			}
			jobs.run();
			timings.put("write", (System.nanoTime() - t0) / 1e9);
			double total = 0;
			for (final double v : timings.values())
				total += v;
			timings.put("total", total);
			try (Writer w = Files.newBufferedWriter(out.file("summary.json"),
				StandardCharsets.UTF_8))
			{
				GSON.toJson(summary(), w);
			}
			out.commit();
		}
		catch (final IOException | JsonIOException | UncheckedIOException e) {
			throw out.writeFailure(e);
		}
	}

	/** The file-name key of model {@code i} ({@link ModelViews#settingKey}). */
	private String settingKey(final int i) {
		return ModelViews.settingKey(models.get(i), i, models.size());
	}

	/**
	 * scores.csv: one row per target sample and model. {@code sample} is the input's own
	 * name of the sample (a table's ID column or "row N" with N its line in the file, a
	 * slice's label, a folder's file name; the position from 1 when there is none), so
	 * that the scores join back to the input; {@code model} is the model's index in
	 * summary.json's "results" (from 0; also in the names of models/ and plots/), and α
	 * and the other settings are exact (they parse to model.json's values).
	 */
	private void writeScores(final Path file) throws IOException {
		final int k = primary().numComponents();
		final List<String> parameters = scalarParameters();
		final List<String> names = sampleNames();
		try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
			final StringBuilder header = new StringBuilder("sample,label,model,alpha");
			for (final String p : parameters)
				header.append(',').append(p);
			for (int c = 1; c <= k; c++)
				header.append(',').append(prefix()).append(c);
			w.write(header.append('\n').toString());
			for (int r = 0; r < models.size(); r++) {
				final FittedModel m = models.get(r);
				final double[][] s = m.targetScores();
				final StringBuilder setting = new StringBuilder().append(r).append(',').append(
					exact(m.alpha()));
				for (final String p : parameters) {
					final Object v = m.parameters().get(p);
					setting.append(',').append(v instanceof Double ? exact((Double) v) : "");
				}
				for (int i = 0; i < s.length; i++) {
					final StringBuilder row = new StringBuilder();
					row.append(names == null ? String.valueOf(i + 1) : csv(names.get(i))).append(
						',').append(labels == null ? "" : csv(labels.get(i))).append(',').append(
							setting);
					for (final double v : s[i])
						row.append(',').append(v);
					w.write(row.append('\n').toString());
				}
			}
		}
	}

	/** The target samples' names ({@link #writeScores}), or null. */
	private List<String> sampleNames() {
		return sampleNames(target.dataset == null ? null : target.dataset.sampleNames(),
			primary().targetScores().length);
	}

	/**
	 * The names of {@code n} samples as scores.csv gives them, or null when they do not
	 * tell the samples apart (slices labelled by class): then their positions (from 1)
	 * name them.
	 */
	public static List<String> sampleNames(final List<String> names, final int n) {
		return names != null && names.size() == n && new HashSet<>(names)
			.size() == n ? names : null;
	}

	/**
	 * A value as Java writes it, the shortest text that parses back to the same double
	 * ("inf" for ∞, empty for none).
	 */
	public static String exact(final double v) {
		return Double.isNaN(v) ? "" : v == Double.POSITIVE_INFINITY ? "inf"
			: v == Double.NEGATIVE_INFINITY ? "-inf" : Double.toString(v);
	}

	public static String csv(final String s) {
		return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\""
			: s;
	}

	/**
	 * The image files of an image target, registered now and written by the returned job:
	 * each per-feature result ({@link #writeResultImages}), then components.tif and
	 * plots/eigen_images.png (linear methods) or extremes.tif and plots/extremes.png
	 * ({@link #extremes}).
	 */
	private WriteJobs.Job images(final OutputFolder out, final boolean plots)
		throws IOException
	{
		final Map<String, Path> results = new LinkedHashMap<>();
		for (final String name : solution.resultImages().keySet())
			results.put(name, out.file(name + ".tif"));
		final boolean linear = solution.linear();
		if (!linear && target.dataset == null) return () -> writeResultImages(results);
		final Path tif = out.file(linear ? "components.tif" : "extremes.tif");
		final Path png = plots ? figure(out, linear ? "plots/eigen_images.png"
			: "plots/extremes.png") : null;
		return () -> {
			writeResultImages(results);
			final ImagePlus stack = linear ? components() : extremes();
			TiffFiles.save(stack, tif);
			if (png != null) PlotFiles.saveMontage(stack, linear ? primary().numComponents()
				: stack.getStackSize() / primary().numComponents(), png, allFormats);
		};
	}

	/** The eigen-images of every model, as components.tif holds them. */
	private ImagePlus components() {
		final List<double[]> p = new ArrayList<>();
		for (int r = 0; r < models.size(); r++)
			p.add(pValues(r));
		return ModelViews.eigenImages(solution.method() == Method.PCA ? "eigen-images"
			: "contrastive eigen-images", solution.linearModels(), target.layout, p);
	}

	/**
	 * Each per-feature result of the solution ({@link Solution#resultImages()}, e.g. the
	 * bootstrap's spread) as {@code <name>.tif}: one slice per result and component.
	 */
	private void writeResultImages(final Map<String, Path> files) throws IOException {
		for (final Map.Entry<String, List<double[][]>> e : solution.resultImages().entrySet()) {
			final List<double[]> rows = new ArrayList<>();
			final List<String> labels = new ArrayList<>();
			for (int r = 0; r < models.size(); r++) {
				final double[][] v = e.getValue().get(r);
				for (int c = 0; c < v.length; c++) {
					rows.add(v[c]);
					labels.add(ModelViews.title(models.get(r)) + ", " + prefix() + (c + 1));
				}
			}
			final ImagePlus stack = ComponentImages.reconstructions(e.getKey().replace('_', ' '),
				rows.toArray(new double[0][]), target.layout, labels);
			TiffFiles.save(stack, files.get(e.getKey()));
		}
	}

	/**
	 * Methods without eigen-images (kernel cPCA): per component the target samples with
	 * the highest and lowest scores, as extremes.tif and plots/extremes.png.
	 */
	private ImagePlus extremes() {
		return ExtremeSamples.stack("extreme samples", primary(), target.dataset, target
			.layout, ExtremeSamples.COUNT);
	}

	/**
	 * The figures of plots/ (scatter plots, scree plot, variance pairs, the solution's
	 * curves), registered now and drawn by the returned job, which hands each figure's
	 * encoding on to {@code jobs} (with {@code --figures all} the high-resolution PNG,
	 * SVG and PDF are drawn from ImageJ's plots, so they stay on the drawing thread).
	 *
	 * @param curves the paths of the curves' figures, one per curve: registered by the
	 *          caller after these (each after its table, as the manifest lists them), before
	 *          the job runs
	 */
	private WriteJobs.Job plots(final OutputFolder out, final WriteJobs jobs,
		final FutureTask<double[]> spectrum, final List<Path> curves) throws IOException
	{
		final List<Path> scatter = new ArrayList<>();
		for (int i = 0; i < models.size(); i++)
			scatter.add(figure(out, "plots/scatter_" + settingKey(i) + ".png"));
		final Path all = figure(out, "plots/scatter.png");
		final Path eigenvalues = figure(out, "plots/eigenvalues.png");
		final Path pairs = solution.selection() != null && solution.fit() != null ? figure(
			out, "plots/variance_pairs.png") : null;
		// one results folder's plots at a time (Fiji may run two batches at once)
		return () -> {
			synchronized (PlotStyle.DRAWING) {
				final List<String> notes = new ArrayList<>();
				for (int r = 0; r < models.size(); r++)
					notes.add(separationNote(r));
				// the PNG drawn straight into the pixels (see-through markers, fast: ImageJ draws
				// the rest now, the markers are stamped by the jobs that save the panels);
				// ImageJ's plots for the high-resolution PNG and the SVG
				final List<FutureTask<ImagePlus>> pictures = new ArrayList<>();
				for (final Supplier<ImagePlus> p : ModelViews.scatterPictures(models, labels,
					classTitle, notes))
					pictures.add(new FutureTask<>(p::get));
				final List<ImagePlus> plots = allFormats ? ModelViews.scatterPanels(models, labels,
					classTitle, notes) : null;
				for (int i = 0; i < pictures.size(); i++) {
					final int panel = i;
					hand(jobs, () -> {
						PlotFiles.saveFigure(value(pictures.get(panel)), plots == null ? null : plots
							.get(panel), scatter.get(panel));
						// of a single model plots/scatter.png is the same figure, encoded once
						if (pictures.size() == 1) PlotFiles.copyFigure(scatter.get(0), all);
					});
				}
				if (pictures.size() > 1) hand(jobs, () -> {
					final List<ImagePlus> panels = new ArrayList<>();
					for (final FutureTask<ImagePlus> p : pictures)
						panels.add(value(p));
					PlotFiles.saveFigures(panels, plots, 2, all);
				});
				if (pairs != null) save(jobs, VariancePairsPlot.render(
					"target vs background variance of the top cPC", solution.fit(), solution
						.selection()), pairs);
				for (int i = 0; i < curves.size(); i++)
					save(jobs, CurvePlot.render(solution.curves().get(i)), curves.get(i));
				// last: the spectrum is computed meanwhile by another job
				save(jobs, ScreePlot.render("eigenvalues, " + ModelViews.title(primary()), primary()
					.eigenvalues(), value(spectrum)), eigenvalues);
			}
		};
	}

	/**
	 * Saves a figure drawn on the plots' thread: its PNG by another job, unless all
	 * formats are asked for ({@link #hand}).
	 */
	private void save(final WriteJobs jobs, final ImagePlus figure, final Path png)
		throws IOException
	{
		hand(jobs, () -> PlotFiles.saveFigure(figure, png, allFormats));
	}

	/**
	 * Saving a figure drawn on the plots' thread: a job of its own, unless all formats are
	 * asked for (the high-resolution PNG, SVG and PDF draw ImageJ's plot again, so they
	 * stay on this thread).
	 */
	private void hand(final WriteJobs jobs, final WriteJobs.Job saving) throws IOException {
		if (allFormats) saving.run();
		else jobs.add(saving);
	}

	/**
	 * The value of work shared by jobs (the spectrum, a scatter panel's markers):
	 * computed here unless another job has begun it, then waited for.
	 */
	private static <T> T value(final FutureTask<T> work) throws IOException {
		work.run(); // nothing when it has begun elsewhere
		try {
			return work.get();
		}
		catch (final InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new InterruptedIOException("stopped while the figures were drawn");
		}
		catch (final ExecutionException e) {
			final Throwable c = e.getCause();
			if (c instanceof RuntimeException) throw (RuntimeException) c;
			if (c instanceof Error) throw (Error) c;
			throw new IOException(c);
		}
	}

	/**
	 * A scatter panel's note: the separation of the classes (LDA accuracy) when there are
	 * classes, and "(default)" on the model saved as model.json when there are several.
	 */
	private String separationNote(final int r) {
		final StringBuilder sb = new StringBuilder();
		if (separations.get(r) != null) sb.append(String.format(Locale.ROOT, "LDA %.1f %%",
			100 * separations.get(r).get("lda_accuracy")));
		if (models.size() > 1 && models.get(r) == primary()) sb.append(sb.length() == 0 ? ""
			: " ").append("(default)");
		final double[] p = pValues(r);
		if (p != null) {
			sb.append(sb.length() == 0 ? "" : "; ").append("p =");
			for (int c = 0; c < p.length; c++)
				sb.append(c == 0 ? " " : ", ").append(ModelViews.marked(String.format(Locale.ROOT,
					"%.2g", p[c]), p[c]));
			sb.append(" (").append(ModelViews.MARK_NOTE).append(")");
		}
		return sb.toString();
	}

	/** Model r's permutation-test p-values per component, or null without the test. */
	private double[] pValues(final int r) {
		final List<Object> significance = solution.resultFacts().get("significance");
		return significance == null ? null : (double[]) ((Map<?, ?>) significance.get(r)).get(
			"p_values");
	}

	/**
	 * The staged path of a figure's PNG, with its high-resolution PNG, SVG and PDF siblings
	 * ({@link PlotFiles}) registered, so that all four are committed with the results.
	 */
	private Path figure(final OutputFolder out, final String png) throws IOException {
		final Path p = out.file(png);
		if (!allFormats) return p;
		final String stem = png.substring(0, png.length() - ".png".length());
		out.file(stem + "_hires.png");
		out.file(stem + ".svg");
		out.file(stem + ".pdf");
		return p;
	}

	private JsonObject summary() {
		final JsonObject o = new JsonObject();
		o.addProperty("method", solution.method().id);
		o.addProperty("alpha_mode", solution.alphaMode());
		o.addProperty("components", primary().numComponents());
		o.add("target", GSON.toJsonTree(target.facts));
		if (backgrounds.size() <= 1) o.add("background", backgrounds.isEmpty() ? null : GSON
			.toJsonTree(backgrounds.get(0).facts));
		else {
			final JsonArray bs = new JsonArray();
			backgrounds.forEach(b -> bs.add(GSON.toJsonTree(b.facts)));
			o.add("backgrounds", bs);
		}
		final Cpca fit = solution.fit();
		if (fit != null) {
			o.addProperty("standardize", fit.options().standardize());
			o.addProperty("space", fit.reducedSpace() ? "reduced" : "features");
			o.addProperty("rank", fit.rank());
		}
		solution.facts().forEach((k, v) -> o.add(k, GSON.toJsonTree(v)));
		final JsonArray results = new JsonArray();
		for (int r = 0; r < models.size(); r++) {
			final FittedModel m = models.get(r);
			final JsonObject e = new JsonObject();
			e.add("alpha", ModelFile.alphaJson(m.alpha()));
			ModelFile.parametersJson(m.parameters()).entrySet().forEach(p -> e.add(p.getKey(),
				p.getValue()));
			e.add("eigenvalues", GSON.toJsonTree(m.eigenvalues()));
			e.add("target_variance", GSON.toJsonTree(m.targetVariance()));
			e.add("background_variance", backgrounds.isEmpty() ? null : GSON.toJsonTree(m
				.backgroundVariance()));
			e.add("fraction_of_target_variance", GSON.toJsonTree(m
				.fractionOfTargetVariance()));
			// a measure without a value (a class whose scores do not vary: NaN) is null
			if (separations.get(r) != null) e.add("separation", ModelFile.parametersJson(
				new LinkedHashMap<String, Object>(separations.get(r))));
			final int model = r;
			solution.resultFacts().forEach((k, v) -> e.add(k, GSON.toJsonTree(v.get(model))));
			results.add(e);
		}
		o.add("results", results);
		o.add("model_alpha", ModelFile.alphaJson(primary().alpha()));
		final AlphaSelection selection = solution.selection();
		if (selection != null) {
			final JsonObject s = new JsonObject();
			s.add("grid", GSON.toJsonTree(selection.grid()));
			s.add("clusters", GSON.toJsonTree(selection.clusters()));
			s.add("alphas", GSON.toJsonTree(selection.alphas()));
			s.add("excluded_alphas", GSON.toJsonTree(selection.excluded()));
			s.addProperty("clustering_cost", selection.clusteringCost());
			s.add("spectral_eigengap", ModelFile.alphaJson(selection.spectralGap()));
			s.add("contrast_eigengaps", GSON.toJsonTree(Arrays.stream(selection
				.contrastGaps()).mapToObj(v -> Double.isFinite(v) ? v : null).toArray()));
			o.add("selection", s);
		}
		final JsonArray diag = new JsonArray();
		solution.diagnostics().forEach(diag::add);
		target.notes.forEach(diag::add); // how the inputs were read (issue 14)
		backgrounds.forEach(b -> b.notes.forEach(diag::add));
		o.add("diagnostics", diag);
		o.add("timings_s", GSON.toJsonTree(timings));
		return o;
	}

	/** A few lines for the terminal. */
	public String report(final Path dir) {
		return report(dir, true);
	}

	/** {@link #report(Path)}; {@code plots} says whether plots/ was written. */
	public String report(final Path dir, final boolean plots) {
		final StringBuilder sb = new StringBuilder();
		sb.append(solution.method().displayName).append(" of ").append(target.name())
			.append(" (").append(target.samples()).append(" samples × ").append(target
				.features()).append(" features)");
		for (int j = 0; j < backgrounds.size(); j++)
			sb.append(j == 0 ? " against " : " and ").append(backgrounds.get(j).name()).append(
				" (").append(backgrounds.get(j).samples()).append(" samples)");
		sb.append('\n');
		for (int r = 0; r < models.size(); r++) {
			final FittedModel m = models.get(r);
			sb.append("  ").append(ModelViews.title(m)).append(": eigenvalues");
			final double[] p = pValues(r), ev = m.eigenvalues();
			for (int c = 0; c < ev.length; c++) {
				final String v = String.format(Locale.ROOT, "%.4g", ev[c]);
				sb.append(' ').append(p == null || c >= p.length ? v : ModelViews.marked(v, p[c]));
			}
			if (separations.get(r) != null) sb.append(String.format(Locale.ROOT,
				"; LDA accuracy %.1f %%", 100 * separations.get(r).get("lda_accuracy")));
			final List<Object> significance = solution.resultFacts().get("significance");
			if (significance != null) sb.append("; ").append(significanceText(significance
				.get(r)));
			final List<Object> bootstrap = solution.resultFacts().get("bootstrap");
			if (bootstrap != null) sb.append("; ").append(bootstrapText(bootstrap.get(r)));
			sb.append('\n');
		}
		final String unconverged = Convergence.warning(solution.facts());
		if (unconverged != null) sb.append("  ").append(unconverged).append('\n');
		final JsonElement diags = summary().get("diagnostics");
		for (final JsonElement d : diags.getAsJsonArray())
			sb.append("  note: ").append(d.getAsString()).append('\n');
		sb.append("Results in ").append(dir.toAbsolutePath().normalize()).append(
			" (summary.json, scores.csv, model.json").append(target.isImage() ? solution
				.linear() ? ", components.tif" : ", extremes.tif" : "").append(target.isImage() ? solution
					.resultImages().keySet().stream().map(n -> ", " + n + ".tif").collect(
						Collectors.joining()) : "").append(plots ? ", plots/)"
					: ")");
		return sb.toString();
	}

	/**
	 * One result's bootstrap for the console: "bootstrap median angle 3.1°, 41° (200
	 * resamples; 95th percentile 5.2°, 78°)".
	 */
	private static String bootstrapText(final Object entry) {
		final Map<?, ?> m = (Map<?, ?>) entry;
		return "bootstrap median angle " + degrees((double[]) m.get("median_angle_degrees")) +
			" (" + m.get("resamples") + " resamples; 95th percentile " + degrees((double[]) m
				.get("angle_95_degrees")) + ")";
	}

	private static String degrees(final double[] angles) {
		final List<String> out = new ArrayList<>();
		for (final double a : angles)
			out.add(String.format(Locale.ROOT, "%.2g°", a));
		return String.join(", ", out);
	}

	/**
	 * One result's permutation test for the console: "p = 0.001, 0.43 (1 000
	 * permutations; components 1 significant at 0.05)".
	 */
	private static String significanceText(final Object entry) {
		final Map<?, ?> m = (Map<?, ?>) entry;
		final double[] p = (double[]) m.get("p_values");
		final StringBuilder sb = new StringBuilder("permutation test p =");
		final List<String> significant = new ArrayList<>();
		for (int c = 0; c < p.length; c++) {
			sb.append(c == 0 ? " " : ", ").append(String.format(Locale.ROOT, "%.3g", p[c]));
			if (p[c] <= 0.05) significant.add(Integer.toString(c + 1));
		}
		return sb.append(" (").append(m.get("permutations")).append(" permutations; ").append(
			significant.isEmpty() ? "no component" : "component" + (significant.size() > 1
				? "s " : " ") + String.join(", ", significant)).append(" significant at p ≤ 0.05, marked *)")
			.toString();
	}
}
