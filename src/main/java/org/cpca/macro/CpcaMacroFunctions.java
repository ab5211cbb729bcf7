package org.cpca.macro;

import java.util.Map;

import org.cpca.core.run.Settings;

import ij.IJ;
import ij.ImagePlus;
import ij.Macro;
import ij.WindowManager;
import ij.macro.ExtensionDescriptor;
import ij.macro.Functions;
import ij.macro.Interpreter;
import ij.macro.MacroExtension;
import ij.plugin.PlugIn;

import java.io.IOException;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.regex.Pattern;

import org.cpca.analysis.Analysis;
import org.cpca.analysis.AnalysisRequest;
import org.cpca.analysis.Samples;
import org.cpca.analysis.Backgrounds;
import org.cpca.analysis.IjProgress;
import org.cpca.analysis.ModelApplication;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.star.CpcaStar;
import org.cpca.core.model.FittedModel;
import org.cpca.core.kernel.KernelFunction;
import org.cpca.core.contrast.Measures;
import org.cpca.core.model.ModelFile;
import org.cpca.core.online.OnlineOptions;

/**
 * The ImageJ 1.x macro extension of Contrastive PCA, for plain ImageJ as well as Fiji:
 *
 * <pre>
 * run("Contrastive PCA Macro Functions");
 * Ext.cpcaFit("target.tif", "background.tif", "alpha=auto components=2");
 * Ext.getAlphas(alphas);            // "0,1.34,5.54,94.3": α = 0 (PCA) first
 * Ext.getBetas(betas);              // cPCA* (method=star): "0,0.32,0.98,1"
 * Ext.getEigenvalues(1, values);    // of the 2nd α, comma-separated
 * Ext.getParameter(0, "lambda", l); // a method's own setting: UCA's λ_j, rPCA's k_b, …
 * Ext.getScore(1, 0, 0, s);         // α index, sample, component (all 0-based)
 * Ext.showEigenImages();            // and showScatterPlot(), showTables(), …
 * </pre>
 *
 * {@code cpcaFit(target, background, options)}: target and background are image titles
 * ({@code ""}: the current image as target, no background); for UCA and rPCA the
 * background may be several titles separated by commas ({@code "bg1.tif,bg2.tif"}). With
 * {@code samples=pixels} the background may also be {@code "selection"} (the pixels inside
 * the target's selection), {@code "roi manager"} or {@code "overlay"} (each ROI of the ROI
 * Manager or of the target's overlay one background region). Options use the command's
 * keys: {@code samples=slices|pixels method=cpca|pca|star|cpcapp|online|kernel|uca|rpca
 * alpha=auto|inf|VALUE beta=auto|VALUE components=K standardize whiten bin=N seed=S
 * eta=η tau=τ epochs=N stacked k_b=auto|N|N,… epsilon=auto|ε} ({@code beta} is
 * cPCA*'s, in [0, 1]; {@code epsilon} regularises the background covariance for cPCA++
 * and cPCA* at β = 1, δ = ε·trace(C_b)/d, by default (auto) cPCA++'s Ledoit–Wolf
 * shrinkage and 1e-6 on a singular C_b for cPCA* (docs/math/star.md); online cPCA* takes a fixed β and {@code eta}, {@code tau},
 * {@code epochs}, and compares with offline cPCA* in its diagnostics; {@code stacked} and
 * {@code k_b} are UCA's and rPCA's; gcPCA takes {@code method=gcpca variant=v1|v2|v3|v4
 * orthogonal shuffles=N}, PCPCA {@code method=pcpca alpha=A} (with
 * {@code missing=model}: NaN pixels of 32-bit stacks fitted by EM; {@code missing=mean|zero}
 * fills them for any method), and cPCA and gcPCA
 * {@code sparsity=none|VALUE|auto}). With class labels,
 * cPCA*'s separation along its β grid comes from
 * {@code Ext.getSeparationAlongBeta("lda_accuracy", betas, values)} (or
 * {@code "symmetrized_kl"}). The model index of the other functions counts the models of
 * the fit: one per α, or per β for cPCA*. Kernel cPCA takes {@code kernel=rbf|poly|linear
 * gamma=auto|VALUE degree=D coef0=C landmarks=auto|all|L}, e.g.
 * {@code Ext.cpcaFit("target.tif", "background.tif", "method=kernel kernel=rbf alpha=auto")};
 * it has no eigen-images: {@code Ext.showExtremeSamples()} shows, per component, the
 * target slices with the highest and lowest scores.
 * Results stay available to the other functions until the next fit of the same macro
 * (each macro's results are its own, even when macros run at the same time); the fit
 * works on a copy of the images, so editing them afterwards changes no result. List results come
 * back as comma-separated text ({@code split(s, ",")}); α = ∞ is {@code inf}. Errors abort
 * the macro with a message naming the problem and the fix. Images are never modified.
 * <p>
 * Registered in {@code plugins.config} as Plugins &gt; Contrastive PCA &gt; Contrastive PCA
 * Macro Functions.
 */
