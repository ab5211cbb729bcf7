package org.cpca.command;

import java.awt.GraphicsEnvironment;

import org.cpca.analysis.ResultWindows;
import org.scijava.module.Module;
import org.scijava.module.process.AbstractPostprocessorPlugin;
import org.scijava.module.process.PostprocessorPlugin;
import org.scijava.plugin.Plugin;

/**
 * In Fiji, after a command of this plugin has run and its outputs are shown (SciJava's
 * display step, priority -10000), tiles the run's result windows and tables
 * ({@link ResultWindows#tileLatest}, once the windows being opened hold still) so that
 * they do not stack on each other; nothing headless.
 */
@Plugin(type = PostprocessorPlugin.class, priority = TileResults.PRIORITY)
public class TileResults extends AbstractPostprocessorPlugin {

	/** After the display step. */
	static final double PRIORITY = -10001;

	@Override
	public void process(final Module module) {
		if (GraphicsEnvironment.isHeadless() || !module.getInfo().getDelegateClassName()
			.startsWith("org.cpca.")) return;
		ResultWindows.tileLatest();
	}
}
