/**
 * Benchmarks of the core solvers on seeded synthetic data, run by {@code cpca bench};
 * not part of the user-facing code paths.
 */
package org.cpca.bench;
