package org.cpca.core.contrast;

import static org.cpca.core.TestData.assertMessage;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.cpca.core.Progress;
import org.cpca.core.TestData;
import org.cpca.core.data.Dataset;
import org.cpca.core.data.Preprocessing;
import org.cpca.core.linalg.Products;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.rpca.Rpca;
import org.cpca.core.uca.Uca;
import org.junit.jupiter.api.Test;

/** Moments with Chan's merge, and a fit from moments against the fit from samples. */
public class MomentsTest {

	/** On paper: {0, 2} and {4} merge to n = 3, μ = 2, M2 = 8. */
	@Test
	public void chanMergeOnPaper() {
		final Moments a = Moments.of(Dataset.of("a", new double[][] { { 0 }, { 2 } }));
		final Moments b = Moments.of(Dataset.of("b", new double[][] { { 4 } }));
		assertEquals(2, a.scatter()[0], 0);
		final Moments m = a.merge(b);
		assertEquals(3, m.count());
		assertEquals(2, m.mean()[0], 0);
		assertEquals(8, m.scatter()[0], 1e-15);
		assertEquals(4, m.covariance(m.preprocessing("m", false, null))[0], 1e-15);
		assertEquals(m.scatter()[0], Moments.empty(1).merge(m).scatter()[0], 0);
	}

	/** Uneven parts merged in a random tree equal the two-pass covariance (large offset). */
	@Test
	public void mergedPartsEqualTwoPassCovariance() {
		final Random r = new Random(3);
		final int n = 1000, d = 7;
		final double[][] x = new double[n][d];
		for (final double[] row : x)
			for (int j = 0; j < d; j++)
				row[j] = 1e4 + (j + 1) * r.nextGaussian(); // offset: E[xxᵀ] − μμᵀ would cancel
		final Dataset all = Dataset.of("x", x);
		final double[] expected = Products.covariance(all, Preprocessing.fit(all, false,
			null), Progress.NONE);
		final List<Moments> parts = new ArrayList<>();
		for (int s = 0; s < n;) {
			final int len = Math.min(n - s, 1 + r.nextInt(400));
			final int[] idx = new int[len];
			for (int i = 0; i < len; i++)
				idx[i] = s + i;
			parts.add(Moments.of(all.select(idx)));
			s += len;
		}
		while (parts.size() > 1) {
			final int i = r.nextInt(parts.size() - 1);
			parts.set(i, parts.get(i).merge(parts.remove(i + 1)));
		}
		final Moments m = parts.get(0);
		assertEquals(n, m.count());
		final double[] got = m.covariance(m.preprocessing("x", false, null));
		for (int i = 0; i < d * d; i++)
			assertEquals(expected[i], got[i], 1e-10 * Math.abs(expected[i]) + 1e-9);
		assertArrayEquals(Preprocessing.fit(all, false, null).mean(), m.mean(), 1e-9);
	}

	private static Cpca fromMoments(final Dataset t, final List<Dataset> bs,
		final CpcaOptions o)
	{
		final List<String> names = new ArrayList<>();
		final List<Moments> moments = new ArrayList<>();
		for (final Dataset b : bs) {
			names.add(b.name());
			moments.add(Moments.of(b));
		}
		return Cpca.fromMoments(t.name(), Moments.of(t), t.labels(), names, moments, o, (pre,
			w, k) -> Products.project(t, pre, w, k));
	}

	private static void assertSame(final CpcaModel a, final CpcaModel b, final double tol) {
		assertEquals(a.alpha(), b.alpha(), 0);
		final double[] x = a.eigenvalues(), y = b.eigenvalues();
		assertEquals(x.length, y.length);
		for (int c = 0; c < x.length; c++)
			assertEquals(x[c], y[c], tol * Math.max(1, Math.abs(x[c])), "eigenvalue " + c);
		assertTrue(TestData.maxAngle(a.components(), b.components()) < 1e-6);
		final double[][] s = a.targetScores(), u = b.targetScores();
		for (int i = 0; i < s.length; i++)
			for (int c = 0; c < s[i].length; c++)
				assertEquals(s[i][c], u[i][c], 1e-6 * (1 + Math.abs(s[i][c])));
	}

