package org.cpca.analysis;

import java.util.function.LongSupplier;

import org.cpca.core.Memory;

/**
 * The memory of the Fiji outputs, checked before they are allocated ({@link Memory}):
 * score images, eigen-images, the scores table, and Apply Model's reconstruction and
 * background-removed stacks. An output that cannot fit is refused with one line — what
 * it needs, what is available, and the fixes — instead of an {@link OutOfMemoryError}
 * halfway (docs/bad-inputs.md, docs/fiji.md).
 */
final class OutputMemory {

	/** What the JVM can still allocate; tests give a small budget. */
	static LongSupplier available = Memory::available;

	/** Bytes per cell of an ImageJ results table (a double per column and row). */
	static final long TABLE_CELL = Double.BYTES;

	private OutputMemory() {}

	/**
	 * Refuses {@code what} if {@code bytes} do not fit, with the fixes that apply.
	 *
	 * @throws IllegalArgumentException naming what, what it needs and what is available
	 */
	static void require(final String what, final long bytes, final String fixes) {
		if (bytes <= available.getAsLong()) return;
		System.gc(); // garbage not yet collected is no reason to refuse
		Memory.require(what, bytes, available.getAsLong(), fixes);
	}

	/**
	 * Score images of {@code pixels} pixels with {@code columns} components over all
	 * models: each model's scores and all of them as doubles, then the 32-bit stack.
	 */
	static long scoreImages(final long pixels, final long columns) {
		return Memory.times(2, Memory.doubles(pixels, columns)) + Memory.floats(pixels,
			columns);
	}

	/** An n × d reconstruction as doubles, and one 32-bit stack of it. */
	static long reconstruction(final long samples, final long features) {
		return Memory.doubles(samples, features) + Memory.floats(samples, features);
	}

	/** The fixes for outputs of Contrastive PCA…. */
	static final String FIXES = "bin the images, use a selection or a mask, fewer " +
		"components or a fixed α (fewer models), or untick the output (show_images, " +
		"show_tables)";

	/** The fixes for Apply Model…'s outputs. */
	static final String APPLY_FIXES = "apply the model to fewer slices (Image > Stacks > " +
		"Tools > Make Substack), or untick show_reconstruction and show_background_removed";
}
