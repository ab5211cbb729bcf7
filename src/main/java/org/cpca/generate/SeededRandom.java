package org.cpca.generate;

/**
 * The pseudo-random sequence that {@link java.util.Random} specifies (its 48-bit
 * linear congruential generator, {@code nextDouble}, {@code nextInt(bound)} and the
 * polar method of {@code nextGaussian}), for one thread: the same numbers from the same
 * seed, without {@code Random}'s atomic updates and locks, which cost the generator more
 * than the rest of a draw. {@code SeededRandomTest} checks it against {@code Random}.
 */
final class SeededRandom {

	private static final long MULTIPLIER = 0x5DEECE66DL, ADDEND = 0xBL;
	private static final long MASK = (1L << 48) - 1;
	private static final double DOUBLE_UNIT = 0x1.0p-53;

	private long state;
	private double nextGaussian;
	private boolean haveNextGaussian;

	SeededRandom(final long seed) {
		state = (seed ^ MULTIPLIER) & MASK;
	}

	private int next(final int bits) {
		state = (state * MULTIPLIER + ADDEND) & MASK;
		return (int) (state >>> (48 - bits));
	}

	/** @return a uniform double in [0, 1), as {@link java.util.Random#nextDouble()} */
	double nextDouble() {
		return (((long) next(26) << 27) + next(27)) * DOUBLE_UNIT;
	}

	/** @return a uniform int in [0, bound), as {@link java.util.Random#nextInt(int)} */
	int nextInt(final int bound) {
		if (bound <= 0) throw new IllegalArgumentException("bound must be positive: " +
			bound);
		int r = next(31);
		final int m = bound - 1;
		if ((bound & m) == 0) return (int) ((bound * (long) r) >> 31);
		for (int u = r; u - (r = u % bound) + m < 0; u = next(31)) {
			// rejects the top values that would make the result uneven
		}
		return r;
	}

	/** @return a standard normal draw, as {@link java.util.Random#nextGaussian()} */
	double nextGaussian() {
		if (haveNextGaussian) {
			haveNextGaussian = false;
			return nextGaussian;
		}
		double v1, v2, s;
		do {
			v1 = 2 * nextDouble() - 1;
			v2 = 2 * nextDouble() - 1;
			s = v1 * v1 + v2 * v2;
		}
		while (s >= 1 || s == 0);
		final double multiplier = StrictMath.sqrt(-2 * StrictMath.log(s) / s);
		nextGaussian = v2 * multiplier;
		haveNextGaussian = true;
		return v1 * multiplier;
	}
}
