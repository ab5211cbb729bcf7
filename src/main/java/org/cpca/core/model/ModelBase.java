package org.cpca.core.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What every fitted model holds besides its way of projecting samples: the method's
 * settings, per component the eigenvalue and the target and background variances, the
 * total target variance, notes, attributes and the training target's scores. Immutable;
 * array accessors return copies.
 */
public abstract class ModelBase implements FittedModel {

	private final String method;
	private final double alpha;
	private final Map<String, Object> parameters;
	private final double[] eigenvalues;
	/** Shared with subclasses for whitening: do not modify. */
	protected final double[] targetVariance;
	private final double[] backgroundVariance;
	private final double targetTotalVariance;
	private final List<String> diagnostics;
	private final Map<String, String> attributes;
	private final double[][] targetScores;

	public ModelBase(final String method, final double alpha, final Map<String, Object> parameters,
		final double[] eigenvalues, final double[] targetVariance,
		final double[] backgroundVariance, final double targetTotalVariance,
		final List<String> diagnostics, final Map<String, String> attributes,
		final double[][] targetScores)
	{
		this.method = method;
		this.alpha = alpha;
		this.parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
		this.eigenvalues = eigenvalues;
		this.targetVariance = targetVariance;
		this.backgroundVariance = backgroundVariance;
		this.targetTotalVariance = targetTotalVariance;
		this.diagnostics = Collections.unmodifiableList(new ArrayList<>(diagnostics));
		this.attributes = Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
		this.targetScores = targetScores;
	}

	/** The attributes merged with {@code extra} (the new ones win), for withAttributes. */
	protected final Map<String, String> merged(final Map<String, String> extra) {
		final Map<String, String> m = new LinkedHashMap<>(attributes);
		m.putAll(extra);
		return m;
	}

	/** The scores as held (shared: do not modify), for withAttributes. */
	protected final double[][] heldScores() {
		return targetScores;
	}

	@Override
	public String method() {
		return method;
	}

	@Override
	public double alpha() {
		return alpha;
	}

	@Override
	public Map<String, Object> parameters() {
		return parameters;
	}

	@Override
	public int numComponents() {
		return eigenvalues.length;
	}

	@Override
	public double[] eigenvalues() {
		return eigenvalues.clone();
	}

	@Override
	public double[] targetVariance() {
		return targetVariance.clone();
	}

	@Override
	public double[] backgroundVariance() {
		return backgroundVariance.clone();
	}

	/** Total target variance (the trace of the target covariance, in the model's space). */
	public double targetTotalVariance() {
		return targetTotalVariance;
	}

	@Override
	public double[] fractionOfTargetVariance() {
		final double[] f = new double[targetVariance.length];
		for (int c = 0; c < f.length; c++)
			f[c] = targetTotalVariance > 0 ? targetVariance[c] / targetTotalVariance : 0;
		return f;
	}

	@Override
	public List<String> diagnostics() {
		return diagnostics;
	}

	@Override
	public Map<String, String> attributes() {
		return attributes;
	}

	@Override
	public double[][] targetScores() {
		if (targetScores == null) return null;
		final double[][] out = new double[targetScores.length][];
		for (int i = 0; i < out.length; i++)
			out[i] = targetScores[i].clone();
		return out;
	}
}
