package org.cpca.core.contrast;

import static org.cpca.core.TestData.assertMessage;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.cpca.core.Progress;
import org.cpca.core.data.Dataset;
import org.cpca.core.model.CpcaModel;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * α = ∞ inside the data's span (docs/math/cpca.md): a direction with no variance in either
 * dataset (here: column 4 is exactly twice column 1 in both) is not part of the
 * background's null space.
 */
public class AlphaInfinityTest {

	/** Paper case with a collinear fourth column: e1 + 2e4 shared, e2 target-only. */
	private static Dataset collinear(final String name, final double[][] x) {
		final double[][] y = new double[x.length][];
		for (int i = 0; i < x.length; i++)
			y[i] = new double[] { x[i][0], x[i][1], x[i][2], 2 * x[i][0] };
		return Dataset.of(name, y);
	}

	private static Dataset target() {
		return collinear("target", new double[][] { { 3, 0, 0 }, { -3, 0, 0 }, { 0, 2, 0 }, {
			0, -2, 0 }, { 1, 0, 0 }, { -1, 0, 0 } });
	}

	private static Dataset background() {
		return collinear("background", new double[][] { { 3, 0, 0 }, { -3, 0, 0 }, { 1, 0,
			0 }, { -1, 0, 0 }, { 0, 0, 0 }, { 0, 0, 0 } });
	}

	/**
	 * On paper: C_t = 1.6 e2e2ᵀ + 4·(e1 + 2e4)(…)ᵀ/… and C_b along e1 + 2e4 only. Inside the
	 * span (e1 + 2e4, e2) the background's null space is e2 with target variance 1.6: one
	 * component, with a diagnostic; the direction 2e1 − e4 (no variance anywhere) and e3 are
	 * never returned.
	 */
	@ParameterizedTest
	@ValueSource(booleans = { true, false })
	void collinearColumnsAreNotANullSpace(final boolean featureSpace) {
		final Cpca cpca = Cpca.fit(target(), background(), CpcaOptions.defaults()
			.withComponents(2).withFeatureSpace(featureSpace), Progress.NONE);
		final CpcaModel inf = cpca.model(Double.POSITIVE_INFINITY);
		assertEquals(1, inf.numComponents());
		assertEquals(1.6, inf.eigenvalues()[0], 1e-9);
		assertArrayEquals(new double[] { 0, 1, 0, 0 }, inf.components()[0], 1e-9);
		assertTrue(inf.diagnostics().stream().anyMatch(d -> d.contains(
			"carry target variance")), inf.diagnostics().toString());
		// the separation measures work on what is returned
		final List<String> labels = new ArrayList<>(List.of("a", "a", "b", "c", "a", "c"));
		final double lda = Measures.ldaAccuracy(inf.targetScores(), labels);
		assertTrue(lda > 0 && lda <= 1);
	}

	/** Background spanning everything the target does inside the span: a clear message. */
	@ParameterizedTest
	@ValueSource(booleans = { true, false })
	void noNullSpaceInsideTheSpan(final boolean featureSpace) {
		final Dataset b = collinear("background", new double[][] { { 3, 0, 0 }, { -3, 0, 0 },
			{ 0, 1, 0 }, { 0, -1, 0 }, { 0, 0, 0 }, { 0, 0, 0 } });
		final Cpca cpca = Cpca.fit(target(), b, CpcaOptions.defaults().withComponents(1)
			.withFeatureSpace(featureSpace), Progress.NONE);
		assertMessage(() -> cpca.model(Double.POSITIVE_INFINITY), "α = ∞ is undefined",
			"finite α", "rPCA");
	}
}
