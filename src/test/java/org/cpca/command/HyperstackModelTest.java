package org.cpca.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;
import ij.ImageStack;
import ij.measure.ResultsTable;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

import org.cpca.analysis.Analysis;
import org.cpca.analysis.ModelApplication;
import org.cpca.core.model.FittedModel;
import org.cpca.core.modelfile.ModelFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scijava.module.Module;

/**
 * Hyperstacks with channels as features in Fiji (issue 14): Apply Model... applies such a
 * model (reading the input's channels side by side, as the fit did), and Online cPCA*
 * follows the axes choice. Real hyperstacks through a real SciJava context.
 */
class HyperstackModelTest extends CommandTestBase {

	/** Two channels × {@code positions} slices: channel 1 the stack, channel 2 its square. */
	private static ImagePlus hyperstack(final ImagePlus plain) {
		final ImageStack in = plain.getStack();
		final ImageStack out = new ImageStack(plain.getWidth(), plain.getHeight());
		for (int z = 1; z <= in.getSize(); z++) {
			out.addSlice(in.getSliceLabel(z), in.getProcessor(z).duplicate());
			final ij.process.ImageProcessor sq = in.getProcessor(z).duplicate();
			sq.sqr();
			out.addSlice(in.getSliceLabel(z), sq);
		}
		final ImagePlus imp = new ImagePlus(plain.getTitle() + "-hyper", out);
		imp.setDimensions(2, in.getSize(), 1);
		imp.setOpenAsHyperStack(true);
		return imp;
	}

	@Test
	void applyModelReadsAChannelsAsFeaturesModelsInputAsTheFitDid(@TempDir final Path tmp)
		throws Exception
	{
		final ImagePlus t = hyperstack(Synthetic.target(30, 41)), b = hyperstack(Synthetic
			.background(30, 42));
		final Map<String, Object> fit = ContrastivePcaCommandTest.defaults();
		fit.put("target", t);
		fit.put("background", b);
		fit.put("axes", "channels");
		fit.put("alpha_mode", "fixed");
		fit.put("alpha", 2.0);
		fit.put("show_images", false);
		fit.put("show_plots", false);
		fit.put("save_model", tmp.resolve("channels.json").toFile());
		final Module f = start(ContrastivePcaCommand.class, true, fit).get();
		assertFalse(canceled(f), () -> reason(f));
		final ResultsTable fitted = ((ContrastivePcaCommand) f.getDelegateObject())
			.scoresTable();
		assertEquals(30, fitted.size()); // one sample per slice, 2 channels as features
		final FittedModel model = ModelFile.readAny(tmp.resolve("channels.json"));
		assertEquals("channels", model.attributes().get(Analysis.AXES_KEY));

		final Map<String, Object> in = new HashMap<>();
		in.put("model", tmp.resolve("channels.json").toFile());
		in.put("input", t);
		in.put("show_reconstruction", true);
		in.put("show_background_removed", false);
		in.put("show_scores", true);
		final Module m = start(ApplyModelCommand.class, true, in).get();
		assertFalse(canceled(m), () -> reason(m));
		final ResultsTable applied = ((ApplyModelCommand) m.getDelegateObject())
			.scoresTable();
		assertScoresEqual(fitted, applied);
		// the reconstruction shows the channels side by side, as the eigen-images do
		final ImagePlus recon = (ImagePlus) m.getOutput("reconstruction");
		assertEquals(2 * t.getWidth(), recon.getWidth());
		assertEquals(30, recon.getStackSize());

		// a model without the attribute (the command line's, or older files): the
		// channels side by side are recognised by the model's width
		final Map<String, String> attr = new LinkedHashMap<>(model.attributes());
		attr.remove(Analysis.AXES_KEY);
		final ModelApplication old = ModelApplication.apply(model.withAttributes(attr), t);
		assertScoresEqual(fitted, old.scoresTable());
	}

	private static void assertScoresEqual(final ResultsTable a, final ResultsTable b) {
		assertNotNull(b);
		assertEquals(a.size(), b.size());
		for (final String c : new String[] { "cPC1", "cPC2" })
			for (int i = 0; i < a.size(); i++)
				assertEquals(a.getValue(c, i), b.getValue(c, i), 1e-6 * (1 + Math.abs(a.getValue(
					c, i))), c + " of sample " + (i + 1));
	}

	@Test
	void onlineCpcaStarFollowsTheAxesChoice(@TempDir final Path tmp) throws Exception {
		final ImagePlus t = hyperstack(Synthetic.target(60, 43)), b = hyperstack(Synthetic
			.background(60, 44));
		final Map<String, Object> in = new HashMap<>();
		in.put("target", t);
		in.put("background", b);
		in.put("axes", "channels");
		in.put("epochs", 5);
		in.put("eta", 0.005);
		in.put("show_plots", false);
		in.put("save_model", tmp.resolve("online.json").toFile());
		final Module m = OnlineCpcaCommandTest.run(in);
		assertFalse(canceled(m), () -> reason(m));
		final ImagePlus eigen = (ImagePlus) m.getOutput("eigen_images");
		assertEquals(2 * t.getWidth(), eigen.getWidth(), "channels side by side");
		assertEquals(60, ((OnlineCpcaCommand) m.getDelegateObject()).scoresTable().size());
		assertEquals("channels", ModelFile.readAny(tmp.resolve("online.json")).attributes()
			.get(Analysis.AXES_KEY));

		in.put("axes", "c2");
		in.put("save_model", null);
		final Module one = OnlineCpcaCommandTest.run(in);
		assertFalse(canceled(one), () -> reason(one));
		assertEquals(t.getWidth(), ((ImagePlus) one.getOutput("eigen_images")).getWidth());

		in.put("axes", "planes"); // every plane a sample: 2 × 60
		final Module planes = OnlineCpcaCommandTest.run(in);
		assertFalse(canceled(planes), () -> reason(planes));
		assertEquals(120, ((OnlineCpcaCommand) planes.getDelegateObject()).scoresTable()
			.size());
	}
}
