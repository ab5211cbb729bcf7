package org.cpca.analysis;

import org.cpca.core.online.OnlineRun;

import ij.ImagePlus;
import ij.ImageStack;
import ij.gui.Roi;
import ij.measure.ResultsTable;

import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.cpca.core.model.CpcaModel;
import org.cpca.core.Curve;
import org.cpca.core.online.OnlineCpcaStar;
import org.cpca.core.online.OnlineOptions;
import org.cpca.core.Progress;
import org.cpca.core.data.SampleSource;
import org.cpca.core.run.MethodRunner;
import org.cpca.image.FeatureLayout;
import org.cpca.image.FolderSource;
import org.cpca.image.StackSamples;
import org.cpca.image.StackReader;
import org.cpca.render.CurvePlot;
import org.cpca.render.ModelViews;
import java.util.LinkedHashMap;
import java.util.Locale;

/**
 * One online cPCA* run on images read one sample at a time — an open (virtual) stack
 * slice by slice, or a folder file by file — and the ImageJ outputs made from it. No
 * mathematics here: the inputs become {@link SampleSource}s, {@link OnlineCpcaStar} fits
 * them (against offline cPCA* for the convergence curve when the data are small enough),
 * and the model and curve become images, plots and tables. Nothing is shown or saved
 * until the run is complete, so a cancelled run leaves nothing behind.
 */
public final class OnlineAnalysis {

	/** An image source: an open image (virtual or not) or a folder. */
	public static final class Input {

		final ImagePlus image;
		final File folder;

		private Input(final ImagePlus image, final File folder) {
			this.image = image;
			this.folder = folder;
		}

		public static Input image(final ImagePlus imp) {
			return new Input(imp, null);
		}

		public static Input folder(final File dir) {
			return new Input(null, dir);
		}

		/**
		 * The same values: two open images with equal pixels (the same image, or a copy),
		 * or the same folder (a folder is compared by where it is, not read twice).
		 */
		boolean sameAs(final Input other) {
			if (image != null) return other.image != null && samePixels(image, other.image);
			return other.folder != null && MethodRunner.sameSource(folder.toPath(), List.of(),
				other.folder.toPath(), List.of());
		}

		private static boolean samePixels(final ImagePlus a, final ImagePlus b) {
			if (a == b) return true;
			final ImageStack sa = a.getStack(), sb = b.getStack();
			if (sa.getSize() != sb.getSize() || sa.getWidth() != sb.getWidth() || sa
				.getHeight() != sb.getHeight() || a.getBitDepth() != b.getBitDepth()) return false;
			for (int i = 1; i <= sa.getSize(); i++)
				if (!Objects.deepEquals(sa.getPixels(i), sb.getPixels(i))) return false;
			return true;
		}

		/** The first image: size and type for the layout. */
		ImagePlus geometry(final String role) {
			if (image != null) return image;
			if (folder == null) throw new IllegalArgumentException("no " + role +
				" was given: choose an open image or a folder");
			return FolderSource.firstImage(folder.toPath());
		}

		/**
		 * The one image reader ({@link StackReader}) of this input, its axes read as
		 * {@code choice} says: an open hyperstack with channels as features or one channel
		 * becomes a plain stack (read into memory); a folder is read one file per sample,
		 * so it takes planes only.
		 */
		StackReader reader(final String role, final String choice) {
			if (image != null) return StackReader.of(role, image, choice);
			final String c = choice == null ? "auto" : choice.trim().toLowerCase(
				Locale.ROOT);
			if (!c.isEmpty() && !c.equals("auto") && !c.equals("planes"))
				throw new IllegalArgumentException("axes=" + choice + " needs the " + role +
					" as an open image: a folder is read one file per sample (planes); open " +
					"the hyperstack, or use axes=auto");
			return StackReader.folder(role, folder.toPath(), "planes");
		}

		String title(final String role) {
			return image != null ? image.getTitle() : folder != null ? folder.getName() : role;
		}
	}

	private final OnlineRun.Result result;
	private final CpcaModel offline;
	private final FeatureLayout layout;
	private final List<String> labels;
	private final String targetTitle;

	private OnlineAnalysis(final OnlineRun.Result result, final CpcaModel offline,
		final FeatureLayout layout, final List<String> labels, final String targetTitle)
	{
		this.result = result;
		this.offline = offline;
		this.layout = layout;
		this.labels = labels;
		this.targetTitle = targetTitle;
	}

