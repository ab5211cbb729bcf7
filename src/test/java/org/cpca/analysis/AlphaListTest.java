package org.cpca.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.cpca.core.Progress;
import org.cpca.core.run.Settings;
import org.cpca.generate.TestImageGenerator;
import org.cpca.render.ModelViews;
import org.junit.jupiter.api.Test;

/** The α explorer's plot title lists the chosen α as every figure does: 3 significant digits. */
class AlphaListTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	@Test
	void theChosenAlphasAreListedToThreeSignificantDigits() {
		final TestImageGenerator.Result r = TestImageGenerator.generate(
			TestImageGenerator.Config.defaults().withSlices(60, 60).withSize(16, 16));
		final Analysis analysis = Analysis.run(new AnalysisRequest().target(r.target())
			.background(r.background()).settings(Settings.defaults()), Progress.NONE);
		final AlphaExplorer e = new AlphaExplorer(analysis);
		final StringBuilder expected = new StringBuilder();
		for (final double a : e.chosenAlphas())
			expected.append(expected.length() == 0 ? "" : ", ").append(ModelViews.alphaLabel(a));
		assertEquals(expected.toString(), e.alphaList());
		// some chosen α has more than 3 significant digits written exactly
		boolean longer = false;
		for (final double a : e.chosenAlphas())
			longer |= ModelViews.alphaText(a).replaceAll("[^0-9]", "").replaceFirst("^0+", "")
				.length() > 3;
		assertTrue(longer, "no chosen α needs rounding: " + e.alphaList());
		for (final String s : e.alphaList().split(", "))
			assertTrue(s.replaceAll("[^0-9]", "").replaceFirst("^0+", "").length() <= 3, e
				.alphaList());
	}
}
