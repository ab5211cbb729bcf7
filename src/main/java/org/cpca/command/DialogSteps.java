package org.cpca.command;

import ij.ImagePlus;
import ij.Macro;

import java.awt.GraphicsEnvironment;
import java.util.ArrayList;
import java.util.List;

import org.scijava.command.CommandModule;
import org.scijava.module.Module;
import org.scijava.module.ModuleItem;
import org.scijava.module.process.AbstractPreprocessorPlugin;
import org.scijava.module.process.PreprocessorPlugin;
import org.scijava.plugin.Parameter;
import org.scijava.plugin.Plugin;
import org.scijava.plugin.PluginService;
import org.scijava.widget.InputHarvester;

/**
 * The two-step dialog of a {@link TwoStepDialog} command in Fiji: runs just before
 * SciJava's input harvester (the dialog) and after the macro options and the values
 * remembered from the last run are filled in. If a first-step input is still open, the
 * harvester first asks for the first step alone (e.g. target, background, samples and
 * method); then every input that this choice does not need is marked resolved, so that
 * the harvester's dialog shows only the chosen method's fields. Inputs a macro gives are
 * resolved before this runs, so a recorded line replays without a dialog.
 */
@Plugin(type = PreprocessorPlugin.class, priority = DialogSteps.PRIORITY)
public class DialogSteps extends AbstractPreprocessorPlugin {

	/**
	 * After the remembered values ({@code LoadInputsPreprocessor}, -9999) and the file
	 * chooser (-9999.5), before the dialog ({@link InputHarvester#PRIORITY}, -10000).
	 */
	static final double PRIORITY = InputHarvester.PRIORITY + 0.25;

	@Parameter(required = false)
	private PluginService plugins;

	@Override
	public void process(final Module module) {
		// a command is either wrapped in a module or (a DynamicCommand) is the module
		final Object command = module instanceof CommandModule ? ((CommandModule) module)
			.getCommand() : module;
		if (!(command instanceof TwoStepDialog)) return;
		final TwoStepDialog steps = (TwoStepDialog) command;
		// a macro keeps the commands' defaults for keys it leaves out (reproducible)
		if (!GraphicsEnvironment.isHeadless() && Macro.getOptions() == null) defaultImages(
			module, OpenImages.ordered());
		if (!askFirstStep(module, steps)) return;
		for (final String key : secondStepHidden(module, steps))
			module.resolveInput(key);
	}

	/**
	 * Fills the open, empty image inputs with the dialog's defaults ({@link OpenImages}):
	 * the target with the current image unless it is a result window, the background with
	 * another of {@code ordered}, the open images in default order. An input given
	 * already keeps its image, and the next field takes one not taken.
	 */
	static void defaultImages(final Module module, final List<ImagePlus> ordered) {
		final List<ImagePlus> taken = new ArrayList<>();
		for (final ModuleItem<?> item : module.getInfo().inputs()) {
			if (item.getType() != ImagePlus.class) continue;
			final String key = item.getName();
			final Object given = module.getInput(key);
			if (given instanceof ImagePlus) {
				taken.add((ImagePlus) given);
				continue;
			}
			final boolean another = OpenImages.ANOTHER_IMAGE.contains(key);
			if (module.isInputResolved(key) || !item.isRequired() && !another) continue;
			final List<ImagePlus> free = new ArrayList<>(ordered);
			free.removeAll(taken);
			final int i = OpenImages.initial(item.isRequired(), another, free.size(), 0);
			final ImagePlus imp = i >= 0 ? free.get(i) : item.isRequired() && !ordered
				.isEmpty() ? ordered.get(0) : null;
			if (imp == null) continue;
			module.setInput(key, imp);
			taken.add(imp);
		}
	}

	/**
	 * The open inputs of the second step that the first step's choice does not need.
	 */
	static List<String> secondStepHidden(final Module module, final TwoStepDialog steps) {
		final List<String> out = new ArrayList<>();
		for (final ModuleItem<?> item : module.getInfo().inputs()) {
			final String key = item.getName();
			if (!module.isInputResolved(key) && !steps.firstStep().contains(key) && !steps
				.needs(key)) out.add(key);
		}
		return out;
	}

	/**
	 * Shows the first step alone if any of its inputs is open (nothing without a user
	 * interface); false if the user cancelled it.
	 */
	private boolean askFirstStep(final Module module, final TwoStepDialog steps) {
		final List<String> open = new ArrayList<>();
		for (final ModuleItem<?> item : module.getInfo().inputs())
			if (!module.isInputResolved(item.getName())) open.add(item.getName());
		if (open.stream().noneMatch(steps.firstStep()::contains)) return true;
		// a harvester shows the open inputs: leave only the first step's open
		for (final String key : open)
			if (!steps.firstStep().contains(key)) module.resolveInput(key);
		try {
			for (final PreprocessorPlugin harvester : harvesters()) {
				harvester.process(module); // nothing if its user interface is not shown
				if (harvester.isCanceled()) {
					cancel(harvester.getCancelReason());
					return false;
				}
				if (steps.firstStep().stream().allMatch(module::isInputResolved)) break;
			}
		}
		finally {
			// a harvester marks every input resolved: open the second step's again
			for (final String key : open)
				if (!steps.firstStep().contains(key)) module.unresolveInput(key);
		}
		return true;
	}

	/** The dialog-showing harvesters of this context, first first (none headless). */
	private List<PreprocessorPlugin> harvesters() {
		final List<PreprocessorPlugin> out = new ArrayList<>();
		if (plugins != null) for (final PreprocessorPlugin p : plugins
			.createInstancesOfType(PreprocessorPlugin.class))
			if (p instanceof InputHarvester) out.add(p);
		return out;
	}
}