public class CpcaMacroFunctions implements PlugIn, MacroExtension {

	private static final int S = ARG_STRING, N = ARG_NUMBER;
	private static final int OS = ARG_OUTPUT | ARG_STRING, ON = ARG_OUTPUT | ARG_NUMBER;

	/**
	 * The last fit of each macro: ImageJ 1.x runs each macro's interpreter on its own
	 * thread, so results are kept per thread and macros running at the same time never
	 * read each other's results.
	 */
	private static final ThreadLocal<Analysis> LAST = new ThreadLocal<>();

	private final ExtensionDescriptor[] functions = { //
		ExtensionDescriptor.newDescriptor("cpcaFit", this, S, S, S), //
		ExtensionDescriptor.newDescriptor("getAlphaCount", this, ON), //
		ExtensionDescriptor.newDescriptor("getAlphas", this, OS), //
		ExtensionDescriptor.newDescriptor("getBetas", this, OS), //
		ExtensionDescriptor.newDescriptor("getSeparationAlongBeta", this, S, OS, OS), //
		ExtensionDescriptor.newDescriptor("getEigenvalues", this, N, OS), //
		ExtensionDescriptor.newDescriptor("getTargetVariance", this, N, OS), //
		ExtensionDescriptor.newDescriptor("getBackgroundVariance", this, N, OS), //
		ExtensionDescriptor.newDescriptor("getNumSamples", this, ON), //
		ExtensionDescriptor.newDescriptor("getNumComponents", this, ON), //
		ExtensionDescriptor.newDescriptor("getScore", this, N, N, N, ON), //
		ExtensionDescriptor.newDescriptor("getScores", this, N, N, OS), //
		ExtensionDescriptor.newDescriptor("getLabels", this, OS), //
		ExtensionDescriptor.newDescriptor("getSeparation", this, N, S, ON), //
		ExtensionDescriptor.newDescriptor("getDiagnostics", this, OS), //
		ExtensionDescriptor.newDescriptor("getParameter", this, N, S, OS), //
		ExtensionDescriptor.newDescriptor("showEigenImages", this), //
		ExtensionDescriptor.newDescriptor("showExtremeSamples", this), //
		ExtensionDescriptor.newDescriptor("showScatterPlot", this), //
		ExtensionDescriptor.newDescriptor("showScreePlot", this), //
		ExtensionDescriptor.newDescriptor("showTables", this), //
		ExtensionDescriptor.newDescriptor("saveModel", this, N, S), //
		ExtensionDescriptor.newDescriptor("applyModel", this, S, S), //
	};

	@Override
	public void run(final String arg) {
		if (!IJ.macroRunning()) {
			IJ.error("Contrastive PCA", "These are macro functions: in a macro, call\n" +
				"run(\"Contrastive PCA Macro Functions\");\nthen Ext.cpcaFit(target, " +
				"background, options) and the other Ext. functions.");
			return;
		}
		Functions.registerExtensions(this);
	}

	/** Registers the functions from a macro: {@code call("org.cpca.macro.CpcaMacroFunctions.register")}. */
	public static String register() {
		Functions.registerExtensions(new CpcaMacroFunctions());
		return "";
	}

