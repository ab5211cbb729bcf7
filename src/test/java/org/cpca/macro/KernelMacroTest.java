package org.cpca.macro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.io.FileSaver;
import ij.macro.Interpreter;

import java.nio.file.Files;
import java.nio.file.Path;

import org.cpca.core.kernel.KernelCpcaModel;
import org.cpca.core.modelfile.ModelFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kernel cPCA through the macro extension (Ext.cpcaFit with method=kernel). */
class KernelMacroTest {

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
	void kernelFitGivesScoresExtremeSamplesAndAModelFile() {
		final String out = MacroRunner.run(open() +
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"method=kernel kernel=rbf " +
			"gamma=1e-6 landmarks=all alpha=10 components=2\");\n" + //
			"Ext.getAlphas(alphas);\n" + //
			"Ext.getEigenvalues(0, ev);\n" + //
			"Ext.getSeparation(0, \"lda_accuracy\", lda);\n" + //
			"Ext.getDiagnostics(d);\n" + //
			"before = nImages;\n" + //
			"Ext.showExtremeSamples();\n" + //
			"extremes = getTitle() + \"|\" + nSlices + \"|\" + getInfo(\"slice.label\");\n" +
			"Ext.showScatterPlot();\n" + //
			"made = nImages - before;\n" + //
			"Ext.saveModel(0, \"" + dir.resolve("kernel.json") + "\");\n" + //
			"exact = 0; if (indexOf(d, \"kernel cPCA, exact\") >= 0) exact = 1;\n" + //
			"e = split(ev, \",\");\n" + //
			"return alphas + \";\" + e.length + \";\" + lda + \";\" + made + \";\" + extremes + \";\" + exact;");
		final String[] f = out.split(";");
		assertEquals("10", f[0], out);
		assertEquals("2", f[1], out);
		assertTrue(Double.parseDouble(f[2]) >= 0.9, out);
		assertEquals("2", f[3], out);
		final String[] extremes = f[4].split("\\|");
		assertTrue(extremes[0].startsWith("Extreme samples of target.tif"), out);
		assertEquals("12", extremes[1], out);
		assertTrue(extremes[2].startsWith("kPC1 top 1: "), out);
		assertEquals("1", f[5], out);
		assertTrue(Files.isRegularFile(dir.resolve("kernel.json")));
		assertTrue(ModelFile.readAny(dir.resolve("kernel.json")) instanceof KernelCpcaModel);
	}

	@Test
	void eigenImagesOfAKernelFitAndBadKernelOptionsAbortWithAMessage() {
		assertEquals("Ext.showExtremeSamples", error(open() +
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"method=kernel alpha=1\");\n" +
			"Ext.showEigenImages();\n", "Ext.showExtremeSamples"));
		error(open() + "Ext.cpcaFit(\"target.tif\", \"background.tif\", " +
			"\"method=kernel gamma=0\");\n", "gamma");
		error(open() + "Ext.cpcaFit(\"target.tif\", \"background.tif\", " +
			"\"method=kernel kernel=poly degree=0\");\n", "degree");
		error(open() + "Ext.cpcaFit(\"target.tif\", \"background.tif\", " +
			"\"method=kernel alpha=inf\");\n", "not defined for kernel");
	}

	/** Runs a macro that must abort; returns {@code part} if its message contains it. */
	private static String error(final String macro, final String part) {
		final Interpreter interp = new Interpreter();
		interp.setIgnoreErrors(true);
		interp.run("setBatchMode(true);\nclose(\"*\");\n" + macro, null);
		final String message = interp.getErrorMessage();
		assertTrue(message != null && message.contains(part), "message: " + message);
		return part;
	}
}
