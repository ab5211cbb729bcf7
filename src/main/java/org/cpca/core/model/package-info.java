/**
 * Fitted models (immutable: components, eigenvalues, preprocessing, per-component
 * variances and diagnostics) and derived models. The JSON model file, which reads and
 * writes every family's models, is one layer up in {@link org.cpca.core.modelfile}. See
 * docs/math/conventions.md.
 */
package org.cpca.core.model;
