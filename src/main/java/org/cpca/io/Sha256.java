package org.cpca.io;

import java.util.Arrays;

/**
 * SHA-256 (FIPS 180-4) of a short byte string in plain Java: the digest that names the
 * lock and staging folders of a results folder ({@link FolderLock#digest}), without the
 * JDK's security providers, whose first use took 2–12 ms of a one-shot run's start
 * (docs/speed.md, the start and the exit). The constants are made as the standard
 * defines them, from the square and cube roots of the first primes.
 */
final class Sha256 {

	/** The first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
	private static final int[] K = new int[64];
	/** The initial hash value: the same of the square roots of the first 8 primes. */
	private static final int[] H0 = new int[8];

	static {
		int n = 0;
		for (int p = 2; n < K.length; p++) {
			if (!prime(p)) continue;
			if (n < H0.length) H0[n] = fraction(StrictMath.sqrt(p));
			K[n++] = fraction(StrictMath.cbrt(p));
		}
	}

	private Sha256() {}

	private static boolean prime(final int p) {
		for (int d = 2; d * d <= p; d++)
			if (p % d == 0) return false;
		return true;
	}

	/** The first 32 bits of the fractional part of {@code r}. */
	private static int fraction(final double r) {
		return (int) (long) ((r - Math.floor(r)) * 0x1p32);
	}

	/** The 32-byte digest of {@code message}. */
	static byte[] of(final byte[] message) {
		// the message, a 1 bit, zeros and its length in bits: whole blocks of 64 bytes
		final byte[] m = Arrays.copyOf(message, (message.length + 72) / 64 * 64);
		m[message.length] = (byte) 0x80;
		final long bits = 8L * message.length;
		for (int i = 0; i < 8; i++)
			m[m.length - 1 - i] = (byte) (bits >>> 8 * i);
		final int[] h = H0.clone();
		final int[] w = new int[64];
		for (int block = 0; block < m.length; block += 64) {
			for (int t = 0; t < 16; t++)
				w[t] = word(m, block + 4 * t);
			for (int t = 16; t < 64; t++)
				w[t] = w[t - 16] + small0(w[t - 15]) + w[t - 7] + small1(w[t - 2]);
			int a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
			for (int t = 0; t < 64; t++) {
				final int t1 = k + (Integer.rotateRight(e, 6) ^ Integer.rotateRight(e, 11) ^
					Integer.rotateRight(e, 25)) + (e & f ^ ~e & g) + K[t] + w[t];
				final int t2 = (Integer.rotateRight(a, 2) ^ Integer.rotateRight(a, 13) ^ Integer
					.rotateRight(a, 22)) + (a & b ^ a & c ^ b & c);
				k = g;
				g = f;
				f = e;
				e = d + t1;
				d = c;
				c = b;
				b = a;
				a = t1 + t2;
			}
			h[0] += a;
			h[1] += b;
			h[2] += c;
			h[3] += d;
			h[4] += e;
			h[5] += f;
			h[6] += g;
			h[7] += k;
		}
		final byte[] out = new byte[32];
		for (int i = 0; i < 32; i++)
			out[i] = (byte) (h[i / 4] >>> 24 - 8 * (i % 4));
		return out;
	}

	/** The big-endian word at {@code i}. */
	private static int word(final byte[] m, final int i) {
		return (m[i] & 255) << 24 | (m[i + 1] & 255) << 16 | (m[i + 2] & 255) << 8 | m[i + 3] &
			255;
	}

	private static int small0(final int x) {
		return Integer.rotateRight(x, 7) ^ Integer.rotateRight(x, 18) ^ x >>> 3;
	}

	private static int small1(final int x) {
		return Integer.rotateRight(x, 17) ^ Integer.rotateRight(x, 19) ^ x >>> 10;
	}
}
