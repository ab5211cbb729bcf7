package org.cpca.command.ij1;

import ij.ImagePlus;

import org.cpca.analysis.ResultWindows;
import org.scijava.module.Module;
import org.scijava.module.ModuleItem;
import org.scijava.module.process.AbstractPostprocessorPlugin;
import org.scijava.module.process.PostprocessorPlugin;
import org.scijava.plugin.Plugin;

/**
 * Shows the image outputs of a command that another command runs through the
 * {@code CommandService} (Explore Alpha... runs Contrastive PCA... at the chosen α) in
 * plain ImageJ 1.x, where no ImageJ2 display layer exists. Inactive unless the
 * {@link CommandBridge} runs commands in this JVM, i.e. never in Fiji (whose legacy
 * layer shows these outputs) and never in headless tests. Shown images are removed from
 * the module's outputs, so that SciJava's display step does not look for a display.
 */
@Plugin(type = PostprocessorPlugin.class)
public class ImageOutputs extends AbstractPostprocessorPlugin {

	@Override
	public void process(final Module module) {
		if (!CommandBridge.active()) return;
		for (final ModuleItem<?> item : module.getInfo().outputs()) {
			final Object value = item.getValue(module);
			if (value instanceof ImagePlus) {
				// marked, so that the next dialog offers the user's images first
				ResultWindows.mark((ImagePlus) value).show();
				module.setOutput(item.getName(), null);
			}
		}
	}
}
