package org.cpca.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.cpca.analysis.OnlineAnalysis;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.online.OnlineRun;
import org.cpca.core.run.Settings;
import org.junit.jupiter.api.Test;
import org.scijava.module.Module;
import org.scijava.module.ModuleItem;

import ij.ImagePlus;

/**
 * Every setting of the Online cPCA star… dialog reaches the run, through a real SciJava
 * context: each key the dialog has, given a value other than the default, changes the
 * learned model or its convergence curve. (The dialog built its options without {@link
 * Settings} before; now they are parsed by it, as every front end's are.)
 */
class OnlineCommandKeysReachTheRunTest extends CommandTestBase {

	/** Each setting of the dialog: a value other than the base run's. */
	private static final String[][] VALUES = { { "components", "3" }, { "beta", "0.3" },
		{ "eta", "0.05" }, { "tau", "2" }, { "epochs", "3" }, { "seed", "7" },
		{ "order", "sequential" }, { "centring", "pass" }, { "standardize", "true" },
		{ "reference", "none" } };

	private static final ImagePlus TARGET = Synthetic.target(60, 1), BACKGROUND = Synthetic
		.background(50, 2);

	private static String run(final String key, final String value) throws Exception {
		final Map<String, Object> in = OnlineCpcaCommandTest.defaults();
		in.put("target", TARGET);
		in.put("background", BACKGROUND);
		in.put("beta", "0.5");
		in.put("eta", 0.1);
		in.put("tau", 1.0);
		in.put("epochs", 5);
		in.put("show_images", false);
		in.put("show_plots", false);
		in.put("show_tables", false);
		// standardising needs the centring pass: both runs of that key have it
		if ("standardize".equals(key)) in.put("centring", "pass");
		if (key != null) {
			final Object old = in.get(key);
			in.put(key, old instanceof Integer ? (Object) Integer.parseInt(value)
				: old instanceof Long ? (Object) Long.parseLong(value) : old instanceof Double
					? (Object) Double.parseDouble(value) : old instanceof Boolean ? (Object) Boolean
						.parseBoolean(value) : value);
		}
		final Module m = OnlineCpcaCommandTest.run(in);
		assertFalse(canceled(m), () -> key + ": " + reason(m));
		final OnlineAnalysis a = ((OnlineCpcaCommand) m.getDelegateObject()).analysis();
		final CpcaModel model = a.model();
		final StringBuilder sb = new StringBuilder();
		sb.append(model.parameters()).append(Arrays.toString(model.eigenvalues())).append(
			Arrays.deepToString(model.targetScores())).append(a.offline() != null);
		for (final OnlineRun.Checkpoint c : a.result().curve())
			sb.append(c.samples).append(',').append(c.alignment).append(',').append(c.change)
				.append(';');
		return sb.toString();
	}

	@Test
	void everySettingOfTheDialogChangesTheRun() throws Exception {
		final List<String> dialogKeys = new ArrayList<>();
		for (final ModuleItem<?> item : commands.getCommand(OnlineCpcaCommand.class).inputs())
			if (Settings.isKey(item.getName())) dialogKeys.add(item.getName());
		final List<String> tested = new ArrayList<>();
		for (final String[] kv : VALUES)
			tested.add(kv[0]);
		assertEquals(dialogKeys, tested, "every setting of the dialog has a value here");
		final String base = run(null, null);
		for (final String[] kv : VALUES)
			assertNotEquals(kv[0].equals("standardize") ? run("standardize", "false") : base, run(
				kv[0], kv[1]), kv[0] + "=" + kv[1] + " did not reach the run");
	}
}
