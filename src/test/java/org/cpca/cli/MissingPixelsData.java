package org.cpca.cli;

import ij.ImagePlus;
import ij.ImageStack;
import ij.io.FileSaver;
import ij.process.FloatProcessor;

import java.nio.file.Path;

/** 32-bit TIFF stacks with NaN (missing) pixels for the tests of PCPCA's EM. */
public final class MissingPixelsData {

	private MissingPixelsData() {}

	/** Saves samples × features as a 32-bit stack of width × height slices. */
	public static Path tiff(final Path file, final float[][] rows, final int width) {
		final int height = rows[0].length / width;
		final ImageStack st = new ImageStack(width, height);
		for (final float[] r : rows)
			st.addSlice(new FloatProcessor(width, height, r.clone()));
		new FileSaver(new ImagePlus(file.getFileName().toString(), st)).saveAsTiffStack(file
			.toString());
		return file;
	}

	/**
	 * Writes {@code t.tif} and {@code b.tif} into {@code dir}: 2 × 2 images, 8 target and 8
	 * background slices; pixel (1, 1) is missing (NaN) in target slices 7 and 8. Every
	 * observed pixel column is an orthogonal ±pattern with mean 0, so at α = 0.5 (γ = 0.5,
	 * n_t − γn_b = 4) PCPCA's expected contrast is diagonal: S_t = diag(128, 8, 8, 4 + 2σ²)
	 * (each missing entry adds its conditional variance σ², its conditional mean being the
	 * observed mean 0) and S_b = 8I. With k = 1 the direction is pixel (0, 0) with
	 * λ₁ = 128 − 4 = 124 (cPCA's eigenvalue 124/7), and σ² solves
	 * σ² = (4 + 4 + (4 + 2σ² − 4))/((4 − 1)·4), i.e. σ² = 0.8 — where filling the two
	 * pixels with 0 gives 8/12.
	 */
	public static void paperCase(final Path dir) {
		final float n = Float.NaN;
		final float[] p0 = { 4, -4, 4, -4, 4, -4, 4, -4 }, p1 = { 1, 1, -1, -1, 1, 1, -1, -1 },
			p2 = { 1, 1, 1, 1, -1, -1, -1, -1 }, p3 = { 1, -1, -1, 1, 0, 0, n, n },
			h3 = { 1, -1, -1, 1, 1, -1, -1, 1 };
		final float[][] target = new float[8][], background = new float[8][];
		for (int i = 0; i < 8; i++) {
			target[i] = new float[] { p0[i], p1[i], p2[i], p3[i] };
			background[i] = new float[] { p0[i] / 4, p1[i], p2[i], h3[i] };
		}
		tiff(dir.resolve("t.tif"), target, 2);
		tiff(dir.resolve("b.tif"), background, 2);
	}
}
