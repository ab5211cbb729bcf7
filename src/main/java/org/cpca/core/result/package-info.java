/**
 * What a run of any method gives: {@link org.cpca.core.result.Method} (the methods, by
 * id), {@link org.cpca.core.result.Solution} (the models with the summary's facts,
 * curves and diagnostics) and {@link org.cpca.core.result.Convergence} (how an iteration
 * ended: the summary's one "convergence" entry). Below the method families, which make solutions, and below
 * {@code core.run}, which dispatches to them (no package cycle).
 */
package org.cpca.core.result;
