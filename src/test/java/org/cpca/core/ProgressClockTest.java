package org.cpca.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Tests {@link ProgressClock} on a fake clock: the estimate on paper, stages, log lines. */
public class ProgressClockTest {

	private static final long S = 1_000_000_000L;

	private final long[] now = { 0 };
	private final ProgressClock clock = new ProgressClock(() -> now[0]);

	@Test
	public void testTimeLeftOnPaper() {
		now[0] = 10 * S; // a quarter in 10 s: 10 · 0.75 / 0.25 = 30 s to go
		clock.update(0.25);
		assertEquals(30, clock.secondsLeft(), 1e-9);
		assertEquals("slices (10 s, about 30 s left)", clock.describe("slices"));
		now[0] = 100 * S; // half in 100 s: 100 s to go
		clock.update(0.5);
		assertEquals(100, clock.secondsLeft(), 1e-9);
		assertEquals("slices (1 min 40 s, about 1 min 40 s left)", clock.describe("slices"));
		clock.update(1); // finished: nothing left to estimate
		assertTrue(Double.isNaN(clock.secondsLeft()));
		assertEquals("slices (1 min 40 s)", clock.describe("slices"));
		assertEquals("2 h 5 min", ProgressClock.duration(7500));
		assertEquals("40 %", ProgressClock.percent(0.4));
	}

	@Test
	public void testNoEstimateInTheFirstSeconds() {
		now[0] = 2 * S;
		clock.update(0.5);
		assertTrue(Double.isNaN(clock.secondsLeft()));
		assertEquals("reading", clock.describe("reading"));
	}

	@Test
	public void testANewStageRestartsTheClock() {
		now[0] = 50 * S;
		clock.update(0.9);
		// a fraction that falls: the next stage, whose time starts now
		now[0] = 60 * S;
		clock.update(0.1);
		assertEquals(0, clock.stageSeconds(), 1e-9);
		now[0] = 64 * S; // 0.1 → 0.2 of the new stage... the clock counts from 60 s
		clock.update(0.2);
		assertEquals(16, clock.secondsLeft(), 1e-9);
		assertEquals(64, clock.runSeconds(), 1e-9);
		// a report at 0 also starts a stage
		now[0] = 70 * S;
		clock.update(0);
		assertEquals(0, clock.stageSeconds(), 1e-9);
	}

	@Test
	public void testLinesArePaced() {
		now[0] = 1 * S;
		clock.update(0.1);
		assertFalse(clock.lineDue(), "no lines in a run's first seconds");
		assertFalse(clock.anyLine());
		now[0] = 4 * S;
		clock.update(0.2);
		assertTrue(clock.lineDue(), "the first report after them");
		now[0] = 9 * S;
		clock.update(0.5);
		assertFalse(clock.lineDue(), "within the stage: every 10 s");
		now[0] = 14 * S;
		clock.update(0.6);
		assertTrue(clock.lineDue());
		now[0] = 14 * S + S / 2;
		clock.update(0);
		assertFalse(clock.lineDue(), "a new stage, but a line half a second ago");
		now[0] = 15 * S + S / 2;
		clock.update(0.01);
		assertTrue(clock.lineDue(), "the new stage a second later");
		assertTrue(clock.anyLine());
		now[0] = 30 * S;
		clock.update(1);
		assertFalse(clock.lineDue(), "a finished stage: the next one, or the end, says more");
	}
}
