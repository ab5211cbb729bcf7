package org.cpca.core.rpca;

import org.cpca.core.FamilyPropertyTest;
import org.cpca.core.run.Settings;

/** rPCA (k_b = 2 per background) has the properties every family promises. */
class RpcaPropertyTest extends FamilyPropertyTest {

	@Override
	protected Settings settings() {
		return Settings.builder().set("method", "rpca").set("k_b", "2").set("components", 2)
			.build();
	}
}
