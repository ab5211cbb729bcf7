package org.cpca.core.star;

import org.cpca.core.FamilyPropertyTest;
import org.cpca.core.run.Settings;

/** cPCA++: unit components (C_b-orthogonal), order-free, deterministic. */
class CpcaPlusPlusPropertyTest extends FamilyPropertyTest {

	@Override
	protected Settings settings() {
		return Settings.builder().set("method", "cpcapp").set("components", 2).build();
	}

	@Override
	protected boolean orthonormal() {
		return false;
	}
}
