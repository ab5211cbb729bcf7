package org.cpca.core.run;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

import org.cpca.core.Progress;
import org.cpca.core.TestData;
import org.cpca.core.contrast.StreamedGram;
import org.cpca.core.data.Dataset;
import org.cpca.core.data.SampleSource;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.result.Solution;
import org.junit.jupiter.api.Test;

/**
 * The streamed plan (feature tiles, docs/memory.md) gives what the in-memory run gives,
 * for every family it runs: eigenvalues to 1e-10 relative, component subspaces to 1e-8°.
 * With more features than samples (the Gram path) the eigenvalues are the same to the bit
 * (the streamed Gram matrix is memory's, StreamedGramTest) and the components differ only
 * by the rounding of their lift (Zᵀy summed in another order): under 1e-11°.
 */
class StreamedRunTest {

	/** Features per tile: 7 of 400, so 58 tiles, the last one narrower. */
	private static final int WIDTH = 7;

	private static final float[][][] P = TestData.planted(21, 30, 25, 400, 3, 2, 0.3);
	private static final float[][][] Q = TestData.planted(22, 20, 20, 400, 2, 1, 0.5);
	private static final Dataset T = Dataset.wrap("target", P[0]);
	private static final Dataset B = Dataset.wrap("background", P[1]);
	private static final Dataset B2 = Dataset.wrap("background 2", Q[1]);

	/** A source that counts the values it reads (whole samples, or ranges if it can). */
	static final class Counting implements SampleSource {

		final SampleSource inner;
		final boolean ranges;
		long values;

		Counting(final Dataset data, final boolean ranges) {
			this.inner = SampleSource.of(data);
			this.ranges = ranges;
		}

		@Override
		public String name() {
			return inner.name();
		}

		@Override
		public int samples() {
			return inner.samples();
		}

		@Override
		public int features() {
			return inner.features();
		}

		@Override
		public boolean randomAccess() {
			return true;
		}

		@Override
		public boolean readsRanges() {
			return ranges;
		}

		@Override
		public void read(final int index, final float[] into) throws IOException {
			values += features();
			inner.read(index, into);
		}

		@Override
		public void readRange(final int index, final int from, final int to,
			final float[] into) throws IOException
		{
			if (!ranges) throw new AssertionError("a whole-sample source was asked for a range");
			values += to - from;
			final float[] all = new float[features()];
			inner.read(index, all);
			System.arraycopy(all, from, into, 0, to - from);
		}
	}

	private static Solution streamed(final Settings s, final List<Dataset> backgrounds,
		final boolean ranges)
	{
		return streamed(s, T, backgrounds, ranges);
	}

	private static Solution streamed(final Settings s, final Dataset target,
		final List<Dataset> backgrounds, final boolean ranges)
	{
		final List<SampleSource> bs = new ArrayList<>();
		for (final Dataset b : backgrounds)
			bs.add(new Counting(b, ranges));
		return StreamedRun.run(s, new Counting(target, ranges), bs, target.labels(), 8L *
			(target.samples() + backgrounds.stream().mapToInt(Dataset::samples).sum()) * WIDTH,
			Progress.NONE);
	}

	static void assertSameModels(final Solution a, final Solution m) {
		assertEquals(a.models().size(), m.models().size(), "models");
		for (int i = 0; i < a.models().size(); i++) {
			final CpcaModel x = (CpcaModel) a.models().get(i), y = (CpcaModel) m.models().get(i);
			final double[] ex = x.eigenvalues(), ey = y.eigenvalues();
			assertEquals(ex.length, ey.length);
			for (int c = 0; c < ex.length; c++)
				assertEquals(ex[c], ey[c], 1e-10 * Math.abs(ex[c]), "eigenvalue " + c +
					" of model " + i);
			final double angle = Math.toDegrees(TestData.maxAngleBySine(x.components(), y
				.components()));
			assertTrue(angle < 1e-8, "model " + i + ": components " + angle + "° apart");
		}
		assertEquals(a.primary().alpha(), m.primary().alpha(), 0);
	}

