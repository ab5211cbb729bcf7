package org.cpca.core.contrast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.cpca.core.Progress;
import org.cpca.core.data.Dataset;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.result.Solution;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * docs/math/cpca.md (automatic α): grid values without positive contrast are left out of
 * the affinity and the clustering. On paper: four features, target covariance diag(4, 9,
 * 0, 0), background diag(1, 9, 0, 0), k = 1, so C(α) = diag(4 − α, 9 − 9α, 0, 0). Its top
 * eigenvector is e₂ for α &lt; 5/8, e₁ for 5/8 &lt; α &lt; 4, and for α &gt; 4 the top
 * eigenvalue is 0, shared by e₃ and e₄ (no variance in either dataset): no positive contrast
 * and no unique top subspace.
 */
public class AlphaSelectionContrastTest {

	/** ±s·e_j rows: mean 0, covariance diag(2s²/(n − 1)) with n = 4 rows. */
	private static Dataset diagonal(final String name, final double v1, final double v2) {
		final double s1 = Math.sqrt(1.5 * v1), s2 = Math.sqrt(1.5 * v2);
		return Dataset.of(name, new double[][] { { s1, 0, 0, 0 }, { -s1, 0, 0, 0 }, { 0, s2,
			0, 0 }, { 0, -s2, 0, 0 } });
	}

	@Test
	void alphasWithoutPositiveContrastAreLeftOutOfTheClustering() {
		final Cpca cpca = Cpca.fit(diagonal("target", 4, 9), diagonal("background", 1, 9),
			CpcaOptions.defaults().withComponents(1), Progress.NONE);
		final AlphaSelection<CpcaModel> s = cpca.automatic(Progress.NONE);
		final double[] grid = s.grid();
		final List<Double> above = new ArrayList<>();
		for (final double a : grid)
			if (a > 4) above.add(a);
		assertTrue(above.size() > 10, "the default grid reaches far above α = 4");
		assertArrayEquals(above.stream().mapToDouble(Double::doubleValue).toArray(), s
			.excluded(), 0, "exactly the α > 4 are left out");
		final int[] clusters = s.clusters();
		final double[][] affinity = s.affinity();
		for (int i = 0; i < grid.length; i++) {
			assertEquals(grid[i] > 4, clusters[i] < 0, "cluster of α = " + grid[i]);
			assertEquals(grid[i] > 4, Double.isNaN(affinity[i][0]), "affinity of α = " +
				grid[i]);
		}
		// every chosen α has contrast; the e₁ regime (5/8 < α < 4) is found
		boolean e1 = false;
		for (final CpcaModel m : s.models()) {
			assertTrue(m.alpha() < 4, "chosen α = " + m.alpha());
			assertTrue(m.eigenvalues()[0] > 0, "positive contrast at α = " + m.alpha());
			if (m.alpha() > 0.625) {
				e1 = true;
				assertEquals(1, Math.abs(m.components()[0][0]), 1e-6);
				// the data are held in single precision: covariances to ~1e-7 relative
				assertEquals(4 - m.alpha(), m.eigenvalues()[0], 1e-6);
			}
		}
		assertTrue(e1, "a chosen α between 5/8 and 4");
		assertNotNull(s.exclusionNote());
		assertTrue(s.exclusionNote().contains(above.size() + " of the " + grid.length +
			" grid values"), s.exclusionNote());
		assertTrue(s.exclusionNote().contains("have no positive contrast in their top k") &&
			s.exclusionNote().contains("they were left out"), s.exclusionNote());
		final Solution solution = Solution.of(org.cpca.core.result.Method.CPCA, "auto", s
			.models(), s, cpca);
		assertTrue(solution.diagnostics().contains(s.exclusionNote()));
	}

	/**
	 * k = 2: for α &gt; 1 the second eigenvalue of C(α) is 0 (e₃ and e₄), so the top-2
	 * target-score subspace is not defined there (one score column vanishes): every α &gt; 1
	 * is left out, and the rest are the α &lt; 1 (top two e₁, e₂).
	 */
	@Test
	void alphasWithADirectionWithoutVarianceInTheirTopKAreLeftOut() {
		final Cpca cpca = Cpca.fit(diagonal("target", 4, 9), diagonal("background", 1, 9),
			CpcaOptions.defaults().withComponents(2), Progress.NONE);
		final AlphaSelection<CpcaModel> s = cpca.automatic(Progress.NONE);
		final double[] grid = s.grid();
		final List<Double> above = new ArrayList<>();
		for (final double a : grid)
			if (a > 1) above.add(a);
		assertArrayEquals(above.stream().mapToDouble(Double::doubleValue).toArray(), s
			.excluded(), 0);
		for (final CpcaModel m : s.models())
			assertTrue(m.alpha() < 1 && m.eigenvalues()[1] > 0, "chosen α = " + m.alpha());
	}
}
