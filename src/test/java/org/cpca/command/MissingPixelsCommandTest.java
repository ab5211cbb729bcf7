package org.cpca.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.IJ;
import ij.ImagePlus;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import org.cpca.analysis.Analysis;
import org.cpca.cli.MissingPixelsData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scijava.module.Module;

/**
 * The Fiji command with NaN pixels ({@code missing}): PCPCA models them (the case solved
 * on paper in {@link MissingPixelsData#paperCase}: σ² = 0.8), cPCA refuses them.
 */
class MissingPixelsCommandTest extends CommandTestBase {

	@TempDir
	Path dir;

	@Test
	void pcpcaModelsNanPixelsAndCpcaRefusesThem() throws Exception {
		MissingPixelsData.paperCase(dir);
		final ImagePlus t = IJ.openImage(dir.resolve("t.tif").toString()), b = IJ.openImage(
			dir.resolve("b.tif").toString());
		final Map<String, Object> in = new HashMap<>();
		in.put("target", t);
		in.put("background", b);
		in.put("method", "pcpca");
		in.put("alpha_mode", "fixed");
		in.put("alpha", 0.5);
		in.put("components", 1);
		in.put("missing", "model");
		in.put("show_images", false);
		in.put("show_plots", false);
		in.put("show_tables", false);
		final Module m = ContrastivePcaCommandTest.run(in);
		assertFalse(canceled(m), () -> reason(m));
		final Analysis a = ((ContrastivePcaCommand) m.getDelegateObject()).analysis();
		assertEquals(0.8, (Double) a.primary().parameters().get("noise_variance"), 1e-6);
		assertTrue(Float.isNaN(t.getStack().getProcessor(8).getf(3)), "input not modified");
		in.put("method", "cpca");
		in.put("missing", "drop");
		final Module refused = ContrastivePcaCommandTest.run(in);
		assertTrue(canceled(refused));
		assertTrue(reason(refused).contains("--method pcpca --missing model"),
			reason(refused));
	}
}