	/** Forgets the last fit (for tests). */
	static void reset() {
		LAST.remove();
	}

	@Override
	public ExtensionDescriptor[] getExtensionFunctions() {
		return functions;
	}

	@Override
	public String handleExtension(final String name, final Object[] args) {
		try {
			return dispatch(name, args);
		}
		catch (final CancellationException e) {
			abort(name + ": cancelled (Esc); no results were made");
		}
		catch (final IllegalArgumentException | IllegalStateException e) {
			abort(name + ": " + e.getMessage());
		}
		catch (final IOException e) {
			abort(name + ": could not " + ("saveModel".equals(name) ? "write" : "read") + " " +
				fileOf(e, args) + ": check that the folder exists and may be written, and " +
				"that the path names a file");
		}
		catch (final OutOfMemoryError e) { // an estimate missed it: one line, no trace
			abort(name + ": " + org.cpca.core.Memory.outOfMemory("bin=2 or a mask " +
				"(fewer features), fewer landmarks for kernel cPCA, or method=online"));
		}
		return null;
	}

	/** The file an IO error is about, with the reason ("x.json (permission denied)"). */
	private static String fileOf(final IOException e, final Object[] args) {
		final String why = e instanceof java.nio.file.AccessDeniedException
			? "permission denied" : e instanceof java.nio.file.NoSuchFileException
				? "its folder does not exist" : e instanceof java.nio.file.FileSystemException &&
					((java.nio.file.FileSystemException) e).getReason() != null
						? ((java.nio.file.FileSystemException) e).getReason() : String.valueOf(e
							.getMessage());
		// saveModel(index, path) and applyModel(path, title): the path the user gave
		final Object path = args.length > 1 && args[1] instanceof String && !(args[0] instanceof
			String) ? args[1] : args.length > 0 && args[0] instanceof String ? args[0] : null;
		return (path != null ? path : e instanceof java.nio.file.FileSystemException
			? ((java.nio.file.FileSystemException) e).getFile() : "the file") + " (" + why + ")";
	}

	private static void abort(final String message) {
		final Interpreter interp = Interpreter.getInstance();
		if (interp != null) interp.abort(message);
		else IJ.error("Contrastive PCA", message);
	}

