package org.cpca.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.cpca.QuietOutput;
import org.cpca.analysis.Analysis;
import org.cpca.analysis.AnalysisRequest;
import org.cpca.analysis.StreamedAnalysisTest;
import org.cpca.bench.StreamGoalBench.Run;
import org.cpca.core.Progress;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.model.FittedModel;
import org.cpca.core.run.Settings;
import org.cpca.image.StreamingSourcesTest.CountingStack;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.scijava.Context;
import org.scijava.command.CommandService;

/**
 * The plumbing of {@code cpca bench --fiji-goal} on small virtual stacks, in process: the
 * command runs through a real SciJava context on real {@link ij.VirtualStack}s
 * ({@code getImageArray()} fails), reads each slice at most twice (the Gram pass and the
 * components' pass, never a copy), makes its outputs, and what the child writes reads
 * back as {@code cpca fit}'s results with the in-memory eigenvalues and components.
 */
@ExtendWith(QuietOutput.class)
class FijiGoalBenchTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	private static Context context;

	@TempDir
	Path dir;

	@BeforeAll
	static void start() {
		context = new Context(CommandService.class);
	}

	@AfterAll
	static void stop() {
		context.dispose();
	}

	@Test
	void theCommandReadsVirtualStacksInPassesAndItsResultsReadBackExact() throws Exception {
		for (final String alpha : new String[] { "2", "auto" }) {
			final CountingStack t = new CountingStack(16, 16, 60, 1), b = new CountingStack(16,
				16, 50, 2);
			final ImagePlus ti = new ImagePlus("target", t), bi = new ImagePlus("background", b);
			final int[][] before = { t.reads.clone(), b.reads.clone() };
			final Path out = dir.resolve("fiji" + alpha);
			Files.createDirectories(out);
			final FijiGoalBench.Result r = FijiGoalBench.command(context, ti, bi, alpha, out);
			assertNull(r.failure, r.failure);
			assertTrue(r.streamed(), "the virtual stacks were copied into memory");
			final int[][] after = { t.reads, b.reads };
			for (int set = 0; set < 2; set++)
				for (int i = 0; i < after[set].length; i++)
					assertTrue(after[set][i] - before[set][i] <= 2, alpha + ": slice " + (i + 1) +
						" of dataset " + set + " read " + (after[set][i] - before[set][i]) + " times");
			assertEquals(4L * 110 * 256, r.inputBytes);
			for (final String o : List.of("eigen_images", "eigen_image_figure", "scatter_plot",
				"scree_plot"))
				assertTrue(r.outputs.contains(o), alpha + ": no " + o + " in " + r.outputs);
			assertTrue(r.outputs.contains("components table"), r.outputs.toString());
			assertTrue(r.outputs.contains("scores table (" + 60 * r.analysis.models().size() +
				" rows)"), r.outputs.toString());
			r.write(out.resolve("summary.json"));
			final Run read = StreamGoalBench.results(out, new Run());
			assertTrue(read.plan.startsWith("virtual stacks read in passes, never copied"),
				read.plan);

			// the reference: the same slices in memory, the analysis behind the command
			final Analysis memory = Analysis.run(new AnalysisRequest().target(StreamedAnalysisTest
				.inMemory("target", new CountingStack(16, 16, 60, 1))).background(
					StreamedAnalysisTest.inMemory("background", new CountingStack(16, 16, 50, 2)))
				.settings(Settings.builder().set("alpha", alpha).build()), Progress.NONE);
			final List<double[]> eigenvalues = new ArrayList<>();
			for (final FittedModel m : memory.models())
				eigenvalues.add(m.eigenvalues());
			assertTrue(!alpha.equals("auto") || eigenvalues.size() > 1);
			assertTrue(StreamGoalBench.maxRelative(eigenvalues, read.eigenvalues) < 1e-10,
				alpha);
			assertTrue(Math.toDegrees(StreamGoalBench.largestAngle(((CpcaModel) memory
				.primary()).components(), read.components)) < 1e-8, alpha);
		}
	}
}
