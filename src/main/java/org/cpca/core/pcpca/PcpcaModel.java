package org.cpca.core.pcpca;

import org.cpca.core.data.Dataset;
import org.cpca.core.data.Preprocessing;
import org.cpca.core.model.CpcaModel;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.cpca.core.contrast.Moments;

/**
 * A fitted PCPCA model (docs/math/pcpca.md): x ~ N(μ_t, WWᵀ + σ²I) with
 * {@code W = U diag(s)}, U the k unit components (cPCA's directions at α) and
 * {@code s_j = √(λ_j/(n_t − γn_b) − σ²)} the loading scales.
 * <p>
 * {@link #transform} is the posterior mean {@code E[z|x] = M⁻¹Wᵀ(x − μ_t)},
 * {@code M = WᵀW + σ²I = diag(s² + σ²)}: per component {@code s_j/(s_j² + σ²)·u_jᵀ(x − μ_t)};
 * {@link #inverseTransform} is {@code Wz + μ_t}, so {@code inverseTransform(transform(x))}
 * is the denoised reconstruction. {@link #logLikelihood} uses the Woodbury identity and the
 * determinant lemma: O(d·k) per sample, no d × d matrix. Parameters: "gamma",
 * "noise_variance" (σ²) and "loading_scales" (s).
 */
public final class PcpcaModel extends CpcaModel {

	private final double[] s;
	private final double sigma2;

	/**
	 * @param base the unit components, variances and preprocessing (its parameters are
	 *          kept; its scores are taken as u_jᵀ(x − μ) and turned into posterior means)
	 */
	PcpcaModel(final CpcaModel base, final double gamma, final double[] s,
		final double sigma2, final List<String> diagnostics, final boolean scoresAreProjections)
	{
		super("pcpca", base.alpha(), parameters(base.parameters(), gamma, s, sigma2), base
			.components(), base.eigenvalues(), base.targetVariance(), base
				.backgroundVariance(), base.targetTotalVariance(), base.preprocessing(), false,
			diagnostics, base.attributes(), scoresAreProjections ? posterior(base
				.targetScores(), s, sigma2) : base.targetScores());
		this.s = s.clone();
		this.sigma2 = sigma2;
	}

	/** A PCPCA model read back from a model file (method "pcpca"). */
	public static PcpcaModel of(final CpcaModel stored) {
		final Object n = stored.parameters().get("noise_variance"), sc = stored.parameters()
			.get("loading_scales"), g = stored.parameters().get("gamma");
		if (!(n instanceof Double) || !(sc instanceof double[]) || !(g instanceof Double))
			throw new IllegalArgumentException("a PCPCA model needs the parameters " +
				"noise_variance, loading_scales and gamma");
		final double[] s = (double[]) sc;
		if (s.length != stored.numComponents()) throw new IllegalArgumentException(
			"loading_scales has " + s.length + " values but the model has " + stored
				.numComponents() + " components");
		if (!((Double) n > 0)) throw new IllegalArgumentException("noise_variance must be > 0");
		return new PcpcaModel(stored, (Double) g, s, (Double) n, stored.diagnostics(), false);
	}

	private static Map<String, Object> parameters(final Map<String, Object> base,
		final double gamma, final double[] s, final double sigma2)
	{
		final Map<String, Object> p = new LinkedHashMap<>(base);
		p.put("gamma", gamma);
		p.put("noise_variance", sigma2);
		p.put("loading_scales", s.clone());
		return p;
	}

	private static double[][] posterior(final double[][] projections, final double[] s,
		final double sigma2)
	{
		if (projections == null) return null;
		for (final double[] row : projections)
			for (int c = 0; c < s.length; c++)
				row[c] *= s[c] / (s[c] * s[c] + sigma2);
		return projections;
	}

	/** σ², the noise variance. */
	public double noiseVariance() {
		return sigma2;
	}

	/** The loading scales s_j (W = U diag(s)). */
	public double[] loadingScales() {
		return s.clone();
	}

	public double gamma() {
		return (Double) parameters().get("gamma");
	}

	/** W (k rows of length d: row j is s_j u_j). */
	public double[][] loadings() {
		final double[][] u = components();
		for (int c = 0; c < u.length; c++)
			for (int j = 0; j < u[c].length; j++)
				u[c][j] *= s[c];
		return u;
	}

	@Override
	public PcpcaModel withAttributes(final Map<String, String> extra) {
		final CpcaModel base = new CpcaModel(method(), alpha(), parameters(), components(),
			eigenvalues(), targetVariance, backgroundVariance(), targetTotalVariance(),
			preprocessing(), false, diagnostics(), merged(extra), heldScores());
		return new PcpcaModel(base, gamma(), s, sigma2, diagnostics(), false);
	}

	/** Posterior means E[z|x] (n × k) of new samples in raw units. */
	@Override
	public double[][] transform(final Dataset x) {
		return posterior(super.transform(x), s, sigma2);
	}

	@Override
	public double[] transform(final double[] sample) {
		final double[] z = super.transform(sample);
		for (int c = 0; c < s.length; c++)
			z[c] *= s[c] / (s[c] * s[c] + sigma2);
		return z;
	}

