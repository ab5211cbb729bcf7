package org.cpca.core.sparse;

import org.cpca.core.FamilyPropertyTest;
import org.cpca.core.run.Settings;

/**
 * Sparse cPCA loadings at a fixed α and sparsity: the properties every family promises,
 * including freedom from the data's units (λ₁ is the sparsity times the contrast's top
 * eigenvalue, docs/math/sparse.md). Sparse loadings are unit but not orthogonal.
 */
class SparsePropertyTest extends FamilyPropertyTest {

	@Override
	protected Settings settings() {
		return Settings.builder().set("method", "cpca").set("alpha_mode", "fixed").set("alpha",
			"2").set("sparsity", "0.05").set("components", 2).build();
	}

	@Override
	protected boolean orthonormal() {
		return false;
	}
}
