package org.cpca.macro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;
import ij.ImageStack;
import ij.io.FileSaver;
import ij.process.FloatProcessor;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The macro extension through ImageJ's own macro interpreter, in-process. */
class CpcaMacroFunctionsTest {

	@TempDir
	static Path dir;

	/** Shared strong patterns everywhere; a faint bar of sign ± by class in the target. */
	static ImagePlus stack(final String title, final int n, final long seed,
		final boolean target)
	{
		final int w = 12, h = 10;
		final Random r = new Random(seed);
		final ImageStack st = new ImageStack(w, h);
		for (int s = 0; s < n; s++) {
			final double a = 10 * r.nextGaussian(), b = 8 * r.nextGaussian();
			final float[] px = new float[w * h];
			for (int i = 0; i < px.length; i++) {
				final int x = i % w, y = i / w;
				final double bar = y >= 4 && y <= 5 && x >= 2 && x < w - 2 ? 1 : 0;
				px[i] = (float) (100 + a * Math.sin(x * 0.5) + b * Math.cos(y * 0.7) + 0.3 * r
					.nextGaussian() + (target ? (s % 2 == 0 ? 2 : -2) * bar : 0));
			}
			st.addSlice(target ? s % 2 == 0 ? "0" : "1" : "background", new FloatProcessor(w,
				h, px));
		}
		return new ImagePlus(title, st);
	}

	@BeforeAll
	static void images() {
		new FileSaver(stack("target.tif", 40, 1, true)).saveAsTiffStack(dir.resolve(
			"target.tif").toString());
		new FileSaver(stack("background.tif", 40, 2, false)).saveAsTiffStack(dir.resolve(
			"background.tif").toString());
	}

	private static String open() {
		return MacroRunner.RUN_LINE + "\nopen(\"" + dir.resolve("target.tif") + "\");\n" +
			"open(\"" + dir.resolve("background.tif") + "\");\n";
	}

	@Test
	void fitReturnsAlphasEigenvaluesScoresAndImages() {
		final String out = MacroRunner.run(open() +
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"alpha=auto components=2\");\n" +
			"Ext.getAlphaCount(n);\n" + //
			"Ext.getAlphas(alphas);\n" + //
			"Ext.getEigenvalues(1, ev);\n" + //
			"Ext.getTargetVariance(1, tv);\n" + //
			"Ext.getBackgroundVariance(1, bv);\n" + //
			"Ext.getNumSamples(samples);\n" + //
			"Ext.getNumComponents(k);\n" + //
			"Ext.getScore(1, 3, 0, s);\n" + //
			"Ext.getScores(1, 0, col);\n" + //
			"Ext.getLabels(labels);\n" + //
			"Ext.getSeparation(0, \"lda_accuracy\", pca);\n" + //
			"Ext.getSeparation(1, \"lda_accuracy\", cpca);\n" + //
			"before = nImages;\n" + //
			"Ext.showEigenImages();\n" + //
			"eigen = getTitle() + \"|\" + nSlices + \"|\" + bitDepth() + \"|\" + getInfo(\"slice.label\");\n" +
			"Ext.showScatterPlot();\n" + //
			"Ext.showScreePlot();\n" + //
			"Ext.saveModel(1, \"" + dir.resolve("model.json") + "\");\n" + //
			"e = split(ev, \",\"); t = split(tv, \",\"); b = split(bv, \",\"); a = split(alphas, \",\");\n" +
			"check = abs(parseFloat(t[0]) - parseFloat(a[1]) * parseFloat(b[0]) - parseFloat(e[0])) / parseFloat(t[0]);\n" +
			"made = nImages - before;\n" + //
			"lab = split(labels, \",\"); nl = lab.length;\n" + //
			"c = split(col, \",\");\n" + //
			"same = 0; if (s == parseFloat(c[3])) same = 1;\n" + //
			"return \"\" + n + \";\" + alphas + \";\" + samples + \";\" + k + \";\" + same + \";\" + c.length + \";\" + nl + \";\" + pca + \";\" + cpca + \";\" + made + \";\" + eigen + \";\" + check;");
		final String[] f = out.split(";");
		final int n = Integer.parseInt(f[0]);
		assertTrue(n >= 2, out);
		assertEquals(n, f[1].split(",").length, out);
		assertEquals("0", f[1].split(",")[0], out);
		assertEquals("40", f[2]);
		assertEquals("2", f[3]);
		assertEquals("1", f[4], "getScore equals getScores: " + out);
		assertEquals("40", f[5]);
		assertEquals("40", f[6]);
		assertTrue(Double.parseDouble(f[8]) > Double.parseDouble(f[7]), out);
		assertTrue(Double.parseDouble(f[8]) >= 0.8, out);
		// the eigen-images, one scatter plot window per α, the scree plot
		assertEquals(String.valueOf(n + 2), f[9], "eigen-images, scatter and scree plots: " +
			out);
		final String[] eigen = f[10].split("\\|");
		assertTrue(eigen[0].startsWith("Contrastive eigen-images of target.tif"), out);
		assertEquals(String.valueOf(2 * n), eigen[1]);
		assertEquals("32", eigen[2]);
		assertTrue(eigen[3].startsWith("PC1 α=0 λ="), out);
		assertTrue(Double.parseDouble(f[11]) < 1e-5, out);
		assertTrue(Files.isRegularFile(dir.resolve("model.json")));
	}

