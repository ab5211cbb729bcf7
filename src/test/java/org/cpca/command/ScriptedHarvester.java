package org.cpca.command;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.scijava.module.Module;
import org.scijava.module.ModuleItem;
import org.scijava.module.process.AbstractPreprocessorPlugin;
import org.scijava.module.process.PreprocessorPlugin;
import org.scijava.plugin.Plugin;
import org.scijava.widget.InputHarvester;
import org.scijava.widget.InputPanel;

/**
 * A stand-in for Fiji's dialog (SciJava's Swing input harvester, which needs a screen),
 * for {@link DialogStepsTest} only: inactive unless {@link #answers} is set. Each time it
 * is asked, like the real harvester it "shows" the open inputs — recorded in
 * {@link #dialogs}, in the order SciJava lists them — answers them from
 * {@link #answers} (leaving the rest as they are) and marks every input resolved.
 */
@Plugin(type = PreprocessorPlugin.class, priority = InputHarvester.PRIORITY)
public class ScriptedHarvester extends AbstractPreprocessorPlugin implements
	InputHarvester<Object, Object>
{

	/** The user's answers by key; null: this harvester does nothing. */
	static volatile Map<String, Object> answers;
	/** The inputs of each dialog shown, in order. */
	static final List<List<String>> dialogs = new ArrayList<>();

	@Override
	public void process(final Module module) {
		if (answers == null) return;
		final List<String> shown = new ArrayList<>();
		for (final ModuleItem<?> item : module.getInfo().inputs())
			if (!module.isInputResolved(item.getName())) shown.add(item.getName());
		if (shown.isEmpty()) return; // no dialog without inputs, as the real one
		dialogs.add(shown);
		for (final String key : shown)
			if (answers.containsKey(key)) module.setInput(key, answers.get(key));
		for (final ModuleItem<?> item : module.getInfo().inputs())
			module.resolveInput(item.getName());
	}

	@Override
	public InputPanel<Object, Object> createInputPanel() {
		throw new UnsupportedOperationException("no panels: see process");
	}

	@Override
	public void buildPanel(final InputPanel<Object, Object> panel, final Module module) {
		throw new UnsupportedOperationException("no panels: see process");
	}

	@Override
	public boolean harvestInputs(final InputPanel<Object, Object> panel,
		final Module module)
	{
		throw new UnsupportedOperationException("no panels: see process");
	}
}