	/** cPCA (fixed, ∞, automatic α), PCA, UCA and rPCA: the same as from samples. */
	@Test
	public void fitFromMomentsEqualsFitFromSamples() {
		final float[][][] p = TestData.planted(11, 300, 250, 12, 3, 2, 0.3);
		final Dataset t = Dataset.wrap("target", p[0]), b = Dataset.wrap("background", p[1]);
		for (final boolean standardize : new boolean[] { false, true }) {
			final CpcaOptions o = CpcaOptions.defaults().withComponents(2).withStandardize(
				standardize);
			final Cpca a = Cpca.fit(t, List.of(b), o, Progress.NONE);
			final Cpca m = fromMoments(t, List.of(b), o);
			assertEquals(a.rank(), m.rank());
			assertSame(a.model(2.5), m.model(2.5), 1e-10);
			assertSame(a.pca(), m.pca(), 1e-10);
			final AlphaSelection<CpcaModel> sa = a.automatic(Progress.NONE), sm = m.automatic(
				Progress.NONE);
			assertArrayEquals(sa.alphas(), sm.alphas(), 0);
			for (int i = 0; i < sa.models().size(); i++)
				assertSame(sa.models().get(i), sm.models().get(i), 1e-8);
			assertSame(Uca.fit(a, Progress.NONE), Uca.fit(m, Progress.NONE), 1e-8);
			assertSame(Rpca.fit(a, null, Progress.NONE), Rpca.fit(m, null, Progress.NONE),
				1e-8);
		}
		// α = ∞ needs a null space: a background confined to 4 of 12 features
		final float[][] bb = new float[200][12];
		final Random r = new Random(5);
		for (final float[] row : bb)
			for (int j = 0; j < 4; j++)
				row[j] = (float) r.nextGaussian();
		final Dataset flat = Dataset.wrap("background", bb);
		final CpcaOptions o = CpcaOptions.defaults().withComponents(2);
		assertSame(Cpca.fit(t, List.of(flat), o, Progress.NONE).model(
			Double.POSITIVE_INFINITY), fromMoments(t, List.of(flat), o).model(
				Double.POSITIVE_INFINITY), 1e-9);
	}

	/** Wide data: a fit from the Gram matrix equals the in-memory reduced space. */
	@Test
	public void fitFromGramEqualsReducedSpace() {
		final float[][][] p = TestData.planted(4, 40, 30, 300, 3, 2, 0.3);
		final Dataset t = Dataset.wrap("target", p[0]), b = Dataset.wrap("background", p[1]);
		final CpcaOptions o = CpcaOptions.defaults().withComponents(2);
		final Cpca a = Cpca.fit(t, List.of(b), o, Progress.NONE);
		assertTrue(a.reducedSpace());
		final Preprocessing tp = Preprocessing.fit(t, false, null), bp = Preprocessing.fit(b,
			false, null);
		final Dataset[] sets = { t, b };
		final Preprocessing[] pres = { tp, bp };
		final double[] g = Products.gram(sets, pres, Progress.NONE);
		final int[] passes = new int[1];
		final Cpca m = Cpca.fromGram("target", tp, t.samples(), null, List.of("background"),
			new long[] { b.samples() }, g, t.features(), o, (y, k) -> {
				passes[0]++;
				final double[][] v = new double[k][t.features()];
				final double[] z = new double[t.features()];
				int s = 0;
				for (int set = 0; set < 2; set++)
					for (int i = 0; i < sets[set].samples(); i++, s++) {
						pres[set].apply(sets[set].row(i), 0, z.length, z, 0, 1);
						for (int c = 0; c < k; c++)
							for (int f = 0; f < z.length; f++)
								v[c][f] += y[s * k + c] * z[f];
					}
				return v;
			});
		assertTrue(m.reducedSpace());
		assertEquals(a.rank(), m.rank());
		assertSame(a.model(1.5), m.model(1.5), 1e-9);
		assertEquals(1, passes[0], "one pass over the samples per model");
		final AlphaSelection<CpcaModel> sa = a.automatic(Progress.NONE), sm = m.automatic(
			Progress.NONE);
		assertArrayEquals(sa.alphas(), sm.alphas(), 0);
		for (int i = 0; i < sa.models().size(); i++)
			assertSame(sa.models().get(i), sm.models().get(i), 1e-8);
		assertSame(a.model(Double.POSITIVE_INFINITY), m.model(Double.POSITIVE_INFINITY), 1e-8);
		assertMessage(() -> Cpca.fromGram("target", tp, t.samples(), null, List.of("bg"),
			new long[] { 3 }, g, t.features(), o, null), "the Gram matrix has");
	}

	@Test
	public void badInputGivesTheSameMessages() {
		final float[][][] p = TestData.planted(1, 20, 20, 5, 1, 1, 0.1);
		final Dataset t = Dataset.wrap("target", p[0]);
		final CpcaOptions o = CpcaOptions.defaults().withComponents(2);
		assertMessage(() -> Cpca.fromMoments("target", Moments.of(t), null, List.of("bg"), List
			.of(Moments.of(Dataset.wrap("bg", new float[][] { { 1, 2, 3 }, { 3, 4, 5 } }))), o,
			null), "bg has 3 features but target has 5");
		assertMessage(() -> Cpca.fromMoments("target", Moments.of(Dataset.wrap("target",
			new float[][] { { 1, 2 } })), null, List.of(), List.of(), o, null),
			"target has only 1 sample");
		assertMessage(() -> fromMoments(t, List.of(), o.withComponents(9)), "k = 9");
		final Dataset constant = Dataset.wrap("target", new float[][] { { 1, 1 }, { 1, 1 } });
		assertMessage(() -> fromMoments(constant, List.of(), o.withComponents(1)),
			"target is constant");
	}
}
