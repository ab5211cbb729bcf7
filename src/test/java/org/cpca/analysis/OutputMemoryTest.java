package org.cpca.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;
import ij.ImageStack;
import ij.process.FloatProcessor;

import java.util.Random;

import org.cpca.core.Memory;
import org.cpca.core.Progress;
import org.cpca.core.run.Settings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The memory of the Fiji outputs is checked before they are allocated (issue 14): with
 * too small a budget, score images, eigen-images, the scores table and Apply Model's
 * stacks are refused with one line naming what, how much, what is available and the
 * fixes; with exactly the estimate they are made. Real ImageJ images, real fits.
 */
class OutputMemoryTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	@AfterEach
	void realBudget() {
		OutputMemory.available = Memory::available;
	}

	private static ImagePlus stack(final String title, final int w, final int h,
		final int n, final long seed)
	{
		final Random r = new Random(seed);
		final ImageStack s = new ImageStack(w, h);
		for (int i = 0; i < n; i++) {
			final float[] p = new float[w * h];
			for (int j = 0; j < p.length; j++)
				p[j] = (float) (r.nextGaussian() + (j % w) * r.nextGaussian());
			s.addSlice("s" + i, new FloatProcessor(w, h, p));
		}
		return new ImagePlus(title, s);
	}

	private static Analysis fit(final Samples samples) {
		return Analysis.run(new AnalysisRequest().target(stack("t", 16, 12, 20, 1))
			.background(stack("b", 16, 12, 20, 2)).samples(samples).settings(Settings
				.builder().set("alpha_mode", "fixed").set("alpha", 1.0).set("components", 2)
				.build()), Progress.NONE);
	}

	/** Gives the outputs a budget of exactly {@code bytes}. */
	private static void budget(final long bytes) {
		OutputMemory.available = () -> bytes;
	}

	@Test
	void scoreImagesAreRefusedBeforeTheyAreMadeWhenTheyDoNotFit() {
		final Analysis a = fit(Samples.PIXELS);
		final long need = OutputMemory.scoreImages(16 * 12, 2);
		assertEquals(16 * 12 * 2 * (8 + 8 + 4), need);
		budget(need - 1);
		final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> a
			.views().scoreImages());
		final String m = e.getMessage();
		assertTrue(m.startsWith("not enough memory for the score images of t (192 pixels × " +
			"2 components): it needs "), m);
		assertTrue(m.contains("bin the images") && m.contains("-Xmx"), m);
		assertFalse(m.contains("\n"), "one line");
		budget(need);
		assertNotNull(a.views().scoreImages());
	}

	@Test
	void eigenImagesAndTheScoresTableAreChecked() {
		final Analysis a = fit(Samples.SLICES);
		budget(Memory.floats(2, 16 * 12) - 1);
		assertTrue(assertThrows(IllegalArgumentException.class, () -> a.views().eigenImages())
			.getMessage().startsWith("not enough memory for the eigen-images of t (2 images " +
				"of 16 × 12 pixels)"));
		budget(Memory.floats(2, 16 * 12));
		assertEquals(2, a.views().eigenImages().getStackSize());
		budget(20 * (2 + 4) * 8 - 1);
		assertTrue(assertThrows(IllegalArgumentException.class, () -> a.views().scoresTable())
			.getMessage().startsWith("not enough memory for the scores table of t (20 rows)"));
		budget(20 * (2 + 4) * 8);
		assertEquals(20, a.views().scoresTable().size());
	}

	@Test
	void applyModelChecksItsStacksAndStillGivesTheScores() {
		final Analysis a = fit(Samples.SLICES);
		final ImagePlus input = stack("new", 16, 12, 10, 3);
		final ModelApplication app = ModelApplication.apply(a.modelForFile(), input);
		final long first = OutputMemory.reconstruction(10, 192) + Memory.doubles(10, 192);
		budget(first - 1);
		final String m = assertThrows(IllegalArgumentException.class, app::reconstruction)
			.getMessage();
		assertTrue(m.startsWith("not enough memory for the reconstruction of new (10 samples " +
			"× 192 features)"), m);
		assertTrue(m.contains("Make Substack"), m);
		assertEquals(10, app.scoresTable().size()); // the scores need no stack
		budget(first);
		assertEquals(10, app.reconstruction().getStackSize());
		// the reconstruction is made now: the background-removed stack needs its own rows
		budget(OutputMemory.reconstruction(10, 192));
		assertEquals(10, app.backgroundRemoved().getStackSize());
	}
}