	@Test
	void applyModelMakesReconstructionAndBackgroundRemoved() {
		final String out = MacroRunner.run(open() +
			"Ext.cpcaFit(\"background.tif\", \"\", \"method=pca components=2\");\n" +
			"Ext.saveModel(0, \"" + dir.resolve("bg-pca.json") + "\");\n" + //
			"before = nImages;\n" + //
			"Ext.applyModel(\"" + dir.resolve("bg-pca.json") + "\", \"target.tif\");\n" +
			"titles = \"\"; for (i = before + 1; i <= nImages; i++) { selectImage(i); titles = titles + getTitle() + \"|\"; }\n" +
			"return titles;");
		assertTrue(out.contains("Reconstruction of target.tif|"), out);
		assertTrue(out.contains("Background removed from target.tif|"), out);
	}

	@Test
	void pixelsAsSamplesWithSelectionBackground() {
		final String out = MacroRunner.run(MacroRunner.RUN_LINE + "\n" +
			"newImage(\"channels\", \"32-bit random\", 30, 20, 3);\n" + //
			"makeRectangle(0, 0, 10, 20);\n" + //
			"Ext.cpcaFit(\"channels\", \"selection\", \"samples=pixels alpha=1 components=1\");\n" +
			"Ext.getNumSamples(n);\n" + //
			"Ext.showEigenImages();\n" + //
			"return \"\" + n + \";\" + getWidth() + \";\" + nSlices + \";\" + bitDepth();");
		assertEquals("600;30;1;32", out);
	}

	@Test
	void saveModelReplacesOnlyAModelFile() throws Exception {
		final Path mine = dir.resolve("mine.json");
		Files.write(mine, "{\"my\": \"data\"}".getBytes("UTF-8"));
		final String error = MacroRunner.error(open() +
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"alpha=1 components=1\");\n" +
			"Ext.saveModel(0, \"" + mine + "\");\n");
		assertTrue(error.contains("saveModel: file " + mine) && error.contains(
			"is not a model file"), error);
		assertEquals("{\"my\": \"data\"}", new String(Files.readAllBytes(mine), "UTF-8"));
		final Path model = dir.resolve("again.json");
		final String twice = MacroRunner.run(open() +
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"alpha=1 components=1\");\n" +
			"Ext.saveModel(0, \"" + model + "\");\n" + //
			"Ext.saveModel(0, \"" + model + "\");\n" + //
			"return \"ok\";");
		assertEquals("ok", twice);
		assertTrue(new String(Files.readAllBytes(model), "UTF-8").contains(
			"contrastive-pca-model"));
		assertTrue(MacroRunner.error(open() +
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"alpha=1 components=1\");\n" +
			"Ext.saveModel(0, \"" + dir + "\");\n").contains("is a folder"));
	}

	@Test
	void errorsAbortTheMacroWithAMessage() {
		CpcaMacroFunctions.reset();
		assertTrue(MacroRunner.error(MacroRunner.RUN_LINE + "\nExt.getAlphas(a);").contains(
			"call Ext.cpcaFit"));
		assertTrue(MacroRunner.error(open() +
			"Ext.cpcaFit(\"target.tif\", \"nothing.tif\", \"\");").contains(
				"no open image titled 'nothing.tif'"));
		assertTrue(MacroRunner.error(open() +
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"alpha=-1\");").contains(
				"alpha must be ≥ 0"));
		// typos and non-whole numbers are refused, not ignored
		final String typo = MacroRunner.error(open() +
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"aplha=2 compnents=5\");");
		assertTrue(typo.contains("aplha is not a setting (did you mean alpha?)"), typo);
		assertTrue(MacroRunner.error(open() +
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"components=2.7\");")
			.contains("components=2.7 is not a whole number"));
		assertTrue(MacroRunner.error(open() +
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"whiten=maybe\");")
			.contains("whiten=maybe is not true or false"));
		assertTrue(MacroRunner.error(open() +
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"alpha=2\");\n" +
			"Ext.getEigenvalues(5, e);").contains("α index 5 is out of range"));
	}

