package org.cpca.io;

import java.util.Locale;

import org.cpca.core.Memory;
import org.cpca.core.contrast.StreamedGram;
import org.cpca.core.result.Method;
import org.cpca.core.run.Families;
import org.cpca.core.run.Settings;

/**
 * The memory plan of a fit, made before any sample is read (docs/memory.md): the peak of
 * the in-memory plan (every sample held, then the reduced or feature space) and of the
 * streamed plan (the N × N Gram matrix summed over feature tiles, {@link StreamedGram},
 * or with no more features than samples each dataset's d × d moments) are estimated
 * from the sizes alone, and the cheaper plan that
 * fits is taken; when neither fits, one line names the quantity that is short and the one
 * option that reduces it, in the words of the front end that asks ({@link Advice}).
 */
public final class MemoryPlan {

	/**
	 * The options the one line of a plan that does not fit names: the command line's flags,
	 * or Fiji's commands and fields (docs/memory.md).
	 */
	public enum Advice {
		CLI("use --method online", "use --bin 2", "--mask", "ask for fewer components (-k)",
			"--landmarks "),
		FIJI("use the Online cPCA star... command", "use bin=2", "a selection",
			"ask for fewer components", "landmarks=");

		final String online, bin, mask, components, landmarks;

		Advice(final String online, final String bin, final String mask,
			final String components, final String landmarks)
		{
			this.online = online;
			this.bin = bin;
			this.mask = mask;
			this.components = components;
			this.landmarks = landmarks;
		}
	}

	/**
	 * The bytes the plan may use instead of what the JVM has left: for tests, which cannot
	 * shrink a running JVM's heap.
	 */
	static final String AVAILABLE = "cpca.memory.available";
	/** The tile size of the streamed plan instead of the chosen one (tests: tiny tiles). */
	static final String TILE = "cpca.tile.bytes";
	/** Bytes per N² at the peak of the in-memory reduced space (docs/memory.md). */
	static final long MEMORY_PER_N2 = 40;

	final boolean stream;
	final long tileBytes, inMemory, streamed, available;

	private MemoryPlan(final boolean stream, final long tileBytes, final long inMemory,
		final long streamed, final long available)
	{
		this.stream = stream;
		this.tileBytes = tileBytes;
		this.inMemory = inMemory;
		this.streamed = streamed;
		this.available = available;
	}

	/** What the plan may use: {@link #AVAILABLE} if set, else the JVM's free heap. */
	static long available() {
		final Long v = Long.getLong(AVAILABLE);
		return v != null ? v : Memory.available();
	}

	/**
	 * Peak bytes of the in-memory plan: the samples as floats (plus the image as read when
	 * its pixels are not 32-bit floats used in place), then the reduced space (d &gt; N) or
	 * the d × d feature space.
	 *
	 * @param inputBytesPerValue bytes per value of the input as read (0 when the samples
	 *          are the input's own float pixels)
	 */
	static long inMemory(final long n, final long d, final int inputBytesPerValue) {
		final long values = Memory.times(n, d);
		final long space = d > n ? Memory.times(MEMORY_PER_N2, Memory.times(n, n)) : Memory
			.times(32, Memory.times(d, d));
		return sum(Memory.times(values, 4L + inputBytesPerValue), space);
	}

	/**
	 * Peak bytes of the streamed plan with more features than samples: the fit from the
	 * Gram matrix ({@link StreamedGram#fitBytes}: 48·N² with one background), a tile,
	 * each dataset's mean and scale,
	 * and the k components (three copies of k × d doubles while they are formed and
	 * written). With no more features than samples: each dataset's d × d moments, the
	 * accumulator's two and the solver's work ({@value #MOMENTS_PER_D2}·d² besides
	 * 8·d² per dataset).
	 */
	static long streamed(final long n, final long d, final int sets, final int k,
		final long tileBytes)
	{
		return streamed(n, d, sets, k, tileBytes, 0);
	}

	private static long streamed(final long n, final long d, final int sets, final int k,
		final long tileBytes, final int fitExtra)
	{
		if (d <= n) return moments(d, sets);
		return sum(sum(gram(n, sets, fitExtra), tileBytes), features(d, sets, k));
	}

	/** Bytes per d² of the moments plan besides one d × d per dataset (docs/memory.md). */
	static final long MOMENTS_PER_D2 = 56;

	private static long moments(final long d, final int sets) {
		return Memory.times(MOMENTS_PER_D2 + 8L * sets, Memory.times(d, d));
	}

