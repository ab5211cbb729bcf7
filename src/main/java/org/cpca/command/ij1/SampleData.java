package org.cpca.command.ij1;

import ij.IJ;
import ij.ImagePlus;
import ij.measure.ResultsTable;
import ij.plugin.PlugIn;

import java.util.List;

import org.cpca.generate.TestImageGenerator;

/**
 * Plugins &gt; Contrastive PCA &gt; Sample Data (Fiji and plain ImageJ): makes the
 * project's sample images with {@link TestImageGenerator} (the default, seeded
 * configuration, the same as {@code cpca generate}) and opens them as
 * {@value TestImageGenerator#TARGET_FILE} (faint digits 0 and 1 over a grass-like
 * texture; slice labels 0 or 1), {@value TestImageGenerator#BACKGROUND_FILE} (the texture
 * alone) and the table "target-labels" (one row per target slice). The titles are the
 * ones the documentation's macros use, e.g. {@code run("Contrastive PCA...",
 * "target=target.tif background_source=image background=background.tif ...")}.
 */
public class SampleData implements PlugIn {

	/** Title of the labels table. */
	public static final String LABELS_TITLE = "target-labels";

	@Override
	public void run(final String arg) {
		IJ.showStatus("Contrastive PCA: making the sample images...");
		final TestImageGenerator.Result result = TestImageGenerator.generate(
			TestImageGenerator.Config.defaults());
		final ImagePlus target = result.target();
		target.setTitle(TestImageGenerator.TARGET_FILE);
		final ImagePlus background = result.background();
		background.setTitle(TestImageGenerator.BACKGROUND_FILE);
		final ResultsTable labels = new ResultsTable();
		final List<String> l = result.targetLabels();
		for (int i = 0; i < l.size(); i++) {
			labels.incrementCounter();
			labels.addValue("slice", i + 1);
			labels.addValue("label", l.get(i));
		}
		background.show();
		target.show();
		labels.show(LABELS_TITLE);
		IJ.showStatus("");
	}
}
