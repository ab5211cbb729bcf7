package org.cpca.core;

import java.util.SplittableRandom;

/**
 * A seeded pseudo-random permutation of {0, …, n−1} in O(1) memory: a four-round Feistel
 * network on the smallest even number of bits that covers n, with cycle walking (values
 * ≥ n are encrypted again until they fall below n, at most a few times on average since
 * the network's domain is smaller than 4n). Lets a stream visit the samples of a file in
 * a shuffled order without holding an index of n entries.
 */
final class Permutation {

	private final int n;
	private final int half;
	private final int mask;
	private final long[] keys = new long[4];

	/** @param n number of elements; {@code seed} selects the permutation */
	Permutation(final int n, final long seed) {
		if (n < 0) throw new IllegalArgumentException("n = " + n + " < 0");
		this.n = n;
		final int bits = n <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(n - 1);
		half = (bits + 1) / 2;
		mask = (1 << half) - 1;
		final SplittableRandom r = new SplittableRandom(seed);
		for (int i = 0; i < keys.length; i++)
			keys[i] = r.nextLong();
	}

	int size() {
		return n;
	}

	/** The element at position {@code i} of the permuted order. */
	int apply(final int i) {
		if (i < 0 || i >= n) throw new IndexOutOfBoundsException("position " + i +
			" outside 0…" + (n - 1));
		int x = i;
		do
			x = encrypt(x);
		while (x >= n);
		return x;
	}

	private int encrypt(final int x) {
		int left = x >>> half, right = x & mask;
		for (final long key : keys) {
			final int next = left ^ (int) (mix(right + key) & mask);
			left = right;
			right = next;
		}
		return left << half | right;
	}

	/** SplitMix64's finaliser: a good 64-bit mixing function. */
	private static long mix(long z) {
		z = (z ^ z >>> 30) * 0xbf58476d1ce4e5b9L;
		z = (z ^ z >>> 27) * 0x94d049bb133111ebL;
		return z ^ z >>> 31;
	}
}
