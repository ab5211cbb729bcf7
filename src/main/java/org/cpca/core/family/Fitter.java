package org.cpca.core.family;

import org.cpca.core.contrast.Cpca;

/**
 * Builds the fit a family runs on: from every background as given, or (for UCA and rPCA
 * with {@code stacked}) from them pooled into one dataset. The in-memory runner fits the
 * samples; a cluster front end fits merged moments or a Gram matrix (docs/spark.md), and
 * both then run the same family code.
 */
@FunctionalInterface
public interface Fitter {

	/** @param pool pool every background into one (the moments of their union) */
	Cpca fit(boolean pool);
}