	@Test
	void typosAndNonWholeNumbersAreRefusedWithTheValidKeys() {
		final String typo = MacroRunner.error(open() +
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"aplha=2 compnents=5\");");
		assertTrue(typo.contains("aplha is not a setting (did you mean alpha?)"), typo);
		assertTrue(typo.contains("components") && typo.contains("samples, bin, axes"), typo);
		for (final String bad : new String[] { "components=2.7", "components=4294967298",
			"bin=1.5", "whiten=maybe", "seed=1e3" })
		{
			final String e = MacroRunner.error(open() +
				"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"alpha=2 " + bad + "\");");
			assertTrue(e.contains(bad.substring(0, bad.indexOf('='))), bad + ": " + e);
			assertTrue(e.contains("whole number") || e.contains("true or false") || e.contains(
				"out of range"), bad + ": " + e);
		}
		final String axes = MacroRunner.error(open() +
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"alpha=2 axes=rows\");");
		assertTrue(axes.contains("is not known: use one of auto, planes"), axes);
		final String index = MacroRunner.error(open() +
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"alpha=2\");\n" +
			"Ext.getScore(0, 1.5, 0, s);");
		assertTrue(index.contains("sample 1.5 is out of range"), index);
	}

	@Test
	void eachMacroThreadHasItsOwnResults() throws Exception {
		CpcaMacroFunctions.reset();
		// macro A fits with 1 component; macro B on another thread with 3 components
		MacroRunner.run(open() +
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"alpha=2 components=1\");");
		final String[] other = new String[1];
		final Thread t = new Thread(() -> other[0] = MacroRunner.run(open() +
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"alpha=2 components=3\");\n" +
			"Ext.getNumComponents(k);\nreturn \"\" + k;"));
		t.start();
		t.join();
		assertEquals("3", other[0]);
		// a later macro on this thread starts without results: no fit yet
		final String later = MacroRunner.error(MacroRunner.RUN_LINE + "\nExt.getAlphas(a);");
		assertTrue(later.contains("there is no result yet: call Ext.cpcaFit"), later);
		// a thread that never fitted has no result
		final String[] none = new String[1];
		final Thread u = new Thread(() -> none[0] = MacroRunner.error(MacroRunner.RUN_LINE +
			"\nExt.getNumComponents(k);"));
		u.start();
		u.join();
		assertTrue(none[0].contains("call Ext.cpcaFit"), none[0]);
	}

	@Test
	void aMacroSeesOnlyItsOwnFit() {
		CpcaMacroFunctions.reset();
		MacroRunner.run(open() +
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"alpha=2 components=1\");\n" +
			"Ext.getNumComponents(k);\nif (k != 1) exit(\"k = \" + k);");
		// the next macro of the same thread, before it fits
		final String none = MacroRunner.error(MacroRunner.RUN_LINE + "\nExt.getAlphas(a);");
		assertTrue(none.contains("there is no result yet: call Ext.cpcaFit"), none);
		// a failed fit leaves no earlier result behind either
		final String failed = MacroRunner.error(open() +
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"alpha=2 components=1\");\n" +
			"ok = 1;\nExt.cpcaFit(\"target.tif\", \"background.tif\", \"alpha=-1\");");
		assertTrue(failed.contains("alpha must be ≥ 0"), failed);
		final String after = MacroRunner.error(MacroRunner.RUN_LINE + "\nExt.getAlphas(a);");
		assertTrue(after.contains("there is no result yet"), after);
	}

	@Test
	void twoImagesOfOneTitleAreNotReadAsOne() {
		final String e = MacroRunner.error(open() + "selectImage(\"background.tif\");\n" +
			"rename(\"target.tif\");\n" +
			"Ext.cpcaFit(\"target.tif\", \"target.tif\", \"alpha=2\");");
		assertTrue(e.contains("2 open images are titled 'target.tif'"), e);
		assertTrue(e.contains("give each a title of its own"), e);
		assertFalse(e.contains("the target image itself"), e);
	}

	@Test
	void theRoiManagerWithoutADisplayIsOneLine() {
		assertTrue(java.awt.GraphicsEnvironment.isHeadless());
		final String e = MacroRunner.error(open() +
			"Ext.cpcaFit(\"target.tif\", \"roi manager\", \"samples=pixels alpha=2\");");
		assertTrue(e.contains("the ROI Manager cannot be used without a display"), e);
		assertFalse(e.contains("Exception"), e);
	}

