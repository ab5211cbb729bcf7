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
 * "final_change": x, "cap": N}}, and for an eigensolver's entry over several solves
 * ("lobpcg", "lanczos") also {@code "solves": N, "fallback": text or null}
 * (docs/math/conventions.md#convergence). Immutable.
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
	/** Solves the entry sums up (−1: one iteration, not written). */
	private final long solves;
	/** What answered where the iteration stopped at its cap, or null. */
	private final String fallback;

	private Convergence(final Object iterations, final boolean converged,
		final double tolerance, final Object finalChange, final long cap)
	{
		this(iterations, converged, tolerance, finalChange, cap, -1, null);
	}

	private Convergence(final Object iterations, final boolean converged,
		final double tolerance, final Object finalChange, final long cap, final long solves,
		final String fallback)
	{
		this.iterations = iterations;
		this.converged = converged;
		this.tolerance = tolerance;
		this.finalChange = finalChange;
		this.cap = cap;
		this.solves = solves;
		this.fallback = fallback;
	}

	/**
	 * An eigensolver's entry over several solves (e.g. one per α of a sweep): the most
	 * iterations one took, whether every one converged within the cap, and, when some
	 * stopped at it, what answered instead ({@code "fallback"}, null when none did).
	 */
	public static Convergence ofSolves(final long solves, final long maxIterations,
		final boolean converged, final double tolerance, final long cap,
		final String fallback)
	{
		return new Convergence(maxIterations, converged, tolerance, Double.NaN, cap, solves,
			fallback);
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
		if (solves >= 0) {
			m.put("solves", solves);
			m.put("fallback", fallback);
		}
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

	/**
	 * The console's line for the iterations in {@code facts} that did not converge
	 * ("WARNING: did not converge: …", with what answered where a fallback did), or null
	 * when all converged.
	 */
	public static String warning(final Map<String, Object> facts) {
		final List<String> names = unconverged(facts);
		if (names.isEmpty()) return null;
		final List<String> shown = new ArrayList<>();
		boolean lastIterate = false;
		for (final String name : names) {
			final Object fallback = ((Map<?, ?>) ((Map<?, ?>) facts.get(KEY)).get(name)).get(
				"fallback");
			if (fallback == null) lastIterate = true;
			shown.add(fallback == null ? name : name + " (stopped at its cap; " + fallback +
				")");
		}
		return "WARNING: did not converge: " + String.join(", ", shown) + " (" + (lastIterate
			? "the result is the last iterate; " : "") + "summary.json \"convergence\" has the " +
			"iterations and the final change)";
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