	private static long gram(final long n, final int sets, final int fitExtra) {
		return sum(StreamedGram.fitBytes(n, sets - 1), Memory.times(fitExtra, Memory.times(n,
			n)));
	}

	/** What method {@code m}'s fit keeps beyond the shared reduced space, per N². */
	static int fitExtra(final Method m) {
		return Families.of(m).fitBytesPerN2();
	}

	private static long features(final long d, final int sets, final int k) {
		return Memory.times(8L * d, 2L * sets + 3L * k);
	}

	/** The smallest tile: 256 features of every sample (or all of them). */
	private static long minTile(final long n, final long d) {
		return Memory.doubles(n, Math.min(d, 256));
	}

	/**
	 * Chooses the plan.
	 *
	 * @param forced {@code --stream}
	 * @param streams whether the method and settings run on the streamed plan
	 * @throws IllegalArgumentException when the streamed plan is forced or needed and does
	 *           not fit: one line naming the short quantity and the option that reduces it
	 */
	static MemoryPlan choose(final boolean forced, final boolean streams, final long n,
		final long d, final int sets, final int k, final int inputBytesPerValue)
	{
		return choose(forced, streams, n, d, sets, k, inputBytesPerValue, 0);
	}

	/**
	 * {@link #choose(boolean, boolean, long, long, int, int, int)} for kernel cPCA read in
	 * passes with {@code landmarks} Nyström landmarks ({@link #nystrom}); 0 for the other
	 * methods.
	 */
	static MemoryPlan choose(final boolean forced, final boolean streams, final long n,
		final long d, final int sets, final int k, final int inputBytesPerValue,
		final int landmarks)
	{
		return choose(forced, streams, n, d, sets, k, inputBytesPerValue, landmarks,
			Advice.CLI, 0);
	}

	/** {@link #choose(boolean, boolean, long, long, int, int, int, int)} for method {@code m}. */
	static MemoryPlan choose(final boolean forced, final boolean streams, final long n,
		final long d, final int sets, final int k, final int inputBytesPerValue,
		final int landmarks, final Method m)
	{
		return choose(forced, streams, n, d, sets, k, inputBytesPerValue, landmarks,
			Advice.CLI, fitExtra(m));
	}

	/**
	 * The streamed plan of data a front end reads in passes whenever the method allows
	 * (Fiji's virtual stacks, slices as samples): checked before any sample is read, with
	 * the tile it leaves room for. Memory in use may be garbage not yet collected (a
	 * long-lived Fiji): collected once before refusing.
	 *
	 * @param sets the target and each background
	 * @throws IllegalArgumentException when even the streamed plan does not fit: one line
	 *           naming the short quantity and the option that reduces it, in
	 *           {@code advice}'s words
	 */
	public static MemoryPlan streaming(final Settings s, final long n, final long d,
		final int sets, final Advice advice)
	{
		final int landmarks = StreamedFit.landmarks(s, n);
		try {
			return choose(true, true, n, d, sets, s.components(), 0, landmarks, advice,
				fitExtra(s.method()));
		}
		catch (final IllegalArgumentException e) {
			System.gc();
			return choose(true, true, n, d, sets, s.components(), 0, landmarks, advice,
				fitExtra(s.method()));
		}
	}

	private static MemoryPlan choose(final boolean forced, final boolean streams,
		final long n, final long d, final int sets, final int k, final int inputBytesPerValue,
		final int landmarks, final Advice advice, final int fitExtra)
	{
		final long available = available();
		// the method's larger fit weighs on the reduced space in memory as well
		final long memory = sum(inMemory(n, d, inputBytesPerValue), d > n ? Memory.times(
			fitExtra, Memory.times(n, n)) : 0);
		final long fixed = sum(gram(n, sets, fitExtra), features(d, sets, k));
		final long tile = tile(n, d, available - fixed);
		final long streamed = landmarks > 0 ? nystrom(n, d, landmarks) : streamed(n, d, sets,
			k, tile, fitExtra);
		final boolean stream = forced || streams && memory > available;
		final MemoryPlan plan = new MemoryPlan(stream, tile, memory, streamed, available);
		if (stream && streamed > available) throw landmarks > 0 ? plan.shortOfLandmarks(d,
			landmarks, advice) : plan.shortOf(n, d, sets, k, advice, fitExtra);
		return plan;
	}