	private String dispatch(final String name, final Object[] a) throws IOException {
		switch (name) {
			case "cpcaFit":
				LAST.set(fit((String) a[0], (String) a[1], (String) a[2]));
				return null;
			case "getAlphaCount":
				put(a, 0, analysis().models().size());
				return null;
			case "getAlphas": {
				final StringBuilder sb = new StringBuilder();
				for (final FittedModel m : analysis().models())
					sb.append(sb.length() == 0 ? "" : ",").append(alpha(m));
				put(a, 0, sb.toString());
				return null;
			}
			case "getBetas": {
				final StringBuilder sb = new StringBuilder();
				for (final FittedModel m : analysis().models()) {
					final Object b = m.parameters().get("beta");
					sb.append(sb.length() == 0 ? "" : ",").append(b instanceof Double ? Analysis
						.alphaText((Double) b) : "");
				}
				put(a, 0, sb.toString());
				return null;
			}
			case "getSeparationAlongBeta": {
				final Map<String, Object> facts = analysis().solution().facts();
				@SuppressWarnings("unchecked")
				final Map<String, Object> curve = (Map<String, Object>) facts.get(
					"separation_vs_beta");
				if (curve == null) throw new IllegalArgumentException("there is no separation " +
					"along β: fit with method=star on a target whose slices have repeating " +
					"class labels");
				final Object values = curve.get((String) a[0]);
				if (!(values instanceof double[]) || "beta".equals(a[0]))
					throw new IllegalArgumentException("'" + a[0] + "' is not a separation " +
						"measure along β: use lda_accuracy or symmetrized_kl");
				put(a, 1, join((double[]) curve.get("beta")));
				put(a, 2, join((double[]) values));
				return null;
			}
			case "getEigenvalues":
				put(a, 1, join(model(a[0]).eigenvalues()));
				return null;
			case "getTargetVariance":
				put(a, 1, join(model(a[0]).targetVariance()));
				return null;
			case "getBackgroundVariance":
				put(a, 1, join(model(a[0]).backgroundVariance()));
				return null;
			case "getNumSamples":
				put(a, 0, analysis().targetData().samples());
				return null;
			case "getNumComponents":
				put(a, 0, analysis().primary().numComponents());
				return null;
			case "getScore": {
				final double[][] s = model(a[0]).targetScores();
				final int i = index(a[1], s.length, "sample"), c = index(a[2], s[0].length,
					"component");
				put(a, 3, s[i][c]);
				return null;
			}
			case "getScores": {
				final double[][] s = model(a[0]).targetScores();
				final int c = index(a[1], s[0].length, "component");
				final double[] col = new double[s.length];
				for (int i = 0; i < s.length; i++)
					col[i] = s[i][c];
				put(a, 2, join(col));
				return null;
			}
			case "getLabels": {
				final List<String> labels = analysis().targetData().labels();
				put(a, 0, labels == null ? "" : String.join(",", labels));
				return null;
			}
			case "getSeparation": {
				final List<String> labels = analysis().targetData().labels();
				if (labels == null) throw new IllegalArgumentException("the target has no " +
					"class labels: give its slices repeating labels (e.g. 0 and 1)");
				final Map<String, Double> sep = Measures.separation(model(a[0]).targetScores(),
					labels);
				final Double v = sep.get((String) a[1]);
				if (v == null) throw new IllegalArgumentException("'" + a[1] +
					"' is not a separation measure: use one of " + sep.keySet());
				put(a, 2, v);
				return null;
			}
			case "getParameter": {
				final FittedModel m = model(a[0]);
				final Object v = m.parameters().get((String) a[1]);
				if (v == null) throw new IllegalArgumentException("'" + a[1] + "' is not a " +
					"parameter of this " + m.method() + " model: it has " + (m.parameters()
						.isEmpty() ? "none" : String.join(", ", m.parameters().keySet())));
				put(a, 2, v instanceof double[] ? join((double[]) v) : Double.toString(
					(Double) v));
				return null;
			}
			case "getDiagnostics":
				put(a, 0, String.join("\n", analysis().diagnostics()));
				return null;
			case "showEigenImages":
				if (analysis().samples() == Samples.SLICES && !analysis().solution()
					.linear()) throw new IllegalArgumentException(analysis().solution().method()
						.displayName + " has no eigen-images (its directions live in the " +
						"kernel's feature space): call Ext.showExtremeSamples() instead");
				(analysis().samples() == Samples.PIXELS ? analysis().views().scoreImages()
					: analysis().views().eigenImages()).show();
				return null;
			case "showExtremeSamples":
				analysis().views().extremeSamples().show();
				return null;
			case "showScatterPlot":
			{ // one plot window per α; the main model's last, so that it is the active one
				final List<ij.ImagePlus> plots = analysis().views().scatterPlots();
				final int main = Math.max(0, analysis().models().indexOf(analysis().primary()));
				for (int i = 0; i < plots.size(); i++)
					if (i != main) plots.get(i).show();
				plots.get(main).show();
			}
				if (analysis().samples() == Samples.PIXELS && analysis().solution()
					.linear()) analysis().views().loadingsPlot().show();
				return null;
			case "showScreePlot":
				analysis().views().screePlot().show();
				return null;
			case "showTables":
				analysis().views().scoresTable().show("cPCA scores");
				analysis().views().componentsTable().show("cPCA components");
				return null;
			case "saveModel":
				ModelFile.checkSaveTarget(Paths.get((String) a[1]), "file");
				ModelFile.write(analysis().modelForFile(model(a[0])), Paths.get((String) a[1]));
				return null;
			case "applyModel": {
				final ModelApplication app = ModelApplication.apply(Paths.get((String) a[0]),
					image((String) a[1], "input"));
				if (app.hasReconstruction()) { // not for kernel cPCA: scores only
					app.reconstruction().show();
					app.backgroundRemoved().show();
				}
				if (app.scoreImages() != null) app.scoreImages().show();
				if (app.scoresTable() != null) app.scoresTable().show("cPCA scores");
				return null;
			}
			default:
				throw new IllegalArgumentException("unknown function " + name);
		}
	}

