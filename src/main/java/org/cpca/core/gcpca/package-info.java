/**
 * gcPCA, generalized contrastive PCA (docs/math/gcpca.md; docs/math/gcpca.md): α-free,
 * symmetric contrastive components from a generalised Rayleigh quotient, with both ends of
 * the spectrum, orthogonal variants and a seeded shuffle test of significance.
 * <p>
 * Solved on the shared contrastive space of {@link org.cpca.core.contrast.Cpca} (the exact
 * reduced space for images). References: E. de Oliveira, P. Garg, J. Hjerling-Leffler,
 * R. Batista-Brito, L. Sjulson, "Identifying patterns differing between high-dimensional
 * datasets with generalized contrastive PCA", PLOS Computational Biology (2025); for v2
 * (the variance ratio), R. Salloum &amp; C.-C. J. Kuo, "cPCA++: an efficient method for
 * contrastive feature learning", Pattern Recognition (2022).
 */
package org.cpca.core.gcpca;
