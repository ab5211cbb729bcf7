/**
 * Dense linear algebra, named by operation: covariance, Gram and projection products
 * ({@link org.cpca.core.linalg.Products}), the symmetric eigen-decomposition ({@link
 * org.cpca.core.linalg.SymmetricEigen}), top-k eigen-solvers with warm starts ({@link
 * org.cpca.core.linalg.TopEigen}, {@link org.cpca.core.linalg.ContrastSolver}) and the
 * symmetric-definite generalized problem ({@link
 * org.cpca.core.linalg.GeneralizedEigen}). Nothing here knows about methods. See
 * docs/math/solvers.md.
 */
package org.cpca.core.linalg;
