package org.cpca.core.significance;

/**
 * A refit that can stop before converging (an iterative family: sparse loadings) counts
 * such refits, so that the tests can report them (summary.json's
 * {@code "refits_not_converged"}, docs/math/significance.md#sparse-loadings).
 */
public interface Unconverged {

	/**
	 * The refits made so far that stopped before converging (at their cap of iterations,
	 * or for want of progress), or −1 for a family that is not iterative.
	 */
	default int unconverged() {
		return -1;
	}
}
