package org.cpca.analysis;

import org.cpca.core.run.Settings;

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
import org.cpca.core.data.Dataset;
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
import org.cpca.io.TableInput;

/** What to analyse and how; a mutable builder, validated by {@link Analysis#run}. */
public final class AnalysisRequest {

	ImagePlus target;
	ImagePlus background;
	boolean backgroundFromSelection;
	/** With pixels as samples: nonzero pixels of this image are the background region. */
	ImagePlus backgroundMask;
	/** Further background images (UCA and rPCA take several). */
	final List<ImagePlus> moreBackgrounds = new ArrayList<>();
	/** Pixels as samples: each region is one background (UCA, rPCA). */
	List<Roi> backgroundRois;
	Samples samples = Samples.SLICES;
	/** The method and its settings (one parser for every front end). */
	Settings settings = Settings.defaults();
	int bin = 1;
	/** How a hyperstack's axes are read ({@link org.cpca.image.Axes#VALUES}); null: auto. */
	String axes;
	/** NaN pixels (slices as samples): refused (drop), filled (mean, zero) or modelled. */
	TableInput.Missing missing = TableInput.Missing.DROP;

	public AnalysisRequest target(final ImagePlus imp) {
		target = imp;
		return this;
	}

	/** The target image given so far, or {@code null}. */
	public ImagePlus target() {
		return target;
	}

	/** Another image as background ({@code null}: none, e.g. for PCA). */
	public AnalysisRequest background(final ImagePlus imp) {
		background = imp;
		backgroundRois = null;
		backgroundFromSelection = false;
		return this;
	}

	/**
	 * Further background images besides {@link #background(ImagePlus)}, for methods
	 * that take several (UCA, rPCA); each is read like the first.
	 */
	public AnalysisRequest moreBackgrounds(final List<ImagePlus> images) {
		moreBackgrounds.clear();
		if (images != null) moreBackgrounds.addAll(images);
		return this;
	}

	/**
	 * Pixels as samples: each area ROI (of the ROI Manager or the target's overlay)
	 * marks one background region of the target; the target's samples are all its
	 * pixels. Several regions are several backgrounds (UCA, rPCA; or one pooled with
	 * {@link #stacked}).
	 */
	public AnalysisRequest backgroundsFromRois(final List<Roi> rois) {
		background = null;
		backgroundMask = null;
		backgroundFromSelection = false;
		moreBackgrounds.clear();
		backgroundRois = rois == null ? new ArrayList<>() : new ArrayList<>(rois);
		return this;
	}

	/** The pixels inside the target's selection as background (pixels as samples). */
	public AnalysisRequest backgroundFromSelection() {
		backgroundRois = null;
		background = null;
		backgroundMask = null;
		backgroundFromSelection = true;
		return this;
	}

	/**
	 * The target's pixels where {@code mask} is nonzero as background (pixels as
	 * samples); the mask must have the target's width × height.
	 */
	public AnalysisRequest backgroundFromMask(final ImagePlus mask) {
		if (mask == null) throw new IllegalArgumentException("background_source=mask " +
			"needs a background mask image: choose one whose nonzero pixels mark the " +
			"background region");
		background = null;
		backgroundRois = null;
		backgroundFromSelection = true;
		backgroundMask = mask;
		return this;
	}

	/** The method and its settings. */
	public AnalysisRequest settings(final Settings s) {
		settings = s;
		return this;
	}

	/** The method and its settings given so far. */
	public Settings settings() {
		return settings;
	}

	public AnalysisRequest samples(final Samples s) {
		samples = s;
		return this;
	}

	/** How a hyperstack's axes are read: {@link org.cpca.image.Axes#VALUES}. */
	public AnalysisRequest axes(final String a) {
		axes = a;
		return this;
	}

	/**
	 * What to do with NaN (missing) pixels, as {@code --missing}: drop (refuse them), mean,
	 * zero (fill them) or model (PCPCA fits them by EM; docs/math/pcpca.md#missing-values).
	 */
	public AnalysisRequest missing(final String text) {
		missing = TableInput.parseMissing(text);
		return this;
	}

	public AnalysisRequest bin(final int n) {
		bin = n;
		return this;
	}
}
