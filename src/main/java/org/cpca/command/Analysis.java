package org.cpca.command;

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

	/** Which way an image stack becomes samples × features. */
	public enum Samples {
			/** Each slice is a sample; its pixels are the features. */
			SLICES,
			/** Each pixel is a sample; its values in the planes of the stack are the features. */
			PIXELS;

		/** "slices" or "pixels" (also accepts "slices as samples", …). */
		public static Samples parse(final String text) {
			final String s = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
			if (s.startsWith("slice")) return SLICES;
			if (s.startsWith("pixel")) return PIXELS;
			throw new IllegalArgumentException("samples=" + text +
				" is not known: use slices (each slice is a sample) or pixels (each pixel is " +
				"a sample)");
		}
	}

	/** What to analyse and how; a mutable builder, validated by {@link Analysis#run}. */
	public static final class Request {

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
		int epochs = org.cpca.core.online.OnlineOptions.DEFAULT_EPOCHS;
		String kernel = "rbf";
		String gamma = "auto";
		double degree = KernelFunction.DEFAULT_DEGREE;
		double coef0 = KernelFunction.DEFAULT_COEF0;
		String landmarks = "auto";

		public Request target(final ImagePlus imp) {
			target = imp;
			return this;
		}

		/** The target image given so far, or {@code null}. */
		public ImagePlus target() {
			return target;
		}

		/** Another image as background ({@code null}: none, e.g. for PCA). */
		public Request background(final ImagePlus imp) {
			background = imp;
			backgroundRois = null;
			backgroundFromSelection = false;
			return this;
		}

		/**
		 * Further background images besides {@link #background(ImagePlus)}, for methods
		 * that take several (UCA, rPCA); each is read like the first.
		 */
		public Request moreBackgrounds(final List<ImagePlus> images) {
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
		public Request backgroundsFromRois(final List<Roi> rois) {
			background = null;
			backgroundMask = null;
			backgroundFromSelection = false;
			moreBackgrounds.clear();
			backgroundRois = rois == null ? new ArrayList<>() : new ArrayList<>(rois);
			return this;
		}

		/** UCA, rPCA with several backgrounds: pool them into one ("stacked"). */
		public Request stacked(final boolean on) {
			stacked = on;
			return this;
		}

		/** rPCA: k_b, "auto" (elbow rule), a count, or one value per background. */
		public Request backgroundComponents(final String text) {
			backgroundComponents = text;
			return this;
		}

		/** The pixels inside the target's selection as background (pixels as samples). */
		public Request backgroundFromSelection() {
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
		public Request backgroundFromMask(final ImagePlus mask) {
			if (mask == null) throw new IllegalArgumentException("background_source=mask " +
				"needs a background mask image: choose one whose nonzero pixels mark the " +
				"background region");
			background = null;
			backgroundRois = null;
			backgroundFromSelection = true;
			backgroundMask = mask;
			return this;
		}

		public Request samples(final Samples s) {
			samples = s;
			return this;
		}

		/** "cpca" or "pca". */
		public Request method(final String m) {
			method = m;
			return this;
		}

		/**
		 * α the way the command line takes it: a number ≥ 0, "inf" or "auto".
		 */
		public Request alpha(final String text) {
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
		public Request alpha(final String mode, final double value) {
			alphaMode = mode;
			alpha = value;
			return this;
		}

		/**
		 * cPCA*'s β the way the command line takes it: a number in [0, 1] or "auto".
		 */
		public Request beta(final String text) {
			final double b = MethodSettings.parseBeta(text, "beta");
			betaMode = Double.isNaN(b) ? "auto" : "fixed";
			if (!Double.isNaN(b)) beta = b;
			return this;
		}

		/** cPCA*: "auto" or "fixed" (then {@code value} is β). */
		public Request beta(final String mode, final double value) {
			betaMode = mode;
			beta = value;
			return this;
		}

		/** cPCA++ and cPCA* at β = 1: ε of the regularisation of a singular C_b. */
		public Request epsilon(final double e) {
			epsilon = e;
			return this;
		}

		public Request components(final int k) {
			components = k;
			return this;
		}

		public Request standardize(final boolean on) {
			standardize = on;
			return this;
		}

		public Request whiten(final boolean on) {
			whiten = on;
			return this;
		}

		public Request bin(final int n) {
			bin = n;
			return this;
		}

		public Request seed(final long s) {
			seed = s;
			return this;
		}

		/** Online cPCA* (method "online"): step size η, τ and the number of epochs. */
		public Request online(final double newEta, final double newTau, final int newEpochs) {
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
		public Request kernel(final String name, final String gammaText,
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

	/** Attribute key of the sample orientation in model files ("slices" or "pixels"). */
	public static final String SAMPLES_KEY = "samples";
	/** Attribute key of the number of planes (features) of a pixels-as-samples model. */
	public static final String PLANES_KEY = "image.planes";

	/** Most points drawn in a pixels-as-samples scatter plot (a regular subsample). */
	static final int MAX_PLOTTED_PIXELS = 20000;

	private final Request request;
	private final Dataset targetData;
	private final Solution solution;
	/** Slices as samples: the pixel layout of the features. */
	private final FeatureLayout layout;
	/** Pixels as samples: the target pixels that are samples (null: all). */
	private final boolean[] targetPixels;

	private Analysis(final Request request, final Dataset targetData,
		final Solution solution, final FeatureLayout layout, final boolean[] targetPixels)
	{
		this.request = request;
		this.targetData = targetData;
		this.solution = solution;
		this.layout = layout;
		this.targetPixels = targetPixels;
	}

	/**
	 * Reads the images, fits and solves.
	 *
	 * @throws IllegalArgumentException naming the problem and what to do
	 * @throws java.util.concurrent.CancellationException if {@code progress} says so
	 */
	public static Analysis run(final Request r, final Progress progress) {
		final Method method;
		try {
			method = Method.parse(r.method);
		}
		catch (final IllegalArgumentException e) {
			throw new IllegalArgumentException("method=" + r.method + " is not known: use " +
				"one of " + Method.names());
		}
		final String mode = r.alphaMode == null ? "" : r.alphaMode.trim().toLowerCase(
			Locale.ROOT);
		if (!mode.equals("auto") && !mode.equals("fixed") && !mode.equals("inf"))
			throw new IllegalArgumentException("alpha_mode=" + r.alphaMode +
				" is not known: use auto (automatic selection), fixed (the given alpha) or " +
				"inf (the background's null space)");
		if (mode.equals("fixed") && !(r.alpha >= 0 && r.alpha < Double.POSITIVE_INFINITY))
			throw new IllegalArgumentException("alpha must be ≥ 0 (got " + r.alpha +
				"): use 0 for PCA, a positive value, or alpha_mode=inf / auto");
		final String bmode = r.betaMode == null ? "" : r.betaMode.trim().toLowerCase(
			Locale.ROOT);
		if (method == Method.STAR) {
			if (!bmode.equals("auto") && !bmode.equals("fixed"))
				throw new IllegalArgumentException("beta_mode=" + r.betaMode + " is not known:" +
					" use auto (automatic selection) or fixed (the given beta)");
			if (bmode.equals("fixed") && !(r.beta >= 0 && r.beta <= 1))
				throw new IllegalArgumentException("beta must be in [0, 1] (got " + r.beta +
					"): 0 is PCA, values towards 1 weight the background more, 1 is cPCA++; " +
					"or beta_mode=auto");
		}
		if ((method == Method.STAR || method == Method.CPCAPP) && !(r.epsilon > 0 &&
			r.epsilon < Double.POSITIVE_INFINITY)) throw new IllegalArgumentException(
				"epsilon must be > 0 (got " + r.epsilon + "): the regularisation δ = ε·trace" +
					"(C_b)/d of a singular background covariance, e.g. 1e-6");
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
		final CpcaOptions options = CpcaOptions.defaults().withComponents(r.components)
			.withStandardize(r.standardize).withWhiten(r.whiten).withSeed(r.seed);

		progress.stage("reading images", 0);
		Dataset t;
		final List<Dataset> bs = new ArrayList<>();
		FeatureLayout layout = null;
		boolean[] targetPixels = null;
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
			for (final ImagePlus imp : images)
				StackSamples.checkCompatible(r.target, imp);
			layout = StackSamples.layoutFor(r.target, null, roi != null && roi.isArea()
				? roi : null, r.bin);
			t = StackSamples.toDataset("target", r.target, layout);
			final List<String> classes = StackSamples.classLabels(r.target);
			if (classes != null) t = t.withLabels(classes);
			for (int j = 0; j < images.size(); j++)
				bs.add(StackSamples.toDataset(backgroundName(images, j), images.get(j),
					layout));
		}
		else if (r.backgroundRois != null) {
			final int w = r.target.getWidth(), h = r.target.getHeight();
			if (r.backgroundRois.isEmpty()) throw new IllegalArgumentException("there are no " +
				"ROIs to use as backgrounds: add area ROIs around background regions (ROI " +
				"Manager, or the target's overlay), or choose another background source");
			final List<String> classes = new ArrayList<>(java.util.Collections.nCopies(w * h,
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
		progress.checkCancelled();
		final MethodSettings settings = new MethodSettings().method(method).alpha(mode
			.equals("auto") ? Double.NaN : mode.equals("inf") ? Double.POSITIVE_INFINITY
				: r.alpha).beta(bmode.equals("fixed") ? r.beta : Double.NaN).online(r.eta, r.tau,
					r.epochs).stacked(r.stacked).backgroundComponents(MethodSettings
						.parseBackgroundComponents(r.backgroundComponents, "k_b=")).epsilon(
							r.epsilon);
		if (method == Method.KERNEL) settings.kernel(MethodSettings.parseKernel(r.kernel,
			r.gamma, r.degree, r.coef0, "")).landmarks(MethodSettings.parseLandmarks(
				r.landmarks, "landmarks"));
		final Solution solution = MethodRunner.run(settings, t, bs, options, progress);
		progress.stage("done", 1);
		return new Analysis(r, t, solution, layout, targetPixels);
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
		final ij.process.ImageProcessor ip = mask.getProcessor();
		final boolean[] in = new boolean[w * h];
		for (int p = 0; p < in.length; p++)
			in[p] = ip.getf(p) != 0;
		return in;
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

	/** Notes of all models, without repeats. */
	public List<String> diagnostics() {
		return solution.diagnostics();
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

	private String targetTitle() {
		return request.target.getTitle();
	}

	/**
	 * Slices as samples: the (contrastive) eigen-images of every model, one 32-bit slice
	 * per component and α, labelled with component, α and eigenvalue, with the
	 * blue–white–red table centred on zero.
	 *
	 * @throws IllegalStateException for pixels as samples (see {@link #scoreImages()})
	 */
	public ImagePlus eigenImages() {
		if (layout == null) throw new IllegalStateException(
			"eigen-images exist for slices as samples; with pixels as samples see the " +
				"score images");
		if (!solution.linear()) throw new IllegalStateException(solution.method().displayName +
			" has no eigen-images (its components live in the kernel's feature space): " +
			"see the extreme samples instead");
		final ImagePlus imp = ModelViews.eigenImages((solution.method() == Method.PCA
			? "Eigen-images of " : "Contrastive eigen-images of ") + targetTitle(), solution
				.linearModels(), layout);
		if (layout.bin() == 1) imp.setCalibration(request.target.getCalibration().copy());
		return imp;
	}

	/**
	 * Slices as samples, for methods without eigen-images (kernel cPCA): per component of
	 * the main model, the target slices with the {@value ExtremeSamples#COUNT} highest and
	 * lowest scores ({@link ExtremeSamples}), in the target's units; the title and the
	 * image's info say why there are no eigen-images.
	 */
	public ImagePlus extremeSamples() {
		if (layout == null) throw new IllegalStateException("extreme samples are shown " +
			"for slices as samples; with pixels as samples see the score images");
		final ImagePlus imp = ExtremeSamples.stack("Extreme samples of " + targetTitle() +
			" (" + solution.method().displayName + ": no eigen-images)", primary(),
			targetData, layout, ExtremeSamples.COUNT);
		if (layout.bin() == 1) imp.setCalibration(request.target.getCalibration().copy());
		imp.setProperty("Info", String.join("\n", diagnostics()));
		return imp;
	}

	/**
	 * Pixels as samples: one score image per component and α (the target's pixels
	 * projected on the component), 32-bit with the target's calibration and the
	 * blue–white–red table centred on zero; pixels that are not samples are NaN.
	 *
	 * @throws IllegalStateException for slices as samples
	 */
	public ImagePlus scoreImages() {
		if (layout != null) throw new IllegalStateException(
			"score images exist for pixels as samples; with slices as samples see the " +
				"eigen-images and the scores table");
		final ImagePlus t = request.target;
		final Dataset pixels = request.backgroundFromSelection || targetPixels == null
			? targetData : PixelSamples.toDataset("target", t, null);
		final List<double[][]> perModel = new ArrayList<>();
		final List<String> labels = new ArrayList<>();
		int columns = 0;
		for (final FittedModel m : models()) {
			perModel.add(m.transform(pixels));
			for (int c = 0; c < m.numComponents(); c++)
				labels.add(ModelViews.componentLabel(m, c));
			columns += m.numComponents();
		}
		final double[][] all = new double[pixels.samples()][columns];
		int offset = 0;
		for (final double[][] s : perModel) {
			final int k = s.length == 0 ? 0 : s[0].length;
			for (int i = 0; i < s.length; i++)
				System.arraycopy(s[i], 0, all[i], offset, k);
			offset += k;
		}
		final ImagePlus imp = PixelSamples.toStack(prefix() + " score images of " +
			targetTitle(), all, t.getWidth(), t.getHeight(), null, labels, t
				.getCalibration());
		DivergingLut.apply(imp);
		return imp;
	}

	/**
	 * Pixels as samples: each component of the main model across the planes of the
	 * stack (its loading on plane 1, 2, …).
	 */
	public ImagePlus loadingsPlot() {
		if (!(primary() instanceof CpcaModel)) throw new IllegalStateException(solution
			.method().displayName + " has no loadings on the planes");
		final CpcaModel m = (CpcaModel) primary();
		final double[][] comps = m.components();
		final int d = comps[0].length;
		final double[] x = new double[d];
		for (int j = 0; j < d; j++)
			x[j] = j + 1;
		final Plot plot = new Plot("Components of " + targetTitle() + " across planes",
			"plane (channel / slice / frame)", "loading");
		plot.setSize(ScatterPlot.WIDTH, ScatterPlot.HEIGHT);
		final StringBuilder legend = new StringBuilder();
		for (int c = 0; c < comps.length; c++) {
			plot.setLineWidth(1.5f);
			plot.setColor(Palette.color(c), Palette.color(c));
			plot.add("connected circle", x, comps[c]);
			legend.append(c == 0 ? "" : "\n").append(ModelViews.componentLabel(m, c));
		}
		plot.setColor(java.awt.Color.BLACK);
		plot.setLineWidth(1);
		plot.setLegend(legend.toString(), Plot.AUTO_POSITION);
		return plot.getImagePlus();
	}

	/**
	 * Scatter plot of the target samples on the first two components, coloured by class
	 * (slice labels that repeat; for pixels as samples, inside / outside the selection);
	 * for several α one panel per α in one image. Pixels as samples draw a regular
	 * subsample of at most {@value #MAX_PLOTTED_PIXELS} points.
	 */
	public ImagePlus scatterPlot() {
		final int n = targetData.samples();
		final int stride = layout == null ? Math.max(1, (n + MAX_PLOTTED_PIXELS - 1) /
			MAX_PLOTTED_PIXELS) : 1;
		final ImagePlus imp = ModelViews.scatterPlot(models(), targetData.labels(),
			targetTitle(), stride);
		imp.setTitle(solution.method().displayName + " scatter plot of " + targetTitle());
		return imp;
	}

	/**
	 * For automatic α: the (target variance, background variance) pairs of the top cPC
	 * along the α sweep, the chosen α values marked (ALGORITHMS.md §2.2).
	 */
	public ImagePlus variancePairsPlot() {
		if (selection() == null) throw new IllegalStateException(
			"the variance-pairs plot needs automatic α (alpha_mode=auto)");
		final ImagePlus imp = VariancePairsPlot.render("target vs background variance, " +
			targetTitle(), cpca(), selection());
		imp.setTitle("cPCA variance pairs of " + targetTitle());
		return imp;
	}

	/**
	 * The curves the method reported (e.g. cPCA*'s separation of the classes against β),
	 * one plot each; empty when there are none.
	 */
	public List<ImagePlus> curvePlots() {
		final List<ImagePlus> out = new ArrayList<>();
		for (final org.cpca.core.Curve c : solution.curves()) {
			final ImagePlus imp = org.cpca.render.CurvePlot.render(c);
			imp.setTitle(c.title + ", " + targetTitle());
			out.add(imp);
		}
		return out;
	}

	/** The eigenvalues of the main model against component index. */
	public ImagePlus screePlot() {
		final ImagePlus imp = ScreePlot.render("eigenvalues, " + ModelViews.title(primary()), primary()
			.eigenvalues());
		imp.setTitle("Eigenvalues of " + targetTitle());
		return imp;
	}

	/**
	 * Scores of the target samples: one row per sample and α, with columns
	 * {@code sample}, {@code label}, {@code alpha}, {@code cPC1} … (for pixels as
	 * samples also {@code x}, {@code y}).
	 */
	public ResultsTable scoresTable() {
		final ResultsTable rt = new ResultsTable();
		rt.showRowNumbers(false);
		final List<String> labels = targetData.labels();
		final List<String> names = targetData.sampleNames();
		final int w = request.target.getWidth();
		final int[] pixel = layout == null ? pixelIndices() : null;
		for (final FittedModel m : models()) {
			final double[][] s = m.targetScores();
			for (int i = 0; i < s.length; i++) {
				rt.incrementCounter();
				if (pixel == null) rt.addValue("sample", names == null ? "" + (i + 1) : names
					.get(i));
				else {
					rt.addValue("x", pixel[i] % w);
					rt.addValue("y", pixel[i] / w);
				}
				rt.addValue("label", labels == null ? "" : labels.get(i));
				addSetting(rt, m);
				for (int c = 0; c < s[i].length; c++)
					rt.addValue(prefix() + (c + 1), s[i][c]);
			}
		}
		return rt;
	}

	/** The α column, then one column per scalar parameter of the method (e.g. beta). */
	private static void addSetting(final ResultsTable rt, final FittedModel m) {
		rt.addValue("alpha", alphaText(m.alpha()));
		m.parameters().forEach((key, v) -> {
			if (v instanceof Double) rt.addValue(key, alphaText((Double) v));
		});
	}

	private int[] pixelIndices() {
		final int size = request.target.getWidth() * request.target.getHeight();
		final boolean[] keep = request.backgroundFromSelection ? null : targetPixels;
		final int[] out = new int[PixelSamples.count(keep, size)];
		int q = 0;
		for (int i = 0; i < size; i++)
			if (keep == null || keep[i]) out[q++] = i;
		return out;
	}

	/**
	 * One row per α and component: {@code alpha}, {@code component}, {@code eigenvalue},
	 * {@code target_variance}, {@code background_variance},
	 * {@code fraction_of_target_variance}.
	 */
	public ResultsTable componentsTable() {
		final ResultsTable rt = new ResultsTable();
		rt.showRowNumbers(false);
		for (final FittedModel m : models()) {
			final double[] ev = m.eigenvalues(), tv = m.targetVariance(), bv = m
				.backgroundVariance(), f = m.fractionOfTargetVariance();
			for (int c = 0; c < ev.length; c++) {
				rt.incrementCounter();
				addSetting(rt, m);
				rt.addValue("component", prefix() + (c + 1));
				rt.addValue("eigenvalue", ev[c]);
				rt.addValue("target_variance", tv[c]);
				rt.addValue("background_variance", bv[c]);
				rt.addValue("fraction_of_target_variance", f[c]);
			}
		}
		return rt;
	}
}
