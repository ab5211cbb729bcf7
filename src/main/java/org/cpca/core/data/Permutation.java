package org.cpca.core.data;

import java.util.SplittableRandom;

/**
 * A seeded pseudo-random permutation of {0, …, n−1} in O(1) memory, so that a stream can
 * visit the samples of a file in shuffled order without an index of n entries.
 * <p>
 * On the smallest power-of-two domain 2^b ≥ n, four rounds of three bijections of b-bit
 * integers — multiplication by an odd constant, addition of a constant (both mod 2^b) and
 * {@code x ^= x >>> s} — with seeded constants; values ≥ n are mapped again until they fall
 * below n ("cycle walking", fewer than two steps on average since 2^b &lt; 2n). A cheap
 * shuffle for ordering samples, not a cryptographic one.
 */
final class Permutation {

	private static final int ROUNDS = 4;

	private final int n;
	private final int mask;
	private final int shift;
	private final int[] multipliers = new int[ROUNDS];
	private final int[] increments = new int[ROUNDS];

	/** @param n number of elements; {@code seed} selects the permutation */
	Permutation(final int n, final long seed) {
		if (n < 0) throw new IllegalArgumentException("n = " + n + " < 0");
		this.n = n;
		final int bits = n <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(n - 1);
		mask = bits == 0 ? 0 : (int) ((1L << bits) - 1);
		shift = Math.max(1, (bits + 1) / 2);
		final SplittableRandom r = new SplittableRandom(seed);
		for (int i = 0; i < ROUNDS; i++) {
			multipliers[i] = r.nextInt() | 1;
			increments[i] = r.nextInt();
		}
	}

	/** The element at position {@code i} of the permuted order. */
	int apply(final int i) {
		if (i < 0 || i >= n) throw new IndexOutOfBoundsException("position " + i +
			" outside 0…" + (n - 1));
		int x = i;
		do
			x = round(x);
		while (x >= n);
		return x;
	}

	private int round(int x) {
		for (int r = 0; r < ROUNDS; r++) {
			x = x * multipliers[r] + increments[r] & mask;
			x ^= x >>> shift;
		}
		return x;
	}
}
