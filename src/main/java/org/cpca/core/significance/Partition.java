package org.cpca.core.significance;

import org.cpca.core.data.Dataset;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The samples of the target and the backgrounds, pooled (target first, then each
 * background), split into parts of the original sizes: the identity split is the data, a
 * random one a draw from the exchange null.
 */
public final class Partition {

	private final int[][] parts;

	private Partition(final int[][] parts) {
		this.parts = parts;
	}

	/** The identity split: part j holds the next {@code sizes[j]} pooled samples. */
	public static Partition identity(final int... sizes) {
		final int[][] parts = new int[sizes.length][];
		int next = 0;
		for (int j = 0; j < sizes.length; j++) {
			parts[j] = new int[sizes[j]];
			for (int i = 0; i < sizes[j]; i++)
				parts[j][i] = next++;
		}
		return new Partition(parts);
	}

	/** A uniformly random split with the same part sizes (Fisher–Yates on the pool). */
	public static Partition random(final int[] sizes, final SplittableRandom random) {
		int n = 0;
		for (final int s : sizes)
			n += s;
		final int[] p = shuffled(n, random);
		final int[][] parts = new int[sizes.length][];
		int from = 0;
		for (int j = 0; j < sizes.length; j++) {
			parts[j] = Arrays.copyOfRange(p, from, from + sizes[j]);
			Arrays.sort(parts[j]); // the order within a part does not matter; keeps it canonical
			from += sizes[j];
		}
		return new Partition(parts);
	}

	/** A uniformly random permutation of 0 … n − 1. */
	static int[] shuffled(final int n, final SplittableRandom random) {
		final int[] p = new int[n];
		for (int i = 0; i < n; i++)
			p[i] = i;
		for (int i = n - 1; i > 0; i--) {
			final int r = random.nextInt(i + 1), tmp = p[i];
			p[i] = p[r];
			p[r] = tmp;
		}
		return p;
	}

	/** The pooled indices of part j (0: the target). */
	public int[] part(final int j) {
		return parts[j].clone();
	}

	public int parts() {
		return parts.length;
	}

	/** Part 0 of the pooled samples, named as {@code target}. */
	Dataset target(final Dataset pooled, final Dataset target) {
		return pooled.select(parts[0]).named(target.name());
	}

	/** Parts 1 … of the pooled samples, named as the backgrounds. */
	List<Dataset> backgrounds(final Dataset pooled, final List<Dataset> backgrounds) {
		final List<Dataset> out = new ArrayList<>();
		for (int j = 1; j < parts.length; j++)
			out.add(pooled.select(parts[j]).named(backgrounds.get(j - 1).name()));
		return out;
	}
}
