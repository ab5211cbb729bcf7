package org.cpca.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;

import org.cpca.core.linalg.Backend;
import org.junit.jupiter.api.Test;

/**
 * The start of a one-shot run (docs/speed.md, one-shot runs): {@code fit} loads the
 * backend on a thread of its own that ends, with the choice the backend makes itself;
 * nothing is loaded ahead for help or other commands.
 */
class StartTest {

	@Test
	void fitLoadsTheBackendAheadOnAThreadThatEnds() throws InterruptedException {
		for (final String[] args : new String[][] { {}, { "demo" }, { "generate", "--out",
			"x" }, { "apply", "--model", "m.json" }, { "fit", "--help" }, { "fit", "-h" }, {
				"fit", "-V" }, { "--help", "fit" } })
			assertNull(Main.loadBackendAhead(args), String.join(" ", args));
		final Thread t = Main.loadBackendAhead("fit", "--target", "t.tif");
		assertNotNull(t);
		assertTrue(t.isDaemon());
		t.join(120_000);
		assertFalse(t.isAlive(), "the loading thread ended");
		// the outcome is the backend's own choice: native exactly when wanted and loaded
		final String wanted = System.getProperty("cpca.kernels", "").trim().toLowerCase(
			Locale.ROOT);
		final boolean nativeWanted = wanted.isEmpty() || wanted.equals("native");
		assertEquals(nativeWanted && Backend.diagnostic() == null, Backend.isNative());
		assertEquals(!nativeWanted, Backend.diagnostic() == null && !Backend.isNative());
	}
}
