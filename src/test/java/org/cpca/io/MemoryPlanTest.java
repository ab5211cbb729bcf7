package org.cpca.io;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.cpca.core.result.Method;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The streamed plan counts what each method's fit from the Gram matrix keeps: cPCA* and
 * gcPCA keep more than cPCA (measured: with the plan of cPCA alone they ran out of memory
 * after the Gram pass, docs/memory.md), so a heap that holds cPCA's plan refuses theirs up
 * front, in one line, instead.
 */
class MemoryPlanTest {

	@AfterEach
	void clear() {
		System.clearProperty(MemoryPlan.AVAILABLE);
	}

	@Test
	void theFitOfEachMethodIsCounted() {
		final long n = 2000, d = 4096;
		// what cPCA's plan needs with the smallest tile, and a little more
		final long cpca = MemoryPlan.streamed(n, d, 2, 2, 8L * n * 256);
		System.setProperty(MemoryPlan.AVAILABLE, Long.toString(cpca + 1_000_000));
		for (final Method m : new Method[] { Method.CPCA, Method.PCA, Method.CPCAPP,
			Method.RPCA, Method.PCPCA })
			assertTrue(MemoryPlan.choose(true, true, n, d, 2, 2, 0, 0, m).stream, m.id);
		for (final Method m : new Method[] { Method.STAR, Method.GCPCA }) {
			final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
				() -> MemoryPlan.choose(true, true, n, d, 2, 2, 0, 0, m), m.id);
			assertTrue(e.getMessage().contains("the N × N Gram matrix of N = 2000 samples") &&
				e.getMessage().lines().count() == 1, e.getMessage());
		}
		assertTrue(MemoryPlan.fitExtra(Method.GCPCA) > MemoryPlan.fitExtra(Method.STAR));
	}
}
