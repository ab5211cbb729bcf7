package org.cpca.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

/**
 * The bench's children run without the variables that pin OpenBLAS's kernels, whatever
 * this process has set, and keep the rest of the environment (docs/scaling.md).
 */
class BlasEnvironmentTest {

	@Test
	void childrenLoseThePinningAndKeepTheRest() {
		final ProcessBuilder pb = new ProcessBuilder("true");
		pb.environment().put("OPENBLAS_CORETYPE", "Haswell");
		pb.environment().put("OPENBLAS_L2_SIZE", "512");
		pb.environment().put("OPENBLAS_NUM_THREADS", "1");
		BlasEnvironment.unpinned(pb);
		assertFalse(pb.environment().containsKey("OPENBLAS_CORETYPE"));
		assertFalse(pb.environment().containsKey("OPENBLAS_L2_SIZE"));
		assertEquals("1", pb.environment().get("OPENBLAS_NUM_THREADS"));
	}
}
