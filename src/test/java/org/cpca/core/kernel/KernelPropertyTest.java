package org.cpca.core.kernel;

import org.cpca.core.FamilyPropertyTest;
import org.cpca.core.run.Settings;

/**
 * Kernel cPCA's promises (exact path, rbf kernel, fixed γ and α): deterministic, and the
 * target's scores are the model's transform of the target. Its components live in the
 * kernel's feature space, so the component checks do not apply; the rbf kernel with a fixed
 * γ depends on the data's units.
 */
class KernelPropertyTest extends FamilyPropertyTest {

	@Override
	protected Settings settings() {
		return Settings.builder().set("method", "kernel").set("kernel", "rbf").set("gamma",
			"0.01").set("alpha", "2.5").set("landmarks", "all").set("components", 2).build();
	}

	@Override
	protected boolean hasComponents() {
		return false;
	}

	@Override
	protected double transformTolerance() {
		return 1e-6;
	}

	@Override
	protected boolean unitFree() {
		return false;
	}
}
