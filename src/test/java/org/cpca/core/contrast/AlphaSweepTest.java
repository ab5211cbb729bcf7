package org.cpca.core.contrast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CancellationException;

import org.cpca.core.Progress;
import org.cpca.core.TestData;
import org.cpca.core.data.Dataset;
import org.cpca.core.linalg.TopEigen;
import org.junit.jupiter.api.Test;

/**
 * The α sweep runs as two warm-started chains, the second on another core
 * ({@link AlphaSelection#sweep}): the solutions are those of the two chains solved one
 * after the other, bit for bit, whatever the scheduling, and each is the model at its α.
 */
class AlphaSweepTest {

	private static Cpca fit(final long seed) {
		final Dataset t = Dataset.of("target", TestData.gaussian(seed, 120, 30, 6, 5, 4, 3, 2));
		final Dataset b = Dataset.of("background", TestData.gaussian(seed + 1, 110, 30, 5, 1, 4));
		return Cpca.fit(t, b, CpcaOptions.defaults().withComponents(3), Progress.NONE);
	}

	/** The two chains one after the other in this thread. */
	private static TopEigen.Result[] sequential(final Cpca cpca, final double[] grid) {
		final TopEigen.Result[] out = new TopEigen.Result[grid.length];
		final int mid = AlphaSelection.split(grid.length);
		for (final int[] range : new int[][] { { 0, mid }, { mid, grid.length } }) {
			double[][] warm = null;
			for (int i = range[0]; i < range[1]; i++) {
				out[i] = cpca.solve(grid[i], warm);
				warm = out[i].warmStart;
			}
		}
		return out;
	}

	@Test
	void theColdSecondChainIsTwoOrThreeSolvesShorter() {
		assertEquals(22, AlphaSelection.split(CpcaOptions.defaults().alphaGrid().length));
		for (int g = AlphaSelection.TWO_CHAINS; g <= 200; g++) {
			final int first = AlphaSelection.split(g), second = g - first;
			assertTrue(first - second == 2 || first - second == 3, "g = " + g);
		}
		for (int g = 1; g < AlphaSelection.TWO_CHAINS; g++)
			assertEquals(g, AlphaSelection.split(g)); // one chain
	}

	@Test
	void twoChainsGiveTheSameBitsAsOneAfterTheOther() {
		for (long seed = 1; seed <= 3; seed++) {
			final Cpca cpca = fit(seed);
			final double[] grid = cpca.options().alphaGrid();
			assertTrue(grid.length >= AlphaSelection.TWO_CHAINS);
			final TopEigen.Result[] expected = sequential(cpca, grid);
			for (int run = 0; run < 3; run++) {
				final TopEigen.Result[] got = AlphaSelection.sweep(cpca, grid, Progress.NONE);
				for (int i = 0; i < grid.length; i++) {
					assertArrayEquals(expected[i].values, got[i].values, 0, "α " + grid[i]);
					assertArrayEquals(expected[i].vectors, got[i].vectors, 0, "α " + grid[i]);
				}
			}
			// and each solution is the model at its α (to solver precision)
			final TopEigen.Result[] got = AlphaSelection.sweep(cpca, grid, Progress.NONE);
			for (int i = 0; i < grid.length; i += 7) {
				final double[] direct = cpca.model(grid[i]).eigenvalues();
				for (int c = 0; c < direct.length; c++)
					assertEquals(direct[c], got[i].values[c], 1e-8 * Math.max(1, Math.abs(
						direct[0])), "α " + grid[i]);
			}
		}
	}

	@Test
	void aCancelledSweepStopsBothChains() {
		final Cpca cpca = fit(4);
		final Progress cancelled = new Progress() {

			@Override
			public void stage(final String stage, final double fraction) {}

			@Override
			public boolean cancelled() {
				return true;
			}
		};
		assertThrows(CancellationException.class, () -> AlphaSelection.sweep(cpca, cpca
			.options().alphaGrid(), cancelled));
	}
}
