/**
 * Sparse contrastive loadings (docs/math/sparse.md; docs/math/sparse.md): sparse versions of
 * cPCA's and gcPCA's loadings by variable projection, so an eigen-image becomes a mask of
 * the pixels that matter, with λ₁ given or chosen on a log path.
 * <p>
 * References: N. B. Erichson, P. Zheng, K. Manohar, S. L. Brunton, J. N. Kutz,
 * A. Y. Aravkin, "Sparse principal component analysis via variable projection", SIAM
 * Journal on Applied Mathematics (2020); P. Boileau, N. S. Hejazi, S. Dudoit, "Exploring
 * high-dimensional biological data with sparse contrastive principal component analysis",
 * Bioinformatics (2020); H. Zou, T. Hastie, R. Tibshirani, "Sparse principal component
 * analysis", Journal of Computational and Graphical Statistics (2006).
 */
package org.cpca.core.sparse;
