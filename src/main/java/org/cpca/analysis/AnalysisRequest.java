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
import org.cpca.core.data.Dataset;
import org.cpca.core.model.FittedModel;
import org.cpca.core.kernel.KernelFunction;
import org.cpca.core.run.Method;
import org.cpca.core.run.MethodRunner;
import org.cpca.core.run.MethodSettings;
import org.cpca.core.Progress;
import org.cpca.core.run.Solution;
import org.cpca.image.DivergingLut;
import org.cpca.image.FeatureLayout;
import org.cpca.image.StackSamples;
import org.cpca.render.ExtremeSamples;
import org.cpca.render.Palette;
import org.cpca.render.ModelViews;
import org.cpca.render.ScatterPlot;
import org.cpca.render.ScreePlot;
import org.cpca.render.VariancePairsPlot;

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
	/** Several backgrounds pooled into one (UCA, rPCA). */
	boolean stacked;
	/** rPCA: k_b as text ("auto", a count, or one per background). */
	String backgroundComponents = "auto";
	Samples samples = Samples.SLICES;
	String method = "cpca";
	String alphaMode = "auto";
	double alpha = 2;
	String betaMode = "auto";
	double beta = 0.5;
	double epsilon = CpcaStar.DEFAULT_REGULARIZATION;
	int components = 2;
	boolean standardize;
	boolean whiten;
	int bin = 1;
	long seed;
	double eta = org.cpca.core.online.OnlineOptions.DEFAULT_ETA;
	double tau = org.cpca.core.online.OnlineOptions.DEFAULT_TAU;
	int epochs = 1;
	String kernel = "rbf";
	String gamma = "auto";
	double degree = KernelFunction.DEFAULT_DEGREE;
	double coef0 = KernelFunction.DEFAULT_COEF0;
	String landmarks = "auto";

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

	/** UCA, rPCA with several backgrounds: pool them into one ("stacked"). */
	public AnalysisRequest stacked(final boolean on) {
		stacked = on;
		return this;
	}

	/** rPCA: k_b, "auto" (elbow rule), a count, or one value per background. */
	public AnalysisRequest backgroundComponents(final String text) {
		backgroundComponents = text;
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

	public AnalysisRequest samples(final Samples s) {
		samples = s;
		return this;
	}

	/** "cpca" or "pca". */
	public AnalysisRequest method(final String m) {
		method = m;
		return this;
	}

	/**
	 * α the way the command line takes it: a number ≥ 0, "inf" or "auto".
	 */
	public AnalysisRequest alpha(final String text) {
		final String s = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
		if (s.equals("auto") || s.equals("inf") || s.equals("infinity") || s.equals(
			"∞"))
		{
			alphaMode = s.equals("auto") ? "auto" : "inf";
			return this;
		}
		try {
			alpha = Double.parseDouble(s);
		}
		catch (final NumberFormatException e) {
			throw new IllegalArgumentException("alpha=" + text +
				" is not a number: use a value ≥ 0, inf or auto");
		}
		alphaMode = "fixed";
		return this;
	}

	/** "auto", "fixed" (then {@code value} is α) or "inf". */
	public AnalysisRequest alpha(final String mode, final double value) {
		alphaMode = mode;
		alpha = value;
		return this;
	}

	/**
	 * cPCA*'s β the way the command line takes it: a number in [0, 1] or "auto".
	 */
	public AnalysisRequest beta(final String text) {
		final double b = MethodSettings.parseBeta(text, "beta");
		betaMode = Double.isNaN(b) ? "auto" : "fixed";
		if (!Double.isNaN(b)) beta = b;
		return this;
	}

	/** cPCA*: "auto" or "fixed" (then {@code value} is β). */
	public AnalysisRequest beta(final String mode, final double value) {
		betaMode = mode;
		beta = value;
		return this;
	}

	/** cPCA++ and cPCA* at β = 1: ε of the regularisation of a singular C_b. */
	public AnalysisRequest epsilon(final double e) {
		epsilon = e;
		return this;
	}

	public AnalysisRequest components(final int k) {
		components = k;
		return this;
	}

	public AnalysisRequest standardize(final boolean on) {
		standardize = on;
		return this;
	}

	public AnalysisRequest whiten(final boolean on) {
		whiten = on;
		return this;
	}

	public AnalysisRequest bin(final int n) {
		bin = n;
		return this;
	}

	public AnalysisRequest seed(final long s) {
		seed = s;
		return this;
	}

	/** Online cPCA* (method "online"): step size η, τ and the number of epochs. */
	public AnalysisRequest online(final double newEta, final double newTau, final int newEpochs) {
		eta = newEta;
		tau = newTau;
		epochs = newEpochs;
		return this;
	}

	/**
	 * Kernel cPCA's settings as the user gives them (checked by {@link Analysis#run}):
	 * kernel linear, poly or rbf; gamma a number &gt; 0 or "auto"; degree and coef0 of
	 * the poly kernel; landmarks "auto", "all" or a number.
	 */
	public AnalysisRequest kernel(final String name, final String gammaText,
		final double polyDegree, final double polyCoef0, final String landmarksText)
	{
		kernel = name;
		gamma = gammaText;
		degree = polyDegree;
		coef0 = polyCoef0;
		landmarks = landmarksText;
		return this;
	}
}