	/**
	 * {@link #assertSameModels}, and the fit from the same Gram matrix: every eigenvalue and
	 * every α the same to the bit, the components within the lift's rounding.
	 */
	static void assertSameBits(final Solution a, final Solution m) {
		assertSameModels(a, m);
		for (int i = 0; i < a.models().size(); i++) {
			final CpcaModel x = (CpcaModel) a.models().get(i), y = (CpcaModel) m.models().get(i);
			assertArrayEquals(x.eigenvalues(), y.eigenvalues(), "eigenvalues of model " + i);
			assertEquals(Double.doubleToLongBits(x.alpha()), Double.doubleToLongBits(y.alpha()),
				"α of model " + i);
			final double angle = Math.toDegrees(TestData.maxAngleBySine(x.components(), y
				.components()));
			assertTrue(angle < 1e-11, "model " + i + ": components " + angle + "° apart");
		}
	}

	private static void check(final List<Dataset> backgrounds, final String... keys) {
		check(T, backgrounds, keys);
	}

	private static Solution[] check(final Dataset target, final List<Dataset> backgrounds,
		final String... keys)
	{
		final Settings.Builder b = Settings.builder().set("components", 2);
		for (int i = 0; i < keys.length; i += 2)
			b.set(keys[i], keys[i + 1]);
		final Settings s = b.build();
		final Solution a = MethodRunner.run(s, target, backgrounds, Progress.NONE);
		Solution m = null;
		final boolean gram = target.features() > target.samples() + backgrounds.stream()
			.mapToInt(Dataset::samples).sum();
		for (final boolean ranges : new boolean[] { true, false }) {
			m = streamed(s, target, backgrounds, ranges);
			if (gram) assertSameBits(a, m);
			else assertSameModels(a, m);
		}
		return new Solution[] { a, m };
	}

	/**
	 * No more features than samples: the moments path (each dataset's d × d moments in
	 * one pass), UCA included, PCPCA's held-out likelihood from the parts' moments.
	 */
	@Test
	void fewFeaturesStreamThroughTheMomentsOfEachDataset() {
		final float[][][] p = TestData.planted(31, 300, 250, 12, 3, 2, 0.3);
		final float[][][] q = TestData.planted(32, 200, 220, 12, 2, 1, 0.5);
		final Dataset t = Dataset.wrap("target", p[0]), b = Dataset.wrap("background", p[1]),
			b2 = Dataset.wrap("background 2", q[1]);
		check(t, List.of(), "method", "pca");
		check(t, List.of(b), "alpha", "2.5");
		check(t, List.of(b), "alpha", "auto", "standardize", "true");
		check(t, List.of(b), "method", "star", "beta", "auto");
		final Solution[] pp = check(t, List.of(b), "method", "cpcapp");
		assertEquals((Double) pp[0].facts().get("regularization"), (Double) pp[1].facts().get(
			"regularization"), 1e-10 * (Double) pp[0].facts().get("regularization"));
		check(t, List.of(b), "method", "gcpca", "variant", "v4");
		final Solution[] pc = check(t, List.of(b), "method", "pcpca", "alpha", "0.5");
		final double x = (Double) pc[0].facts().get("held_out_log_likelihood"), y =
			(Double) pc[1].facts().get("held_out_log_likelihood");
		assertEquals(x, y, 1e-10 * Math.abs(x));
		check(t, List.of(b, b2), "method", "uca");
		check(t, List.of(b, b2), "method", "uca", "stacked", "true");
		check(t, List.of(b, b2), "method", "rpca");
	}

	@Test
	void pcaAndCpcaAtFixedInfiniteAndAutomaticAlpha() {
		check(List.of(), "method", "pca");
		check(List.of(B), "alpha", "2.5");
		check(List.of(B), "alpha", "inf");
		check(List.of(B), "alpha", "auto");
		check(List.of(B), "alpha", "auto", "standardize", "true");
	}

