package org.cpca.command;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.cpca.KeyScenarios;
import org.cpca.core.run.Settings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.scijava.command.CommandInfo;
import org.scijava.module.Module;
import org.scijava.module.ModuleItem;

import ij.ImagePlus;
import ij.macro.Interpreter;

/**
 * Every setting the Contrastive PCA command's dialog has reaches the run, through a real
 * SciJava context: a value other than the default ({@link KeyScenarios}) changes the
 * analysis. α and β count in the dialog only with their mode "fixed", so a scenario that
 * gives α or β gives its mode too.
 */
class CommandKeysReachTheRunTest extends CommandTestBase {

	private static ImagePlus target, background, second;

	@BeforeAll
	static void images() {
		target = Synthetic.target(60, 1);
		background = Synthetic.background(50, 2);
		second = Synthetic.background(40, 3);
		second.setTitle("keys-second-background");
		Interpreter.batchMode = true;
		Interpreter.addBatchModeImage(second);
	}

	@AfterAll
	static void close() {
		Interpreter.removeBatchModeImage(second);
		Interpreter.batchMode = false;
	}

	/** The dialog's inputs that are settings' keys, with their types. */
	private static Map<String, Class<?>> keyInputs() {
		final CommandInfo info = commands.getCommand(ContrastivePcaCommand.class);
		final Map<String, Class<?>> out = new LinkedHashMap<>();
		for (final ModuleItem<?> item : info.inputs())
			if (Settings.isKey(item.getName())) out.put(item.getName(), item.getType());
		return out;
	}

	private static Object typed(final Class<?> type, final String text) {
		if (type == double.class || type == Double.class) return Double.parseDouble(text);
		if (type == int.class || type == Integer.class) return Integer.parseInt(text);
		if (type == long.class || type == Long.class) return Long.parseLong(text);
		if (type == boolean.class || type == Boolean.class) return Boolean.parseBoolean(text);
		return text;
	}

	private static String run(final Map<String, String> keys, final int backgrounds,
		final Map<String, Class<?>> types) throws Exception
	{
		final Map<String, Object> in = ContrastivePcaCommandTest.defaults();
		in.put("target", target);
		in.put("background", background);
		in.put("show_images", false);
		in.put("show_plots", false);
		in.put("show_tables", false);
		// dialog fields persist between runs: every one the defaults leave out is given
		in.put("variant", "v4");
		in.put("orthogonal", false);
		in.put("shuffles", 0);
		in.put("sparsity", "none");
		if (backgrounds == 2) in.put("more_backgrounds", second.getTitle());
		final Map<String, String> all = new LinkedHashMap<>(keys);
		if (all.containsKey("alpha")) all.putIfAbsent("alpha_mode", "fixed");
		if (all.containsKey("beta")) all.putIfAbsent("beta_mode", "fixed");
		for (final Map.Entry<String, String> e : all.entrySet())
			in.put(e.getKey(), typed(types.get(e.getKey()), e.getValue()));
		final Module m = ContrastivePcaCommandTest.run(in);
		assertFalse(canceled(m), () -> keys + ": " + reason(m));
		return KeyScenarios.fingerprint(((ContrastivePcaCommand) m.getDelegateObject())
			.analysis().solution());
	}

	@Test
	void everySettingOfTheDialogChangesTheRun() throws Exception {
		final Map<String, Class<?>> types = keyInputs();
		assertTrue(types.size() >= 20, "dialog keys: " + types.keySet());
		final List<String> checked = new ArrayList<>();
		for (final String key : types.keySet()) {
			final KeyScenarios.Scenario s = KeyScenarios.of(key);
			final Map<String, String> base = new LinkedHashMap<>(s.base);
			if (key.equals("alpha")) base.put("alpha_mode", "fixed");
			if (key.equals("beta")) base.put("beta_mode", "fixed");
			assertNotEquals(run(base, s.backgrounds, types), run(s.with(key), s.backgrounds,
				types), key + "=" + s.value + " did not reach the run");
			checked.add(key);
		}
		assertTrue(checked.contains("k_b") && checked.contains("shuffles"), "" + checked);
	}
}