	/**
	 * Runs online cPCA*.
	 *
	 * @param reference "auto" (offline cPCA* for the alignment when both inputs together
	 *          have at most {@link OnlineCpcaStar#REFERENCE_LIMIT} values), "offline" or
	 *          "none"
	 * @param bin bin × bin pixel blocks as one feature (the target's area selection, if
	 *          any, restricts the pixels)
	 */
	public static OnlineAnalysis run(final Input target, final Input background,
		final OnlineOptions options, final String reference, final int bin,
		final String axes, final Progress progress) throws IOException
	{
		StackSamples.checkCompatible(target.geometry("target"), background.geometry(
			"background"));
		if (target.sameAs(background)) throw MethodRunner.sameAsTarget("background",
			"target");
		// a hyperstack's axes as chosen (the background as the target), as Contrastive PCA
		final StackReader tr = target.reader("target", axes);
		final StackReader br = background.reader("background", tr.axes().mode);
		final Roi roi = target.image == null ? null : target.image.getRoi();
		final StackReader tRead = tr.select(null, roi, bin);
		final FeatureLayout layout = tRead.layout();
		try (SampleSource ts = tRead.source(); SampleSource bs = br.with(layout).source()) {
			final OnlineRun run = OnlineRun.run(ts, bs, options, reference, progress);
			final OnlineAnalysis a = new OnlineAnalysis(run.result, run.offline, layout, ts
				.labels(), target.title("target"));
			a.axesMode = tr.axes().mode;
			return a;
		}
	}

	/** The axes mode the target was read with (planes, channels, cN). */
	private String axesMode = "planes";

	/**
	 * The model, with the pixel layout and the axes mode as attributes (for Apply
	 * Model...).
	 */
	public CpcaModel model() {
		final Map<String, String> attributes = new LinkedHashMap<>(layout
			.attributes());
		attributes.put(Analysis.AXES_KEY, axesMode);
		return result.model().withAttributes(attributes);
	}

	public OnlineRun.Result result() {
		return result;
	}

	/** The offline cPCA* model the alignment was measured against, or null. */
	public CpcaModel offline() {
		return offline;
	}

	/** The learned components as a stack of (contrastive) eigen-images. */
	public ImagePlus eigenImages() {
		final ImagePlus imp = ModelViews.eigenImages("online cPCA* eigen-images", List.of(
			result.model()), layout);
		imp.setTitle("Online cPCA* eigen-images of " + targetTitle);
		return imp;
	}

	/** The target's scores on the first two components, coloured by slice class. */
	public ImagePlus scatterPlot() {
		final ImagePlus imp = ModelViews.scatterPlot(List.of(result.model()), labels,
			targetTitle, 1);
		imp.setTitle("Online cPCA* scores of " + targetTitle);
		return imp;
	}

	/** The convergence curve (alignment with offline cPCA*, or the subspace change). */
	public ImagePlus convergencePlot() {
		final ImagePlus imp = CurvePlot.render(result.convergence());
		imp.setTitle("Online cPCA* convergence, " + targetTitle);
		return imp;
	}

	/** One row per target sample: sample, label, cPC1 … */
	public ResultsTable scoresTable() {
		final ResultsTable rt = new ResultsTable();
		rt.showRowNumbers(false);
		final double[][] s = result.model().targetScores();
		for (int i = 0; i < s.length; i++) {
			rt.incrementCounter();
			rt.addValue("sample", i + 1);
			rt.addValue("label", labels == null ? "" : labels.get(i));
			for (int c = 0; c < s[i].length; c++)
				rt.addValue("cPC" + (c + 1), s[i][c]);
		}
		return rt;
	}

	/** One row per component: eigenvalue, target and background variance, fraction. */
	public ResultsTable componentsTable() {
		final ResultsTable rt = new ResultsTable();
		rt.showRowNumbers(false);
		final CpcaModel m = result.model();
		final double[] ev = m.eigenvalues(), tv = m.targetVariance(), bv = m
			.backgroundVariance(), f = m.fractionOfTargetVariance();
		for (int c = 0; c < ev.length; c++) {
			rt.incrementCounter();
			rt.addValue("component", "cPC" + (c + 1));
			rt.addValue("eigenvalue", ev[c]);
			rt.addValue("target_variance", tv[c]);
			rt.addValue("background_variance", bv[c]);
			rt.addValue("fraction_of_target_variance", f[c]);
			if (offline != null) rt.addValue("offline_eigenvalue", offline.eigenvalues()[c]);
		}
		return rt;
	}

	/** The convergence curve as a table: samples_seen, then each series. */
	public ResultsTable convergenceTable() {
		final ResultsTable rt = new ResultsTable();
		rt.showRowNumbers(false);
		final Curve curve = result.convergence();
		final double[] x = curve.x();
		for (int i = 0; i < x.length; i++) {
			rt.incrementCounter();
			rt.addValue(curve.xLabel, x[i]);
			for (final Map.Entry<String, double[]> e : curve.series().entrySet())
				rt.addValue(e.getKey(), e.getValue()[i]);
		}
		return rt;
	}
}
