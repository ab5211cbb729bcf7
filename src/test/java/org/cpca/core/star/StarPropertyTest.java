package org.cpca.core.star;

import org.cpca.core.FamilyPropertyTest;
import org.cpca.core.run.Settings;

/**
 * cPCA* at a fixed β: unit components (B-orthogonal, not orthogonal), order-free,
 * deterministic; not free of the data's units (see {@link #unitFree()}).
 */
class StarPropertyTest extends FamilyPropertyTest {

	@Override
	protected Settings settings() {
		return Settings.builder().set("method", "star").set("beta", "0.5").set(
			"components", 2).build();
	}

	@Override
	protected boolean orthonormal() {
		return false;
	}

	/** (1 − β)I + βC_b: the identity keeps its scale when the data change units. */
	@Override
	protected boolean unitFree() {
		return false;
	}
}
