package org.cpca.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;
import ij.measure.ResultsTable;

import java.util.HashMap;
import java.util.Map;

import org.cpca.core.model.FittedModel;
import org.junit.jupiter.api.Test;
import org.scijava.module.Module;

/** gcPCA through the Fiji command: the shuffle test's marks in the components table. */
class GcpcaCommandTest extends CommandTestBase {

	@Test
	void componentsTableMarksSignificantComponents() throws Exception {
		final ImagePlus t = Synthetic.target(40, 1), b = Synthetic.background(40, 2);
		final Map<String, Object> in = new HashMap<>();
		in.put("target", t);
		in.put("background", b);
		in.put("method", "gcpca");
		in.put("variant", "v4");
		in.put("orthogonal", false);
		in.put("shuffles", 10);
		in.put("sparsity", "none");
		in.put("show_images", false);
		in.put("show_plots", false);
		in.put("show_tables", false);
		final Module m = ContrastivePcaCommandTest.run(in);
		assertFalse(canceled(m), () -> reason(m));
		final ContrastivePcaCommand c = (ContrastivePcaCommand) m.getDelegateObject();
		final ResultsTable comps = c.componentsTable();
		assertEquals(4, comps.size());
		assertTrue(comps.columnExists("significant"), comps.getColumnHeadings());
		final FittedModel model = c.analysis().primary();
		final double[] sig = (double[]) model.parameters().get("significant");
		for (int i = 0; i < 4; i++)
			assertEquals(sig[i], comps.getValue("significant", i), "row " + i);
		// the synthetic target's class difference is target-enriched and real
		assertEquals(1, comps.getValue("significant", 0));
		// without a shuffle test there is no such column
		in.put("shuffles", 0);
		final ResultsTable plain = ((ContrastivePcaCommand) ContrastivePcaCommandTest.run(in)
			.getDelegateObject()).componentsTable();
		assertFalse(plain.columnExists("significant"));
	}
}