	/**
	 * Peak bytes of kernel cPCA read in passes with l Nyström landmarks
	 * (docs/memory.md): the landmarks as read and preprocessed (12·d·l), the automatic γ's
	 * subsample of at most 1,000 samples and its Gram matrix, every sample's kernel
	 * features (float N × l, and the linear fit's work on them, 8·N·l + 40·l²) and a block
	 * of 256 samples, raw and preprocessed (3,072·d), with its kernel rows (2,048·l);
	 * never the samples themselves.
	 */
	static long nystrom(final long n, final long d, final long l) {
		final long sub = Math.min(n, 1000);
		return sum(sum(Memory.times(12 * l, d), sum(Memory.times(4 * sub, d), Memory.times(8 *
			sub, sub))), sum(sum(Memory.times(8 * n, l), Memory.times(40 * l, l)), sum(Memory
				.times(3072, d), Memory.times(2048, l))));
	}

	/**
	 * Whether a table of {@code bytes} on disk surely fits in memory, judged without
	 * reading it: each value takes at least two bytes of text (a digit and a separator),
	 * so N·d ≤ bytes / 2, and the in-memory peak, (4 + 8)·N·d plus the feature space
	 * (32·d² ≤ 32·N·d) or the reduced space (40·N² ≤ 40·N·d), is at most 26 × the bytes.
	 * A table that may not fit is opened in one counting pass for the plan.
	 */
	static boolean tableFits(final long bytes) {
		return Memory.times(26, bytes) <= available();
	}

	/** The one line of kernel cPCA's streamed plan that does not fit: fewer landmarks. */
	private IllegalArgumentException shortOfLandmarks(final long d, final int landmarks,
		final Advice advice)
	{
		return new IllegalArgumentException("not enough memory even for the streamed plan: " +
			"kernel cPCA needs " + Memory.text(streamed) + " but only " + Memory.text(Math.max(
				0, available)) + " is available, and its " + landmarks + " landmarks of d = " + d +
			" features take " + Memory.text(Memory.times(12L * landmarks, d)) + "; use fewer " +
			"landmarks (" + advice.landmarks + Math.max(1, landmarks / 4) + "), or " +
			Memory.moreHeap(streamed - available));
	}

	/** The tile ({@link StreamedGram#tileBytes}), or {@link #TILE} when set. */
	private static long tile(final long n, final long d, final long left) {
		final Long forced = Long.getLong(TILE);
		return forced != null ? forced : StreamedGram.tileBytes(n, d, left);
	}

	/** The one line of a streamed plan that does not fit: the largest cost names the fix. */
	private IllegalArgumentException shortOf(final long n, final long d, final int sets,
		final int k, final Advice advice, final int fitExtra)
	{
		final long g = gram(n, sets, fitExtra), f = sum(Memory.times(8L * d, 2L * sets), minTile(n, d)),
			c = Memory.times(24L * d, k);
		final String what, fix;
		if (d <= n) {
			what = "the d × d moments of d = " + d + " features take " + Memory.text(moments(d,
				sets));
			fix = advice.bin + " (a quarter of the features) or " + advice.mask;
		}
		else if (g >= f && g >= c) {
			what = "the N × N Gram matrix of N = " + n + " samples and the fit on it take " +
				Memory.text(g);
			fix = advice.online + " (its memory does not grow with the samples)";
		}
		else if (f >= c) {
			what = "the d = " + d + " features take " + Memory.text(f) + " (the means and " +
				"the smallest tile)";
			fix = advice.bin + " (a quarter of the features) or " + advice.mask;
		}
		else {
			what = "k = " + k + " components of " + d + " features take " + Memory.text(c);
			fix = advice.components;
		}
		return new IllegalArgumentException("not enough memory even for the streamed plan: " +
			"it needs " + Memory.text(streamed) + " but only " + Memory.text(Math.max(0,
				available)) + " is available, and " + what + "; " + fix + ", or " +
			Memory.moreHeap(streamed - available));
	}

	/** The tile of the streamed plan in bytes ({@link StreamedGram#tileWidth}). */
	public long tileBytes() {
		return tileBytes;
	}

	/** For the summary: the plan and both estimates. */
	public String describe() {
		return String.format(Locale.ROOT, "%s (estimated peak: in memory %s, streamed %s; " +
			"available %s)", stream ? "streamed by feature tiles" : "in memory", Memory.text(
				inMemory), Memory.text(streamed), Memory.text(available));
	}

	private static long sum(final long a, final long b) {
		return a > Long.MAX_VALUE - b ? Long.MAX_VALUE : a + b;
	}
}
