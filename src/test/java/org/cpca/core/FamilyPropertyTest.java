package org.cpca.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.cpca.core.contrast.Measures;
import org.cpca.core.data.Dataset;
import org.cpca.core.linalg.Backend;
import org.cpca.core.linalg.TopEigen;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.model.FittedModel;
import org.cpca.core.run.MethodRunner;
import org.cpca.core.run.Settings;
import org.cpca.core.result.Solution;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The properties every method family promises, checked on seeded planted problems with
 * fewer and with more features than samples (feature space and reduced space): each
 * family's test extends this class and says which settings run it and what it promises
 * (as EJML's generic tests do for its decompositions). Subspaces are compared by
 * principal angles, never by signs. Every family of the registry ({@code
 * core.run.Families}) has at least one such test ({@link FamilyCoverageTest}).
 */
public abstract class FamilyPropertyTest {

	/** The settings that run the family (one model: a fixed α or β where it has one). */
	protected abstract Settings settings();

	/** Number of backgrounds the family is given. */
	protected int backgrounds() {
		return 1;
	}

	/**
	 * Whether the family is defined with d features on these data (α = ∞ needs a null
	 * space of the background: with fewer features than background samples, noise in every
	 * direction leaves none, and the refusal is tested on its own).
	 */
	protected boolean definedFor(final int d) {
		return true;
	}

	/** Whether the components are orthonormal (cPCA*'s are unit but B-orthogonal). */
	protected boolean orthonormal() {
		return true;
	}

	/** Components a model has (gcPCA's v4 returns both ends: k target-enriched, k background-enriched). */
	protected int expectedComponents() {
		return settings().components();
	}

	/**
	 * Whether the models have components in feature space (kernel cPCA's live in the
	 * kernel's feature space: its properties are checked on the scores).
	 */
	protected boolean hasComponents() {
		return true;
	}

	/**
	 * Whether the subspace is free of the samples' order (online cPCA* learns from the
	 * samples one at a time, in a seeded order: another order gives another path).
	 */
	protected boolean orderFree() {
		return true;
	}

	/**
	 * Relative agreement of the target's scores with the model's transform of the target
	 * (kernel cPCA's kernel matrix is formed in a different order for the two).
	 */
	protected double transformTolerance() {
		return 1e-8;
	}

	/**
	 * Whether the family's answer is free of the data's units: the same components when
	 * target and background are both given in other units (cPCA* is not: it mixes C_b with
	 * the identity, whose scale does not change with them).
	 */
	protected boolean unitFree() {
		return true;
	}

	private static Dataset[] data(final long seed, final int d, final int count) {
		final Dataset[] out = new Dataset[count + 1];
		final float[][][] tb = TestData.planted(seed, 40, 35, d, 3, 2, 0.3);
		out[0] = Dataset.wrap("target", tb[0]);
		for (int j = 1; j <= count; j++)
			out[j] = Dataset.wrap("background " + j, j == 1 ? tb[1] : TestData.planted(seed +
				j, 40, 30 + j, d, 3, 2, 0.3)[1]);
		return out;
	}

	private Solution run(final Dataset[] d) {
		org.junit.jupiter.api.Assumptions.assumeTrue(definedFor(d[0].features()),
			"not defined with " + d[0].features() + " features on these data");
		final List<Dataset> bs = new ArrayList<>();
		for (int j = 1; j < d.length; j++)
			bs.add(d[j]);
		return MethodRunner.run(settings(), d[0], bs, Progress.NONE);
	}

	private static FittedModel last(final Solution s) {
		return s.models().get(s.models().size() - 1);
	}

	private CpcaModel linear(final Solution s) {
		org.junit.jupiter.api.Assumptions.assumeTrue(hasComponents(),
			"no components in feature space");
		return (CpcaModel) last(s);
	}

	@ParameterizedTest(name = "d = {0}")
	@ValueSource(ints = { 12, 150 })
	void componentsAreUnitWithTheirLargestEntryPositive(final int d) {
		final CpcaModel m = linear(run(data(11, d, backgrounds())));
		final double[][] v = m.components();
		assertEquals(expectedComponents(), v.length);
		for (final double[] c : v) {
			double norm = 0, largest = 0;
			for (final double x : c) {
				norm += x * x;
				if (Math.abs(x) > Math.abs(largest)) largest = x;
			}
			assertEquals(1, norm, 1e-9, "unit length");
			assertTrue(largest > 0, "the largest-magnitude entry is positive");
		}
		if (orthonormal()) for (int a = 0; a < v.length; a++)
			for (int b = a + 1; b < v.length; b++) {
				double dot = 0;
				for (int j = 0; j < v[a].length; j++)
					dot += v[a][j] * v[b][j];
				assertEquals(0, dot, 1e-8, "components " + a + " and " + b + " are orthogonal");
			}
	}

	@ParameterizedTest(name = "d = {0}")
	@ValueSource(ints = { 12, 150 })
	void sampleOrderDoesNotChangeTheSubspace(final int d) {
		org.junit.jupiter.api.Assumptions.assumeTrue(orderFree(), "depends on the order");
		final Dataset[] data = data(12, d, backgrounds());
		final Dataset[] shuffled = new Dataset[data.length];
		final Random r = new Random(3);
		for (int j = 0; j < data.length; j++) {
			final double[][] rows = data[j].toArray();
			for (int i = rows.length - 1; i > 0; i--) {
				final int k = r.nextInt(i + 1);
				final double[] t = rows[i];
				rows[i] = rows[k];
				rows[k] = t;
			}
			shuffled[j] = Dataset.of(data[j].name(), rows);
		}
		final double[][] a = linear(run(data)).components();
		final double[][] b = linear(run(shuffled)).components();
		for (final double angle : Measures.principalAngles(a, b))
			assertEquals(0, angle, 1e-6, "principal angle between the subspaces");
	}

	/**
	 * Every dataset in other units (×10⁻³⁰, ×10³⁰: still within float range): the same
	 * subspace. Tolerances and shifts inside the solvers must be relative to the data; an
	 * absolute one (rPCA's σ = tr A + 1 until 2026-11-27) turns small-unit data into
	 * rounding noise.
	 */
	@ParameterizedTest(name = "d = {0}")
	@ValueSource(ints = { 12, 150 })
	void otherUnitsGiveTheSameSubspace(final int d) {
		org.junit.jupiter.api.Assumptions.assumeTrue(unitFree(), "depends on the units");
		final Dataset[] data = data(14, d, backgrounds());
		final double[][] a = linear(run(data)).components();
		for (final double unit : new double[] { 1e-30, 1e30 }) {
			final Dataset[] scaled = new Dataset[data.length];
			for (int j = 0; j < data.length; j++) {
				final double[][] rows = data[j].toArray();
				for (final double[] row : rows)
					for (int i = 0; i < row.length; i++)
						row[i] *= unit;
				scaled[j] = Dataset.of(data[j].name(), rows);
			}
			for (final double angle : Measures.principalAngles(a, linear(run(scaled))
				.components()))
				assertEquals(0, angle, 1e-6, "principal angle, data × " + unit);
		}
	}

	@ParameterizedTest(name = "d = {0}")
	@ValueSource(ints = { 12, 150 })
	void runsAreDeterministicAndScoresAreTheTransform(final int d) {
		final Dataset[] data = data(13, d, backgrounds());
		final FittedModel m = last(run(data)), again = last(run(data));
		final double[][] s = m.targetScores(), t = m.transform(data[0]);
		for (int i = 0; i < s.length; i++)
			assertArrayEquals(s[i], again.targetScores()[i], 0, "bit for bit");
		if (m instanceof CpcaModel) for (int c = 0; c < m.numComponents(); c++)
			assertArrayEquals(((CpcaModel) m).components()[c], ((CpcaModel) again)
				.components()[c], 0, "bit for bit");
		for (int i = 0; i < s.length; i++)
			assertArrayEquals(s[i], t[i], transformTolerance() * (1 + Math.abs(s[i][0])));
	}

	/**
	 * The native backend (OpenBLAS and LAPACK) and the Java kernels give the same model to
	 * rounding: eigenvalues to 10⁻¹⁰ relative (of the largest), subspaces to 10⁻⁸ degrees;
	 * a table (d = 12) and an image-like case with more features than samples (d = 150, 75
	 * samples). Skipped where the native backend is not in use (-Dcpca.kernels=scalar).
	 */
	@ParameterizedTest(name = "d = {0}")
	@ValueSource(ints = { 12, 150 })
	void everyBackendGivesTheSameModel(final int d) {
		Assumptions.assumeTrue(Backend.isNative(), "the native backend is not in use");
		final Dataset[] data = data(15, d, backgrounds());
		final CpcaModel onNative = linear(run(data));
		final CpcaModel onJava = Backend.onJava(() -> linear(run(data)));
		final double[] a = onNative.eigenvalues(), b = onJava.eigenvalues();
		assertEquals(b.length, a.length);
		double scale = 0;
		for (final double v : b)
			scale = Math.max(scale, Math.abs(v));
		for (int c = 0; c < a.length; c++)
			assertEquals(b[c], a[c], 1e-10 * scale, "eigenvalue " + c);
		assertEquals(0, largestAngleDegrees(onNative.components(), onJava.components()), 1e-8,
			"largest principal angle (degrees)");
	}

	/**
	 * An upper bound of the largest principal angle between the spans of the rows of a and
	 * b, from sines ({@code ‖(I − QₐQₐᵀ)Q_b‖_F} for orthonormal bases): accurate down to
	 * 10⁻¹⁶, where angles from cosines stop at √ε ≈ 10⁻⁸ radians.
	 */
	public static double largestAngleDegrees(final double[][] a, final double[][] b) {
		final int d = a[0].length;
		final double[][] qa = TopEigen.orthonormalize(a, new double[0][], null, d);
		final double[][] qb = TopEigen.orthonormalize(b, new double[0][], null, d);
		double sum = 0;
		for (final double[] v : qb) {
			final double[] r = v.clone();
			for (final double[] u : qa)
				TopEigen.axpy(-TopEigen.dot(u, v), u, r);
			sum += TopEigen.dot(r, r);
		}
		return Math.toDegrees(Math.asin(Math.min(1, Math.sqrt(sum))));
	}
}
