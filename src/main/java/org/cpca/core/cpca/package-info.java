/**
 * PCA and cPCA as method families (fixed α, α = ∞, automatic α; sparse loadings with
 * {@code sparsity}), on the shared contrastive problem of {@code core.contrast}.
 */
package org.cpca.core.cpca;
