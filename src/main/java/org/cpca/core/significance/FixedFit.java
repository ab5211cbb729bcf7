package org.cpca.core.significance;

/**
 * A family at fixed parameters, as both tests need it: its statistics for the permutation
 * test and its components for the bootstrap.
 */
public interface FixedFit extends Refit, Directions {}
