package org.cpca.cli;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import ij.ImagePlus;

import org.cpca.core.AlphaSelection;
import org.cpca.core.Cpca;
import org.cpca.core.CpcaModel;
import org.cpca.core.Dataset;
import org.cpca.core.Measures;
import org.cpca.core.ModelFile;
import org.cpca.image.TiffFiles;
import org.cpca.render.ModelViews;
import org.cpca.render.Panels;
import org.cpca.render.PlotFiles;
import org.cpca.render.ScreePlot;
import org.cpca.render.VariancePairsPlot;

/**
 * The results of one {@code cpca fit} and how they are written: {@code summary.json},
 * {@code scores.csv}, {@code model.json} (plus {@code models/} for automatic α),
 * {@code components.tif} for images, and {@code plots/*.png}.
 */
final class Results {

	static final Gson GSON = new GsonBuilder().setPrettyPrinting().serializeNulls()
		.disableHtmlEscaping().create();

	private final String method;
	private final String alphaMode;
	private final LoadedData target;
	private final LoadedData background;
	private final Dataset targetData;
	private final Cpca cpca;
	private final List<CpcaModel> models;
	private final AlphaSelection selection;
	private final Map<String, Double> timings;
	private final List<Map<String, Double>> separations = new ArrayList<>();

	Results(final String method, final String alphaText, final LoadedData target,
		final LoadedData background, final Dataset targetData, final Cpca cpca,
		final List<CpcaModel> models, final AlphaSelection selection,
		final Map<String, Double> timings)
	{
		this.method = method;
		this.alphaMode = method.equals("pca") ? null : alphaText.trim().toLowerCase(
			Locale.ROOT).equals("auto") ? "auto" : Double.isInfinite(FitCommand.parseAlpha(
				alphaText)) ? "inf" : "fixed";
		this.target = target;
		this.background = background;
		this.targetData = targetData;
		this.cpca = cpca;
		this.models = models;
		this.selection = selection;
		this.timings = timings;
		final List<String> labels = targetData.labels();
		final boolean classes = labels != null && new java.util.HashSet<>(labels)
			.size() >= 2;
		for (final CpcaModel m : models)
			separations.add(classes ? Measures.separation(m.targetScores(), labels) : null);
	}

	/** The model written as model.json: PCA's, the fixed α's, or the first α > 0. */
	CpcaModel primary() {
		return models.size() > 1 ? models.get(1) : models.get(0);
	}

	private String prefix() {
		return method.equals("pca") ? "PC" : "cPC";
	}

	static String alphaText(final double alpha) {
		return ModelViews.alphaText(alpha);
	}

	void write(final Path dir, final List<Path> inputs) throws IOException {
		final long t0 = System.nanoTime();
		try (OutputFolder out = new OutputFolder(dir, inputs)) {
			writeScores(out.file("scores.csv"));
			final Map<String, String> attributes = new LinkedHashMap<>();
			if (target.isImage()) attributes.putAll(target.layout.attributes());
			else attributes.put("table.columns", GSON.toJson(target.featureNames));
			ModelFile.write(primary().withAttributes(attributes), out.file("model.json"));
			if (models.size() > 1) for (final CpcaModel m : models)
				ModelFile.write(m.withAttributes(attributes), out.file("models/alpha_" +
					alphaText(m.alpha()) + ".json"));
			if (target.isImage()) writeComponents(out);
			writePlots(out);
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
	}

	private void writeScores(final Path file) throws IOException {
		final int k = primary().numComponents();
		try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
			final StringBuilder header = new StringBuilder("sample,label,alpha");
			for (int c = 1; c <= k; c++)
				header.append(',').append(prefix()).append(c);
			w.write(header.append('\n').toString());
			final List<String> labels = targetData.labels();
			for (final CpcaModel m : models) {
				final double[][] s = m.targetScores();
				for (int i = 0; i < s.length; i++) {
					final StringBuilder row = new StringBuilder();
					row.append(i + 1).append(',').append(labels == null ? "" : csv(labels.get(i)))
						.append(',').append(alphaText(m.alpha()));
					for (final double v : s[i])
						row.append(',').append(v);
					w.write(row.append('\n').toString());
				}
			}
		}
	}

	static String csv(final String s) {
		return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\""
			: s;
	}

	private void writeComponents(final OutputFolder out) throws IOException {
		final ImagePlus stack = ModelViews.eigenImages(method.equals("pca") ? "eigen-images"
			: "contrastive eigen-images", models, target.layout);
		TiffFiles.save(stack, out.file("components.tif"));
		PlotFiles.savePng(ModelViews.eigenImageMontage(stack, primary().numComponents()),
			out.file("plots/eigen_images.png"));
	}

