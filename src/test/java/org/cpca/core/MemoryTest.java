package org.cpca.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/** The heap a refusal suggests covers what is short (with a tenth to spare). */
class MemoryTest {

	private static long suggestedMiB(final long shortBy) {
		final Matcher m = Pattern.compile("-Xmx(\\d+)m for cpca").matcher(Memory.moreHeap(
			shortBy));
		assertTrue(m.find(), Memory.moreHeap(shortBy));
		return Long.parseLong(m.group(1));
	}

	@Test
	void theSuggestedHeapCoversTheShortfall() {
		final long max = Runtime.getRuntime().maxMemory(), mib = 1L << 20;
		for (final long shortBy : new long[] { 0, 41_000_000L, 3_000_000_000L }) {
			final long s = suggestedMiB(shortBy);
			assertTrue(s * mib >= 1.1 * (max + shortBy), shortBy + " → " + s);
			assertTrue(s * mib < 1.1 * (max + shortBy) + 100 * mib, shortBy + " → " + s);
			assertEquals(0, s % 100, "in 100 MB steps: " + s);
		}
		// a negative shortfall (nothing short) suggests the heap of this JVM, rounded up
		assertEquals(suggestedMiB(0), suggestedMiB(-5));
	}
}
