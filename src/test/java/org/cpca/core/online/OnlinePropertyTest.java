package org.cpca.core.online;

import org.cpca.core.FamilyPropertyTest;
import org.cpca.core.run.Settings;

/**
 * Online cPCA*'s promises at a fixed β on samples in memory: unit components with their
 * largest entry positive, deterministic for a seed, and scores the transform. It learns
 * from the samples one at a time in a seeded order, so another order gives another path;
 * its components are unit but only nearly orthogonal (the network's learned subspace); and,
 * like cPCA*, it mixes C_b with the identity, whose scale does not change with the units.
 */
class OnlinePropertyTest extends FamilyPropertyTest {

	@Override
	protected Settings settings() {
		return Settings.builder().set("method", "online").set("beta", "0.5").set("epochs",
			"20").set("components", 2).build();
	}

	@Override
	protected boolean orderFree() {
		return false;
	}

	@Override
	protected boolean orthonormal() {
		return false;
	}

	@Override
	protected boolean unitFree() {
		return false;
	}
}
