package org.cpca.macro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.io.FileSaver;

import java.nio.file.Path;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** cPCA* and cPCA++ through the macro extension (method=star, beta=…; method=cpcapp). */
class StarMacroTest {

	@TempDir
	static Path dir;

	@BeforeAll
	static void images() {
		new FileSaver(CpcaMacroFunctionsTest.stack("target.tif", 40, 1, true))
			.saveAsTiffStack(dir.resolve("target.tif").toString());
		new FileSaver(CpcaMacroFunctionsTest.stack("background.tif", 40, 2, false))
			.saveAsTiffStack(dir.resolve("background.tif").toString());
	}

	private static String open() {
		return MacroRunner.RUN_LINE + "\nopen(\"" + dir.resolve("target.tif") + "\");\n" +
			"open(\"" + dir.resolve("background.tif") + "\");\n";
	}

	@Test
	void fixedAndAutomaticBetaAndTheSeparationAlongBeta() {
		final String out = MacroRunner.run(open() +
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"method=star beta=0.7 components=2\");\n" +
			"Ext.getBetas(fixed);\n" + //
			"Ext.getAlphas(alphas);\n" + //
			"Ext.getSeparation(0, \"lda_accuracy\", sep);\n" + //
			"Ext.getSeparationAlongBeta(\"lda_accuracy\", grid, lda);\n" + //
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"method=star beta=auto components=2\");\n" +
			"Ext.getBetas(auto);\n" + //
			"Ext.getAlphaCount(n);\n" + //
			"Ext.showEigenImages();\n" + //
			"label = getInfo(\"slice.label\");\n" + //
			"g = split(grid, \",\"); l = split(lda, \",\");\n" + //
			"return fixed + \";\" + alphas + \";\" + sep + \";\" + g.length + \";\" + l.length + \";\" + g[0] + \";\" + g[g.length - 1] + \";\" + auto + \";\" + n + \";\" + label;");
		final String[] f = out.split(";", -1);
		assertEquals("0.7", f[0], out);
		assertEquals("", f[1], "cPCA* has no α: " + out);
		assertTrue(Double.parseDouble(f[2]) >= 0.8, out);
		assertEquals("42", f[3], out);
		assertEquals("42", f[4], out);
		assertEquals(0, Double.parseDouble(f[5]), out);
		assertEquals(1, Double.parseDouble(f[6]), out);
		final String[] betas = f[7].split(",");
		assertEquals("0", betas[0], out);
		assertEquals(Integer.parseInt(f[8]), betas.length, out);
		assertTrue(f[9].startsWith("cPC1 β=0 λ="), out);
	}

	@Test
	void cpcaPlusPlus() {
		final String out = MacroRunner.run(open() +
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"method=cpcapp components=2\");\n" +
			"Ext.getEigenvalues(0, ev);\n" + //
			"Ext.getDiagnostics(d);\n" + //
			"Ext.getBetas(b);\n" + //
			"e = split(ev, \",\");\n" + //
			"r = 0; if (indexOf(d, \"regularised\") >= 0) r = 1;\n" + //
			"return \"\" + e.length + \";\" + r + \";\" + b;");
		// 120 pixels, 40 background slices: C_b is singular and was regularised
		assertEquals("2;1;", out);
	}

	@Test
	void epsilonReachesTheModel() {
		final String out = MacroRunner.run(open() +
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"method=cpcapp epsilon=1e-6\");\n" +
			"Ext.getParameter(0, \"regularization\", d6);\n" + //
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"method=cpcapp epsilon=1e-3\");\n" +
			"Ext.getParameter(0, \"regularization\", d3);\n" + //
			"return d3 + \";\" + d6;");
		final String[] d = out.split(";");
		assertEquals(1000, Double.parseDouble(d[0]) / Double.parseDouble(d[1]), 1e-6, out);
		assertTrue(MacroRunner.error(open() +
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"method=cpcapp epsilon=-1\");")
			.contains("epsilon must be auto (or 0) or > 0"));
	}

	@Test
	void badBetaAbortsWithAMessage() {
		assertTrue(MacroRunner.error(open() +
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"method=star beta=2\");")
			.contains("beta must be in [0, 1]"));
		assertTrue(MacroRunner.error(open() +
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"method=star beta=0.5\");\n" +
			"Ext.getSeparationAlongBeta(\"silhouette\", b, v);").contains(
				"use lda_accuracy or symmetrized_kl"));
		assertTrue(MacroRunner.error(open() +
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"alpha=2\");\n" +
			"Ext.getSeparationAlongBeta(\"lda_accuracy\", b, v);").contains(
				"no separation along β"));
	}
}
