/**
 * Significance of components by permutation (docs/math/significance.md): a family's fit is
 * repeated at fixed parameters on data drawn from a null (samples exchanged between target
 * and backgrounds; for PCA, every feature of the target shuffled on its own), and each
 * component's statistic is compared with the null's maximum over components (family-wise
 * control). {@link org.cpca.core.significance.PermutationTest} is the entry point,
 * {@link org.cpca.core.significance.Refit} the seam a family is refitted through and
 * {@link org.cpca.core.significance.FixedFits} one adapter per family.
 */
package org.cpca.core.significance;