	/** Runs a fit from macro arguments. */
	static Analysis fit(final String target, final String background,
		final String options)
	{
		final Map<String, String> keys = MacroKeys.parse(options);
		final AnalysisRequest r = new AnalysisRequest().target(image(target, "target"));
		final String samples = keys.remove("samples");
		if (samples != null) r.samples(Samples.parse(samples));
		final String axes = keys.remove("axes");
		if (axes != null) r.axes(axes);
		final String bin = keys.remove("bin");
		if (bin != null) r.bin(wholeNumber(bin, "bin"));
		final String missing = keys.remove("missing");
		if (missing != null) r.missing(missing);
		try {
			r.settings(Settings.builder().setAll(keys).build());
		}
		catch (final IllegalArgumentException e) {
			if (e.getMessage().contains("is not a setting")) throw new IllegalArgumentException(
				e.getMessage() + ", and samples, bin, axes, missing");
			throw e;
		}
		final String b = background == null ? "" : background.trim();
		if (b.equalsIgnoreCase("selection")) r.backgroundFromSelection();
		else if (b.equalsIgnoreCase("roi manager")) r.backgroundsFromRois(Backgrounds
			.roiManager());
		else if (b.equalsIgnoreCase("overlay")) r.backgroundsFromRois(Backgrounds.overlay(
			r.target()));
		else if (!b.isEmpty()) {
			// one title, or several separated by commas (UCA, rPCA)
			final List<ImagePlus> images = Backgrounds.byTitles(b);
			r.background(images.get(0)).moreBackgrounds(images.subList(1, images.size()));
		}
		final IjProgress progress = new IjProgress();
		try {
			return Analysis.run(r, progress);
		}
		finally {
			progress.done();
		}
	}

	private static ImagePlus image(final String title, final String role) {
		if (title == null || title.trim().isEmpty()) {
			final ImagePlus imp = WindowManager.getCurrentImage();
			if (imp == null) throw new IllegalArgumentException("there is no " + role +
				" image: open one, or give its title");
			return imp;
		}
		final ImagePlus imp = WindowManager.getImage(title);
		if (imp == null) throw new IllegalArgumentException("there is no open image titled '" +
			title + "' for the " + role + ": open it first (open(path)) or check the title " +
			"(getTitle())");
		return imp;
	}

	private static int wholeNumber(final String text, final String key) {
		try {
			final int v = Integer.parseInt(text.trim());
			if (v >= 1) return v;
		}
		catch (final NumberFormatException e) {
			// below
		}
		throw new IllegalArgumentException(key + "=" + text + " is not a whole number ≥ 1");
	}

	private static Analysis analysis() {
		final Analysis a = LAST.get();
		if (a == null) throw new IllegalStateException("there is no result yet: call " +
			"Ext.cpcaFit(target, background, options) first");
		return a;
	}

	private static FittedModel model(final Object alphaIndex) {
		final List<FittedModel> models = analysis().models();
		return models.get(index(alphaIndex, models.size(), "α index"));
	}

	private static int index(final Object value, final int size, final String what) {
		final double v = (Double) value;
		if (!(v >= 0 && v < size) || v != Math.rint(v)) throw new IllegalArgumentException(
			what + " " + (v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v)) +
				" is out of range: use 0 … " + (size - 1) + " (indices start at 0)");
		return (int) v;
	}

	private static String alpha(final FittedModel m) {
		return Double.isNaN(m.alpha()) ? "" : Analysis.alphaText(m.alpha());
	}

	private static String join(final double[] values) {
		final StringBuilder sb = new StringBuilder();
		for (final double v : values)
			sb.append(sb.length() == 0 ? "" : ",").append(Double.toString(v));
		return sb.toString();
	}

	private static void put(final Object[] args, final int i, final String value) {
		((String[]) args[i])[0] = value;
	}

	private static void put(final Object[] args, final int i, final double value) {
		((Double[]) args[i])[0] = value;
	}
}
