package org.cpca.core.gcpca;

import org.cpca.core.FamilyPropertyTest;
import org.cpca.core.run.Settings;

/**
 * gcPCA (v4, the default index): unit components with their largest entry positive,
 * order-free, deterministic, free of the data's units. Its loadings are orthogonal only
 * with {@code orthogonal} (docs/math/gcpca.md).
 */
class GcpcaPropertyTest extends FamilyPropertyTest {

	@Override
	protected Settings settings() {
		return Settings.builder().set("method", "gcpca").set("components", 2).build();
	}

	@Override
	protected boolean orthonormal() {
		return false;
	}

	/** k at each end of the index. */
	@Override
	protected int expectedComponents() {
		return 4;
	}
}
