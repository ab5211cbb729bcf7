package org.cpca.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;
import ij.ImageStack;

import java.util.Arrays;


import org.cpca.core.Progress;
import org.cpca.core.contrast.StreamedGram;
import org.cpca.core.TestData;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.run.Settings;
import org.cpca.image.StreamingSourcesTest.CountingStack;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The analysis behind Contrastive PCA… on virtual stacks (real ImageJ
 * {@link ij.VirtualStack}s): read in passes by feature tiles, one slice at a time, never
 * as a whole ({@code getImageArray()} fails the test) and never copied into memory, with
 * the results of the same stacks in memory.
 */
public class StreamedAnalysisTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	/** What the memory plan may use instead of the JVM's free heap (io.MemoryPlan). */
	private static final String AVAILABLE = "cpca.memory.available";

	@AfterEach
	void clearBudget() {
		System.clearProperty(AVAILABLE);
	}

	/** The slices of a virtual stack copied into an ordinary stack (for the reference). */
	public static ImagePlus inMemory(final String title, final CountingStack v) {
		final ImageStack s = new ImageStack(v.getWidth(), v.getHeight());
		for (int i = 1; i <= v.getSize(); i++)
			s.addSlice("", v.getProcessor(i));
		return new ImagePlus(title, s);
	}

	@Test
	void virtualStacksAreStreamedSliceBySliceWithTheInMemoryResults() {
		for (final String alpha : new String[] { "2", "auto" }) {
			final Settings s = Settings.builder().set("alpha", alpha).set("components", 2)
				.build();
			final CountingStack t = new CountingStack(16, 16, 60, 1), b = new CountingStack(16,
				16, 50, 2);
			final Analysis memory = Analysis.run(new AnalysisRequest().target(inMemory("target",
				new CountingStack(16, 16, 60, 1))).background(inMemory("background",
					new CountingStack(16, 16, 50, 2))).settings(s), Progress.NONE);
			final ImagePlus ti = new ImagePlus("target", t), bi = new ImagePlus("background", b);
			// ImageJ reads the shown slice when the image is made: counted from here on
			final int[][] before = { t.reads.clone(), b.reads.clone() };
			final Analysis streamed = Analysis.run(new AnalysisRequest().target(ti).background(
				bi).settings(s), Progress.NONE);
			assertNull(streamed.targetData(), "the target was copied into memory");
			assertEquals(60, streamed.targetSamples());
			assertEquals(memory.models().size(), streamed.models().size());
			for (int i = 0; i < memory.models().size(); i++) {
				final CpcaModel x = (CpcaModel) memory.models().get(i), y = (CpcaModel) streamed
					.models().get(i);
				for (int c = 0; c < 2; c++)
					assertEquals(x.eigenvalues()[c], y.eigenvalues()[c], 1e-10 * Math.abs(x
						.eigenvalues()[c]));
				assertTrue(Math.toDegrees(TestData.maxAngleBySine(x.components(), y
					.components())) < 1e-8);
			}
			// one tile (the heap is large): each slice read once for the Gram matrix and
			// once for the components of every model (automatic α: 4), one slice at a time
			final int passes = 2;
			assertTrue(streamed.models().size() > 1 || !alpha.equals("auto"));
			final int[][] after = { t.reads, b.reads };
			for (int set = 0; set < 2; set++)
				for (int i = 0; i < after[set].length; i++)
					assertEquals(passes, after[set][i] - before[set][i], alpha + ", slice " + (i +
						1) + " of dataset " + set);
			assertTrue(streamed.diagnostics().stream().anyMatch(d -> d.startsWith(
				"read in passes by feature tiles")));
			// the scores table and scatter plots need no samples
			assertEquals(60 * streamed.models().size(), streamed.views().scoresTable()
				.size());
		}
	}

	/**
	 * Kernel cPCA on virtual stacks (Nyström landmarks, γ given) streams too: never
	 * copied, each slice read at most three times (the pooled mean, the landmarks by their
	 * indices, the features), the in-memory eigenvalues and scores.
	 */
	@Test
	void kernelCpcaOnVirtualStacksIsStreamedWithItsLandmarks() {
		final Settings s = Settings.builder().set("method", "kernel").set("gamma", "0.01")
			.set("landmarks", "40").set("alpha", "2").set("components", 2).build();
		final Analysis memory = Analysis.run(new AnalysisRequest().target(inMemory("target",
			new CountingStack(16, 16, 60, 1))).background(inMemory("background",
				new CountingStack(16, 16, 50, 2))).settings(s), Progress.NONE);
		final CountingStack t = new CountingStack(16, 16, 60, 1), b = new CountingStack(16, 16,
			50, 2);
		final ImagePlus ti = new ImagePlus("target", t), bi = new ImagePlus("background", b);
		final int[][] before = { t.reads.clone(), b.reads.clone() };
		final Analysis streamed = Analysis.run(new AnalysisRequest().target(ti).background(bi)
			.settings(s), Progress.NONE);
		assertNull(streamed.targetData(), "the target was copied into memory");
		final double[] x = memory.models().get(0).eigenvalues(), y = streamed.models().get(0)
			.eigenvalues();
		for (int c = 0; c < 2; c++)
			assertEquals(x[c], y[c], 1e-10 * Math.abs(x[c]));
		final int[][] after = { t.reads, b.reads };
		for (int set = 0; set < 2; set++)
			for (int i = 0; i < after[set].length; i++)
				assertTrue(after[set][i] - before[set][i] <= 3, "slice " + (i + 1) +
					" of dataset " + set + " read " + (after[set][i] - before[set][i]) + " times");
		assertEquals(60, streamed.views().scoresTable().size());
	}

	/**
	 * The memory plan comes first on virtual stacks too: when even the streamed plan does
	 * not fit, one line names the N × N Gram matrix and Fiji's way out (the Online cPCA
	 * star command) before a single slice is read; with the room it needs, the same run
	 * streams.
	 */
	@Test
	void aGramMatrixThatDoesNotFitIsRefusedBeforeReading() {
		final Settings s = Settings.builder().set("alpha", "2").set("components", 2).build();
		final CountingStack t = new CountingStack(16, 16, 60, 1), b = new CountingStack(16, 16,
			50, 2);
		final ImagePlus ti = new ImagePlus("target", t), bi = new ImagePlus("background", b);
		final int[][] before = { t.reads.clone(), b.reads.clone() };
		// the Gram matrix's fit, (40 + 8)·110² = 580,800 bytes (StreamedGram.fitBytes), the
		// smallest tile and the means take 826,560 bytes
		assertEquals(580_800, StreamedGram.fitBytes(110, 1));
		System.setProperty(AVAILABLE, "750000");
		final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
			() -> Analysis.run(new AnalysisRequest().target(ti).background(bi).settings(s),
				Progress.NONE));
		assertTrue(e.getMessage().contains("the N × N Gram matrix of N = 110 samples") && e
			.getMessage().contains("use the Online cPCA star... command") && !e.getMessage()
				.contains("--"), e.getMessage());
		assertTrue(Arrays.equals(before[0], t.reads) && Arrays.equals(
			before[1], b.reads), "slices were read before the refusal");
		System.setProperty(AVAILABLE, "900000");
		final Analysis a = Analysis.run(new AnalysisRequest().target(ti).background(bi)
			.settings(s), Progress.NONE);
		assertNull(a.targetData());
		assertTrue(a.diagnostics().stream().anyMatch(d -> d.contains("streamed by feature " +
			"tiles (estimated peak")), a.diagnostics().toString());
	}

	/**
	 * Features that do not fit (64 × 64 slices, few samples): the line advises bin=2, and
	 * with bin=2 the same heap streams the run.
	 */
	@Test
	void tooManyFeaturesAreRefusedWithAdviceThatWorks() {
		final Settings s = Settings.builder().set("alpha", "2").set("components", 1).build();
		final ImagePlus ti = new ImagePlus("target", new CountingStack(64, 64, 10, 1)),
			bi = new ImagePlus("background", new CountingStack(64, 64, 10, 2));
		System.setProperty(AVAILABLE, "200000");
		final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
			() -> Analysis.run(new AnalysisRequest().target(ti).background(bi).settings(s),
				Progress.NONE));
		assertTrue(e.getMessage().contains("the d = 4096 features take") && e.getMessage()
			.contains("use bin=2 (a quarter of the features) or a selection"), e.getMessage());
		final Analysis a = Analysis.run(new AnalysisRequest().target(ti).background(bi)
			.settings(s).bin(2), Progress.NONE);
		assertNull(a.targetData());
		assertEquals(1024, a.layout().features());
	}
}
