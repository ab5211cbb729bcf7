package org.cpca.core.star;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.cpca.core.Progress;
import org.cpca.core.TestData;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.run.MethodRunner;
import org.cpca.core.run.Settings;
import org.cpca.core.result.Solution;

import java.util.List;

import org.apache.commons.math3.linear.EigenDecomposition;
import org.apache.commons.math3.linear.MatrixUtils;
import org.apache.commons.math3.linear.RealMatrix;
import org.junit.jupiter.api.Test;

/**
 * docs/math/star.md: cPCA++'s default ridge is the Ledoit–Wolf shrinkage of C_b. The
 * intensity is checked against the textbook formula evaluated term by term (Σ‖y yᵀ − S‖²
 * over the samples, not the shortcut the code uses), and the default model against the
 * generalized problem C_t v = λ(C_b + δI)v solved by Commons Math.
 */
class CpcaPlusPlusShrinkageTest {

	/** Ledoit &amp; Wolf (2004), Lemmas 3.2–3.4, for centred rows y (S with 1/n). */
	private static double textbook(final double[][] x) {
		final int n = x.length, d = x[0].length;
		final double[] mean = new double[d];
		for (final double[] r : x)
			for (int j = 0; j < d; j++)
				mean[j] += r[j] / n;
		final double[][] y = new double[n][d];
		for (int i = 0; i < n; i++)
			for (int j = 0; j < d; j++)
				y[i][j] = x[i][j] - mean[j];
		final RealMatrix s = MatrixUtils.createRealMatrix(d, d);
		for (final double[] r : y)
			s.setSubMatrix(s.add(MatrixUtils.createColumnRealMatrix(r).multiply(MatrixUtils
				.createRowRealMatrix(r)).scalarMultiply(1.0 / n)).getData(), 0, 0);
		final double mu = s.getTrace() / d;
		final double delta2 = Math.pow(s.subtract(MatrixUtils.createRealIdentityMatrix(d)
			.scalarMultiply(mu)).getFrobeniusNorm(), 2) / d;
		double sum = 0;
		for (final double[] r : y)
			sum += Math.pow(MatrixUtils.createColumnRealMatrix(r).multiply(MatrixUtils
				.createRowRealMatrix(r)).subtract(s).getFrobeniusNorm(), 2) / d;
		final double b2 = Math.min(delta2, sum / ((double) n * n));
		return b2 / delta2;
	}

	@Test
	void intensityIsLedoitWolfs() {
		// few samples for the features (n = 25, d = 12): a clearly positive intensity
		final double[][] b = TestData.gaussian(7, 25, 12, 4, 3, 2, 2, 1.5);
		final Cpca fit = Cpca.fit(Dataset.of("target", TestData.gaussian(8, 30, 12, 3, 1, 4)),
			Dataset.of("background", b), CpcaOptions.defaults(), Progress.NONE);
		final double rho = CpcaPlusPlus.shrinkageIntensity(fit);
		assertTrue(rho > 0.05 && rho < 1, "ρ = " + rho);
		assertEquals(textbook(b), rho, 1e-6 * rho);
	}

	@Test
	void defaultCpcaPlusPlusSolvesTheShrunkProblemEvenWithAnInvertibleBackground() {
		final double[][] t = TestData.gaussian(9, 40, 6, 3, 2, 1, 1, 2);
		final double[][] b = TestData.gaussian(10, 30, 6, 3, 1, 2);
		final Dataset target = Dataset.of("target", t), background = Dataset.of("background",
			b);
		final Settings s = Settings.builder().set("method", "cpcapp").build();
		final Solution solution = MethodRunner.run(s, target, List.of(background),
			CpcaOptions.defaults(), Progress.NONE);
		final CpcaModel m = (CpcaModel) solution.models().get(0);
		final double rho = textbook(b);
		final RealMatrix ct = TestData.covariance(t), cb = TestData.covariance(b);
		final double delta = rho / (1 - rho) * cb.getTrace() / 6;
		assertEquals(delta, (Double) m.parameters().get("regularization"), 1e-6 * delta);
		// C_t v = λ(C_b + δI)v: with L the Cholesky factor, eigenvectors of L⁻¹C_tL⁻ᵀ
		final RealMatrix reg = cb.add(MatrixUtils.createRealIdentityMatrix(6).scalarMultiply(
			delta));
		final RealMatrix lInv = MatrixUtils.inverse(new org.apache.commons.math3.linear
			.CholeskyDecomposition(reg).getL());
		final EigenDecomposition e = new EigenDecomposition(lInv.multiply(ct).multiply(lInv
			.transpose()));
		final double[] values = e.getRealEigenvalues().clone();
		java.util.Arrays.sort(values);
		assertEquals(values[5], m.eigenvalues()[0], 1e-6 * values[5]);
		assertEquals(values[4], m.eigenvalues()[1], 1e-6 * values[5]);
		// an explicit ε keeps the old rule: C_b invertible, no ridge
		final CpcaModel fixed = (CpcaModel) MethodRunner.run(Settings.builder().set("method",
			"cpcapp").set("epsilon", 1e-6).build(), target, List.of(background),
			CpcaOptions.defaults(), Progress.NONE).models().get(0);
		assertEquals(0, (Double) fixed.parameters().get("regularization"));
	}
}
