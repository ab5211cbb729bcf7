package org.cpca.macro;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

/** UCA and rPCA with several backgrounds through the macro extension. */
class UcaMacroTest {

	@TempDir
	static Path dir;

	private static final int W = 12, H = 10;

	/** Target: 4 patterns (the first its own); background j: pattern j only. */
	@BeforeAll
	static void images() {
		final Random r = new Random(9);
		final float[][] pattern = new float[4][W * H];
		for (final float[] p : pattern)
			for (int i = 0; i < p.length; i++)
				p[i] = (float) r.nextGaussian();
		final double[][] sds = { { 1, 6, 5, 4 }, { 0, 6, 0, 0 }, { 0, 0, 5, 0 }, { 0, 0, 0,
			4 } };
		final String[] names = { "target.tif", "b1.tif", "b2.tif", "b3.tif" };
		for (int f = 0; f < 4; f++) {
			final ImageStack st = new ImageStack(W, H);
			for (int s = 0; s < 30; s++) {
				final float[] px = new float[W * H];
				for (int q = 0; q < 4; q++) {
					final double z = sds[f][q] * r.nextGaussian();
					for (int i = 0; i < px.length; i++)
						px[i] += (float) (z * pattern[q][i]);
				}
				for (int i = 0; i < px.length; i++)
					px[i] += (float) (0.05 * r.nextGaussian());
				st.addSlice(new FloatProcessor(W, H, px));
			}
			new FileSaver(new ImagePlus(names[f], st)).saveAsTiffStack(dir.resolve(names[f])
				.toString());
		}
	}

	private static String open() {
		final StringBuilder sb = new StringBuilder(MacroRunner.RUN_LINE + "\n");
		for (final String f : new String[] { "target.tif", "b1.tif", "b2.tif", "b3.tif" })
			sb.append("open(\"").append(dir.resolve(f)).append("\");\n");
		return sb.toString();
	}

	@Test
	void ucaAndRpcaWithThreeBackgroundImages() {
		final String out = MacroRunner.run(open() +
			"Ext.cpcaFit(\"target.tif\", \"b1.tif, b2.tif,b3.tif\", \"method=uca components=1\");\n" +
			"Ext.getParameter(0, \"lambda\", l);\n" +
			"Ext.getParameter(0, \"dual\", g);\n" +
			"Ext.getAlphas(a);\n" +
			"Ext.getDiagnostics(d);\n" +
			"Ext.cpcaFit(\"target.tif\", \"b1.tif,b2.tif,b3.tif\", \"method=uca components=1 stacked\");\n" +
			"Ext.getParameter(0, \"lambda\", s);\n" +
			"Ext.getParameter(0, \"stacked\", n);\n" +
			"Ext.cpcaFit(\"target.tif\", \"b1.tif,b2.tif,b3.tif\", \"method=rpca components=1 k_b=[1,auto,1]\");\n" +
			"Ext.getParameter(0, \"k_b\", k);\n" +
			"return l + \"|\" + g + \"|\" + a + \"|\" + (indexOf(d, \"UCA: λ\") >= 0) + \"|\" + s + \"|\" + n + \"|\" + k;");
		final String[] parts = out.split("\\|", -1);
		assertEquals(3, parts[0].split(",").length, out);
		for (final String l : parts[0].split(","))
			assertTrue(Double.parseDouble(l) > 0, out);
		assertTrue(Double.parseDouble(parts[1]) > 0, out);
		assertEquals("", parts[2], "UCA has no α: " + out);
		assertEquals("1", parts[3], out);
		assertEquals(1, parts[4].split(",").length, out);
		assertEquals(3.0, Double.parseDouble(parts[5]), out);
		final String[] kb = parts[6].split(",");
		assertEquals(3, kb.length, out);
		assertEquals(1.0, Double.parseDouble(kb[0]), out);
	}

	@Test
	void clearErrors() {
		final String missing = MacroRunner.error(open() +
			"Ext.cpcaFit(\"target.tif\", \"b1.tif,nope.tif\", \"method=uca\");");
		assertTrue(missing.contains("'nope.tif'"), missing);
		final String cpca = MacroRunner.error(open() +
			"Ext.cpcaFit(\"target.tif\", \"b1.tif,b2.tif\", \"method=cpca alpha=1\");");
		assertTrue(cpca.contains("uca"), cpca);
		final String parameter = MacroRunner.error(open() +
			"Ext.cpcaFit(\"target.tif\", \"b1.tif,b2.tif\", \"method=uca components=1\");\n" +
			"Ext.getParameter(0, \"beta\", b);");
		assertTrue(parameter.contains("lambda, constraint_scale, dual"), parameter);
		final String overlay = MacroRunner.error(open() +
			"Ext.cpcaFit(\"target.tif\", \"overlay\", \"samples=pixels method=uca\");");
		assertTrue(overlay.contains("no overlay ROIs"), overlay);
	}
}
