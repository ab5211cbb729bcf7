/**
 * Unique component analysis (UCA): the Lagrangian dual over one or several backgrounds,
 * minimised over λ ≥ 0, with no tuning parameter. See docs/math/uca.md.
 * <p>
 * References:
 * <ul>
 * <li>R. Tu, A. H. Foss, S. D. Zhao, "Capturing patterns of variation unique to a
 * specific dataset" (Unique Component Analysis), arXiv preprint (2020).
 * </li>
 * </ul>
 */
package org.cpca.core.uca;
