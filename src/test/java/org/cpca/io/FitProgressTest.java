package org.cpca.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.cpca.core.Progress;
import org.cpca.core.run.Settings;
import org.cpca.generate.TestImageGenerator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The progress a fit reports, heard by a recording listener: every fraction in [0, 1],
 * rising within each stage (a stage starts at 0 or where the fraction falls), the last
 * report 1 ("done"), and the stages a user waits for named.
 */
public class FitProgressTest {

	@TempDir
	static Path images;

	@BeforeAll
	static void makeImages() throws Exception {
		TestImageGenerator.write(TestImageGenerator.generate(TestImageGenerator.Config
			.defaults().withSlices(60, 60).withSize(16, 16)), images);
	}

	/** The reports of one fit: stage texts and fractions. */
	private static final class Recording implements Progress {

		final List<String> stages = new ArrayList<>();
		final List<Double> fractions = new ArrayList<>();

		@Override
		public synchronized void stage(final String stage, final double fraction) {
			stages.add(stage);
			fractions.add(fraction);
		}

		void check() {
			assertEquals(1.0, fractions.get(fractions.size() - 1), "ends at 1: " + stages);
			assertEquals("done", stages.get(stages.size() - 1));
			for (final double f : fractions)
				assertTrue(f >= 0 && f <= 1, "fraction " + f);
		}

		boolean any(final String start) {
			return stages.stream().anyMatch(s -> s.startsWith(start));
		}
	}

	private static Recording fit(final Path out, final Settings settings) throws Exception {
		final Recording r = new Recording();
		FitPipeline.run(FitRequest.builder().target(images.resolve("target.tif"))
			.background(images.resolve("background.tif")).labels(images.resolve(
				"target-labels.txt")).settings(settings).out(out).plots(false).build(), r);
		r.check();
		return r;
	}

	@Test
	public void testAutomaticAlpha(@TempDir final Path out) throws Exception {
		final Recording r = fit(out, Settings.defaults());
		assertTrue(r.any("reading"), r.stages.toString());
		assertTrue(r.any("α sweep"), r.stages.toString());
		assertTrue(r.any("writing results"), r.stages.toString());
	}

	@Test
	public void testOnlineEpochsRiseThroughTheRun(@TempDir final Path out) throws Exception {
		final Recording r = fit(out, Settings.builder().set("method", "online").set("epochs",
			"3").set("reference", "none").build());
		// the epochs are one stage: the fraction of all samples of all epochs only rises
		double last = -1;
		int epochs = 0;
		for (int i = 0; i < r.stages.size(); i++) {
			if (!r.stages.get(i).startsWith("online cPCA*, epoch")) continue;
			assertTrue(r.fractions.get(i) >= last, r.fractions.toString());
			last = r.fractions.get(i);
			if (r.stages.get(i).endsWith(" of 3") && (i == 0 || !r.stages.get(i - 1).equals(r
				.stages.get(i)))) epochs++;
		}
		assertEquals(3, epochs, r.stages.toString());
		assertTrue(r.any("writing results"), r.stages.toString());
	}
}
