package org.cpca.core.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The interleaved, optionally shuffled stream of target and background samples. */
class SampleStreamTest {

	/** n samples of one feature whose value is its index (+ offset). */
	static Dataset indexed(final String name, final int n, final int offset) {
		final double[][] x = new double[n][1];
		for (int i = 0; i < n; i++)
			x[i][0] = offset + i;
		return Dataset.of(name, x);
	}

	/** One epoch as values (target i → i, background j → 1000 + j). */
	static List<Integer> epoch(final SampleStream s, final int e) throws IOException {
		final List<Integer> out = new ArrayList<>();
		final float[] x = new float[1];
		s.start(e);
		int which;
		while ((which = s.next(x)) != SampleStream.END) {
			assertEquals(x[0] >= 1000 ? SampleStream.BACKGROUND : SampleStream.TARGET, which);
			out.add((int) x[0]);
		}
		return out;
	}

	@Test
	void sequentialOrderInterleavesInProportionToTheCounts() throws IOException {
		final SampleStream s = new SampleStream(SampleSource.of(indexed("t", 6, 0)),
			SampleSource.of(indexed("b", 3, 1000)), SampleStream.Order.SEQUENTIAL, 0);
		assertEquals(9, s.length());
		// positions (i + ½)/6 = 1, 3, 5, 7, 9, 11 (/12) and (j + ½)/3 = 2, 6, 10 (/12)
		assertEquals(List.of(0, 1000, 1, 2, 1001, 3, 4, 1002, 5), epoch(s, 0));
		assertEquals(epoch(s, 0), epoch(s, 1));
	}

	@Test
	void everyPrefixSamplesBothDatasetsAtTheSameRate() throws IOException {
		final int nt = 137, nb = 61;
		final SampleStream s = new SampleStream(SampleSource.of(indexed("t", nt, 0)),
			SampleSource.of(indexed("b", nb, 1000)), SampleStream.Order.SHUFFLED, 3);
		final List<Integer> e = epoch(s, 0);
		int t = 0, b = 0;
		for (final int v : e) {
			if (v >= 1000) b++;
			else t++;
			assertTrue(Math.abs((double) t / nt - (double) b / nb) <= 1.0 / Math.min(nt, nb),
				t + " target, " + b + " background");
		}
		assertEquals(nt, t);
		assertEquals(nb, b);
	}

	@Test
	void shuffledOrderIsASeededPermutationNewInEachEpoch() throws IOException {
		final SampleStream s = new SampleStream(SampleSource.of(indexed("t", 50, 0)),
			SampleSource.of(indexed("b", 30, 1000)), SampleStream.Order.SHUFFLED, 11);
		final List<Integer> e0 = epoch(s, 0), e1 = epoch(s, 1);
		assertEquals(sorted(e0), sorted(e1));
		assertEquals(80, new java.util.HashSet<>(e0).size());
		assertNotEquals(e0, e1);
		assertNotEquals(sorted(e0), e0);
		final SampleStream again = new SampleStream(SampleSource.of(indexed("t", 50, 0)),
			SampleSource.of(indexed("b", 30, 1000)), SampleStream.Order.SHUFFLED, 11);
		assertEquals(e1, epoch(again, 1));
		assertEquals(e0, epoch(again, 0));
	}

	private static List<Integer> sorted(final List<Integer> x) {
		final List<Integer> s = new ArrayList<>(x);
		s.sort(null);
		return s;
	}

	@Test
	void permutationsAreBijectionsForEverySize() {
		for (int n = 0; n < 300; n++) {
			final Permutation p = new Permutation(n, n * 7L);
			final boolean[] seen = new boolean[n];
			for (int i = 0; i < n; i++) {
				final int v = p.apply(i);
				assertTrue(!seen[v], "n = " + n + ": " + v + " twice");
				seen[v] = true;
			}
		}
		final Permutation a = new Permutation(1 << 20, 1), b = new Permutation(1 << 20, 1);
		final int[] first = new int[5];
		for (int i = 0; i < 5; i++) {
			first[i] = a.apply(i);
			assertEquals(first[i], b.apply(i));
		}
		assertNotEquals(first[0], new Permutation(1 << 20, 2).apply(0));
		assertArrayEquals(first, new int[] { a.apply(0), a.apply(1), a.apply(2), a.apply(3),
			a.apply(4) });
	}

	@Test
	void badInputsAreRefused() {
		final SampleSource t = SampleSource.of(indexed("target", 5, 0));
		assertTrue(assertThrows(IllegalArgumentException.class, () -> new SampleStream(t,
			SampleSource.of(Dataset.of("background", new double[][] { { 1, 2 }, { 3, 4 } })),
			SampleStream.Order.SEQUENTIAL, 0)).getMessage().contains("same features"));
		assertTrue(assertThrows(IllegalArgumentException.class, () -> new SampleStream(t,
			SampleSource.of(indexed("background", 1, 0)), SampleStream.Order.SEQUENTIAL, 0))
				.getMessage().contains("at least 2"));
		final SampleSource sequentialOnly = new SampleSource() {

			@Override
			public String name() {
				return "rows.csv";
			}

			@Override
			public int samples() {
				return 4;
			}

			@Override
			public int features() {
				return 1;
			}

			@Override
			public boolean randomAccess() {
				return false;
			}

			@Override
			public void read(final int index, final float[] into) {}
		};
		assertTrue(assertThrows(IllegalArgumentException.class, () -> new SampleStream(t,
			sequentialOnly, SampleStream.Order.SHUFFLED, 0)).getMessage().contains(
				"order sequential"));
		assertEquals(SampleStream.Order.SHUFFLED, SampleStream.Order.parse(" Shuffled"));
		assertThrows(IllegalArgumentException.class, () -> SampleStream.Order.parse("random"));
	}
}
