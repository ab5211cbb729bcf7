package org.cpca.command;

import ij.ImagePlus;
import ij.ImageStack;
import ij.process.FloatProcessor;

import java.util.Random;

/**
 * Small seeded stacks for the command tests: a background of strong shared patterns
 * with random weights, and a target with the same plus a faint class pattern whose sign
 * depends on the class ("a" or "b" slice labels).
 */
final class Synthetic {

	static final int W = 12, H = 10;

	private Synthetic() {}

	/** Strong shared pattern p (0 or 1) at pixel i. */
	private static double shared(final int p, final int i) {
		final int x = i % W, y = i / W;
		return p == 0 ? Math.sin(x * 0.5) : Math.cos(y * 0.7);
	}

	/** The faint pattern: a bright bar in the middle rows. */
	private static double special(final int i) {
		final int x = i % W, y = i / W;
		return y >= 4 && y <= 5 && x >= 2 && x < W - 2 ? 1 : 0;
	}

	static ImagePlus target(final int slices, final long seed) {
		return make("target", slices, seed, true);
	}

	static ImagePlus background(final int slices, final long seed) {
		return make("background", slices, seed, false);
	}

	private static ImagePlus make(final String title, final int slices, final long seed,
		final boolean withSpecial)
	{
		final Random r = new Random(seed);
		final ImageStack stack = new ImageStack(W, H);
		for (int s = 0; s < slices; s++) {
			final double a = 10 * r.nextGaussian(), b = 8 * r.nextGaussian();
			final boolean classA = s % 2 == 0;
			final float[] px = new float[W * H];
			for (int i = 0; i < px.length; i++)
				px[i] = (float) (100 + a * shared(0, i) + b * shared(1, i) + 0.3 * r
					.nextGaussian() + (withSpecial ? (classA ? 2 : -2) * special(i) : 0));
			stack.addSlice(withSpecial ? classA ? "a" : "b" : "bg", new FloatProcessor(W, H,
				px));
		}
		return new ImagePlus(title, stack);
	}

	/** A copy of all pixel values, to check that inputs were not modified. */
	static float[][] pixels(final ImagePlus imp) {
		final float[][] out = new float[imp.getStackSize()][];
		for (int s = 0; s < out.length; s++)
			out[s] = ((float[]) imp.getStack().getProcessor(s + 1).convertToFloat().getPixels())
				.clone();
		return out;
	}
}
