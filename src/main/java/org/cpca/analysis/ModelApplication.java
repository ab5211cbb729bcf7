package org.cpca.analysis;

import org.cpca.image.PixelSamples;

import ij.ImagePlus;
import ij.measure.ResultsTable;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.cpca.core.Memory;
import org.cpca.core.model.AppliedModel;
import org.cpca.core.data.Dataset;
import org.cpca.core.model.FittedModel;
import org.cpca.core.modelfile.ModelFile;
import org.cpca.image.ComponentImages;
import org.cpca.image.DivergingLut;
import org.cpca.image.FeatureLayout;
import org.cpca.image.StackReader;
import org.cpca.render.ModelViews;

/**
 * A saved model applied to an open image: scores, the reconstruction
 * ({@code mean + scores · components}) and the <em>background-removed</em> image, the
 * input minus its projection on the model's components,
 * {@code x − (reconstruction − mean)}. Fit PCA on a background stack and apply it to a
 * target to remove the background's main directions of variation from the target.
 * <p>
 * Works for models of both orientations: slices as samples (the model's pixel layout is
 * read from its attributes, {@link FeatureLayout#fromAttributes}) and pixels as samples
 * (the input needs the model's number of planes). The input is never modified.
 * <p>
 * Kernel cPCA models give scores only: they have no components in input space, so no
 * reconstruction and no background-removed image ({@link #reconstruction()} and
 * {@link #backgroundRemoved()} return {@code null}; see {@link #hasReconstruction()}).
 */
public final class ModelApplication {

	private final FittedModel model;
	private final ImagePlus input;
	private final Dataset data;
	private final FeatureLayout layout;
	/** The scores, and the reconstruction made on first use (after its memory is checked). */
	private final AppliedModel applied;

	private ModelApplication(final FittedModel model, final ImagePlus input,
		final Dataset data, final FeatureLayout layout)
	{
		this.model = model;
		this.input = input;
		this.data = data;
		this.layout = layout;
		this.applied = new AppliedModel(model, data);
	}

	/**
	 * The reconstruction rows, made on first use; before that, and before each output
	 * made from them, the memory of that output (its rows and its 32-bit stack, plus the
	 * reconstruction itself if not made yet) is checked. Null for a kernel model.
	 */
	private double[][] reconstructionRows(final String output) {
		if (!hasReconstruction()) return null;
		final long n = data.samples(), d = data.features();
		OutputMemory.require(output + " of " + input.getTitle() + " (" + n + " samples × " +
			d + " features)", OutputMemory.reconstruction(n, d) + (applied.reconstructed() ? 0
				: Memory.doubles(n, d)), OutputMemory.APPLY_FIXES);
		return applied.reconstruction();
	}

	/**
	 * Reads the model file and projects the image.
	 *
	 * @throws IllegalArgumentException if the file is missing or damaged, or the image
	 *           does not have the model's features
	 */
	public static ModelApplication apply(final Path modelFile, final ImagePlus input) {
		return apply(ModelFile.readAny(modelFile), input);
	}

	/** Projects the image with a model carrying pixel-layout attributes. */
	public static ModelApplication apply(final FittedModel model, final ImagePlus input) {
		if (input == null) throw new IllegalArgumentException(
			"there is no input image: open the stack to project");
		final Map<String, String> attr = model.attributes();
		if ("pixels".equals(attr.get(Analysis.SAMPLES_KEY))) {
			if (input.getStackSize() != model.features()) throw new IllegalArgumentException(
				"the input has " + input.getStackSize() + " planes but the model was fitted " +
					"with pixels as samples on " + model.features() + " planes (channels, " +
					"slices, frames): use an image with the same planes");
			return new ModelApplication(model, input, PixelSamples.toDataset("input", input,
				null), null);
		}
		if (!attr.containsKey(FeatureLayout.WIDTH)) throw new IllegalArgumentException(
			"the model was fitted on a table, not on images: apply it with the command " +
				"line (cpca apply --model FILE --input TABLE.csv --out DIR)");
		final FeatureLayout layout = FeatureLayout.fromAttributes(attr);
		if (input.getBitDepth() == 24) throw new IllegalArgumentException(
			"the input is RGB: convert it to the type the model was fitted on (Image > Type)");
		// read by the one reader of slices as samples; a hyperstack as the model read its
		// target (e.g. channels as features: the channels side by side), so that the
		// features match
		final StackReader reader = StackReader.of("the input", input, axes(attr, input,
			layout)).with(layout);
		final ImagePlus read = reader.image();
		layout.checkFits("the input" + (read == input ? "" : " (its channels side by side)"),
			read);
		return new ModelApplication(model, read, reader.dataset(false), layout);
	}

