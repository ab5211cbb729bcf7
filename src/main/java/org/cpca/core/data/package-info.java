/**
 * Datasets (samples × features), their preprocessing (per-dataset centring, optional
 * standardisation, missing values) and sample streams for data that do not fit in
 * memory. See docs/math/conventions.md.
 */
package org.cpca.core.data;
