package org.cpca.macro;

import ij.IJ;
import ij.macro.ExtensionDescriptor;
import ij.macro.Functions;
import ij.macro.Interpreter;
import ij.macro.MacroExtension;
import ij.plugin.PlugIn;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.concurrent.CancellationException;

import org.cpca.analysis.Analysis;
import org.cpca.analysis.DialogText;
import org.cpca.core.Memory;

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
 * (each macro's results are its own, even when macros run at the same time or one after
 * another on the same thread; a failed fit leaves none); the fit
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
	 * read each other's results. A thread runs one macro after another, so the fit also
	 * names the interpreter that made it: a later macro on the thread, which registers the
	 * functions anew, starts without results.
	 */
	private static final ThreadLocal<Fit> LAST = new ThreadLocal<>();

	/** A fit and the macro interpreter that made it. */
	private static final class Fit {

		final Analysis analysis;
		final Interpreter owner;

		Fit(final Analysis analysis, final Interpreter owner) {
			this.analysis = analysis;
			this.owner = owner;
		}
	}

	/** Forgets this thread's fit when another macro made it (a new macro starts). */
	private static void newMacro() {
		final Fit last = LAST.get();
		if (last != null && last.owner != Interpreter.getInstance()) LAST.remove();
	}

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
		newMacro();
		Functions.registerExtensions(this);
	}

	/** Registers the functions from a macro: {@code call("org.cpca.macro.CpcaMacroFunctions.register")}. */
	public static String register() {
		newMacro();
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
			abort(name + ": " + Memory.outOfMemory("bin=2 or a mask " +
				"(fewer features), fewer landmarks for kernel cPCA, or method=online"));
		}
		return null;
	}

	/** The file an IO error is about, with the reason ("x.json (permission denied)"). */
	private static String fileOf(final IOException e, final Object[] args) {
		final String why = e instanceof AccessDeniedException
			? "permission denied" : e instanceof NoSuchFileException
				? "its folder does not exist" : e instanceof FileSystemException &&
					((FileSystemException) e).getReason() != null
						? ((FileSystemException) e).getReason() : String.valueOf(e
							.getMessage());
		// saveModel(index, path) and applyModel(path, title): the path the user gave
		final Object path = args.length > 1 && args[1] instanceof String && !(args[0] instanceof
			String) ? args[1] : args.length > 0 && args[0] instanceof String ? args[0] : null;
		return (path != null ? path : e instanceof FileSystemException
			? ((FileSystemException) e).getFile() : "the file") + " (" + why + ")";
	}

	private static void abort(final String message) {
		final Interpreter interp = Interpreter.getInstance();
		if (interp != null) interp.abort(DialogText.forMacroError(message));
		else IJ.error("Contrastive PCA", DialogText.wrap(message));
	}

	private String dispatch(final String name, final Object[] a) throws IOException {
		if ("cpcaFit".equals(name)) {
			LAST.remove(); // a failed fit leaves no earlier results behind
			LAST.set(new Fit(MacroFit.fit((String) a[0], (String) a[1], (String) a[2]),
				Interpreter.getInstance()));
			return null;
		}
		if (MacroResults.answer(name, CpcaMacroFunctions::analysis, a) || MacroActions.act(
			name, CpcaMacroFunctions::analysis, a)) return null;
		throw new IllegalArgumentException("unknown function " + name);
	}

	private static Analysis analysis() {
		final Fit f = LAST.get();
		if (f == null) throw new IllegalStateException("there is no result yet: call " +
			"Ext.cpcaFit(target, background, options) first");
		return f.analysis;
	}
}
