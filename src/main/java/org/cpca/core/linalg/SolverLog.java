package org.cpca.core.linalg;

import java.util.function.Supplier;

/**
 * What the iterative eigensolvers did during one piece of work, for the summary's
 * convergence entries (docs/math/conventions.md#convergence): per solver — LOBPCG
 * ({@link ContrastSolver}) and the block Lanczos method ({@link TopEigen}) — how many
 * solves ran, the most iterations one took, how many stopped at their cap, and how many
 * of those then fell back to a full decomposition (exact, but the iteration did not
 * converge).
 * <p>
 * A log collects the solves run by the thread that runs {@link #during}, which is where
 * the solvers iterate (their products may use other threads), and by work that thread
 * hands to another one through {@link #carried}. Solves run without a log
 * are not recorded. A direct LOBPCG attempt that gives up within its budget hands over to
 * the prepared solver by design ({@link ContrastSolver#direct}) and is not counted as
 * stopped at a cap; the prepared solve is.
 * <p>
 * A log can also lower the solvers' caps ({@link #capped}), so that tests can make an
 * iteration stop at its cap and check what is reported.
 */
public final class SolverLog {

	/** One solver's tally. */
	public static final class Tally {

		private int solves;
		private int maxIterations;
		private int capped;
		private int fallbacks;
		private int cap;

		/** Solves recorded. */
		public synchronized int solves() {
			return solves;
		}

		/** The most iterations (LOBPCG) or restarts (Lanczos) one solve took. */
		public synchronized int maxIterations() {
			return maxIterations;
		}

		/** Solves that stopped at their cap. */
		public synchronized int capped() {
			return capped;
		}

		/** Solves that stopped at their cap and fell back to a full decomposition. */
		public synchronized int fallbacks() {
			return fallbacks;
		}

		/** The largest cap of the recorded solves. */
		public synchronized int cap() {
			return cap;
		}

		private synchronized void add(final int iterations, final int cap, final boolean converged,
			final boolean fellBack)
		{
			solves++;
			maxIterations = Math.max(maxIterations, iterations);
			this.cap = Math.max(this.cap, cap);
			if (!converged) capped++;
			if (fellBack) fallbacks++;
		}
	}

	/**
	 * LOBPCG's convergence test ({@link ContrastSolver}): residual norm ≤ this × the
	 * matrix's scale.
	 */
	public static final double LOBPCG_TOLERANCE = ContrastSolver.TOLERANCE;
	/** The Lanczos method's convergence test ({@link TopEigen}), likewise. */
	public static final double LANCZOS_TOLERANCE = TopEigen.TOLERANCE;

	private static final ThreadLocal<SolverLog> CURRENT = new ThreadLocal<>();

	private final Tally lobpcg = new Tally();
	private final Tally lanczos = new Tally();
	/** Caps imposed by this log (−1: the solvers' own). */
	private final int lobpcgCap;
	private final int lanczosCap;

	private SolverLog(final int lobpcgCap, final int lanczosCap) {
		this.lobpcgCap = lobpcgCap;
		this.lanczosCap = lanczosCap;
	}

	/**
	 * A log that leaves the solvers' caps as they are, or as the log current in this
	 * thread sets them (a test's {@link #capped} log around a whole run).
	 */
	public static SolverLog create() {
		final SolverLog outer = CURRENT.get();
		return outer == null ? new SolverLog(-1, -1) : new SolverLog(outer.lobpcgCap,
			outer.lanczosCap);
	}

	/**
	 * A log that caps LOBPCG at {@code lobpcgCap} iterations and the Lanczos method at
	 * {@code lanczosCap} restarts (for tests of what a solve that stops at its cap
	 * reports).
	 */
	public static SolverLog capped(final int lobpcgCap, final int lanczosCap) {
		if (lobpcgCap < 0 || lanczosCap < 0) throw new IllegalArgumentException(
			"caps must be ≥ 0");
		return new SolverLog(lobpcgCap, lanczosCap);
	}

	/** The work's result, its solves in the calling thread recorded in this log. */
	public <T> T during(final Supplier<T> work) {
		final SolverLog outer = CURRENT.get();
		CURRENT.set(this);
		try {
			return work.get();
		}
		finally {
			if (outer == null) CURRENT.remove();
			else CURRENT.set(outer);
		}
	}

	/**
	 * {@code work} for another thread, its solves recorded in the log current in the
	 * calling thread (if any), with that log's caps.
	 */
	public static Runnable carried(final Runnable work) {
		final SolverLog log = CURRENT.get();
		return log == null ? work : () -> log.during(() -> {
			work.run();
			return null;
		});
	}

	public Tally lobpcg() {
		return lobpcg;
	}

	public Tally lanczos() {
		return lanczos;
	}

	/** LOBPCG's cap within the current log (the given one without a capping log). */
	static int lobpcgCap(final int cap) {
		final SolverLog log = CURRENT.get();
		return log == null || log.lobpcgCap < 0 ? cap : Math.min(cap, log.lobpcgCap);
	}

	/** The Lanczos method's cap on restarts within the current log. */
	static int lanczosCap(final int cap) {
		final SolverLog log = CURRENT.get();
		return log == null || log.lanczosCap < 0 ? cap : Math.min(cap, log.lanczosCap);
	}

	/** Records a LOBPCG solve in the current log, if any. */
	static void lobpcg(final int iterations, final int cap, final boolean converged,
		final boolean fellBack)
	{
		final SolverLog log = CURRENT.get();
		if (log != null) log.lobpcg.add(iterations, cap, converged, fellBack);
	}

	/** Records a block Lanczos solve in the current log, if any. */
	static void lanczos(final int restarts, final int cap, final boolean converged,
		final boolean fellBack)
	{
		final SolverLog log = CURRENT.get();
		if (log != null) log.lanczos.add(restarts, cap, converged, fellBack);
	}
}
