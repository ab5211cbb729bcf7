package org.cpca.macro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.cpca.cli.MissingPixelsData;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * NaN pixels through the macro extension: {@code missing=model} fits PCPCA by EM (the
 * case solved on paper in {@code MissingPixelsCliTest}: σ² = 0.8), other methods refuse
 * the NaN pixels naming PCPCA.
 */
class MissingPixelsMacroTest {

	@TempDir
	static Path dir;

	@BeforeAll
	static void images() {
		MissingPixelsData.paperCase(dir);
	}

	private static String open() {
		return MacroRunner.RUN_LINE + "\nopen(\"" + dir.resolve("t.tif") + "\");\n" +
			"open(\"" + dir.resolve("b.tif") + "\");\n";
	}

	@Test
	void pcpcaModelsNanPixels() {
		final String out = MacroRunner.run(open() +
			"Ext.cpcaFit(\"t.tif\", \"b.tif\", \"method=pcpca alpha=0.5 components=1 missing=model\");\n" +
			"Ext.getParameter(0, \"noise_variance\", s2);\n" + //
			"Ext.getEigenvalues(0, ev);\n" + //
			"selectImage(\"t.tif\"); setSlice(8); v = getPixel(1, 1);\n" + //
			"return s2 + \";\" + ev + \";\" + isNaN(v);");
		final String[] f = out.split(";");
		assertEquals(0.8, Double.parseDouble(f[0]), 1e-6, out);
		assertEquals(124.0 / 7, Double.parseDouble(f[1]), 1e-4, out);
		assertEquals("1", f[2], "the target image is not modified: " + out);
	}

	@Test
	void otherMethodsRefuseNanPixels() {
		final String plain = MacroRunner.error(open() +
			"Ext.cpcaFit(\"t.tif\", \"b.tif\", \"method=cpca alpha=2 components=1\");\n");
		assertTrue(plain.contains("missing value (NaN)") && plain.contains("--method pcpca"),
			plain);
		final String model = MacroRunner.error(open() +
			"Ext.cpcaFit(\"t.tif\", \"b.tif\", \"method=cpca alpha=2 components=1 missing=model\");\n");
		assertTrue(model.contains("modelled by PCPCA only"), model);
	}
}
