package org.cpca.core.pcpca;

import org.cpca.core.Progress;
import org.cpca.core.TestData;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.contrast.Measures;
import org.cpca.core.data.Dataset;
import org.cpca.core.model.FittedModel;
import org.cpca.core.modelfile.ModelFile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Random;

import org.apache.commons.math3.linear.EigenDecomposition;
import org.apache.commons.math3.linear.LUDecomposition;
import org.apache.commons.math3.linear.MatrixUtils;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.linear.RealVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PcpcaTest {

	private static Cpca fit(final float[][][] p, final int k, final Boolean features) {
		return Cpca.fit(Dataset.wrap("target", p[0]), Dataset.wrap("background", p[1]),
			CpcaOptions.defaults().withComponents(k).withFeatureSpace(features), Progress.NONE);
	}

	/** The dense reference: {σ², W (d × k)} from the d × d scatter matrices. */
	private static Object[] dense(final float[][][] p, final double alpha, final int k) {
		final int nt = p[0].length, nb = p[1].length, d = p[0][0].length;
		final double gamma = alpha * (nt - 1) / (nb - 1), denom = nt - gamma * nb;
		final RealMatrix c = TestData.covariance(TestData.toDouble(p[0])).scalarMultiply(nt - 1)
			.subtract(TestData.covariance(TestData.toDouble(p[1])).scalarMultiply(gamma * (nb - 1)));
		final EigenDecomposition e = new EigenDecomposition(c);
		final double[] l = e.getRealEigenvalues().clone();
		final Integer[] order = new Integer[d];
		for (int i = 0; i < d; i++)
			order[i] = i;
		java.util.Arrays.sort(order, (a, b) -> Double.compare(l[b], l[a]));
		double rest = 0;
		for (int j = k; j < d; j++)
			rest += l[order[j]];
		final double sigma2 = rest / ((d - k) * denom);
		final RealMatrix w = MatrixUtils.createRealMatrix(d, k);
		for (int j = 0; j < k; j++)
			w.setColumnVector(j, e.getEigenvector(order[j]).mapMultiply(Math.sqrt(l[order[j]] /
				denom - sigma2)));
		return new Object[] { sigma2, w };
	}

	/** W and σ² in the exact reduced space equal the full d × d solve. */
	@Test
	void reducedSpaceEqualsTheFullSolve() {
		final float[][][] p = TestData.planted(31, 40, 30, 80, 2, 2, 1.0);
		final double alpha = 0.3;
		final Cpca f = fit(p, 2, null);
		assertTrue(f.reducedSpace());
		final PcpcaModel m = Pcpca.fit(f, alpha);
		final Object[] ref = dense(p, alpha, 2);
		assertEquals((Double) ref[0], m.noiseVariance(), 1e-9 * (Double) ref[0]);
		final RealMatrix w = (RealMatrix) ref[1];
		final RealMatrix mine = MatrixUtils.createRealMatrix(m.loadings()).transpose();
		// WWᵀ is free of signs
		final RealMatrix diff = mine.multiply(mine.transpose()).subtract(w.multiply(w
			.transpose()));
		assertEquals(0, diff.getFrobeniusNorm() / w.multiply(w.transpose()).getFrobeniusNorm(),
			1e-8);
		assertEquals(alpha * 39 / 29, m.gamma(), 1e-15);
		assertEquals(m.noiseVariance(), m.parameters().get("noise_variance"));
		// the feature space gives the same
		final PcpcaModel g = Pcpca.fit(fit(p, 2, true), alpha);
		assertEquals(m.noiseVariance(), g.noiseVariance(), 1e-9 * m.noiseVariance());
	}

	/**
	 * Posterior mean, denoised reconstruction and log-likelihood against the dense
	 * formulas: E[z|x] = M⁻¹Wᵀ(x − μ), Wz + μ, log N(x; μ, WWᵀ + σ²I).
	 */
	@Test
	void transformAndLikelihoodMatchDenseFormulas() {
		final float[][][] p = TestData.planted(37, 200, 200, 8, 1, 2, 0.7);
		final PcpcaModel m = Pcpca.fit(fit(p, 2, null), 0.5);
		final int d = 8, k = 2;
		final RealMatrix w = MatrixUtils.createRealMatrix(m.loadings()).transpose();
		final double s2 = m.noiseVariance();
		final RealMatrix sigma = w.multiply(w.transpose()).add(MatrixUtils.createRealIdentityMatrix(
			d).scalarMultiply(s2));
		final RealMatrix mInv = new LUDecomposition(w.transpose().multiply(w).add(MatrixUtils
			.createRealIdentityMatrix(k).scalarMultiply(s2))).getSolver().getInverse();
		final LUDecomposition lu = new LUDecomposition(sigma);
		final RealVector mu = MatrixUtils.createRealVector(m.targetMean());
		final float[][] fresh = TestData.planted(38, 20, 2, 8, 1, 2, 0.7)[0];
		final Dataset x = Dataset.wrap("new", fresh);
		final double[][] z = m.transform(x), rec = m.denoise(x);
		double ll = 0;
		for (int i = 0; i < fresh.length; i++) {
			final RealVector r = MatrixUtils.createRealVector(TestData.toDouble(fresh)[i]).subtract(mu);
			final RealVector ez = mInv.operate(w.transpose().operate(r));
			assertArrayEquals(ez.toArray(), z[i], 1e-9);
			assertArrayEquals(w.operate(ez).add(mu).toArray(), rec[i], 1e-8);
			ll += -0.5 * (d * Math.log(2 * Math.PI) + Math.log(lu.getDeterminant()) + r
				.dotProduct(lu.getSolver().solve(r)));
		}
		assertEquals(ll / fresh.length, m.logLikelihood(x), 1e-9 * Math.abs(ll));
		// the training scores are posterior means too
		assertArrayEquals(m.transform(Dataset.wrap("t", p[0]))[5], m.targetScores()[5], 1e-9);
	}

	/** With 20 % of values missing, EM recovers the complete-data subspace. */
	@Test
	void missingValuesRecoverTheCompleteDataSubspace() {
		final float[][][] p = TestData.planted(41, 300, 300, 30, 2, 2, 0.5);
		final double alpha = 0.2;
		final PcpcaModel complete = Pcpca.fit(fit(p, 2, null), alpha);
		final float[][][] holes = TestData.withHoles(p, 0.2, new Random(5));
		final PcpcaModel em = Pcpca.fitMissing(holes[0], holes[1], alpha, 2, 0,
			Progress.NONE);
		final double[] angles = Measures.principalAngles(complete.components(), em
			.components());
		assertTrue(angles[angles.length - 1] < 0.1, "largest principal angle " + angles[
			angles.length - 1]);
		assertEquals(complete.noiseVariance(), em.noiseVariance(), 0.2 * complete
			.noiseVariance());
		assertTrue(em.diagnostics().stream().anyMatch(s -> s.contains("EM")));
		// and mean imputation alone (the start) is further away
		final PcpcaModel imputed = Pcpca.fit(Cpca.fit(Dataset.wrap("t", meanFilled(holes[0])),
			Dataset.wrap("b", meanFilled(holes[1])), CpcaOptions.defaults().withComponents(2),
			Progress.NONE), alpha);
		final double[] naive = Measures.principalAngles(complete.components(), imputed
			.components());
		assertTrue(naive[naive.length - 1] > angles[angles.length - 1], "EM " + angles[
			angles.length - 1] + " vs imputation " + naive[naive.length - 1]);
	}

	private static float[][] meanFilled(final float[][] x) {
		final int d = x[0].length;
		final double[] mean = new double[d], count = new double[d];
		for (final float[] row : x)
			for (int j = 0; j < d; j++)
				if (!Float.isNaN(row[j])) {
					mean[j] += row[j];
					count[j]++;
				}
		final float[][] out = new float[x.length][d];
		for (int i = 0; i < x.length; i++)
			for (int j = 0; j < d; j++)
				out[i][j] = Float.isNaN(x[i][j]) ? (float) (mean[j] / count[j]) : x[i][j];
		return out;
	}

	/** Complete data through the EM path gives the closed form. */
	@Test
	void emWithoutMissingValuesIsTheClosedForm() {
		final float[][][] p = TestData.planted(43, 120, 100, 12, 2, 2, 0.5);
		final PcpcaModel closed = Pcpca.fit(fit(p, 2, null), 0.5);
		final PcpcaModel em = Pcpca.fitMissing(p[0], p[1], 0.5, 2, 0, Progress.NONE);
		assertEquals(closed.noiseVariance(), em.noiseVariance(), 1e-6 * closed.noiseVariance());
		final double[] angles = Measures.principalAngles(closed.components(), em.components());
		assertTrue(angles[angles.length - 1] < 1e-5);
	}

	@Test
	void gammaBoundIsRefused() {
		final float[][][] p = TestData.planted(47, 50, 50, 6, 1, 1, 0.5);
		final Cpca f = fit(p, 1, null);
		TestData.assertMessage(() -> Pcpca.fit(f, 1.5), "PCPCA", "γ", "α <");
		TestData.assertMessage(() -> Pcpca.fit(f, 1.0), "n_t − γ·n_b");
		TestData.assertMessage(() -> Pcpca.fit(f, Double.POSITIVE_INFINITY), "finite α");
		TestData.assertMessage(() -> Pcpca.fitMissing(p[0], p[1], 2, 1, 0, Progress.NONE),
			"α <");
		assertEquals(1.0, Pcpca.alphaBound(50, 50), 1e-15);
	}

	@Test
	void modelFileRoundTrip(@TempDir final Path dir) throws Exception {
		final float[][][] p = TestData.planted(53, 60, 60, 7, 1, 2, 0.5);
		final PcpcaModel m = Pcpca.fit(fit(p, 2, null), 0.4);
		final Path file = dir.resolve("model.json");
		ModelFile.write(m, file);
		final FittedModel back = ModelFile.readAny(file);
		assertTrue(back instanceof PcpcaModel);
		final Dataset x = Dataset.wrap("x", p[1]);
		final double[][] a = m.transform(x), b = back.transform(x);
		for (int i = 0; i < a.length; i++)
			assertArrayEquals(a[i], b[i], 1e-12);
		assertEquals(m.logLikelihood(x), ((PcpcaModel) back).logLikelihood(x), 1e-9);
	}
}
