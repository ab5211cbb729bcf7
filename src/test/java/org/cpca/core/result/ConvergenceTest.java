package org.cpca.core.result;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The summary's one "convergence" entry (issue 31). */
class ConvergenceTest {

	@Test
	void oneEntryKeyedByTheIterationWithTheSameFiveFields() {
		Map<String, Object> facts = Map.of("variant", "v4");
		facts = Convergence.of(12, true, 1e-7, 3e-8, 500).addTo(facts, "em");
		facts = Convergence.perComponent(new int[] { 40, 512 }, false, 1e-6, 2e-5, 512).addTo(
			facts, "sparse");
		facts = Convergence.of(100, true, Double.NaN, Double.NaN, 100).addTo(facts, "shuffles");
		assertEquals("v4", facts.get("variant"));
		final Map<?, ?> all = (Map<?, ?>) facts.get(Convergence.KEY);
		assertEquals(List.of("em", "sparse", "shuffles"), List.copyOf(all.keySet()));
		final Map<?, ?> em = (Map<?, ?>) all.get("em");
		assertEquals(List.of("iterations", "converged", "tolerance", "final_change", "cap"), List
			.copyOf(em.keySet()));
		assertEquals(12L, em.get("iterations"));
		assertEquals(true, em.get("converged"));
		assertEquals(1e-7, em.get("tolerance"));
		assertEquals(3e-8, em.get("final_change"));
		assertEquals(500L, em.get("cap"));
		assertArrayEquals(new int[] { 40, 512 }, (int[]) ((Map<?, ?>) all.get("sparse")).get(
			"iterations"));
		final Map<?, ?> shuffles = (Map<?, ?>) all.get("shuffles");
		assertNull(shuffles.get("tolerance"));
		assertNull(shuffles.get("final_change"));
		assertEquals(List.of("sparse"), Convergence.unconverged(facts));
		assertEquals(List.of(), Convergence.unconverged(Map.of()));
	}
}
