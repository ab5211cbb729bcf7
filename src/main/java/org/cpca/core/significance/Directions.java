package org.cpca.core.significance;

import org.cpca.core.data.Dataset;

import java.util.List;

/** A family's components fitted at fixed parameters, for the bootstrap ({@link Bootstrap}). */
public interface Directions {

	/**
	 * The components of a fit to these data, one unit vector of length d per component,
	 * in the fit's order.
	 */
	double[][] directions(Dataset target, List<Dataset> backgrounds);
}
