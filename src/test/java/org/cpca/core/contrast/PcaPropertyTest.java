package org.cpca.core.contrast;

import org.cpca.core.FamilyPropertyTest;
import org.cpca.core.run.Settings;

/** PCA (α = 0 baseline) has the properties every family promises. */
class PcaPropertyTest extends FamilyPropertyTest {

	@Override
	protected Settings settings() {
		return Settings.builder().set("method", "pca").set("components", 2).build();
	}

	@Override
	protected int backgrounds() {
		return 0;
	}
}
