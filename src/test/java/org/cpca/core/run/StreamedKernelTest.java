package org.cpca.core.run;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;

import org.cpca.core.Progress;
import org.cpca.core.TestData;
import org.cpca.core.data.Dataset;
import org.cpca.core.data.SampleSource;
import org.cpca.core.kernel.KernelCpcaModel;
import org.cpca.core.result.Solution;
import org.junit.jupiter.api.Test;

/**
 * Kernel cPCA on the streamed plan (docs/memory.md): Nyström landmarks chosen by their
 * seeded indices and read in one pass, the kernel features of every sample in another;
 * the same landmarks give the in-memory result — eigenvalues to 1e-10 relative, the
 * directions (coefficients over the landmarks) to 1e-8°, the target scores to 1e-9 —
 * from sources with random access and from sources read only in order.
 */
class StreamedKernelTest {

	private static final float[][][] P = TestData.planted(41, 70, 60, 300, 3, 2, 0.3);
	private static final Dataset T = Dataset.wrap("target", P[0]);
	private static final Dataset B = Dataset.wrap("background", P[1]);

	/** A source read only in order (as a table), counting the samples read. */
	static final class InOrder implements SampleSource {

		final Dataset data;
		int next, reads;

		InOrder(final Dataset data) {
			this.data = data;
		}

		@Override
		public String name() {
			return data.name();
		}

		@Override
		public int samples() {
			return data.samples();
		}

		@Override
		public int features() {
			return data.features();
		}

		@Override
		public boolean randomAccess() {
			return false;
		}

		@Override
		public void read(final int index, final float[] into) throws IOException {
			if (index != 0 && index != next) throw new IllegalArgumentException("sample " +
				index + " out of order (next is " + next + ")");
			System.arraycopy(data.row(index), 0, into, 0, data.features());
			next = index + 1;
			reads++;
		}
	}

	private static Settings settings(final String... keys) {
		final Settings.Builder b = Settings.builder().set("method", "kernel").set(
			"components", 2).set("landmarks", "40");
		for (int i = 0; i < keys.length; i += 2)
			b.set(keys[i], keys[i + 1]);
		return b.build();
	}

	private static void assertSame(final Solution a, final Solution m) {
		assertEquals(a.models().size(), m.models().size(), "models");
		for (int i = 0; i < a.models().size(); i++) {
			final KernelCpcaModel x = (KernelCpcaModel) a.models().get(i),
				y = (KernelCpcaModel) m.models().get(i);
			assertEquals(x.alpha(), y.alpha(), 0, "α of model " + i);
			final float[][] lx = x.supportRows(), ly = y.supportRows();
			assertEquals(lx.length, ly.length, "landmarks");
			for (int s = 0; s < lx.length; s++)
				assertArrayEquals(lx[s], ly[s], 0, "landmark " + s);
			final double[] ex = x.eigenvalues(), ey = y.eigenvalues();
			for (int c = 0; c < ex.length; c++)
				assertEquals(ex[c], ey[c], 1e-10 * Math.abs(ex[c]), "eigenvalue " + c +
					" of model " + i);
			final double angle = Math.toDegrees(TestData.maxAngleBySine(columns(x
				.coefficients()), columns(y.coefficients())));
			assertTrue(angle < 1e-8, "model " + i + ": directions " + angle + "° apart");
			final double[][] sx = x.targetScores(), sy = y.targetScores();
			for (int r = 0; r < sx.length; r++)
				for (int c = 0; c < sx[r].length; c++)
					assertEquals(sx[r][c], sy[r][c], 1e-9 * (1 + Math.abs(sx[r][c])), "score " +
						r + "," + c);
		}
	}

	/** The k columns of a support × k matrix as k rows. */
	private static double[][] columns(final double[][] b) {
		final double[][] out = new double[b[0].length][b.length];
		for (int s = 0; s < b.length; s++)
			for (int c = 0; c < b[s].length; c++)
				out[c][s] = b[s][c];
		return out;
	}

	private static void check(final Settings s) {
		final Solution a = MethodRunner.run(s, T, List.of(B), Progress.NONE);
		assertSame(a, StreamedRun.run(s, SampleSource.of(T), List.of(SampleSource.of(B)),
			null, 1 << 20, Progress.NONE));
		final InOrder t = new InOrder(T), b = new InOrder(B);
		assertSame(a, StreamedRun.run(s, t, List.of(b), null, 1 << 20, Progress.NONE));
	}

	@Test
	void rbfWithAutomaticGammaAtOneAlpha() {
		check(settings("kernel", "rbf", "alpha", "2"));
	}

	@Test
	void standardisedPolynomialAtAutomaticAlphaWithGammaGiven() {
		check(settings("kernel", "poly", "gamma", "0.01", "alpha", "auto", "standardize",
			"true"));
	}

	@Test
	void linearKernelStandardised() {
		check(settings("kernel", "linear", "alpha", "1.5", "standardize", "true"));
	}

	/**
	 * Passes in order: the pooled mean, the automatic γ's subsample and the landmarks (each
	 * read up to the last one wanted), and the features: at most five passes over each
	 * source, never the samples held.
	 */
	@Test
	void aSourceReadInOrderIsReadInAFewPasses() {
		final InOrder t = new InOrder(T), b = new InOrder(B);
		StreamedRun.run(settings("kernel", "rbf", "alpha", "2"), t, List.of(b), null, 1 << 20,
			Progress.NONE);
		assertTrue(t.reads <= 4 * T.samples(), t.reads + " reads of the target");
		assertTrue(b.reads <= 4 * B.samples(), b.reads + " reads of the background");
	}

	/**
	 * Automatic landmarks when streamed: Nyström with min(500, N) of them (here every
	 * sample) instead of the exact path, said in a note; the in-memory run with that
	 * many landmarks gives the same result.
	 */
	@Test
	void automaticLandmarksAreNystromWhenStreamed() {
		final Settings auto = Settings.builder().set("method", "kernel").set("components", 2)
			.set("alpha", "2").build();
		final Solution streamed = StreamedRun.run(auto, SampleSource.of(T), List.of(
			SampleSource.of(B)), null, 1 << 20, Progress.NONE);
		assertTrue(streamed.diagnostics().stream().anyMatch(d -> d.contains(
			"Nyström with 130 landmarks instead of the exact path")), streamed.diagnostics()
				.toString());
		assertSame(MethodRunner.run(settings("alpha", "2", "landmarks", "130"), T, List.of(B),
			Progress.NONE), streamed);
	}

	@Test
	void whatNeedsTheSamplesIsRefusedInOneLine() {
		TestData.assertMessage(() -> StreamedRun.run(settings("landmarks", "all", "alpha",
			"2"), SampleSource.of(T), List.of(SampleSource.of(B)), null, 1 << 20,
			Progress.NONE), "exact kernel cPCA (landmarks all) holds every sample");
		TestData.assertMessage(() -> StreamedRun.run(settings("alpha", "auto"), SampleSource
			.of(T), List.of(SampleSource.of(B)), null, 1 << 20, Progress.NONE),
			"automatic (γ, α) of kernel cPCA");
	}
}
