package org.cpca.core.uca;

import org.cpca.core.FamilyPropertyTest;
import org.cpca.core.run.Settings;

/** UCA with two backgrounds has the properties every family promises. */
class UcaPropertyTest extends FamilyPropertyTest {

	@Override
	protected Settings settings() {
		return Settings.builder().set("method", "uca").set("components", 2).build();
	}

	@Override
	protected int backgrounds() {
		return 2;
	}
}
