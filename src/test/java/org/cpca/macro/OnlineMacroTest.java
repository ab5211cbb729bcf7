package org.cpca.macro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;
import ij.ImageStack;
import ij.io.FileSaver;
import ij.process.FloatProcessor;

import java.nio.file.Path;
import java.util.Random;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Online cPCA* on open stacks through the macro extension (method=online, eta=, …). */
class OnlineMacroTest {

	@TempDir
	static Path dir;

	/**
	 * 6 × 6 float slices of unit scale: independent
	 * pixels of standard deviation 0.5, and in the target a planted pixel of standard
	 * deviation 1.5 that the background hardly varies (0.1); slices labelled "a"/"b" by its
	 * sign.
	 */
	static ImagePlus slices(final String title, final long seed, final int n,
		final boolean isTarget)
	{
		final Random r = new Random(seed);
		final ImageStack s = new ImageStack(6, 6);
		for (int i = 0; i < n; i++) {
			final float[] px = new float[36];
			for (int j = 0; j < 36; j++)
				px[j] = (float) (1 + 0.5 * r.nextGaussian());
			final double planted = r.nextGaussian() * (isTarget ? 1.5 : 0.1);
			px[PLANTED] = (float) (1 + planted);
			s.addSlice(isTarget ? planted > 0 ? "a" : "b" : "bg", new FloatProcessor(6, 6, px));
		}
		return new ImagePlus(title, s);
	}

	static final int PLANTED = 21;

	@BeforeAll
	static void images() {
		new FileSaver(slices("target.tif", 1, 200, true)).saveAsTiffStack(dir.resolve(
			"target.tif").toString());
		new FileSaver(slices("background.tif", 2, 200, false)).saveAsTiffStack(dir.resolve(
			"background.tif").toString());
	}

	private static String open() {
		return MacroRunner.RUN_LINE + "\nopen(\"" + dir.resolve("target.tif") + "\");\n" +
			"open(\"" + dir.resolve("background.tif") + "\");\n";
	}

	@Test
	void onlineFitReportsItsBetaAndTheAlignmentWithOfflineCpcaStar() {
		final String out = MacroRunner.run(open() +
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"method=online beta=0.8 " +
			"eta=0.1 tau=1 epochs=20 components=1 seed=4\");\n" +
			"Ext.getBetas(b);\n" + //
			"Ext.getNumSamples(n);\n" + //
			"Ext.getDiagnostics(d);\n" + //
			"Ext.getSeparation(0, \"lda_accuracy\", sep);\n" + //
			"i = indexOf(d, \"alignment with offline cPCA* \");\n" + //
			"a = substring(d, i + 29, i + 35);\n" + //
			"return b + \";\" + n + \";\" + a + \";\" + sep;");
		final String[] f = out.split(";", -1);
		assertEquals("0.8", f[0], out);
		assertEquals("200", f[1], out);
		assertTrue(Double.parseDouble(f[2]) >= 0.9, out);
		assertTrue(Double.parseDouble(f[3]) >= 0.8, out);
	}

	@Test
	void standardizeRunsWithAFirstPass() {
		// in memory the first pass that standardising needs is taken without asking
		final String out = MacroRunner.run(open() +
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"method=online beta=0.8 " +
			"epochs=2 components=1 standardize\");\n" +
			"Ext.getDiagnostics(d);\n" + //
			"return d;");
		assertTrue(out.contains("pass centring, standardised"), out);
	}

	@Test
	void betaDefaultsToTheAutomaticRuleAndALargeStepStaysStable() {
		// no β given: online cPCA* runs at its automatic β = 1/(1 + s), s the background's
		// mean feature variance (docs/math/online.md), not at a fixed 0.5
		final String noBeta = MacroRunner.run(open() +
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"method=online\");\n" +
			"Ext.getBetas(b);\nExt.getDiagnostics(d);\nreturn \"\" + b + \"|\" + d;");
		final String[] parts = noBeta.split("\\|", 2);
		assertNotEquals(0.5, Double.parseDouble(parts[0]), noBeta);
		assertTrue(parts[1].contains("automatic β = 1/(1 + s) = " + parts[0].substring(0,
			4)), noBeta);
		// η = 0.99 at β = 1 used to diverge; the implicit background step keeps it stable
		// (docs/math/online.md)
		assertEquals("1", MacroRunner.run(open() +
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"method=online beta=1 " +
			"eta=0.99\");\nExt.getBetas(b);\nreturn \"\" + b;"));
		assertTrue(MacroRunner.error(open() +
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"method=online beta=0.5 " +
			"eta=20\");").contains("0 < η < τ"));
	}
}
