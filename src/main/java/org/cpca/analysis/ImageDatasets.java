package org.cpca.analysis;

import org.cpca.image.PixelSamples;

import ij.ImagePlus;
import ij.gui.Plot;
import ij.gui.Roi;
import ij.measure.ResultsTable;

import java.io.IOException;
import java.io.UncheckedIOException;
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
import org.cpca.image.Axes;
import org.cpca.image.FeatureLayout;
import org.cpca.image.StackSamples;
import org.cpca.image.StackReader;
import org.cpca.io.LoadedData;
import org.cpca.io.TableInput;
import org.cpca.render.ExtremeSamples;
import org.cpca.render.Palette;
import org.cpca.render.ModelViews;
import org.cpca.render.ScatterPlot;
import org.cpca.render.ScreePlot;
import org.cpca.render.VariancePairsPlot;
import ij.process.ImageProcessor;

/**
 * The open images of an {@link AnalysisRequest} as datasets: slices as samples through
 * {@link StackSamples}, pixels as samples through {@link PixelSamples}, with the
 * background taken from other images, the target's selection, a mask or ROIs. Input
 * images are only read, never modified.
 */
final class ImageDatasets {

	final Dataset target;
	final List<Dataset> backgrounds;
	/** Slices as samples: how features map to pixels; {@code null} for pixels. */
	final FeatureLayout layout;
	/** Pixels as samples: the target pixels that are samples ({@code null}: all). */
	final boolean[] targetPixels;
	/** How the images were read (a hyperstack's axes), for the diagnostics. */
	final List<String> notes = new ArrayList<>();
	/**
	 * With missing=model: the target's values with their NaN pixels (then {@link #target}
	 * holds feature means there), and each background's; null otherwise.
	 */
	float[][] targetMissing;
	final List<float[][]> backgroundsMissing = new ArrayList<>();
	/** Slices as samples: the axes mode used (planes, channels, cN); {@code null} else. */
	String axesMode;

	private ImageDatasets(final Dataset target, final List<Dataset> backgrounds,
		final FeatureLayout layout, final boolean[] targetPixels)
	{
		this.target = target;
		this.backgrounds = backgrounds;
		this.layout = layout;
		this.targetPixels = targetPixels;
	}

	/** Reads the request's images; {@code images} are the background images, first first. */
	static ImageDatasets read(final AnalysisRequest r, final List<ImagePlus> images) {
		final List<String> notes = new ArrayList<>();
		final List<float[][]> missing = new ArrayList<>();
		final ImageDatasets d = read(r, images, notes, missing);
		d.notes.addAll(notes);
		if (r.missing == TableInput.Missing.MODEL) {
			d.targetMissing = missing.get(0);
			d.backgroundsMissing.addAll(missing.subList(1, missing.size()));
		}
		return d;
	}

	/**
	 * One stack, slices as samples, read by the request's missing-value rule ({@link
	 * LoadedData#slices}, the command line's too): the values of kept NaN pixels go to
	 * {@code missing}.
	 */
	private static Dataset slices(final AnalysisRequest r, final StackReader reader,
		final List<float[][]> missing)
	{
		final LoadedData.Slices read = LoadedData.slices(reader, r.missing, false);
		if (read.values != null) missing.add(read.values);
		return read.dataset;
	}

