package org.cpca.core;

import java.util.Locale;

/**
 * Memory checked before it is spent: an estimate of what a step will allocate is compared
 * with what the JVM can still give ({@link Runtime#maxMemory()} minus what is in use), and
 * a step that cannot fit is refused with one line naming what was needed, what is
 * available and the fixes that apply — instead of an {@link OutOfMemoryError} halfway.
 * See docs/bad-inputs.md.
 */
public final class Memory {

	private Memory() {}

	/** The fix every message offers: a larger heap. */
	public static final String MORE_HEAP = moreHeapTo("8g");

	/**
	 * {@link #MORE_HEAP} naming a heap that covers what is short: this JVM's maximum plus
	 * {@code shortBy} bytes and a tenth, rounded up to 100 MB (e.g. {@code -Xmx1200m} when
	 * a 1 GB heap lacks 41 MB).
	 */
	public static String moreHeap(final long shortBy) {
		final long mb = 1L << 20, step = 100 * mb;
		final long want = Runtime.getRuntime().maxMemory() + Math.max(0, shortBy);
		final long rounded = (want + want / 10 + step - 1) / step * 100;
		return moreHeapTo(rounded + "m");
	}

	private static String moreHeapTo(final String xmx) {
		return "give Java more memory (-Xmx, e.g. CPCA_JAVA_OPTS=-Xmx" + xmx + " for cpca; " +
			"Edit > Options > Memory in Fiji)";
	}

	/** Bytes the JVM can still allocate (its maximum heap minus what is in use). */
	public static long available() {
		final Runtime rt = Runtime.getRuntime();
		return rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
	}

	/** Bytes of a {@code rows × cols} matrix of doubles (saturating, never negative). */
	public static long doubles(final long rows, final long cols) {
		return times(times(rows, cols), 8);
	}

	/** Bytes of a {@code rows × cols} matrix of floats (saturating). */
	public static long floats(final long rows, final long cols) {
		return times(times(rows, cols), 4);
	}

	/** {@code a·b}, saturating at {@link Long#MAX_VALUE} (for sizes from untrusted headers). */
	public static long times(final long a, final long b) {
		if (a <= 0 || b <= 0) return 0;
		return a > Long.MAX_VALUE / b ? Long.MAX_VALUE : a * b;
	}

	/**
	 * Refuses a step that would not fit in memory.
	 *
	 * @param what what would be allocated, e.g. "reading target (3000 slices × 16384
	 *          pixels)"
	 * @param bytes the estimate
	 * @param fixes the fixes that apply besides more heap, e.g. "use --bin 2 or --mask";
	 *          may be empty
	 * @throws IllegalArgumentException if {@code bytes} exceeds {@link #available()}
	 */
	public static void require(final String what, final long bytes, final String fixes) {
		if (bytes <= available()) return;
		// memory in use may be garbage not yet collected: collect once before refusing
		System.gc();
		require(what, bytes, available(), fixes);
	}

	/** {@link #require(String, long, String)} against a given number of available bytes. */
	public static void require(final String what, final long bytes, final long available,
		final String fixes)
	{
		if (bytes <= available) return;
		throw new IllegalArgumentException("not enough memory for " + what + ": it needs " +
			text(bytes) + " but only " + text(Math.max(0, available)) + " is available; " +
			(fixes == null || fixes.isEmpty() ? "" : fixes + ", or ") + MORE_HEAP);
	}

	/**
	 * The line shown for an {@link OutOfMemoryError} that an estimate did not foresee: what
	 * the JVM had, and the fixes.
	 */
	public static String outOfMemory(final String fixes) {
		return "ran out of memory (the maximum heap is " + text(Runtime.getRuntime()
			.maxMemory()) + "): " + (fixes == null || fixes.isEmpty() ? "" : fixes + ", or ") +
			MORE_HEAP;
	}

	/** "1.5 GB", "300 MB", "12 KB". */
	public static String text(final long bytes) {
		if (bytes == Long.MAX_VALUE) return "more than 8 EB";
		final String[] units = { "bytes", "KB", "MB", "GB", "TB", "PB", "EB" };
		double v = bytes;
		int u = 0;
		while (v >= 1024 && u < units.length - 1) {
			v /= 1024;
			u++;
		}
		return u == 0 ? bytes + " bytes" : String.format(Locale.ROOT, v < 10 ? "%.1f %s"
			: "%.0f %s", v, units[u]);
	}
}
