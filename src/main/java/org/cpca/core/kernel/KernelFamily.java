package org.cpca.core.kernel;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.cpca.core.Progress;
import org.cpca.core.contrast.AlphaSelection;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import org.cpca.core.family.Choice;
import org.cpca.core.family.Family;
import org.cpca.core.family.FamilyInput;
import org.cpca.core.family.KeyField;
import org.cpca.core.family.OptionKeys;
import org.cpca.core.family.Parse;
import org.cpca.core.result.Method;
import org.cpca.core.result.Solution;

/**
 * Kernel cPCA: the kernel ({@code kernel}, {@code gamma}, {@code degree}, {@code coef0})
 * and the Nyström landmarks ({@code landmarks}); exact or Nyström by N, a fixed α or
 * automatic (γ, α); docs/math/kernel.md. Needs the samples.
 */
public final class KernelFamily implements Family<KernelOptions> {

	private static final class Builder {

		KernelFunction.Type type;
		double gamma, degree, coef0;
		int landmarks;

		KernelOptions build() {
			return KernelOptions.defaults().withKernel(KernelFunction.of(type, gamma, degree,
				coef0)).withLandmarks(landmarks);
		}
	}

	private static final OptionKeys<Builder, KernelOptions> KEYS = OptionKeys.of(
		Builder::new, Builder::build).key("kernel", "linear, poly or rbf", KeyField.of(
			"Kernel (kernel cPCA)", "rbf", "For method=kernel: rbf exp(−γ‖x−y‖²), poly (γxᵀy " +
				"+ coef0)^degree, or linear xᵀy (equals cPCA).").choices("rbf", "poly", "linear"),
			(b, t, k) -> b.type = KernelFunction.Type.parse(t)).key("gamma",
				"a value > 0 or auto", KeyField.of("γ (kernel cPCA)", "auto", "For " +
					"method=kernel: γ > 0 of the rbf or poly kernel, or auto: rbf 1/median " +
					"squared distance, poly 1/mean squared norm, over a seeded subsample of at " +
					"most 1000 samples."), (b, t, k) -> b.gamma = Choice.parse(t,
						Choice.Range.POSITIVE, k).value()).key("degree", "a value ≥ 1", KeyField.of(
							"Degree (poly kernel)", Integer.toString(KernelFunction.DEFAULT_DEGREE),
							"For kernel=poly: the degree, a whole number ≥ 1.").min(1), (b, t,
								k) -> b.degree = Parse.number(t, k)).key("coef0", "a value", KeyField.of(
									"coef0 (poly kernel)", Double.toString(KernelFunction.DEFAULT_COEF0),
									"For kernel=poly: the offset coef0 ≥ 0.").min(0), (b, t,
										k) -> b.coef0 = Parse.number(t, k)).key("landmarks",
											"a number ≥ 1, auto or all", KeyField.of(
												"Landmarks (kernel cPCA)", "auto", "For method=kernel: " +
													"auto (exact up to 2000 samples in all, else Nyström " +
													"with 500 seeded landmarks), all (always exact) or a " +
													"number of Nyström landmarks."), (b, t, k) -> b.landmarks =
														parseLandmarks(t, Choice.name(k)));

	/**
	 * Landmarks from text: "auto" (exact up to {@value KernelCpca#EXACT_LIMIT} samples,
	 * else Nyström), "all" (exact) or a whole number ≥ 1.
	 */
	public static int parseLandmarks(final String text, final String option) {
		final String s = text == null ? "auto" : text.trim().toLowerCase(Locale.ROOT);
		if (s.equals("auto") || s.isEmpty()) return KernelOptions.AUTOMATIC;
		if (s.equals("all") || s.equals("exact")) return KernelOptions.ALL;
		try {
			final int v = Integer.parseInt(s);
			if (v >= 1) return v;
		}
		catch (final NumberFormatException e) {
			// below
		}
		throw new IllegalArgumentException(option + " " + text + " is not known: use a " +
			"number of landmarks ≥ 1, auto (exact up to " + KernelCpca.EXACT_LIMIT +
			" samples, else " + KernelCpca.DEFAULT_LANDMARKS + " landmarks) or all (exact)");
	}

	@Override
	public Method method() {
		return Method.KERNEL;
	}

	@Override
	public OptionKeys<?, KernelOptions> keys() {
		return KEYS;
	}

	@Override
	public boolean runsFromFit() {
		return false;
	}

	/** Refuses α = ∞, which kernel cPCA does not define (in memory and streamed). */
	public static void checkAlpha(final double alpha) {
		if (alpha == Double.POSITIVE_INFINITY) throw new IllegalArgumentException("α = ∞ " +
			"is not defined for kernel cPCA: use a finite α ≥ 0 or auto");
	}

	/** Exact or Nyström by N, fixed or automatic α (not α = ∞). */
	@Override
	public Solution run(final KernelOptions o, final FamilyInput input) {
		final Dataset target = input.target(Method.KERNEL);
		final List<Dataset> backgrounds = input.backgrounds(Method.KERNEL);
		final CpcaOptions options = input.options();
		final double alpha = input.alpha();
		checkAlpha(alpha);
		if (Double.isNaN(alpha) && o.kernel().gammaIsAutomatic()) {
			// the default for rbf and poly: automatic (γ, α), docs/math/kernel.md
			final KernelSelection selection = KernelSelection.select(target, backgrounds.get(0),
				options, o, input.progress());
			final Map<String, Object> kernel = new LinkedHashMap<>(o.kernel().parameters());
			kernel.put("gamma", "auto (gamma, alpha)");
			kernel.putAll(selection.facts());
			final List<String> notes = new ArrayList<>(selection.diagnostics());
			notes.add(KernelCpcaModel.NO_COMPONENTS);
			return new Solution(Method.KERNEL, "auto", selection.models(), null, null, List
				.of(), Map.of("kernel", kernel, "standardize", options.standardize()), notes);
		}
		return solution(KernelCpca.fit(target, backgrounds, options, o, input.progress()),
			alpha, options, input.progress());
	}

	/**
	 * The solution of a kernel cPCA fit (held or streamed) at a fixed α, or at automatic α
	 * with γ given.
	 */
	public static Solution solution(final KernelCpca fit, final double alpha,
		final CpcaOptions options, final Progress progress)
	{
		final Map<String, Object> kernel = new LinkedHashMap<>(fit.kernel().parameters());
		kernel.put("path", fit.exact() ? "exact" : "nystrom");
		kernel.put("landmarks", fit.exact() ? null : fit.landmarks());
		kernel.put("rank", fit.rank());
		final Map<String, Object> facts = Map.of("kernel", kernel, "standardize", options
			.standardize());
		final List<String> notes = new ArrayList<>(fit.diagnostics());
		notes.add(KernelCpcaModel.NO_COMPONENTS);
		if (Double.isNaN(alpha)) {
			final AlphaSelection<KernelCpcaModel> selection = fit.automatic(progress);
			return new Solution(Method.KERNEL, "auto", selection.models(), selection, null,
				List.of(), facts, notes);
		}
		return new Solution(Method.KERNEL, "fixed", List.of(fit.model(alpha)), null, null,
			List.of(), facts, notes);
	}
}
