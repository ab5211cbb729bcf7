package org.cpca.core.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.cpca.core.Progress;
import org.cpca.core.contrast.Cpca;
import org.cpca.core.contrast.CpcaOptions;
import org.cpca.core.data.Dataset;
import org.junit.jupiter.api.Test;

/**
 * Applying a saved model, the one path of cpca apply and Fiji's Apply Model…: on a case
 * solvable on paper (data on a plane through the mean, two components) the reconstruction
 * is the data, its error zero and the background-removed data the mean; the scores are
 * the fit's own scores of its training data.
 */
class AppliedModelTest {

	/** n samples of d = 3 features on the plane z = 2x − y + 5, centred near (1, 2, 5). */
	private static Dataset plane(final String name, final int n, final long seed) {
		final Random r = new Random(seed);
		final double[][] rows = new double[n][];
		for (int i = 0; i < n; i++) {
			final double x = 1 + r.nextGaussian(), y = 2 + 3 * r.nextGaussian();
			rows[i] = new double[] { x, y, 2 * x - y + 3 };
		}
		return Dataset.of(name, rows);
	}

	@Test
	void dataOnTheModelsPlaneAreReconstructedExactly() {
		final Dataset target = plane("target", 40, 1);
		final CpcaModel pca = Cpca.fit(target, (Dataset) null, CpcaOptions.defaults()
			.withComponents(2), Progress.NONE).pca();
		final Dataset fresh = plane("fresh", 25, 2);
		final AppliedModel a = new AppliedModel(pca, fresh);
		assertTrue(a.hasReconstruction());
		assertFalse(a.reconstructed());
		final double[][] recon = a.reconstruction();
		assertTrue(a.reconstructed());
		assertSame(recon, a.reconstruction()); // made once
		for (int i = 0; i < fresh.samples(); i++)
			for (int j = 0; j < 3; j++)
				assertEquals(fresh.value(i, j), recon[i][j], 1e-5);
		assertEquals(0, a.meanSquaredError(), 1e-9);
		final double[][] removed = a.backgroundRemoved();
		for (final double[] row : removed)
			assertArrayEquals(pca.targetMean(), row, 1e-5);
	}

	@Test
	void scoresOfTheTrainingDataAreTheFitsScores() {
		final Dataset target = plane("target", 30, 3);
		final CpcaModel pca = Cpca.fit(target, (Dataset) null, CpcaOptions.defaults()
			.withComponents(1), Progress.NONE).pca();
		final AppliedModel a = new AppliedModel(pca, target);
		final double[][] fit = pca.targetScores();
		for (int i = 0; i < fit.length; i++)
			assertArrayEquals(fit[i], a.scores()[i], 1e-9);
		// one component of a plane: a real error, the mean of the squared residuals
		double sum = 0;
		for (int i = 0; i < target.samples(); i++)
			for (int j = 0; j < 3; j++) {
				final double e = target.value(i, j) - a.reconstruction()[i][j];
				sum += e * e;
			}
		assertTrue(sum > 0);
		assertEquals(sum / (30 * 3), a.meanSquaredError(), 1e-12);
	}
}
