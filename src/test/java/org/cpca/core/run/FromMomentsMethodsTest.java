package org.cpca.core.run;

import org.cpca.core.result.Method;
import org.cpca.core.result.Solution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.cpca.core.Progress;
import org.cpca.core.TestData;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.contrast.Moments;
import org.cpca.core.data.Dataset;
import org.cpca.core.data.Preprocessing;
import org.cpca.core.gcpca.GcpcaRun;
import org.cpca.core.linalg.Products;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.pcpca.PcpcaRun;
import org.junit.jupiter.api.Test;

/**
 * gcPCA, PCPCA and cPCA++ (Ledoit–Wolf ridge) run by {@link MethodRunner#fromFit} on a fit
 * from moments (how cpca-spark fit runs them, docs/spark.md) give what
 * {@link MethodRunner#run} gives on the samples.
 */
class FromMomentsMethodsTest {

	/** A fit from the datasets' moments, with the background's fourth moments. */
	private static Cpca fromMoments(final Dataset t, final Dataset b, final CpcaOptions o) {
		final Moments bm = Moments.of(b);
		return Cpca.fromMoments(t.name(), Moments.of(t), t.labels(), List.of(b.name()), List
			.of(bm), o, (pre, w, k) -> Products.project(t, pre, w, k)).withFourthMoments(j -> {
				// as a cluster computes it: a pass with the preprocessing of the moments
				final Preprocessing pre = bm.preprocessing("b", o.standardize(), null);
				double sum = 0;
				for (int i = 0; i < b.samples(); i++) {
					double norm = 0;
					for (int f = 0; f < b.features(); f++) {
						final double y = pre.apply(f, b.row(i)[f]);
						norm += y * y;
					}
					sum += norm * norm;
				}
				return sum;
			}).withSubsetMoments((set, rows) -> Moments.of((set == 0 ? t : b).select(rows
				.stream().toArray())));
	}

	private static Solution[] both(final Settings s, final Dataset t, final Dataset b,
		final CpcaOptions o)
	{
		final Solution a = MethodRunner.run(s, t, List.of(b), o, Progress.NONE);
		final Solution m = MethodRunner.choosePrimary(MethodRunner.fromFit(s, 1,
			pool -> fromMoments(t, b, o), Progress.NONE), t.labels());
		return new Solution[] { a, m };
	}

	private static void assertEqualModels(final Solution a, final Solution m,
		final double tol)
	{
		assertEquals(a.models().size(), m.models().size());
		for (int i = 0; i < a.models().size(); i++) {
			final CpcaModel x = (CpcaModel) a.models().get(i), y = (CpcaModel) m.models().get(i);
			final double[] ex = x.eigenvalues(), ey = y.eigenvalues();
			assertEquals(ex.length, ey.length);
			for (int c = 0; c < ex.length; c++)
				assertEquals(ex[c], ey[c], tol * Math.abs(ex[c]), "eigenvalue " + c);
			assertTrue(TestData.maxAngle(x.components(), y.components()) < 1e-6,
				"components " + TestData.maxAngle(x.components(), y.components()));
		}
	}

	@Test
	void gcpcaEveryVariantFromMomentsEqualsSamples() {
		final float[][][] p = TestData.planted(11, 300, 250, 12, 3, 2, 0.3);
		final Dataset t = Dataset.wrap("target", p[0]), b = Dataset.wrap("background", p[1]);
		for (final boolean standardize : new boolean[] { false, true })
			for (final String v : new String[] { "v1", "v2", "v3", "v4" })
				for (final boolean orthogonal : new boolean[] { false, true }) {
					final CpcaOptions o = CpcaOptions.defaults().withComponents(2)
						.withStandardize(standardize);
					final Settings s = Settings.builder().set("method", "gcpca").set("alpha",
						v.equals("v1") ? "2" : "auto").set("variant", v).set("orthogonal",
							orthogonal).build();
					final Solution[] r = both(s, t, b, o);
					assertEqualModels(r[0], r[1], 1e-8);
					assertEquals(r[0].facts(), r[1].facts());
				}
	}

