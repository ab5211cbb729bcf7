package org.cpca.core.linalg;

import java.util.Locale;
import java.util.function.Supplier;

/**
 * Which engine does the dense work, chosen once per JVM by the system property
 * {@code cpca.kernels}: {@code native} (OpenBLAS and its LAPACK, {@link NativeBlas}),
 * {@code vector} (the Java kernels on the Vector API) or {@code scalar} (plain Java).
 * Without the property the fastest available is taken: native when its library loads,
 * else vector where the JVM offers the Vector API, else scalar (docs/speed.md, backends).
 * A native library that fails to load is not an error: the Java kernels answer, and
 * {@link #diagnostic()} says why in one line (for a front end's verbose output).
 * The choice is made by this class's initialisation, once: a front end may start it on
 * another thread ahead of the work (the command line does for {@code fit}, while it
 * parses the arguments and reads the inputs); a use on any thread before it ended waits
 * for it, and the outcome is the same.
 * <p>
 * Within one backend and thread count every result is bit-identical run to run; across
 * backends results agree to rounding (BackendEquivalenceTest).
 */
public final class Backend {

	/** True when the native library loaded (and was wanted). */
	private static final boolean LOADED;
	/** True while the native library does the products and the eigenproblems. */
	private static volatile boolean active;
	/** Why the native library is not used, or null. */
	private static final String DIAGNOSTIC;

	static {
		final String wanted = System.getProperty("cpca.kernels", "").trim()
			.toLowerCase(Locale.ROOT);
		String why = null;
		boolean loaded = false;
		if (wanted.isEmpty() || wanted.equals("native")) {
			try {
				why = NativeBlas.load();
			}
			catch (final LinkageError e) { // JavaCPP's classes are not on the class path
				why = NativeBlas.MISSING;
			}
			loaded = why == null;
		}
		LOADED = loaded;
		active = loaded;
		DIAGNOSTIC = why == null ? null : "native kernels unavailable (" + why +
			"): using the Java kernels";
	}

	private Backend() {}

	/** True when the native backend is in use. */
	public static boolean isNative() {
		return active;
	}

	/**
	 * Whether the solvers keep an m × m matrix in native memory ({@link NativeMatrix},
	 * {@link NativeBlockSteps}): native backend and m ≤ {@value NativeMatrix#FITS}. Asked
	 * here, not of NativeMatrix, because without the JavaCPP jars (ImageJ and Fiji as the
	 * bundles install them) loading NativeMatrix fails: its code links JavaCPP's classes.
	 */
	static boolean keepsResident(final int m) {
		return active && m <= NativeMatrix.FITS;
	}

	/**
	 * The work's result with the Java kernels doing what the native backend would, for
	 * comparing the two in one JVM (the backend tests, the bench); the native backend
	 * answers again afterwards. Not for use while other work runs: the switch is global.
	 */
	public static synchronized <T> T onJava(final Supplier<T> work) {
		active = false;
		try {
			return work.get();
		}
		finally {
			active = LOADED;
		}
	}

	/**
	 * One line saying why the native library was wanted and not loaded, or null when it
	 * loaded or was not wanted ({@code -Dcpca.kernels=vector|scalar}).
	 */
	public static String diagnostic() {
		return DIAGNOSTIC;
	}

	/**
	 * The backend in use, for notes and the bench: "native (OpenBLAS …, n threads)", or
	 * the Java kernels' own description.
	 */
	public static String describe() {
		return active ? NativeBlas.describe() : Products.KERNELS.toString();
	}
}
