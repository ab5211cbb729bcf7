/**
 * The Apache Spark front end: the linear methods (PCA, cPCA at a fixed α, α = ∞ and
 * automatic α, cPCA*, cPCA++, UCA, rPCA) on data read by a cluster's executors, writing
 * the same results folder as {@code cpca fit}.
 * <p>
 * Many samples: each partition reduces its samples to moments (count, mean, scatter)
 * with blocked rank-b updates; partitions merge with Chan's pairwise formula in an
 * ordered tree aggregation; the driver runs the core solvers on the merged covariances
 * ({@link org.cpca.core.contrast.Cpca#fromMoments}); a second pass broadcasts the
 * components and collects the target scores. Many features: per-feature means, then the
 * Gram matrix of the stacked centred samples summed over pixel tiles, the reduced space
 * on the driver ({@link org.cpca.core.contrast.Cpca#fromGram}), components by a pass that
 * broadcasts the sample coefficients. Both large: a seeded randomized range finder
 * ({@link org.cpca.spark.SparkRange}) gives one shared basis Q of r directions, each
 * dataset's moments projected on it, the core solvers in that space
 * ({@link org.cpca.core.contrast.Cpca#fromRange}), components Qv. The mathematics is in
 * {@code docs/math/spark.md}, the cost model and how to run on clusters in
 * {@code docs/spark.md}.
 * <p>
 * References: T. F. Chan, G. H. Golub and R. J. LeVeque, "Updating formulae and a
 * pairwise algorithm for computing sample variances", Stanford CS report
 * STAN-CS-79-773 (1979); M. Zaharia et al., "Resilient distributed datasets: a
 * fault-tolerant abstraction for in-memory cluster computing", NSDI 2012; A. Abid,
 * M. J. Zhang, V. K. Bagaria and J. Zou, "Exploring patterns enriched in a dataset with
 * contrastive principal component analysis", Nature Communications 9, 2134 (2018).
 */
package org.cpca.spark;
