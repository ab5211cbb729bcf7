package org.cpca.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.cpca.core.ProgressClock;
import org.junit.jupiter.api.Test;

/** Tests the lines {@link IjProgress} leaves in ImageJ's Log, on a fake clock. */
public class IjProgressTest {

	private static final long S = 1_000_000_000L;

	@Test
	public void testLogLinesWithTheTimeLeft() {
		System.setProperty("java.awt.headless", "true");
		final long[] now = { 0 };
		final List<String> log = new ArrayList<>();
		final IjProgress p = new IjProgress(new ProgressClock(() -> now[0]), log::add);
		p.stage("reading images", 0);
		now[0] = 2 * S;
		p.stage("α sweep", 0.1); // the first 3 s: no lines
		for (int i = 1; i <= 4; i++) {
			now[0] = 8 * i * S;
			p.stage("α sweep", 0.2 * i);
		}
		now[0] = 33 * S;
		p.stage("writing results", 0);
		p.done();
		p.done();
		assertEquals(List.of("Contrastive PCA: α sweep (8 s, about 32 s left), 20 %",
			"Contrastive PCA: α sweep (24 s, about 16 s left), 60 %",
			"Contrastive PCA: writing results, 0 %", "Contrastive PCA: done in 33 s"), log);
	}
}
