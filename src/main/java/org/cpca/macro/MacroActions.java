package org.cpca.macro;

import java.io.IOException;
import java.nio.file.Paths;
import java.util.List;
import java.util.function.Supplier;

import org.cpca.analysis.Analysis;
import org.cpca.analysis.ModelApplication;
import org.cpca.analysis.Samples;
import org.cpca.core.modelfile.ModelFile;

import ij.ImagePlus;

/**
 * The macro functions that show windows or read and write model files
 * ({@code Ext.show…}, {@code saveModel}, {@code applyModel}); see
 * {@link CpcaMacroFunctions}.
 */
final class MacroActions {

	private MacroActions() {}

	/**
	 * Runs function {@code name}; false if it is not one of these.
	 *
	 * @param last the last fit (asked for only by the functions that need one)
	 */
	static boolean act(final String name, final Supplier<Analysis> last, final Object[] a)
		throws IOException
	{
		switch (name) {
			case "applyModel":
				apply((String) a[0], (String) a[1]);
				return true;
			case "showEigenImages":
			case "showExtremeSamples":
			case "showScatterPlot":
			case "showScreePlot":
			case "showTables":
				show(name, last.get());
				return true;
			case "saveModel":
				ModelFile.checkSaveTarget(Paths.get((String) a[1]), "file");
				ModelFile.write(last.get().modelForFile(MacroResults.model(last.get(), a[0])),
					Paths.get((String) a[1]));
				return true;
			default:
				return false;
		}
	}

	private static void show(final String name, final Analysis fit) {
		switch (name) {
			case "showEigenImages":
				if (fit.samples() == Samples.SLICES && !fit.solution().linear())
					throw new IllegalArgumentException(fit.solution().method().displayName +
						" has no eigen-images (its directions live in the kernel's feature " +
						"space): call Ext.showExtremeSamples() instead");
				(fit.samples() == Samples.PIXELS ? fit.views().scoreImages() : fit.views()
					.eigenImages()).show();
				break;
			case "showExtremeSamples":
				fit.views().extremeSamples().show();
				break;
			case "showScatterPlot": {
				// one plot window per α; the main model's last, so that it is the active one
				final List<ImagePlus> plots = fit.views().scatterPlots();
				final int main = Math.max(0, fit.models().indexOf(fit.primary()));
				for (int i = 0; i < plots.size(); i++)
					if (i != main) plots.get(i).show();
				plots.get(main).show();
				if (fit.samples() == Samples.PIXELS && fit.solution().linear()) fit.views()
					.loadingsPlot().show();
				break;
			}
			case "showScreePlot":
				fit.views().screePlot().show();
				break;
			default: // showTables
				fit.views().scoresTable().show(fit.views().scoresTitle());
				fit.views().componentsTable().show(fit.views().componentsTitle());
		}
	}

	/** A model file applied to an open image: its score images and tables. */
	private static void apply(final String model, final String image) throws IOException {
		final ModelApplication app = ModelApplication.apply(Paths.get(model), MacroFit.image(
			image, "input"));
		if (app.hasReconstruction()) { // not for kernel cPCA: scores only
			app.reconstruction().show();
			app.backgroundRemoved().show();
		}
		if (app.scoreImages() != null) app.scoreImages().show();
		if (app.scoresTable() != null) app.scoresTable().show("cPCA scores of " + image);
	}
}
