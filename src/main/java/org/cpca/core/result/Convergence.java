package org.cpca.core.result;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How one iteration of a method ended, for the summary's {@value #KEY} entry: an object
 * keyed by the iteration's name ("online", "dual", "em", "shuffles", "sparse", …), each
 * {@code {"iterations": N or [one per component], "converged": true|false, "tolerance": t,
 * "final_change": x, "cap": N}} (docs/math/conventions.md#convergence). Immutable.
 */
public final class Convergence {

	/** The summary's key (a fact of the {@link Solution}). */
	public static final String KEY = "convergence";

	private final Object iterations;
	private final boolean converged;
	private final double tolerance;
	/** A Double, or a double[] with one change per component. */
	private final Object finalChange;
	private final long cap;

	private Convergence(final Object iterations, final boolean converged,
		final double tolerance, final Object finalChange, final long cap)
	{
		this.iterations = iterations;
		this.converged = converged;
		this.tolerance = tolerance;
		this.finalChange = finalChange;
		this.cap = cap;
	}

	/**
	 * @param tolerance the change below which the iteration stops (NaN: none, e.g. a fixed
	 *          count)
	 * @param finalChange the last change measured (NaN: none)
	 * @param cap the most iterations allowed
	 */
	public static Convergence of(final long iterations, final boolean converged,
		final double tolerance, final double finalChange, final long cap)
	{
		return new Convergence(iterations, converged, tolerance, finalChange, cap);
	}

	/** {@link #of} with one iteration count per component. */
	public static Convergence perComponent(final int[] iterations, final boolean converged,
		final double tolerance, final double finalChange, final long cap)
	{
		return new Convergence(iterations.clone(), converged, tolerance, finalChange, cap);
	}

	/** {@link #of} with one iteration count and one final change per component. */
	public static Convergence perComponent(final int[] iterations, final boolean converged,
		final double tolerance, final double[] finalChange, final long cap)
	{
		return new Convergence(iterations.clone(), converged, tolerance, finalChange.clone(),
			cap);
	}

	public boolean converged() {
		return converged;
	}

	/** The summary's object (NaN written as null). */
	public Map<String, Object> toMap() {
		final Map<String, Object> m = new LinkedHashMap<>();
		m.put("iterations", iterations instanceof int[] ? ((int[]) iterations).clone()
			: iterations);
		m.put("converged", converged);
		m.put("tolerance", Double.isNaN(tolerance) ? null : tolerance);
		m.put("final_change", finalChange instanceof double[] ? ((double[]) finalChange)
			.clone() : Double.isNaN((Double) finalChange) ? null : finalChange);
		m.put("cap", cap);
		return m;
	}

	/**
	 * {@code facts} with {@code name → this} added to its {@value #KEY} entry (created when
	 * absent; other iterations kept), as a new map.
	 */
	public Map<String, Object> addTo(final Map<String, Object> facts, final String name) {
		final Map<String, Object> out = new LinkedHashMap<>(facts);
		final Map<String, Object> entry = new LinkedHashMap<>();
		final Object old = out.get(KEY);
		if (old instanceof Map) ((Map<?, ?>) old).forEach((k, v) -> entry.put(String.valueOf(k),
			v));
		entry.put(name, toMap());
		out.put(KEY, Collections.unmodifiableMap(entry));
		return out;
	}

	/** The names of the iterations in {@code facts}' {@value #KEY} entry that did not converge. */
	public static List<String> unconverged(final Map<String, Object> facts) {
		final List<String> out = new ArrayList<>();
		final Object entry = facts.get(KEY);
		if (entry instanceof Map) ((Map<?, ?>) entry).forEach((name, v) -> {
			if (v instanceof Map && Boolean.FALSE.equals(((Map<?, ?>) v).get("converged")))
				out.add(String.valueOf(name));
		});
		return out;
	}
}
