/**
 * PCPCA, probabilistic contrastive PCA (docs/math/pcpca.md; docs/math/pcpca.md): cPCA's
 * directions with a generative model — a noise variance σ², loadings W, the posterior-mean
 * transform of new data, denoised reconstructions, a held-out log-likelihood, and fitting
 * with missing values by EM over the observed coordinates (Woodbury form, O(d·k) memory per
 * sample).
 * <p>
 * Reference: D. Li, A. Jones, B. Engelhardt, "Probabilistic contrastive principal component
 * analysis", arXiv:2012.07977 (2020); the likelihood model is that of probabilistic PCA,
 * M. Tipping &amp; C. Bishop, "Probabilistic principal component analysis", Journal of the
 * Royal Statistical Society B (1999).
 */
package org.cpca.core.pcpca;
