/**
 * Fitted models (immutable: components, eigenvalues, preprocessing, per-component
 * variances and diagnostics), derived models, and the JSON model file. See
 * docs/math/conventions.md.
 */
package org.cpca.core.model;
