package org.cpca.core.kernel;

import org.cpca.core.data.Dataset;
import org.cpca.core.data.Preprocessing;
import org.cpca.core.linalg.Products;
import org.cpca.core.model.ModelBase;

import java.util.List;
import java.util.Map;
import java.util.ArrayList;
import java.util.LinkedHashMap;

/**
 * A fitted kernel cPCA model (method "kernel"): immutable, self-contained.
 * <p>
 * Component c is a unit direction {@code v_c = Σ_s b_sc Φ(z_s)} in the kernel's feature
 * space, expanded over support samples z_s (the training samples on the exact path, the
 * landmarks on the Nyström path). The score of a sample x is its feature vector centred on
 * the target's feature-space mean, projected on v_c:
 * {@code Σ_s b_sc h(x̃, z̃_s) + o_c}, where x̃ is x after the kernel input preprocessing
 * (pooled mean, and pooled scale if standardised) and the offset o_c holds the centring.
 * {@link #transform} evaluates exactly this, so new samples are centred consistently with
 * the training target, whose scores it reproduces. Whitening, when asked for, is folded
 * into b and o.
 * <p>
 * There are no components in input space (no eigen-images, no reconstructions): a kernel
 * direction is not a vector of pixels. Per component the model reports the eigenvalue of
 * {@code C_t − αC_b} in feature space and the target and background variances along it.
 * {@link #parameters()} holds "kernel" (its name), "gamma", "degree", "coef0" (as the
 * kernel uses them), "path" ("exact" or "nystrom") and, for Nyström, "landmarks".
 */
public final class KernelCpcaModel extends ModelBase {

	/** The diagnostic that says why there are no eigen-images, and what to look at instead. */
	public static final String NO_COMPONENTS = "kernel cPCA has no components in input " +
		"space (no eigen-images, no components.tif, no reconstructions): its directions " +
		"live in the kernel's feature space; the target samples with the most extreme " +
		"scores show what each component sees (extremes.tif for images)";

	private final KernelFunction kernel;
	private final Preprocessing input;
	private final float[][] support;
	private final double[][] coefficients;
	private final double[] offsets;
	/** The support prepared for kernel rows, built on first use. */
	private volatile KernelMatrix.Support prepared;

	public KernelCpcaModel(final double alpha, final Map<String, Object> parameters,
		final KernelFunction kernel, final Preprocessing input, final float[][] support,
		final double[][] coefficients, final double[] offsets, final double[] eigenvalues,
		final double[] targetVariance, final double[] backgroundVariance,
		final double targetTotalVariance, final List<String> diagnostics,
		final Map<String, String> attributes, final double[][] targetScores)
	{
		super("kernel", alpha, parameters, eigenvalues, targetVariance, backgroundVariance,
			targetTotalVariance, diagnostics, attributes, targetScores);
		this.kernel = kernel;
		this.input = input;
		this.support = support;
		this.coefficients = coefficients;
		this.offsets = offsets;
	}

	/** The kernel, with γ fixed. */
	public KernelFunction kernel() {
		return kernel;
	}

	/** The kernel input preprocessing (pooled mean, and pooled scale if standardised). */
	public Preprocessing input() {
		return input;
	}

	/** Whether the model was fitted on the exact path (else Nyström). */
	public boolean exact() {
		return "exact".equals(parameters().get("path"));
	}

	@Override
	public int features() {
		return input.features();
	}

	/** Number of support samples the directions are expanded over. */
	public int supportSize() {
		return support.length;
	}

	/** Support sample s in raw units (a copy). */
	public double[] supportSample(final int s) {
		final double[] out = new double[support[s].length];
		for (int j = 0; j < out.length; j++)
			out[j] = support[s][j];
		return out;
	}

	/** Coefficients b (support × k; a copy). */
	public double[][] coefficients() {
		final double[][] out = new double[coefficients.length][];
		for (int s = 0; s < out.length; s++)
			out[s] = coefficients[s].clone();
		return out;
	}

	/** Offsets o (length k; a copy). */
	public double[] offsets() {
		return offsets.clone();
	}

	/** Raw support rows, shared: do not modify. */
	public float[][] supportRows() {
		return support;
	}

	@Override
	public KernelCpcaModel withAttributes(final Map<String, String> extra) {
		return new KernelCpcaModel(alpha(), parameters(), kernel, input, support,
			coefficients, offsets, eigenvalues(), targetVariance, backgroundVariance(),
			targetTotalVariance(), diagnostics(), merged(extra), heldScores());
	}

	/**
	 * The same model with extra diagnostics and, if finite, the parameter
	 * "contrast_eigengap" ({@code (λ_k − λ_{k+1})/λ_1} of its contrast problem; used to
	 * pick the default model of an automatic (γ, α) run when there are no labels).
	 */
	KernelCpcaModel withNotes(final List<String> notes, final double contrastGap) {
		final List<String> diag = new ArrayList<>(diagnostics());
		diag.addAll(notes);
		final Map<String, Object> p = new LinkedHashMap<>(parameters());
		if (Double.isFinite(contrastGap)) p.put("contrast_eigengap", contrastGap);
		return new KernelCpcaModel(alpha(), p, kernel, input, support, coefficients, offsets,
			eigenvalues(), targetVariance, backgroundVariance(), targetTotalVariance(), diag,
			attributes(), heldScores());
	}

	/**
	 * Scores (n × k) of new samples given in raw units: kernel rows against the support in
	 * blocks, times the coefficients, plus the offsets.
	 */
	@Override
	public double[][] transform(final Dataset x) {
		if (x.features() != features()) throw new IllegalArgumentException(x.name() +
			" has " + x.features() + " features but the kernel model was fitted on " +
			features() + ": use data of the same shape (same image size, mask and " +
			"binning, or the same table columns)");
		KernelMatrix.Support s = prepared;
		if (s == null) prepared = s = new KernelMatrix.Support(support, input, kernel);
		final int n = x.samples(), k = offsets.length;
		final double[][] out = new double[n][];
		for (int from = 0; from < n; from += KernelMatrix.BLOCK) {
			final int count = Math.min(KernelMatrix.BLOCK, n - from);
			final double[][] scores = Products.times(s.rows(x.rows(), from, count),
				coefficients);
			for (int i = 0; i < count; i++) {
				for (int c = 0; c < k; c++)
					scores[i][c] += offsets[c];
				out[from + i] = scores[i];
			}
		}
		return out;
	}
}
