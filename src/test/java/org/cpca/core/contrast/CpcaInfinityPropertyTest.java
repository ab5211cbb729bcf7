package org.cpca.core.contrast;

import org.cpca.core.FamilyPropertyTest;
import org.cpca.core.run.Settings;

/** cPCA at α = ∞ has the properties every family promises. */
class CpcaInfinityPropertyTest extends FamilyPropertyTest {

	@Override
	protected Settings settings() {
		return Settings.builder().set("alpha", "inf").set("components", 2).build();
	}

	/** With more features than samples the background has a null space in the data's span. */
	@Override
	protected boolean definedFor(final int d) {
		return d > 100;
	}
}
