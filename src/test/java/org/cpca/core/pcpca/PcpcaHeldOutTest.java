package org.cpca.core.pcpca;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.cpca.core.Progress;
import org.cpca.core.TestData;
import org.cpca.core.data.Dataset;
import org.cpca.core.result.Solution;
import org.cpca.core.run.MethodRunner;
import org.cpca.core.run.Settings;
import org.junit.jupiter.api.Test;

/** {@code held_out}: the share of the samples held out for the held-out log-likelihood. */
class PcpcaHeldOutTest {

	private static final float[][][] P = TestData.planted(8, 80, 70, 10, 3, 2, 0.3);

	private static Solution run(final String... keys) {
		final Settings.Builder b = Settings.builder().set("method", "pcpca").set("alpha",
			"0.3");
		for (int i = 0; i < keys.length; i += 2)
			b.set(keys[i], keys[i + 1]);
		return MethodRunner.run(b.build(), Dataset.wrap("target", P[0]), List.of(Dataset.wrap(
			"background", P[1])), Progress.NONE);
	}

	@Test
	void theShareHeldOutIsTheUsers() {
		final Solution byDefault = run(), fifth = run("held_out", "0.2"), more = run(
			"held_out", "0.4"), none = run("held_out", "0");
		// the default is a fifth: the same run, and the summary says nothing new
		assertEquals(byDefault.facts(), fifth.facts());
		assertFalse(byDefault.facts().containsKey("held_out"));
		assertNotEquals(byDefault.facts().get("held_out_log_likelihood"), more.facts().get(
			"held_out_log_likelihood"));
		assertEquals(0.4, more.facts().get("held_out"));
		// none: no refit, no held-out log-likelihood, the same model
		assertFalse(none.facts().containsKey("held_out_log_likelihood"));
		assertEquals(byDefault.facts().get("log_likelihood"), none.facts().get(
			"log_likelihood"));
	}

	@Test
	void aShareOutOfRangeIsRefusedNamingTheKey() {
		TestData.assertMessage(() -> Settings.builder(Settings.Style.FLAG).set("method",
			"pcpca").set("held_out", "0.7").build(), "--held-out 0.7", "[0, 0.5]");
		TestData.assertMessage(() -> Settings.builder().set("held_out", "0.1").build(),
			"held_out applies to method=pcpca only");
		assertTrue(Settings.isKey("--held-out"));
	}
}
