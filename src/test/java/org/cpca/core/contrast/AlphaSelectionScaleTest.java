package org.cpca.core.contrast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.cpca.core.Progress;
import org.cpca.core.data.Dataset;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.result.Method;
import org.cpca.core.result.Solution;

import org.junit.jupiter.api.Test;

/**
 * docs/math/cpca.md (automatic α): a grid that misses the data's scale is said so. On
 * paper: four features, target covariance diag(4, 9, 0, 0), background c·diag(1, 9, 0, 0),
 * k = 1, so C(α) = diag(4 − cα, 9 − 9cα, 0, 0): PCA's e₂ for cα &lt; 5/8, the contrastive
 * e₁ for 5/8 &lt; cα &lt; 4. With c = 1 the default grid (0.1 … 1000) reaches e₁; a
 * background in other units (c = 10⁻⁸) leaves every grid value at e₂, and c = 10⁸ puts
 * every one past cα = 4; the note says which and gives the range that reaches e₁.
 */
public class AlphaSelectionScaleTest {

	/** ±s·e_j rows: mean 0, covariance diag(2s²/(n − 1)) with n = 4 rows, times c. */
	private static Dataset diagonal(final String name, final double v1, final double v2,
		final double c)
	{
		final double s1 = Math.sqrt(1.5 * v1 * c), s2 = Math.sqrt(1.5 * v2 * c);
		return Dataset.of(name, new double[][] { { s1, 0, 0, 0 }, { -s1, 0, 0, 0 }, { 0, s2,
			0, 0 }, { 0, -s2, 0, 0 } });
	}

	private static AlphaSelection<CpcaModel> select(final double c, final CpcaOptions o) {
		return Cpca.fit(diagonal("target", 4, 9, 1), diagonal("background", 1, 9, c), o
			.withComponents(1), Progress.NONE).automatic(Progress.NONE);
	}

	/** Whether some returned α &gt; 0 has e₁ as its component. */
	private static boolean reachesE1(final AlphaSelection<CpcaModel> s) {
		for (final CpcaModel m : s.models())
			if (m.alpha() > 0 && Math.abs(m.components()[0][0]) > 1 - 1e-9) return true;
		return false;
	}

	@Test
	void comparableScalesGiveNoNote() {
		final AlphaSelection<CpcaModel> s = select(1, CpcaOptions.defaults());
		assertNull(s.scaleNote());
		assertTrue(reachesE1(s));
	}

	@Test
	void aBackgroundThatNeverCountsIsSaidWithTheRangeToUse() {
		final AlphaSelection<CpcaModel> s = select(1e-8, CpcaOptions.defaults());
		for (final CpcaModel m : s.models())
			assertEquals(1, Math.abs(m.components()[0][1]), 1e-9, "e₂ (PCA) at α = " + m
				.alpha());
		final String note = s.scaleNote();
		assertTrue(note != null && note.contains("the background never counts"), note);
		// ‖C_t‖_F / ‖C_b‖_F = √97 / (10⁻⁸·√82)
		final double balance = Math.sqrt(97) / (1e-8 * Math.sqrt(82));
		assertTrue(note.contains(String.format(java.util.Locale.ROOT, "--alpha-range %.2g,%.2g",
			balance / 10, balance * 1000)), note);
		assertTrue(Solution.of(Method.CPCA, "auto", s.models(), s, null).diagnostics()
			.contains(note));
		// the range it gives reaches the contrastive direction
		assertTrue(reachesE1(select(1e-8, CpcaOptions.defaults().withAlphaGrid(40, Math.log10(
			balance / 10), Math.log10(balance * 1000)))));
	}

	@Test
	void aBackgroundThatAlwaysOutweighsIsSaid() {
		final String note = select(1e8, CpcaOptions.defaults()).scaleNote();
		assertTrue(note != null && note.contains("outweighs the target at every α"), note);
	}

	@Test
	void theMarginOnPaper() {
		final double[] grid = { 0, 0.1, 1000 };
		// α‖C_b‖ at the top of the grid just below and just above 1/1000 of ‖C_t‖
		assertTrue(AlphaSelection.scaleNote(1, 0.99e-6, grid).contains("never counts"));
		assertNull(AlphaSelection.scaleNote(1, 1.01e-6, grid));
		// α‖C_b‖ at the bottom of the grid just above and just below 1000 ‖C_t‖
		assertTrue(AlphaSelection.scaleNote(1, 1.01e4, grid).contains("outweighs"));
		assertNull(AlphaSelection.scaleNote(1, 0.99e4, grid));
		assertNull(AlphaSelection.scaleNote(1, 0, grid), "a constant background");
	}
}