	@Test
	void starCpcaPlusPlusGcpcaPcpca() {
		check(List.of(B), "method", "star", "beta", "0.5");
		check(List.of(B), "method", "star", "beta", "auto");
		check(List.of(B), "method", "cpcapp");
		check(List.of(B), "method", "cpcapp", "standardize", "true");
		for (final String v : new String[] { "v1", "v2", "v3", "v4" })
			check(List.of(B), "method", "gcpca", "variant", v, "alpha", v.equals("v1") ? "2"
				: "auto");
		check(List.of(B), "method", "pcpca", "alpha", "0.5");
	}

	/**
	 * UCA with more features than samples: its constraint scale, each background's median
	 * feature variance, comes from the Gram pass (d variances per background) and equals
	 * the in-memory one to the bit; split and stacked, raw and standardised, one background and two.
	 */
	@Test
	void ucaWithMoreFeaturesThanSamples() {
		for (final List<Dataset> bs : List.of(List.of(B), List.of(B, B2))) {
			final Solution[] r = check(T, bs, "method", "uca");
			final double[] x = (double[]) r[0].primary().parameters().get("constraint_scale"),
				y = (double[]) r[1].primary().parameters().get("constraint_scale");
			assertEquals(bs.size(), y.length);
			for (int j = 0; j < x.length; j++)
				assertEquals(x[j], y[j], 0, "s_" + j);
			check(T, bs, "method", "uca", "standardize", "true");
		}
		check(T, List.of(B, B2), "method", "uca", "stacked", "true");
	}

	@Test
	void rpcaWithSeveralBackgroundsApartAndPooled() {
		check(List.of(B, B2), "method", "rpca");
		check(List.of(B, B2), "method", "rpca", "stacked", "true");
	}

	/** Features constant in a dataset are noted as in memory, and the results agree. */
	@Test
	void constantFeaturesAreNotedAsInMemory() {
		final float[][] t = new float[T.samples()][], b = new float[B.samples()][];
		for (int i = 0; i < t.length; i++) {
			t[i] = P[0][i].clone();
			t[i][5] = 7;
		}
		for (int i = 0; i < b.length; i++) {
			b[i] = P[1][i].clone();
			b[i][5] = 3;
			b[i][9] = -1;
		}
		final Settings s = Settings.builder().set("alpha", "2").set("standardize", "true")
			.set("components", 2).build();
		final Dataset td = Dataset.wrap("target", t), bd = Dataset.wrap("background", b);
		final Solution a = MethodRunner.run(s, td, List.of(bd), Progress.NONE);
		final Solution m = StreamedRun.run(s, SampleSource.of(td), List.of(SampleSource.of(
			bd)), null, 8L * 55 * WIDTH, Progress.NONE);
		assertSameBits(a, m);
		for (final String note : List.of("target: 1 feature(s) have zero variance",
			"background: 2 feature(s) have zero variance"))
		{
			assertTrue(a.diagnostics().stream().anyMatch(d -> d.startsWith(note)), note);
			assertTrue(m.diagnostics().stream().anyMatch(d -> d.startsWith(note)), note + " in " +
				m.diagnostics());
		}
	}

	/** One pass for G and one per model's components; ranges read each value once. */
	@Test
	void aSourceThatReadsRangesReadsEachValueOncePerPass() {
		final Counting t = new Counting(T, true), b = new Counting(B, true);
		final Solution s = StreamedRun.run(Settings.builder().set("alpha", "2").set(
			"components", 2).build(), t, List.of(b), null, 8L * 55 * WIDTH, Progress.NONE);
		assertEquals(1, s.models().size());
		// the Gram pass and the components of the one model
		assertEquals(2L * T.samples() * T.features(), t.values);
		assertEquals(2L * B.samples() * B.features(), b.values);
		// a source without ranges reads every sample once per tile
		final Counting tw = new Counting(T, false);
		StreamedRun.run(Settings.builder().set("alpha", "2").set("components", 2).build(), tw,
			List.of(new Counting(B, false)), null, 8L * 55 * WIDTH, Progress.NONE);
		assertEquals(2L * T.samples() * T.features() * ((400 + WIDTH - 1) / WIDTH),
			tw.values);
		assertEquals(WIDTH, StreamedGram.tileWidth(55, 400, 8L * 55 * WIDTH));
	}

