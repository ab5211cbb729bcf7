package org.cpca.macro;

import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

import org.cpca.KeyScenarios;
import org.cpca.core.run.Settings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import ij.ImagePlus;
import ij.macro.Interpreter;

/**
 * Every key {@code Ext.cpcaFit} accepts reaches the run: each setting's key ({@link
 * KeyScenarios}) and the image keys {@code samples} and {@code bin} change the result
 * when given a value other than the default. Caught: the in-memory online path accepted
 * {@code order}, {@code centring}, {@code checkpoints} and {@code reference} and ignored
 * them.
 */
class MacroKeysReachTheRunTest {

	private static final ImagePlus[] IMAGES = new ImagePlus[3];
	private static boolean batch;

	@BeforeAll
	static void openImages() {
		batch = Interpreter.batchMode;
		Interpreter.batchMode = true;
		IMAGES[0] = OnlineMacroTest.slices("keys-target", 1, 60, true);
		IMAGES[1] = OnlineMacroTest.slices("keys-background", 2, 60, false);
		IMAGES[2] = OnlineMacroTest.slices("keys-background-2", 3, 40, false);
		for (final ImagePlus imp : IMAGES)
			Interpreter.addBatchModeImage(imp);
	}

	@AfterAll
	static void closeImages() {
		for (final ImagePlus imp : IMAGES)
			Interpreter.removeBatchModeImage(imp);
		Interpreter.batchMode = batch;
	}

	private static String fit(final Map<String, String> keys, final int backgrounds) {
		final String options = keys.entrySet().stream().map(e -> e.getKey() + "=" + e
			.getValue()).collect(Collectors.joining(" "));
		return KeyScenarios.fingerprint(MacroFit.fit("keys-target", backgrounds == 1
			? "keys-background" : "keys-background,keys-background-2", options).solution());
	}

	@Test
	void everySettingsKeyChangesTheRun() {
		KeyScenarios.requireAll();
		for (final String key : Settings.keys()) {
			final KeyScenarios.Scenario s = KeyScenarios.of(key);
			assertNotEquals(fit(s.base, s.backgrounds), fit(s.with(key), s.backgrounds),
				key + "=" + s.value + " did not reach the run");
		}
	}

	@Test
	void imageKeysChangeTheRun() {
		final Map<String, String> base = Map.of("method", "cpca", "alpha", "2");
		for (final String[] kv : new String[][] { { "samples", "pixels" }, { "bin", "2" } }) {
			final Map<String, String> with = new LinkedHashMap<>(base);
			with.put(kv[0], kv[1]);
			assertNotEquals(fit(base, 1), fit(with, 1), kv[0] + "=" + kv[1] +
				" did not reach the run");
		}
	}
}