	private void writePlots(final OutputFolder out) throws IOException {
		final List<ImagePlus> panels = ModelViews.scatterPanels(models, targetData.labels(),
			target.dataset.name(), 1);
		for (int i = 0; i < panels.size(); i++)
			PlotFiles.savePng(panels.get(i), out.file("plots/scatter_" + (method.equals("pca")
				? "pca" : "alpha_" + alphaText(models.get(i).alpha())) + ".png"));
		PlotFiles.savePng(panels.size() == 1 ? panels.get(0) : Panels.montage(panels, 2), out
			.file("plots/scatter.png"));
		PlotFiles.savePng(ScreePlot.render("eigenvalues, " + ModelViews.title(primary()),
			primary().eigenvalues()), out.file("plots/eigenvalues.png"));
		if (selection != null) PlotFiles.savePng(VariancePairsPlot.render(
			"target vs background variance of the top cPC", cpca, selection), out.file(
				"plots/variance_pairs.png"));
	}

	private JsonObject summary() {
		final JsonObject o = new JsonObject();
		o.addProperty("method", method);
		o.addProperty("alpha_mode", alphaMode);
		o.addProperty("components", primary().numComponents());
		o.addProperty("standardize", cpca.options().standardize());
		o.add("target", GSON.toJsonTree(target.facts));
		o.add("background", background == null ? null : GSON.toJsonTree(background.facts));
		o.addProperty("space", cpca.reducedSpace() ? "reduced" : "features");
		o.addProperty("rank", cpca.rank());
		final JsonArray results = new JsonArray();
		for (int r = 0; r < models.size(); r++) {
			final CpcaModel m = models.get(r);
			final JsonObject e = new JsonObject();
			e.add("alpha", ModelFile.alphaJson(m.alpha()));
			e.add("eigenvalues", GSON.toJsonTree(m.eigenvalues()));
			e.add("target_variance", GSON.toJsonTree(m.targetVariance()));
			e.add("background_variance", background == null ? null : GSON.toJsonTree(m
				.backgroundVariance()));
			e.add("fraction_of_target_variance", GSON.toJsonTree(m
				.fractionOfTargetVariance()));
			if (separations.get(r) != null) e.add("separation", GSON.toJsonTree(separations
				.get(r)));
			results.add(e);
		}
		o.add("results", results);
		o.add("model_alpha", ModelFile.alphaJson(primary().alpha()));
		if (selection != null) {
			final JsonObject s = new JsonObject();
			s.add("grid", GSON.toJsonTree(selection.grid()));
			s.add("clusters", GSON.toJsonTree(selection.clusters()));
			s.add("alphas", GSON.toJsonTree(selection.alphas()));
			o.add("selection", s);
		}
		final JsonArray diag = new JsonArray();
		final java.util.Set<String> seen = new java.util.LinkedHashSet<>();
		for (final CpcaModel m : models)
			seen.addAll(m.diagnostics());
		seen.forEach(diag::add);
		o.add("diagnostics", diag);
		o.add("timings_s", GSON.toJsonTree(timings));
		return o;
	}

	/** A few lines for the terminal. */
	String report(final Path dir) {
		final StringBuilder sb = new StringBuilder();
		sb.append(method.equals("pca") ? "PCA" : "cPCA").append(" of ").append(targetData
			.name()).append(" (").append(targetData.samples()).append(" samples × ").append(
				targetData.features()).append(" features)");
		if (background != null) sb.append(" against ").append(background.dataset.name())
			.append(" (").append(background.dataset.samples()).append(" samples)");
		sb.append('\n');
		for (int r = 0; r < models.size(); r++) {
			final CpcaModel m = models.get(r);
			sb.append("  ").append(ModelViews.title(m)).append(": eigenvalues");
			for (final double v : m.eigenvalues())
				sb.append(' ').append(String.format(Locale.ROOT, "%.4g", v));
			if (separations.get(r) != null) sb.append(String.format(Locale.ROOT,
				"; LDA accuracy %.1f %%", 100 * separations.get(r).get("lda_accuracy")));
			sb.append('\n');
		}
		final JsonElement diags = summary().get("diagnostics");
		for (final JsonElement d : diags.getAsJsonArray())
			sb.append("  note: ").append(d.getAsString()).append('\n');
		sb.append("Results in ").append(dir.toAbsolutePath().normalize()).append(
			" (summary.json, scores.csv, model.json").append(target.isImage()
				? ", components.tif" : "").append(", plots/)");
		return sb.toString();
	}
}
