package org.cpca.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.cpca.core.Progress;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.gcpca.Gcpca;
import org.cpca.core.gcpca.GcpcaReference;
import org.cpca.core.model.CpcaModel;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * gcPCA on the mouse protein table of the cPCA paper (issue 31), whose pS6_N and ARC_N
 * columns are identical: {@code --standardize --missing zero}, the set-up of
 * docs/cli-reference.md. Needs the UCI "Mice Protein Expression" file
 * (Data_Cortex_Nuclear.csv) beside the project in ../shared/data or at
 * /work/shared/data; skipped without it (GcpcaSpanTest checks the same on generated data).
 */
class GcpcaMouseTest {

	static Path mouse() {
		final Path beside = Path.of("..", "shared", "data", "Data_Cortex_Nuclear.csv");
		final Path p = Files.isRegularFile(beside) ? beside : Path.of(
			"/work/shared/data/Data_Cortex_Nuclear.csv");
		Assumptions.assumeTrue(Files.isRegularFile(p), "the mouse protein table (UCI) is " +
			"not on this machine");
		return p;
	}

	@Test
	void variantsAgreeWithTheFullSpaceSolutionOnTheDeduplicatedTable() throws Exception {
		final Path m = mouse();
		final TableInput t = TableInput.read("target", m, null, "Genotype", TableInput.Missing
			.ZERO, List.of("Behavior=S/C", "Treatment=Saline"));
		final TableInput b = TableInput.read("background", m, t.featureNames, null,
			TableInput.Missing.ZERO, List.of("Behavior=C/S", "Treatment=Saline",
				"Genotype=Control"));
		final int d = t.featureNames.size(), first = t.featureNames.indexOf("pS6_N"),
				copy = t.featureNames.indexOf("ARC_N");
		assertEquals(77, d);
		final Cpca fit = Cpca.fit(t.dataset, b.dataset, CpcaOptions.defaults()
			.withComponents(2).withStandardize(true).withFeatureSpace(true), Progress.NONE);
		final double[][] a = square(fit.space().a, d), bb = square(fit.space().b, d);
		final double[][] q = GcpcaReference.withoutDuplicate(d, first, copy);
		for (final Gcpca.Variant v : new Gcpca.Variant[] { Gcpca.Variant.V2,
			Gcpca.Variant.V4 })
			for (final boolean orthogonal : new boolean[] { false, true }) {
				final String what = v.id() + (orthogonal ? " orthogonal" : "");
				final CpcaModel model = Gcpca.of(fit, v, orthogonal, Double.NaN).model();
				final double[] tv = model.targetVariance(), bv = model.backgroundVariance();
				for (int c = 0; c < 4; c++)
					assertTrue(tv[c] > 1e-4 && bv[c] > 1e-4, what + ": component " + c +
						" has variances " + tv[c] + " / " + bv[c]);
				final double[][] expected = GcpcaReference.solve(a, bb, q, v, 2, orthogonal);
				for (int c = 0; c < 4; c++) {
					final double angle = GcpcaReference.angle(expected[c], model
						.components()[c]);
					assertTrue(angle <= 1e-6, what + ": component " + c + " lies " + angle +
						"° from the full-space solution");
				}
			}
	}

	private static double[][] square(final double[] x, final int d) {
		final double[][] out = new double[d][d];
		for (int i = 0; i < d; i++)
			System.arraycopy(x, i * d, out[i], 0, d);
		return out;
	}
}