	private static ImageDatasets read(final AnalysisRequest r, final List<ImagePlus> images,
		final List<String> notes, final List<float[][]> missing)
	{
		if (r.samples != Samples.SLICES && r.missing != TableInput.Missing.DROP)
			throw new IllegalArgumentException("missing=" + r.missing.name().toLowerCase(
				Locale.ROOT) + " works with slices as samples only: use " +
				"samples=slices, or replace the NaN pixels first (Process > Math > Remove NaNs)");
		Dataset t;
		final List<Dataset> bs = new ArrayList<>();
		FeatureLayout layout = null;
		boolean[] targetPixels = null;
		String axesMode = null;
		final Roi roi = r.target.getRoi();
		if (r.samples == Samples.SLICES) {
			if (r.backgroundFromSelection) throw new IllegalArgumentException(
				"with slices as samples a selection cannot be the background (each slice is " +
					"one sample): choose a background stack, or use samples=pixels to compare " +
					"the pixels inside the selection with the others");
			if (r.backgroundRois != null) throw new IllegalArgumentException(
				"with slices as samples ROIs cannot be backgrounds (each slice is one " +
					"sample): choose background stacks, or use samples=pixels to compare " +
					"the pixels inside the ROIs with the others");
			final StackReader target = sliceReader(r, images, roi);
			axesMode = target.axes().mode;
			layout = target.layout();
			t = slices(r, target, missing);
			final List<String> classes = target.labels();
			if (classes != null) t = t.withLabels(classes);
			for (int j = 0; j < images.size(); j++)
				bs.add(slices(r, target.alike(backgroundName(images, j), images.get(j)).with(
					layout), missing));
			if (target.note() != null) notes.add(target.note());
		}
		else if (r.backgroundRois != null) {
			final int w = r.target.getWidth(), h = r.target.getHeight();
			if (r.backgroundRois.isEmpty()) throw new IllegalArgumentException("there are no " +
				"ROIs to use as backgrounds: add area ROIs around background regions (ROI " +
				"Manager, or the target's overlay), or choose another background source");
			final List<String> classes = new ArrayList<>(Collections.nCopies(w * h,
				"outside ROIs"));
			for (int j = 0; j < r.backgroundRois.size(); j++) {
				final Roi br = r.backgroundRois.get(j);
				final String name = "background " + (j + 1) + (br.getName() == null ? ""
					: " (" + br.getName() + ")");
				if (!br.isArea()) throw new IllegalArgumentException("ROI " + (j + 1) + " (" +
					br.getName() + ") is not an area: background regions must be areas " +
					"(rectangle, oval, polygon, freehand…)");
				final boolean[] in = PixelSamples.inside(br, w, h);
				if (PixelSamples.count(in, w * h) == 0) throw new IllegalArgumentException(
					name + " holds no pixel of the target: draw it inside the image");
				for (int p = 0; p < in.length; p++)
					if (in[p] && classes.get(p).equals("outside ROIs")) classes.set(p, name);
				bs.add(PixelSamples.toDataset(name, r.target, in));
			}
			t = PixelSamples.toDataset("target", r.target, null).withLabels(classes);
		}
		else {
			final int w = r.target.getWidth(), h = r.target.getHeight();
			if (r.backgroundFromSelection) {
				final boolean[] in;
				if (r.backgroundMask != null) in = maskPixels(r.backgroundMask, w, h);
				else {
					if (roi == null || !roi.isArea()) throw new IllegalArgumentException(
						"the target has no area selection to use as background: draw one " +
							"(rectangle, oval, freehand…) around background pixels, or choose a " +
							"background image or mask");
					in = PixelSamples.inside(roi, w, h);
				}
				final int inside = PixelSamples.count(in, w * h);
				if (inside == w * h) throw new IllegalArgumentException("the background " +
					"region covers the whole target: mark the background pixels only");
				if (inside == 0) throw new IllegalArgumentException("the background region " +
					"holds no pixel: the mask must be nonzero on the background pixels");
				t = PixelSamples.toDataset("target", r.target, null);
				final List<String> classes = new ArrayList<>(w * h);
				for (final boolean f : in)
					classes.add(f ? "background (selection)" : "outside selection");
				t = t.withLabels(classes);
				bs.add(PixelSamples.toDataset("background (selection)", r.target, in));
			}
			else {
				if (roi != null && roi.isArea()) targetPixels = PixelSamples.inside(roi, w,
					h);
				t = PixelSamples.toDataset("target", r.target, targetPixels);
				for (int j = 0; j < images.size(); j++) {
					final ImagePlus bi = images.get(j);
					final String name = backgroundName(images, j);
					if (bi.getStackSize() != r.target.getStackSize())
						throw new IllegalArgumentException(name + " has " + bi.getStackSize() +
							" planes but target has " + r.target.getStackSize() + ": with pixels " +
							"as samples the planes (channels, slices, frames) are the features, " +
							"so both need the same number");
					final Roi broi = bi.getRoi();
					bs.add(PixelSamples.toDataset(name, bi, broi != null && broi.isArea()
						? PixelSamples.inside(broi, bi.getWidth(), bi.getHeight()) : null));
				}
			}
		}
		final ImageDatasets d = new ImageDatasets(t, bs, layout, targetPixels);
		d.axesMode = axesMode;
		return d;
	}

