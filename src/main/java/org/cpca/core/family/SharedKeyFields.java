package org.cpca.core.family;

/**
 * The dialog fields of the keys that several families declare alike: sparse loadings
 * (cPCA, gcPCA) and pooled backgrounds (UCA, rPCA). A family declares such a key with
 * this field, so that the one dialog field shows the same for each.
 */
public final class SharedKeyFields {

	private SharedKeyFields() {}

	/** {@code sparsity}: sparse loadings' λ₁ ({@link Parse#sparsity}). */
	public static final KeyField SPARSITY = KeyField.of("Sparsity (cPCA, gcPCA)", "none",
		"none (dense), a value ≥ 0 (larger gives more zero loadings) or auto.");

	/** {@code stacked}: several backgrounds pooled into one. */
	public static final KeyField STACKED = KeyField.of("Pool backgrounds (stacked)", "false",
		"UCA, rPCA with several backgrounds: pool them into one dataset instead of " +
			"treating each on its own (for comparison).");
}