	/** {@code W z + μ_t} in raw units (n × d): with posterior means, denoised samples. */
	@Override
	public double[][] inverseTransform(final double[][] scores) {
		final double[][] scaled = new double[scores.length][];
		for (int i = 0; i < scores.length; i++) {
			scaled[i] = scores[i].clone();
			if (scaled[i].length == s.length) for (int c = 0; c < s.length; c++)
				scaled[i][c] *= s[c];
		}
		return super.inverseTransform(scaled);
	}

	/** Denoised reconstructions {@code W E[z|x] + μ_t} of samples in raw units. */
	public double[][] denoise(final Dataset x) {
		return inverseTransform(transform(x));
	}

	/**
	 * {@link #logLikelihood} of the n target samples the model was fitted on, from their
	 * moments alone: the model's mean is theirs, so the mean of ‖r‖² is
	 * {@code (n − 1)/n} times the total target variance and the mean of p_j² is
	 * {@code (n − 1)/n} times component j's target variance (docs/math/pcpca.md). Equal to
	 * {@code logLikelihood(target)} to rounding; what a fit from moments (Spark) reports.
	 */
	public double trainingLogLikelihood(final int n) {
		final int d = features(), k = s.length;
		double logdet = (d - k) * Math.log(sigma2);
		for (int c = 0; c < k; c++)
			logdet += Math.log(s[c] * s[c] + sigma2);
		final double f = (n - 1.0) / n;
		final double[] tv = targetVariance();
		double shrink = 0;
		for (int c = 0; c < k; c++)
			shrink += tv[c] * s[c] * s[c] / (s[c] * s[c] + sigma2);
		return -0.5 * (d * Math.log(2 * Math.PI) + logdet + f * (targetTotalVariance() -
			shrink) / sigma2);
	}

	/**
	 * {@link #logLikelihood(Dataset)} of samples known by their moments: with δ the
	 * difference of their mean and the model's and S the model's scale (when
	 * standardised), the mean of r rᵀ is {@code S⁻¹(M2/n + δδᵀ)S⁻¹}, which gives the mean
	 * of ‖r‖² and of every p_j². Equal to the per-sample formula to rounding.
	 */
	public double logLikelihood(final Moments x) {
		final double[][] u = components();
		final Preprocessing pre = preprocessing();
		final int d = features(), k = s.length;
		if (x.features() != d) throw new IllegalArgumentException("the samples have " + x
			.features() + " features but the model was fitted on " + d);
		final double[] mu = pre.mean(), scale = pre.scale(), mean = x.mean(), m2 = x
			.scatter();
		final double n = x.count();
		final double[] delta = new double[d], inv = new double[d];
		for (int j = 0; j < d; j++) {
			delta[j] = mean[j] - mu[j];
			inv[j] = scale == null ? 1 : 1 / scale[j];
		}
		double logdet = (d - k) * Math.log(sigma2);
		for (int c = 0; c < k; c++)
			logdet += Math.log(s[c] * s[c] + sigma2);
		double norm = 0;
		for (int j = 0; j < d; j++)
			norm += (m2[j * d + j] / n + delta[j] * delta[j]) * inv[j] * inv[j];
		double shrink = 0;
		for (int c = 0; c < k; c++) {
			double q = 0;
			for (int i = 0; i < d; i++) {
				final double ui = u[c][i] * inv[i];
				if (ui == 0) continue;
				double row = 0;
				for (int j = 0; j < d; j++)
					row += (m2[i * d + j] / n + delta[i] * delta[j]) * u[c][j] * inv[j];
				q += ui * row;
			}
			shrink += q * s[c] * s[c] / (s[c] * s[c] + sigma2);
		}
		return -0.5 * (d * Math.log(2 * Math.PI) + logdet + (norm - shrink) / sigma2);
	}

	/**
	 * Mean log-likelihood per sample of x under N(μ_t, WWᵀ + σ²I), in the preprocessed units
	 * (standardised when the fit was): with r = x − μ_t and p = Uᵀr,
	 * {@code log p = −½[d log 2π + (d − k) log σ² + Σ log(s_j² + σ²) + (‖r‖² − Σ p_j² s_j²/(s_j² + σ²))/σ²]}.
	 */
	public double logLikelihood(final Dataset x) {
		final double[][] u = components();
		final Preprocessing pre = preprocessing();
		final int d = features(), k = s.length;
		if (x.features() != d) throw new IllegalArgumentException(x.name() + " has " + x
			.features() + " features but the model was fitted on " + d);
		double logdet = (d - k) * Math.log(sigma2);
		for (int c = 0; c < k; c++)
			logdet += Math.log(s[c] * s[c] + sigma2);
		double total = 0;
		final double[] r = new double[d];
		for (int i = 0; i < x.samples(); i++) {
			final float[] row = x.row(i);
			double norm = 0;
			for (int j = 0; j < d; j++) {
				r[j] = pre.apply(j, row[j]);
				norm += r[j] * r[j];
			}
			double shrink = 0;
			for (int c = 0; c < k; c++) {
				double p = 0;
				for (int j = 0; j < d; j++)
					p += u[c][j] * r[j];
				shrink += p * p * s[c] * s[c] / (s[c] * s[c] + sigma2);
			}
			total += -0.5 * (d * Math.log(2 * Math.PI) + logdet + (norm - shrink) / sigma2);
		}
		return total / x.samples();
	}
}
