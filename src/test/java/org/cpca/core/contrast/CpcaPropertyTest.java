package org.cpca.core.contrast;

import org.cpca.core.FamilyPropertyTest;
import org.cpca.core.run.Settings;

/** cPCA at a fixed α has the properties every family promises. */
class CpcaPropertyTest extends FamilyPropertyTest {

	@Override
	protected Settings settings() {
		return Settings.builder().set("alpha", "2.5").set("components", 2).build();
	}
}