	/** A 2-channel hyperstack against a one-channel stack (either way round) is named so. */
	@Test
	void channelsAgainstOneChannelAreNamed() {
		final String twoOne = MacroRunner.error(MacroRunner.RUN_LINE +
			"\nnewImage(\"t\", \"32-bit random\", 28, 28, 2, 5, 1);\n" +
			"newImage(\"b\", \"32-bit random\", 28, 28, 5);\nExt.cpcaFit(\"t\", \"b\", \"alpha=2\");");
		assertTrue(twoOne.contains("target 't' has 2 channels but background 'b' has one " +
			"channel: give both the same channels, or read one channel of each with axes=c1"),
			twoOne);
		// before: the background's 2 channels were read as 10 samples of one channel
		final String oneTwo = MacroRunner.error(MacroRunner.RUN_LINE +
			"\nnewImage(\"t\", \"32-bit random\", 28, 28, 5);\n" +
			"newImage(\"b\", \"32-bit random\", 28, 28, 2, 5, 1);\n" +
			"Ext.cpcaFit(\"t\", \"b\", \"alpha=2\");");
		assertTrue(oneTwo.contains("target 't' has one channel but background 'b' has 2"),
			oneTwo);
	}

	@Test
	void aVeryLongUnknownKeyIsShownShortened() {
		final String key = "k".repeat(100_000);
		final String e = MacroRunner.error(open() +
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"" + key + "=1\");");
		assertTrue(e.contains("(100000 characters) is not a setting"), e);
		assertTrue(e.length() < 300, e.length() + " characters");
	}

	@Test
	void editingTheImageAfterTheFitChangesNoResult() {
		final String out = MacroRunner.run(open() +
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"alpha=2 components=1\");\n" +
			"Ext.getScores(0, 0, before);\n" + //
			"selectImage(\"target.tif\");\n" + //
			"for (i = 1; i <= nSlices; i++) { setSlice(i); for (y = 0; y < getHeight(); y++) " +
			"for (x = 0; x < getWidth(); x++) setPixel(x, y, i * (x + 1)); }\n" +
			"Ext.getScores(0, 0, after);\n" + //
			"return before + \"|\" + after;");
		final String[] parts = out.split("\\|");
		assertEquals(parts[0], parts[1]);
	}

	@Test
	void saveModelIoErrorsAreOneClearLine() {
		final String e = MacroRunner.error(open() +
			"Ext.cpcaFit(\"target.tif\", \"background.tif\", \"alpha=2\");\n" +
			"Ext.saveModel(0, \"" + dir.resolve("target.tif/m.json") + "\");");
		// checked before writing: one line naming the file and why it cannot be written
		assertTrue(e.startsWith("saveModel: file " + dir.resolve("target.tif/m.json") +
			" cannot be written: "), e);
		assertTrue(e.contains("is a file, not a folder"), e);
		assertTrue(!e.contains("Exception") && !e.contains("\n"), e);
	}

	@Test
	void hyperstackAxesAreExplicitInMacros() {
		final String make = MacroRunner.RUN_LINE + "\n" + //
			"random(\"seed\", 1);\n" + //
			"function fill() { for (i = 1; i <= nSlices; i++) { setSlice(i); " +
			"for (y = 0; y < 10; y++) for (x = 0; x < 12; x++) setPixel(x, y, random()); } }\n" +
			"newImage(\"hyper.tif\", \"32-bit black\", 12, 10, 2, 3, 2); fill();\n" + //
			"newImage(\"hyperbg.tif\", \"32-bit black\", 12, 10, 2, 3, 2); fill();\n";
		final String auto = MacroRunner.run(make +
			"Ext.cpcaFit(\"hyper.tif\", \"hyperbg.tif\", \"alpha=1 components=1\");\n" +
			"Ext.getNumSamples(n);\nExt.getDiagnostics(d);\nreturn \"\" + n + \"|\" + d;");
		assertTrue(auto.startsWith("6|"), auto);
		assertTrue(auto.contains("target axes (channels): channels → features (2 channels " +
			"side by side), slices → samples, frames → samples"), auto);
		final String planes = MacroRunner.run(make +
			"Ext.cpcaFit(\"hyper.tif\", \"hyperbg.tif\", \"alpha=1 components=1 axes=planes\");\n" +
			"Ext.getNumSamples(n);\nreturn \"\" + n;");
		assertEquals("12", planes);
		final String one = MacroRunner.run(make +
			"Ext.cpcaFit(\"hyper.tif\", \"hyperbg.tif\", \"alpha=1 components=1 axes=c2\");\n" +
			"Ext.getNumSamples(n);\nreturn \"\" + n;");
		assertEquals("6", one);
	}
}
