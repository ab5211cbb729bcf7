package org.cpca.core.run;

import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.cpca.KeyScenarios;
import org.cpca.core.Progress;
import org.cpca.core.TestData;
import org.cpca.core.data.Dataset;
import org.junit.jupiter.api.Test;

/**
 * Every key of {@link Settings} reaches the run of {@link MethodRunner}: a value other
 * than the default changes the result ({@link KeyScenarios}). The front ends' own key
 * tests check that each key they accept gets this far.
 */
class KeysReachTheRunTest {

	private static Dataset[] data() {
		final float[][][] p = TestData.planted(5, 60, 50, 12, 3, 2, 0.3);
		final float[][] b2 = TestData.planted(6, 60, 40, 12, 3, 2, 0.3)[1];
		return new Dataset[] { Dataset.wrap("target", p[0]), Dataset.wrap("background", p[1]),
			Dataset.wrap("background 2", b2) };
	}

	private static String run(final Map<String, String> keys, final int backgrounds) {
		final Dataset[] d = data();
		final List<Dataset> bs = new ArrayList<>();
		for (int j = 1; j <= backgrounds; j++)
			bs.add(d[j]);
		return KeyScenarios.fingerprint(MethodRunner.run(Settings.builder().setAll(keys)
			.build(), d[0], bs, Progress.NONE));
	}

	@Test
	void everyKeyChangesTheRun() {
		KeyScenarios.requireAll();
		for (final String key : Settings.keys()) {
			final KeyScenarios.Scenario s = KeyScenarios.of(key);
			assertNotEquals(run(s.base, s.backgrounds), run(s.with(key), s.backgrounds), key +
				"=" + s.value + " did not change the run");
		}
	}
}
