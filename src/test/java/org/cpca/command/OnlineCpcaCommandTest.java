package org.cpca.command;

import org.cpca.analysis.OnlineAnalysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.IJ;
import ij.ImagePlus;
import ij.ImageStack;
import ij.io.FileSaver;
import ij.process.FloatProcessor;
import ij.process.ImageProcessor;

import java.awt.event.KeyEvent;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;

import org.cpca.core.model.CpcaModel;
import org.cpca.core.modelfile.ModelFile;
import org.cpca.image.ImageInput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scijava.module.Module;

/** Online cPCA star... run headless through a real SciJava context. */
class OnlineCpcaCommandTest extends CommandTestBase {

	/** The pixel of the planted target-only pattern. */
	static final int PLANTED = 21;

	/**
	 * 6 × 6 float slices of unit scale: independent pixels (standard deviation 0.5; 1.2 at
	 * pixel 8, the second cPCA* direction), and
	 * in the target a planted pixel of standard deviation 1.5 that the background hardly
	 * varies (0.1); slices labelled "a"/"b" by its sign.
	 */
	static ImagePlus slices(final String title, final long seed, final int n,
		final boolean isTarget)
	{
		final Random r = new Random(seed);
		final ImageStack s = new ImageStack(6, 6);
		for (int i = 0; i < n; i++) {
			final float[] px = new float[36];
			for (int j = 0; j < 36; j++)
				px[j] = (float) (1 + (j == 8 ? 1.2 : 0.5) * r.nextGaussian());
			final double planted = r.nextGaussian() * (isTarget ? 1.5 : 0.1);
			px[PLANTED] = (float) (1 + planted);
			s.addSlice(isTarget ? planted > 0 ? "a" : "b" : "bg", new FloatProcessor(6, 6, px));
		}
		return new ImagePlus(title, s);
	}

	static Map<String, Object> defaults() {
		final Map<String, Object> d = new HashMap<>();
		d.put("target_source", "image");
		d.put("target", null);
		d.put("target_folder", null);
		d.put("background_source", "image");
		d.put("background", null);
		d.put("background_folder", null);
		d.put("components", 2);
		d.put("beta", 0.8);
		d.put("eta", 0.1); // dimensionless η (the default is 0.3)
		d.put("tau", 1.0);
		d.put("epochs", 30);
		d.put("seed", 0L);
		d.put("order", "shuffled");
		d.put("centring", "running");
		d.put("standardize", false);
		d.put("reference", "auto");
		d.put("bin", 1);
		d.put("show_images", true);
		d.put("show_plots", true);
		d.put("show_tables", true);
		d.put("save_model", null);
		return d;
	}

	static Module run(final Map<String, Object> inputs) throws Exception {
		final Map<String, Object> all = defaults();
		all.putAll(inputs);
		return start(OnlineCpcaCommand.class, true, all).get();
	}

	@Test
	void aVirtualStackAgainstAFolderGivesEigenImagesPlotsAndTheModel(
		@TempDir final Path tmp) throws Exception
	{
		final Path tif = tmp.resolve("target.tif");
		assertTrue(new FileSaver(slices("target", 1, 300, true)).saveAsTiffStack(tif
			.toString()));
		final ImagePlus virtual = ImageInput.openVirtual(tif);
		assertTrue(virtual.getStack().isVirtual());
		final Path folder = Files.createDirectory(tmp.resolve("background"));
		final ImagePlus b = slices("background", 2, 200, false);
		for (int i = 1; i <= 200; i++)
			new FileSaver(new ImagePlus("b", b.getStack().getProcessor(i))).saveAsTiff(folder
				.resolve(String.format("b%03d.tif", i)).toString());
		final Map<String, Object> in = new HashMap<>();
		in.put("target", virtual);
		in.put("background_source", "folder");
		in.put("background_folder", folder.toFile());
		in.put("save_model", tmp.resolve("online.json").toFile());
		final Module m = run(in);
		assertFalse(canceled(m), () -> reason(m));
		final ImagePlus eig = (ImagePlus) m.getOutput("eigen_images");
		assertNotNull(eig);
		assertEquals(2, eig.getStackSize());
		assertEquals(6, eig.getWidth());
		assertNotNull(m.getOutput("scatter_plot"));
		assertNotNull(m.getOutput("convergence_plot"));
		final OnlineAnalysis a = ((OnlineCpcaCommand) m.getDelegateObject()).analysis();
		assertTrue(a.result().finalAlignment() >= 0.95, "" + a.result().finalAlignment());
		assertEquals(300, a.scoresTable().size());
		assertTrue(a.scoresTable().getStringValue("label", 0).matches("[ab]"));
		assertEquals(201, a.convergenceTable().size());
		final CpcaModel saved = (CpcaModel) ModelFile.read(tmp.resolve("online.json"));
		assertEquals("online", saved.method());
		assertTrue(saved.components()[0][PLANTED] > 0.95);
		assertEquals("6", saved.attributes().get("image.width"));
	}

