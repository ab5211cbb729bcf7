package org.cpca.core.pcpca;

import org.cpca.core.FamilyPropertyTest;
import org.cpca.core.run.Settings;

/** PCPCA at a fixed α: the properties every family promises (docs/math/pcpca.md). */
class PcpcaPropertyTest extends FamilyPropertyTest {

	@Override
	protected Settings settings() {
		return Settings.builder().set("method", "pcpca").set("alpha", "0.5").set(
			"components", 2).build();
	}
}
