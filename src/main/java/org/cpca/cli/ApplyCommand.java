package org.cpca.cli;

import org.cpca.io.LoadedData;
import org.cpca.io.OutputFolder;
import org.cpca.io.Results;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import com.google.gson.JsonObject;

import ij.ImagePlus;

import org.cpca.core.model.AppliedModel;
import org.cpca.core.model.FittedModel;
import org.cpca.render.ModelViews;
import org.cpca.core.data.Dataset;
import org.cpca.core.modelfile.ModelFile;
import org.cpca.image.ComponentImages;
import org.cpca.image.FeatureLayout;
import org.cpca.image.TiffFiles;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code cpca apply}: scores and reconstructions of new data with a saved model. */
@Command(name = "apply", sortOptions = false, mixinStandardHelpOptions = true,
	description = "Project new data with a model written by cpca fit: writes " +
		"scores.csv, the reconstruction (reconstruction.tif for images, " +
		"reconstruction.csv for tables; not for kernel cPCA, which has none) and " +
		"summary.json into --out.")
final class ApplyCommand implements Callable<Integer> {

	@Spec
	CommandSpec spec;

	@Option(names = "--model", required = true, paramLabel = "FILE",
		description = "A model.json written by cpca fit.")
	Path model;

	@Option(names = "--input", required = true, paramLabel = "PATH",
		description = "Image stack, folder of images or CSV table with the features the " +
			"model was fitted on.")
	Path input;

	@Option(names = "--missing", paramLabel = "drop|mean|zero",
		description = "Empty cells of CSV tables (default: the model's rule, from cpca " +
			"fit --missing; drop for models that have none). The model's rule wins; a " +
			"different --missing is noted.")
	String missing;

	@Option(names = "--out", required = true, paramLabel = "DIR",
		description = "Folder for the results: a new or empty folder (created; the " +
			"results appear all at once or not at all). Not the model's folder or an input.")
	Path out;

	@Option(names = "--overwrite", description = "Write into a non-empty --out: " +
		"replaces the results of an earlier cpca run there as a set and leaves every " +
		"other file alone.")
	boolean overwrite;

	@Override
	public Integer call() throws Exception {
		final long t0 = System.nanoTime();
		// the output folder is checked, locked and made before any input is read
		try (OutputFolder o = OutputFolder.open(out, List.of(model, input), overwrite)) {
			try {
				return apply(o, t0);
			}
			catch (final FileSystemException e) {
				throw new IOException(o.describe(e), e);
			}
		}
	}

	private int apply(final OutputFolder o, final long t0) throws Exception {
		final FittedModel m = ModelFile.readAny(model);
		if ("pixels".equals(m.attributes().get("samples"))) throw new IllegalArgumentException(
			model + " was fitted with pixels as samples (in Fiji); apply it with Plugins > " +
				"Contrastive PCA > Apply Model... — cpca apply takes models fitted on slices " +
				"or tables");
		final LoadedData.Reading how = new LoadedData.Reading();
		final String modelMissing = m.attributes().get("table.missing");
		final String rule = modelMissing != null ? modelMissing : missing != null ? missing
			: "drop";
		how.missing = FitCommand.parseMissing(rule);
		final String note = missing != null && modelMissing != null && !FitCommand
			.parseMissing(missing).equals(how.missing) ? "--missing " + missing +
				" was not used: the model was fitted with --missing " + modelMissing +
				", and new data is read the same way" : null;
		final boolean image = m.attributes().containsKey(FeatureLayout.WIDTH);
		if (image) how.layout = FeatureLayout.fromAttributes(m.attributes());
		if (image) how.axes = m.attributes().get("image.axes"); // read as when fitted
		else if (m.attributes().containsKey("table.columns")) how.featureNames = Arrays
			.asList(Results.GSON.fromJson(m.attributes().get("table.columns"),
				String[].class));
		final LoadedData in = LoadedData.load("input", input, how);
		if (in.isImage() != image) throw new IllegalArgumentException("the model was " +
			"fitted on " + (image ? "images" : "a table") + " but --input is " + (in
				.isImage() ? "an image" : "a table") + ": give data of the same kind");
		final Dataset data = in.dataset;
		final AppliedModel applied = new AppliedModel(m, data);
		final double[][] scores = applied.scores();
		// kernel cPCA has no components in input space, so no reconstruction
		final double[][] recon = applied.reconstruction();
		final String prefix = ModelViews.prefix(m);
		{
			try (Writer w = Files.newBufferedWriter(o.file("scores.csv"),
				StandardCharsets.UTF_8))
			{
				// the columns of cpca fit's scores.csv (one model: model 0)
				final StringBuilder h = new StringBuilder("sample,label,model,alpha");
				for (int c = 1; c <= m.numComponents(); c++)
					h.append(',').append(prefix).append(c);
				w.write(h.append('\n').toString());
				final List<String> names = Results.sampleNames(data.sampleNames(),
					scores.length);
				for (int i = 0; i < scores.length; i++) {
					final StringBuilder r = new StringBuilder().append(names != null ? Results.csv(
						names.get(i)) : String.valueOf(i + 1))
						.append(',').append(data.labels() == null ? "" : Results.csv(data.labels()
							.get(i))).append(",0,").append(Results.exact(m.alpha()));
					for (final double v : scores[i])
						r.append(',').append(v);
					w.write(r.append('\n').toString());
				}
			}
			if (recon == null) {
				// nothing: see the summary's note
			}
			else if (image) {
				final ImagePlus imp = ComponentImages.reconstructions("reconstruction", recon,
					in.layout, data.sampleNames());
				TiffFiles.save(imp, o.file("reconstruction.tif"));
			}
			else try (Writer w = Files.newBufferedWriter(o.file("reconstruction.csv"),
				StandardCharsets.UTF_8))
			{
				w.write(String.join(",", in.featureNames) + "\n");
				for (final double[] row : recon) {
					final StringBuilder r = new StringBuilder();
					for (int j = 0; j < row.length; j++)
						r.append(j == 0 ? "" : ",").append(row[j]);
					w.write(r.append('\n').toString());
				}
			}
			final JsonObject s = new JsonObject();
			s.addProperty("method", m.method());
			s.add("alpha", ModelFile.alphaJson(m.alpha()));
			s.addProperty("model", model.toString());
			s.add("input", Results.GSON.toJsonTree(in.facts));
			if (note != null) s.addProperty("missing_note", note);
			s.addProperty("components", m.numComponents());
			if (recon != null) s.addProperty("reconstruction_mean_squared_error", applied
				.meanSquaredError());
			else s.addProperty("note", "no reconstruction: " + m.method() + " models have " +
				"no components in input space");
			final JsonObject timings = new JsonObject();
			timings.addProperty("total", (System.nanoTime() - t0) / 1e9);
			s.add("timings_s", timings);
			try (Writer w = Files.newBufferedWriter(o.file("summary.json"),
				StandardCharsets.UTF_8))
			{
				Results.GSON.toJson(s, w);
			}
			o.commit();
		}
		if (note != null) spec.commandLine().getOut().println("note: " + note);
		for (final String folderNote : o.notes())
			spec.commandLine().getOut().println("note: " + folderNote);
		spec.commandLine().getOut().println(String.format(Locale.ROOT,
			"Projected %d samples of %s on %d components; results in %s", data.samples(),
			input, m.numComponents(), out.toAbsolutePath().normalize()));
		return 0;
	}
}
