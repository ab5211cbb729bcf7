package org.cpca.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;

import org.junit.jupiter.api.Test;

/** Tests {@link SeededRandom} against {@link Random}, draw for draw, to the bit. */
public class SeededRandomTest {

	@Test
	public void testSameSequenceAsRandom() {
		final Random seeds = new Random(7);
		for (int trial = 0; trial < 200; trial++) {
			final long seed = trial < 4 ? new long[] { 0, -1, Long.MIN_VALUE,
				TestImageGenerator.Config.DEFAULT_SEED }[trial] : seeds.nextLong();
			final Random expected = new Random(seed);
			final SeededRandom actual = new SeededRandom(seed);
			for (int i = 0; i < 500; i++) {
				// interleaved as the generator draws: a Gaussian's cached twin survives
				// other draws in between
				final int kind = (int) ((i * 2654435761L + trial) % 4);
				if (kind == 0) assertEquals(expected.nextDouble(), actual.nextDouble(),
					0.0, "seed " + seed + " draw " + i);
				else if (kind == 1) assertEquals(Double.doubleToRawLongBits(expected
					.nextGaussian()), Double.doubleToRawLongBits(actual.nextGaussian()),
					"seed " + seed + " draw " + i);
				else {
					final int bound = kind == 2 ? 1 + i : 1 << (i % 31); // odd and powers of two
					assertEquals(expected.nextInt(bound), actual.nextInt(bound), "seed " +
						seed + " draw " + i + " bound " + bound);
				}
			}
		}
	}

	@Test
	public void testLargeBoundsRejectLikeRandom() {
		// bounds just above 2^30 reject about half of the raw draws
		final Random expected = new Random(11);
		final SeededRandom actual = new SeededRandom(11);
		for (int i = 0; i < 2000; i++)
			assertEquals(expected.nextInt((1 << 30) + 1 + i), actual.nextInt((1 << 30) +
				1 + i));
	}

	@Test
	public void testBoundMustBePositive() {
		assertThrows(IllegalArgumentException.class, () -> new SeededRandom(1).nextInt(
			0));
	}
}