	/**
	 * Fewer samples than features: the number of pooled components is chosen (the
	 * in-memory fit in the reduced space, the moments fit in the d × d feature space).
	 */
	@Test
	void gcpcaPooledComponentsChosenAlikeFromMoments() {
		final float[][][] p = TestData.planted(4, 40, 30, 60, 3, 2, 0.3);
		final Dataset t = Dataset.wrap("target", p[0]), b = Dataset.wrap("background", p[1]);
		final CpcaOptions o = CpcaOptions.defaults().withComponents(2);
		final Settings s = Settings.builder().set("method", "gcpca").set("shuffles", 5)
			.build();
		final Solution[] r = both(s, t, b, o);
		final Object pooled = ((CpcaModel) r[0].models().get(0)).parameters().get("pooled_components");
		assertTrue(pooled != null && (Double) pooled < 29, "pooled " + pooled);
		assertEquals(pooled, ((CpcaModel) r[1].models().get(0)).parameters().get("pooled_components"));
		assertEqualModels(r[0], r[1], 1e-8);
		// the shuffle test needs the samples: run in memory, a note from moments
		assertTrue(((CpcaModel) r[0].models().get(0)).parameters().containsKey("significant"));
		assertFalse(((CpcaModel) r[1].models().get(0)).parameters().containsKey("significant"));
		assertTrue(r[1].diagnostics().contains(GcpcaRun.NO_SHUFFLES));
	}

	@Test
	void pcpcaFromMomentsEqualsSamples() {
		final float[][][] p = TestData.planted(7, 300, 250, 12, 3, 2, 0.3);
		final Dataset t = Dataset.wrap("target", p[0]), b = Dataset.wrap("background", p[1]);
		for (final boolean standardize : new boolean[] { false, true }) {
			final CpcaOptions o = CpcaOptions.defaults().withComponents(2).withStandardize(
				standardize);
			final Solution[] r = both(Settings.builder().set("method", "pcpca").set("alpha", 0.5)
				.build(), t, b,
				o);
			assertEqualModels(r[0], r[1], 1e-8);
			for (final String f : new String[] { "gamma", "noise_variance", "alpha_bound",
				"log_likelihood" })
			{
				final double x = (Double) r[0].facts().get(f), y = (Double) r[1].facts().get(f);
				assertEquals(x, y, 1e-10 * Math.abs(x), f);
			}
			// held out: the same seeded split, refitted from the parts' moments
			final double x = (Double) r[0].facts().get("held_out_log_likelihood"), y =
				(Double) r[1].facts().get("held_out_log_likelihood");
			assertEquals(x, y, 1e-10 * Math.abs(x));
			assertFalse(r[1].diagnostics().contains(PcpcaRun.NO_HELD_OUT));
			// a fit from moments that cannot give parts: a note instead
			final Settings s = Settings.builder().set("method", "pcpca").set("alpha", 0.5).build();
			final Solution none = MethodRunner.fromFit(s, 1, pool -> Cpca.fromMoments(t.name(),
				Moments.of(t), null, List.of(b.name()), List.of(Moments.of(b)), o, (pre, w,
					k) -> Products.project(t, pre, w, k)), Progress.NONE);
			assertFalse(none.facts().containsKey("held_out_log_likelihood"));
			assertTrue(none.diagnostics().contains(PcpcaRun.NO_HELD_OUT));
		}
	}

	@Test
	void cpcaPlusPlusLedoitWolfFromMomentsEqualsSamples() {
		// few background samples for 40 features: a clearly positive shrinkage intensity
		final float[][][] p = TestData.planted(9, 200, 60, 40, 3, 2, 0.3);
		final Dataset t = Dataset.wrap("target", p[0]), b = Dataset.wrap("background", p[1]);
		for (final boolean standardize : new boolean[] { false, true }) {
			final CpcaOptions o = CpcaOptions.defaults().withComponents(2).withStandardize(
				standardize);
			final Solution[] r = both(Settings.builder().set("method", "cpcapp").build(), t, b, o);
			final double x = (Double) r[0].facts().get("regularization"), y = (Double) r[1]
				.facts().get("regularization");
			assertTrue(x > 0, "regularization " + x);
			assertEquals(x, y, 1e-10 * x);
			assertEqualModels(r[0], r[1], 1e-8);
		}
	}

	/**
	 * Sparse loadings need the samples: refused in one line on a fit from moments (and
	 * cpca-spark fit offers no --sparsity).
	 */
	@Test
	void sparseLoadingsFromMomentsAreRefusedInOneLine() {
		final float[][][] p = TestData.planted(10, 80, 70, 12, 3, 2, 0.3);
		final Dataset t = Dataset.wrap("target", p[0]), b = Dataset.wrap("background", p[1]);
		final CpcaOptions o = CpcaOptions.defaults().withComponents(2);
		for (final String method : new String[] { "cpca", "gcpca" })
			TestData.assertMessage(() -> MethodRunner.fromFit(Settings.builder().set("method",
				method).set("alpha", "2").set("sparsity", "0.05").build(), 1, pool -> fromMoments(
					t, b, o), Progress.NONE), "sparsity (--sparsity) needs the samples");
		assertTrue(Settings.needsSamples("sparsity"));
		assertFalse(Settings.needsSamples("shuffles"));
	}
}