	/**
	 * Slices as samples: the backgrounds checked against the target, the target's axes
	 * read as the request says, and the layout (the request's binning; the target's area
	 * selection, once per channel when channels are features).
	 */
	private static StackReader sliceReader(final AnalysisRequest r,
		final List<ImagePlus> images, final Roi roi)
	{
		for (final ImagePlus imp : images)
			StackSamples.checkCompatible(r.target, imp);
		// hyperstacks: channels × slices × frames read as the axes choice says
		final StackReader target = StackReader.of("target", r.target, r.axes);
		final Axes axes = target.axes();
		// channels against other channels: only every plane as a sample (planes, when
		// asked for) or one channel of each (cN) compares them
		if (!axes.mode.matches("c[0-9]+") && !(axes.mode.equals("planes") && r.axes != null &&
			!r.axes.trim().equalsIgnoreCase("auto")))
			for (final ImagePlus imp : images)
				StackSamples.checkSameChannels(r.target, imp);
		return target.select(null, roi != null && roi.isArea() ? roi : null, r.bin);
	}

	/**
	 * Slices as samples from virtual stacks, to be read in passes ({@link StreamedRun},
	 * docs/memory.md) instead of copied into memory: the sources (each reads one slice at a
	 * time, a TIFF virtual stack runs of pixels), with the layout, labels and notes of
	 * {@link #read}.
	 */
	static final class Streamed {

		final SampleSource target;
		final List<SampleSource> backgrounds = new ArrayList<>();
		final FeatureLayout layout;
		final String axesMode;
		/** The target slices' names. */
		final List<String> names;
		final List<String> notes = new ArrayList<>();

		private Streamed(final SampleSource target, final FeatureLayout layout,
			final String axesMode, final List<String> names)
		{
			this.target = target;
			this.layout = layout;
			this.axesMode = axesMode;
			this.names = names;
		}

		/** Releases the files the sources hold open. */
		void close() {
			try {
				target.close();
				for (final SampleSource b : backgrounds)
					b.close();
			}
			catch (final IOException e) {
				throw new UncheckedIOException(e);
			}
		}
	}

	/**
	 * The request's images as sources read in passes when the target or a background is a
	 * virtual stack, slices are the samples, NaN pixels are refused and the method runs on
	 * the streamed plan ({@link StreamedRun#streams}, no significance test); {@code null}
	 * otherwise (the images are then {@link #read} into memory).
	 */
	static Streamed streamed(final AnalysisRequest r, final List<ImagePlus> images) {
		if (r.samples != Samples.SLICES || r.missing != TableInput.Missing.DROP ||
			r.backgroundFromSelection || r.backgroundRois != null || r.settings
				.significance() > 0) return null;
		boolean virtual = r.target.getStack().isVirtual();
		long n = r.target.getStackSize();
		for (final ImagePlus imp : images) {
			virtual |= imp.getStack().isVirtual();
			n += imp.getStackSize();
		}
		if (!virtual) return null;
		final StackReader target = sliceReader(r, images, r.target.getRoi());
		final FeatureLayout layout = target.layout();
		if (!StreamedRun.streams(r.settings, n, layout.features())) return null;
		final Streamed s = new Streamed(target.source(), layout, target.axes().mode, target
			.sampleNames());
		for (int j = 0; j < images.size(); j++)
			s.backgrounds.add(target.alike(backgroundName(images, j), images.get(j)).with(
				layout).source());
		if (target.note() != null) s.notes.add(target.note());
		return s;
	}

	/** "background" for one image, "background j (title)" for several. */
	private static String backgroundName(final List<ImagePlus> images, final int j) {
		return images.size() == 1 ? "background" : "background " + (j + 1) + " (" + images
			.get(j).getTitle() + ")";
	}

	/** Nonzero pixels of a single-plane mask of the given size. */
	private static boolean[] maskPixels(final ImagePlus mask, final int w, final int h) {
		if (mask.getWidth() != w || mask.getHeight() != h) throw new IllegalArgumentException(
			"the background mask is " + mask.getWidth() + "×" + mask.getHeight() +
				" but the target is " + w + "×" + h + ": use a mask of the target's size");
		final ImageProcessor ip = mask.getProcessor();
		final boolean[] in = new boolean[w * h];
		for (int p = 0; p < in.length; p++)
			in[p] = ip.getf(p) != 0;
		return in;
	}
}
