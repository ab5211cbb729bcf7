package org.cpca.core.data;

import java.io.IOException;
import java.util.Locale;

/**
 * Target and background samples merged into one stream, one epoch (pass) at a time, for
 * {@link OnlineCpcaStar}.
 * <p>
 * <b>Interleaving.</b> Each epoch visits every target and every background sample exactly
 * once, merged in proportion to the counts: with n_t target and n_b background samples,
 * the i-th target sample (0-based) sits at relative position (i + ½)/n_t and the j-th
 * background sample at (j + ½)/n_b, and the stream takes whichever comes first (the
 * target on a tie). After any prefix the two datasets have therefore been sampled at the
 * same rate, to within one sample.
 * <p>
 * <b>Order within a dataset.</b> {@link Order#SEQUENTIAL}: file order.
 * {@link Order#SHUFFLED}: a new seeded pseudo-random permutation per epoch and dataset
 * ({@link Permutation}, O(1) memory), which needs sources with random access. The
 * interleaving pattern is the same in both orders.
 * <p>
 * The stream holds no sample of its own: {@link #next} reads straight into the caller's
 * buffer.
 */
public final class SampleStream implements AutoCloseable {

	/** Order of the samples of each dataset within an epoch. */
	public enum Order {
		/** File (stack, table) order. */
		SEQUENTIAL,
		/** A seeded pseudo-random permutation, new in every epoch. */
		SHUFFLED;

		/** Parses "sequential" or "shuffled" (any case). */
		public static Order parse(final String text) {
			for (final Order o : values())
				if (o.name().equalsIgnoreCase(text.trim())) return o;
			throw new IllegalArgumentException("order '" + text +
				"' is not known: use sequential or shuffled");
		}

		@Override
		public String toString() {
			return name().toLowerCase(Locale.ROOT);
		}
	}

	/** Returned by {@link #next} for a target sample. */
	public static final int TARGET = 0;
	/** Returned by {@link #next} for a background sample. */
	public static final int BACKGROUND = 1;
	/** Returned by {@link #next} at the end of an epoch. */
	public static final int END = -1;

	private final SampleSource target;
	private final SampleSource background;
	private final Order order;
	private final long seed;
	private final long nt, nb;
	private Permutation targetOrder, backgroundOrder;
	private int it, ib;

	/**
	 * @param seed selects the shuffled orders (ignored for sequential order)
	 * @throws IllegalArgumentException if a dataset has fewer than 2 samples, the feature
	 *           counts differ, or shuffled order is asked of a source without random
	 *           access
	 */
	public SampleStream(final SampleSource target, final SampleSource background,
		final Order order, final long seed)
	{
		for (final SampleSource s : new SampleSource[] { target, background })
			if (s.samples() < 2) throw new IllegalArgumentException(s.name() + " has " + s
				.samples() + " sample(s): online cPCA* needs at least 2 target and 2 " +
				"background samples");
		if (background.features() != target.features()) throw new IllegalArgumentException(
			background.name() + " has " + background.features() + " features but " + target
				.name() + " has " + target.features() + ": both must have the same features " +
				"(the same image width × height, mask and binning, or the same table columns)");
		if (order == Order.SHUFFLED) for (final SampleSource s : new SampleSource[] { target,
			background })
			if (!s.randomAccess()) throw new IllegalArgumentException(s.name() +
				" can only be read in order: use order sequential for it");
		this.target = target;
		this.background = background;
		this.order = order;
		this.seed = seed;
		this.nt = target.samples();
		this.nb = background.samples();
		start(0);
	}

	public SampleSource target() {
		return target;
	}

	public SampleSource background() {
		return background;
	}

	public Order order() {
		return order;
	}

	public int features() {
		return target.features();
	}

	/** Samples per epoch, n_t + n_b. */
	public long length() {
		return nt + nb;
	}

	/** Starts epoch {@code epoch} (0-based) from its first sample. */
	public void start(final int epoch) {
		it = 0;
		ib = 0;
		if (order == Order.SHUFFLED) {
			targetOrder = new Permutation(target.samples(), mixSeed(epoch, 0));
			backgroundOrder = new Permutation(background.samples(), mixSeed(epoch, 1));
		}
	}

	private long mixSeed(final int epoch, final int dataset) {
		return seed * 0x9E3779B97F4A7C15L + 2L * epoch + dataset;
	}

	/**
	 * Reads the next sample of the epoch into {@code into}.
	 *
	 * @return {@link #TARGET}, {@link #BACKGROUND}, or {@link #END} when the epoch is over
	 *         ({@code into} untouched)
	 */
	public int next(final float[] into) throws IOException {
		final boolean targetLeft = it < nt, backgroundLeft = ib < nb;
		if (!targetLeft && !backgroundLeft) return END;
		// (it + ½)/nt ≤ (ib + ½)/nb, in exact integer arithmetic
		final boolean takeTarget = targetLeft && (!backgroundLeft || (2L * it + 1) * nb <= (2L *
			ib + 1) * nt);
		if (takeTarget) {
			target.read(targetOrder == null ? it : targetOrder.apply(it), into);
			it++;
			return TARGET;
		}
		background.read(backgroundOrder == null ? ib : backgroundOrder.apply(ib), into);
		ib++;
		return BACKGROUND;
	}

	/** Closes both sources. */
	@Override
	public void close() throws IOException {
		try {
			target.close();
		}
		finally {
			background.close();
		}
	}
}
