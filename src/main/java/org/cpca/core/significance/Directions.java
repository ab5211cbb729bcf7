package org.cpca.core.significance;

import org.cpca.core.data.Dataset;

import java.util.List;

/** A family's components fitted at fixed parameters, for the bootstrap ({@link Bootstrap}). */
public interface Directions extends Unconverged {

	/**
	 * The components of a fit to these data, one vector per component in the fit's order:
	 * a unit vector of length d, or what {@link #measure()} names (the same length for
	 * every fit).
	 */
	double[][] directions(Dataset target, List<Dataset> backgrounds);

	/**
	 * What the bootstrap's angle is measured between, for the summary ({@code "measure"}),
	 * or {@code null} for the components themselves (unit vectors in feature space).
	 */
	default String measure() {
		return null;
	}
}