	/**
	 * How to read the input's axes: as the model file says ({@link Analysis#AXES_KEY});
	 * for a model without that attribute (written by the command line, or before it
	 * existed), channels as features when the model's width is the input's channels side
	 * by side, else planes.
	 */
	static String axes(final Map<String, String> attr, final ImagePlus input,
		final FeatureLayout layout)
	{
		final String saved = attr.get(Analysis.AXES_KEY);
		if (saved != null && !saved.trim().isEmpty()) return saved;
		final int nc = input.getNChannels();
		if (nc > 1 && (long) nc * input.getNSlices() * input.getNFrames() == input
			.getStackSize() && layout.width() == nc * input.getWidth()) return "channels";
		return "planes";
	}

	public FittedModel model() {
		return model;
	}

	/**
	 * Whether the model reconstructs samples (every linear method; not kernel cPCA, whose
	 * components live in the kernel's feature space).
	 */
	public boolean hasReconstruction() {
		return applied.hasReconstruction();
	}

	/** Scores, one row per sample (slice, or pixel in row-major order). */
	public double[][] scores() {
		final double[][] scores = applied.scores();
		final double[][] out = new double[scores.length][];
		for (int i = 0; i < out.length; i++)
			out[i] = scores[i].clone();
		return out;
	}

	private String prefix() {
		return ModelViews.prefix(model);
	}

	private boolean pixels() {
		return layout == null;
	}

	/**
	 * The reconstruction of each sample from its scores, as a 32-bit stack; {@code null}
	 * for a kernel model.
	 */
	public ImagePlus reconstruction() {
		final double[][] rows = reconstructionRows("the reconstruction");
		return rows == null ? null : image("Reconstruction of " + input.getTitle(), rows);
	}

	/**
	 * The input minus its projection on the model's components, as a 32-bit stack;
	 * {@code null} for a kernel model.
	 */
	public ImagePlus backgroundRemoved() {
		if (reconstructionRows("the background-removed stack") == null) return null;
		final double[][] removed = applied.backgroundRemoved();
		return image("Background removed from " + input.getTitle(), removed);
	}

	private ImagePlus image(final String title, final double[][] rows) {
		final ImagePlus imp;
		if (pixels()) {
			final List<String> labels = new ArrayList<>();
			for (int s = 1; s <= input.getStackSize(); s++)
				labels.add(input.getStack().getShortSliceLabel(s));
			imp = PixelSamples.toStack(title, rows, input.getWidth(), input.getHeight(),
				null, labels, input.getCalibration());
			imp.resetDisplayRange();
		}
		else {
			imp = ComponentImages.reconstructions(title, rows, layout, data
				.sampleNames());
			if (layout.bin() == 1) imp.setCalibration(input.getCalibration().copy());
		}
		return imp;
	}

	/**
	 * Pixels as samples: one score image per component (32-bit, the input's
	 * calibration, blue–white–red table centred on zero); {@code null} for slices as
	 * samples.
	 */
	public ImagePlus scoreImages() {
		if (!pixels()) return null;
		final List<String> labels = new ArrayList<>();
		for (int c = 1; c <= model.numComponents(); c++)
			labels.add(prefix() + c);
		final ImagePlus imp = PixelSamples.toStack(prefix() + " score images of " + input
			.getTitle(), applied.scores(), input.getWidth(), input.getHeight(), null, labels, input
				.getCalibration());
		DivergingLut.apply(imp);
		return imp;
	}

	/**
	 * Slices as samples: one row per slice with {@code sample}, {@code alpha} and the
	 * scores; {@code null} for pixels as samples (see {@link #scoreImages()}).
	 */
	public ResultsTable scoresTable() {
		if (pixels()) return null;
		final ResultsTable rt = new ResultsTable();
		rt.showRowNumbers(false);
		final List<String> names = data.sampleNames();
		final double[][] scores = applied.scores();
		for (int i = 0; i < scores.length; i++) {
			rt.incrementCounter();
			rt.addValue("sample", names == null ? "" + (i + 1) : names.get(i));
			rt.addValue("alpha", Analysis.alphaText(model.alpha()));
			for (int c = 0; c < scores[i].length; c++)
				rt.addValue(prefix() + (c + 1), scores[i][c]);
		}
		return rt;
	}
}
