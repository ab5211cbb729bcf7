package org.cpca.core.contrast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.cpca.core.Progress;
import org.cpca.core.TestData;
import org.cpca.core.data.Dataset;
import org.cpca.core.data.Preprocessing;
import org.cpca.core.data.SampleSource;
import org.cpca.core.linalg.Backend;
import org.cpca.core.linalg.Products;
import org.junit.jupiter.api.Test;

/**
 * The streamed plan's Gram matrix (feature tiles of any width) is the in-memory one to
 * the last bit, in each precision ({@link org.cpca.core.linalg.GramSum}: the backend's
 * double, the Java kernels' double, float blocks), raw and standardised, with tiles of
 * one feature, of widths that divide nothing, and of all features; so is each dataset's
 * preprocessing.
 */
class StreamedGramTest {

	/** More features than any precision's panel (512), so that panels are crossed. */
	private static final int D = 1_100;
	private static final float[][][] P = TestData.planted(41, 30, 25, D, 3, 2, 0.3);
	private static final float[][][] Q = TestData.planted(42, 20, 18, D, 2, 1, 0.5);

	private static List<Dataset> datasets() {
		final float[][] t = new float[P[0].length][];
		for (int i = 0; i < t.length; i++) {
			t[i] = P[0][i].clone();
			t[i][700] = 5; // constant in the target: scale 1 when standardising
		}
		return List.of(Dataset.wrap("target", t), Dataset.wrap("background", P[1]), Dataset
			.wrap("background 2", Q[1]));
	}

	/** Bit patterns, so that −0.0 and 0.0 or two NaNs are told apart. */
	private static long[] bits(final double[] x) {
		final long[] b = new long[x.length];
		for (int i = 0; i < x.length; i++)
			b[i] = Double.doubleToRawLongBits(x[i]);
		return b;
	}

	/** For each tile width and both preprocessings, the streamed G and means against memory's. */
	private static void assertSameBits(final boolean inFloat) throws IOException {
		final List<Dataset> sets = datasets();
		final int n = sets.stream().mapToInt(Dataset::samples).sum();
		for (final boolean standardize : new boolean[] { false, true }) {
			final Preprocessing[] pres = new Preprocessing[sets.size()];
			for (int s = 0; s < pres.length; s++)
				pres[s] = Preprocessing.fit(sets.get(s), standardize, null);
			final long[] memory = bits(TestData.flat(Products.gramRows(sets.toArray(new Dataset[0]),
				pres, Progress.NONE, inFloat)));
			for (final int width : new int[] { 1, 7, 37, 256, 509, 513, 1_099, D }) {
				final List<SampleSource> sources = new ArrayList<>();
				for (final Dataset x : sets)
					sources.add(SampleSource.of(x));
				final StreamedGram g = StreamedGram.build(sources, standardize, 8L * n * width,
					null, false, inFloat, Progress.NONE);
				assertEquals(width, g.width());
				final String what = (inFloat ? "float" : "double") + ", " + (standardize
					? "standardised" : "raw") + ", tiles of " + width + " (" + Backend.describe() +
					")";
				assertArrayEquals(memory, bits(g.takeGram()), "G, " + what);
				for (int s = 0; s < pres.length; s++) {
					assertArrayEquals(bits(pres[s].mean()), bits(g.preprocessing(s).mean()),
						"mean " + s + ", " + what);
					if (standardize) assertArrayEquals(bits(pres[s].scale()), bits(g
						.preprocessing(s).scale()), "scale " + s + ", " + what);
				}
			}
		}
	}

	/** Double: the native backend's dsyrk/dgemm panels where it loads, else the Java kernels. */
	@Test
	void inDoubleTheStreamedGramMatrixIsMemorysToTheBit() throws IOException {
		assertSameBits(false);
	}

	/** The Java kernels' double sum, also where the native backend answers by default. */
	@Test
	void onTheJavaKernelsTooBitForBit() {
		Backend.onJava(() -> {
			try {
				assertSameBits(false);
			}
			catch (final IOException e) {
				throw new AssertionError(e);
			}
			return null;
		});
	}

	/**
	 * Float blocks with the double-float sum (the Java kernels' Gram matrix of large
	 * stacks): its blocks of 64 features lie where memory's do whatever the tile.
	 */
	@Test
	void inFloatBlocksBitForBit() throws IOException {
		assertSameBits(true);
	}
}
