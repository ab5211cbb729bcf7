package org.cpca.macro;

import java.util.List;
import java.util.Map;

import org.cpca.analysis.Analysis;
import org.cpca.analysis.AnalysisRequest;
import org.cpca.analysis.Backgrounds;
import org.cpca.analysis.IjProgress;
import org.cpca.analysis.Samples;
import org.cpca.core.run.Settings;

import ij.ImagePlus;
import ij.WindowManager;

/**
 * {@code Ext.cpcaFit(target, background, options)}: image titles and option keys into an
 * {@link AnalysisRequest}, run; see {@link CpcaMacroFunctions}.
 */
final class MacroFit {

	private MacroFit() {}

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

	static ImagePlus image(final String title, final String role) {
		if (title == null || title.trim().isEmpty()) {
			final ImagePlus imp = WindowManager.getCurrentImage();
			if (imp == null) throw new IllegalArgumentException("there is no " + role +
				" image: open one, or give its title");
			return imp;
		}
		return Backgrounds.byTitle(title, "the " + role);
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

}