	/**
	 * The models of automatic α (and automatic β) share one pass for their components: two
	 * passes in all, as for one model, and the same models as in memory.
	 */
	@Test
	void theModelsOfAnAutomaticChoiceShareOnePass() {
		for (final String[] keys : new String[][] { { "alpha", "auto" }, { "method", "star",
			"beta", "auto" } })
		{
			final Counting t = new Counting(T, true), b = new Counting(B, true);
			final Settings.Builder sb = Settings.builder().set("components", 2);
			for (int i = 0; i < keys.length; i += 2)
				sb.set(keys[i], keys[i + 1]);
			final Settings settings = sb.build();
			final Solution s = StreamedRun.run(settings, t, List.of(b), null, 8L * 55 * WIDTH,
				Progress.NONE);
			assertTrue(s.models().size() > 1, keys[1] + ": " + s.models().size() + " models");
			assertEquals(2L * T.samples() * T.features(), t.values, keys[1]);
			assertEquals(2L * B.samples() * B.features(), b.values, keys[1]);
			assertSameBits(MethodRunner.run(settings, T, List.of(B), Progress.NONE), s);
		}
	}

	/**
	 * Every pass over the data reports its fraction (tiles done / tiles, or samples read /
	 * samples), rising within the pass to 1, through the one {@link Progress}: the Gram
	 * pass and the shared components pass, and the moments path's passes (moments, scores,
	 * cPCA++'s fourth moments).
	 */
	@Test
	void everyPassReportsARisingFractionThatReachesOne() {
		final float[][][] p = TestData.planted(31, 300, 250, 12, 3, 2, 0.3);
		final Dataset few = Dataset.wrap("target", p[0]), fewB = Dataset.wrap("background",
			p[1]);
		final Object[][] runs = { { T, B, "alpha", "auto", List.of("Gram matrix by feature " +
			"tiles", "components by feature tiles") }, { few, fewB, "method", "cpcapp", List.of(
				"moments of target", "moments of background", "scores of target",
				"fourth moments of background") } };
		for (final Object[] run : runs) {
			final List<String> stages = new ArrayList<>();
			final List<Double> fractions = new ArrayList<>();
			final Progress recording = (stage, fraction) -> {
				stages.add(stage);
				fractions.add(fraction);
			};
			final Dataset t = (Dataset) run[0], b = (Dataset) run[1];
			StreamedRun.run(Settings.builder().set("components", 2).set((String) run[2],
				(String) run[3]).build(), new Counting(t, false), List.of(new Counting(b, false)),
				null, 8L * (t.samples() + b.samples()) * WIDTH, recording);
			@SuppressWarnings("unchecked")
			final List<String> passes = (List<String>) run[4];
			for (final String pass : passes) {
				// each run of reports of the pass: from 0, never falling, ending at 1
				int runs0 = 0;
				for (int i = 0; i < stages.size(); i++) {
					if (!stages.get(i).equals(pass)) continue;
					assertEquals(0, fractions.get(i), 0, pass + " starts at 0");
					runs0++;
					int j = i;
					while (fractions.get(j) < 1 && j + 1 < stages.size() && stages.get(j + 1)
						.equals(pass))
					{
						assertTrue(fractions.get(j + 1) >= fractions.get(j), pass + " falls: " +
							fractions.get(j) + " then " + fractions.get(j + 1));
						j++;
					}
					assertEquals(1, fractions.get(j), 0, pass + " ends at " + fractions.get(j));
					assertTrue(j > i, pass + ": " + (j - i + 1) + " reports");
					i = j;
				}
				assertTrue(runs0 > 0, pass + " reported in " + new LinkedHashSet<>(stages));
			}
		}
	}

	@Test
	void methodsThatNeedTheSamplesAreRefusedInOneLine() {
		TestData.assertMessage(() -> streamed(Settings.builder().set("method", "online")
			.build(), List.of(B), true), "(method online) needs its samples in memory");
		TestData.assertMessage(() -> streamed(Settings.builder().set("alpha", "2").set(
			"significance", "20").build(), List.of(B), true), "significance test");
	}
}