	@Test
	void escapeCancelsAndLeavesNoOutput(@TempDir final Path tmp) throws Exception {
		final ImagePlus b = slices("background", 4, 200, false);
		// a target that presses Esc once 500 slices have been read
		final ImagePlus t = slices("target", 3, 300, true);
		final ImageStack pressing = new ImageStack(6, 6) {

			int reads;

			@Override
			public ImageProcessor getProcessor(final int n) {
				if (++reads == 500) IJ.setKeyDown(KeyEvent.VK_ESCAPE);
				return t.getStack().getProcessor(n);
			}
		};
		for (int i = 1; i <= 300; i++)
			pressing.addSlice(t.getStack().getSliceLabel(i), t.getStack().getPixels(i));
		final Map<String, Object> in = new HashMap<>();
		in.put("target", new ImagePlus("pressing", pressing));
		in.put("background", b);
		in.put("epochs", 20);
		in.put("save_model", tmp.resolve("never.json").toFile());
		try {
			final Module m = run(in);
			assertTrue(canceled(m));
			assertTrue(reason(m).contains("cancelled"), reason(m));
			assertNull(m.getOutput("eigen_images"));
			assertNull(m.getOutput("convergence_plot"));
			assertNull(((OnlineCpcaCommand) m.getDelegateObject()).analysis());
			assertFalse(Files.exists(tmp.resolve("never.json")));
		}
		finally {
			IJ.resetEscape();
			IJ.setKeyUp(KeyEvent.VK_ESCAPE);
		}
	}

	@Test
	void badInputsCancelWithAMessage() throws Exception {
		final ImagePlus t = slices("target", 5, 40, true);
		final Map<String, Object> noBackground = new HashMap<>();
		noBackground.put("target", t);
		assertMessage(run(noBackground), "open background image");
		final Map<String, Object> noFolder = new HashMap<>();
		noFolder.put("target", t);
		noFolder.put("background_source", "folder");
		assertMessage(run(noFolder), "background_folder");
		final Map<String, Object> badEta = new HashMap<>();
		badEta.put("target", t);
		badEta.put("background", slices("background", 6, 40, false));
		badEta.put("eta", 1.5);
		assertMessage(run(badEta), "0 < η < τ");
		final Map<String, Object> standardizeRunning = new HashMap<>();
		standardizeRunning.put("target", t);
		standardizeRunning.put("background", slices("background", 6, 40, false));
		standardizeRunning.put("standardize", true);
		assertMessage(run(standardizeRunning), "use centring pass");
		final Map<String, Object> missing = new HashMap<>();
		missing.put("target_source", "folder");
		missing.put("target_folder", new File("/no/such/folder"));
		missing.put("background", t);
		assertMessage(run(missing), "does not exist");
		// the target again, or a copy of it, as background
		for (final ImagePlus again : new ImagePlus[] { t, t.duplicate() }) {
			final Map<String, Object> same = new HashMap<>();
			same.put("target", t);
			same.put("background", again);
			assertMessage(run(same), "holds the same values as target");
		}
	}

	private static void assertMessage(final Module m, final String part) {
		assertTrue(canceled(m), "expected a failure");
		assertTrue(reason(m).contains(part), reason(m));
	}
}
