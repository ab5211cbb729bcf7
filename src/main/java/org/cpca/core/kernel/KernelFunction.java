package org.cpca.core.kernel;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A positive semi-definite kernel {@code h(x, y) = ⟨Φ(x), Φ(y)⟩} for kernel cPCA
 * (docs/math/kernel.md), evaluated on the samples after the kernel input preprocessing of
 * {@link KernelCpca} (minus the pooled mean, optionally divided by the pooled standard
 * deviation):
 * <ul>
 * <li><b>linear</b>: {@code xᵀy} (kernel cPCA then equals linear cPCA);</li>
 * <li><b>poly</b>: {@code (γ xᵀy + c₀)^p}, integer degree p ≥ 1, c₀ ≥ 0 (defaults p = 3,
 * c₀ = 1, as scikit-learn);</li>
 * <li><b>rbf</b>: {@code exp(−γ ‖x − y‖²)}, γ &gt; 0.</li>
 * </ul>
 * γ may be left automatic ({@link #gammaIsAutomatic()}); {@link KernelCpca} then fixes it
 * from the data ({@link KernelMatrix#automaticGamma}):
 * <ul>
 * <li>rbf: <b>γ = 1 / median of the squared Euclidean distances between all pairs of a
 * subsample</b> (the median heuristic), so that a typical pair has h ≈ e⁻¹;</li>
 * <li>poly: <b>γ = 1 / mean squared norm of the subsample</b>, so that γ xᵀy is of order
 * 1;</li>
 * </ul>
 * where the subsample is a seeded uniform random choice (without replacement) of at most
 * {@value KernelMatrix#GAMMA_SUBSAMPLE} of the pooled training samples (target and
 * background), all of them when there are fewer. Immutable.
 */
public final class KernelFunction {

	/** The kernel families, with their names as in {@code cpca fit --kernel}. */
	public enum Type {
		LINEAR("linear"), POLYNOMIAL("poly"), RBF("rbf");

		private final String id;

		Type(final String id) {
			this.id = id;
		}

		/** The name as in {@code --kernel}: linear, poly, rbf. */
		public String id() {
			return id;
		}

		/** The type named {@code linear}, {@code poly} (or {@code polynomial}) or {@code rbf}. */
		public static Type parse(final String name) {
			final String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
			if (n.equals("polynomial")) return POLYNOMIAL;
			for (final Type t : values())
				if (t.id.equals(n)) return t;
			throw new IllegalArgumentException("unknown kernel '" + name +
				"': use linear, poly or rbf");
		}
	}

	/** Default polynomial degree. */
	public static final int DEFAULT_DEGREE = 3;
	/** Default polynomial offset c₀. */
	public static final double DEFAULT_COEF0 = 1;

	private final Type type;
	private final double gamma;
	private final int degree;
	private final double coef0;

	private KernelFunction(final Type type, final double gamma, final int degree,
		final double coef0)
	{
		this.type = type;
		this.gamma = gamma;
		this.degree = degree;
		this.coef0 = coef0;
	}

	/** {@code h(x, y) = xᵀy}. */
	public static KernelFunction linear() {
		return new KernelFunction(Type.LINEAR, Double.NaN, 1, 0);
	}

	/**
	 * {@code h(x, y) = exp(−γ‖x − y‖²)}.
	 *
	 * @param gamma &gt; 0, or NaN for the median heuristic
	 */
	public static KernelFunction rbf(final double gamma) {
		return new KernelFunction(Type.RBF, checkGamma(gamma), 1, 0);
	}

	/**
	 * {@code h(x, y) = (γ xᵀy + c₀)^p}.
	 *
	 * @param degree p ≥ 1
	 * @param gamma &gt; 0, or NaN for 1 / mean squared norm
	 * @param coef0 c₀ ≥ 0 (the kernel is then positive semi-definite)
	 */
	public static KernelFunction polynomial(final int degree, final double gamma,
		final double coef0)
	{
		if (degree < 1) throw new IllegalArgumentException("the polynomial kernel's degree " +
			"must be an integer ≥ 1 (got " + degree + "); degree 1 with coef0 0 is the " +
			"linear kernel up to scale");
		if (!(coef0 >= 0) || Double.isInfinite(coef0)) throw new IllegalArgumentException(
			"the polynomial kernel's coef0 must be a finite number ≥ 0 (got " + coef0 +
				"): a negative offset does not give a valid (positive semi-definite) kernel");
		return new KernelFunction(Type.POLYNOMIAL, checkGamma(gamma), degree, coef0);
	}

	/**
	 * The kernel of the given type with its parameters (those the type does not use are
	 * ignored).
	 *
	 * @param degree for poly; a whole number ≥ 1
	 */
	public static KernelFunction of(final Type type, final double gamma,
		final double degree, final double coef0)
	{
		switch (type) {
			case LINEAR:
				return linear();
			case RBF:
				return rbf(gamma);
			default:
				if (!(degree >= 1) || degree != Math.rint(degree) || degree > 64)
					throw new IllegalArgumentException("the polynomial kernel's degree must be " +
						"a whole number from 1 to 64 (got " + degree + ")");
				return polynomial((int) degree, gamma, coef0);
		}
	}

	private static double checkGamma(final double gamma) {
		if (Double.isNaN(gamma)) return gamma;
		if (!(gamma > 0) || Double.isInfinite(gamma)) throw new IllegalArgumentException(
			"the kernel's gamma must be a finite number > 0 (got " + gamma +
				"), or auto for the data-driven default");
		return gamma;
	}

	public Type type() {
		return type;
	}

	/** γ; NaN when automatic (not yet fixed from data) or for the linear kernel. */
	public double gamma() {
		return gamma;
	}

	/** Whether γ is still to be chosen from the data (never for the linear kernel). */
	public boolean gammaIsAutomatic() {
		return type != Type.LINEAR && Double.isNaN(gamma);
	}

	public int degree() {
		return degree;
	}

	public double coef0() {
		return coef0;
	}

	/** The same kernel with γ fixed. */
	public KernelFunction withGamma(final double newGamma) {
		if (type == Type.LINEAR) return this;
		return new KernelFunction(type, checkGamma(newGamma), degree, coef0);
	}

	/**
	 * The kernel's settings for model files and reports: "kernel" (its name), then
	 * "gamma", "degree", "coef0" where the type uses them.
	 */
	public Map<String, Object> parameters() {
		final Map<String, Object> p = new LinkedHashMap<>();
		p.put("kernel", type.id());
		if (type != Type.LINEAR) p.put("gamma", gamma);
		if (type == Type.POLYNOMIAL) {
			p.put("degree", (double) degree);
			p.put("coef0", coef0);
		}
		return p;
	}

	/** The kernel described by {@link #parameters()}. */
	public static KernelFunction fromParameters(final Map<String, Object> p) {
		final Object name = p.get("kernel");
		if (!(name instanceof String)) throw new IllegalArgumentException(
			"the kernel's name is missing");
		final Type type = Type.parse((String) name);
		return of(type, number(p, "gamma", type != Type.LINEAR), number(p, "degree",
			type == Type.POLYNOMIAL), number(p, "coef0", type == Type.POLYNOMIAL));
	}

	private static double number(final Map<String, Object> p, final String key,
		final boolean required)
	{
		final Object v = p.get(key);
		if (v instanceof Double) return (Double) v;
		if (required) throw new IllegalArgumentException("the kernel's \"" + key +
			"\" is missing");
		return Double.NaN;
	}

	/**
	 * h from the inner product {@code xᵀy} and the squared norms {@code ‖x‖²}, {@code ‖y‖²}
	 * (γ must be fixed).
	 */
	double value(final double dot, final double normX, final double normY) {
		switch (type) {
			case LINEAR:
				return dot;
			case RBF:
				return Math.exp(-gamma * Math.max(0, normX + normY - 2 * dot));
			default:
				final double base = gamma * dot + coef0;
				double v = base;
				for (int i = 1; i < degree; i++)
					v *= base;
				return v;
		}
	}

	/**
	 * Turns inner products into kernel values in place: {@code values[offset + j] = h}
	 * for the products {@code values[offset + j] = xᵀy_j} with {@code ‖x‖² = normX},
	 * {@code ‖y_j‖² = norms[j]}, j in [0, count).
	 */
	void apply(final double[] values, final int offset, final double normX,
		final double[] norms, final int count)
	{
		switch (type) {
			case LINEAR:
				return;
			case RBF:
				for (int j = 0; j < count; j++)
					values[offset + j] = Math.exp(-gamma * Math.max(0, normX + norms[j] - 2 *
						values[offset + j]));
				return;
			default:
				for (int j = 0; j < count; j++)
					values[offset + j] = value(values[offset + j], normX, norms[j]);
		}
	}

	/** e.g. "rbf (γ = 0.0012)", "poly (degree 3, γ = 0.5, coef0 = 1)", "linear". */
	@Override
	public String toString() {
		switch (type) {
			case LINEAR:
				return "linear";
			case RBF:
				return "rbf (γ = " + text(gamma) + ")";
			default:
				return "poly (degree " + degree + ", γ = " + text(gamma) + ", coef0 = " + text(
					coef0) + ")";
		}
	}

	private static String text(final double v) {
		return Double.isNaN(v) ? "auto" : String.format(Locale.ROOT, "%.6g", v);
	}
}
