package org.cpca.core.linalg;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Which products the native backend takes: a function of the shape alone
 * (docs/speed.md, backends), so results do not depend on the thread count.
 */
class NativeProductShapeTest {

	@Test
	void aMatrixTimesAFewVectorsStaysInJava() {
		// each step of the iterative solvers: 784 × 784 times 8 vectors
		assertFalse(Products.nativePays(8, 784, 784));
		assertFalse(Products.nativePays(32, 4000, 4000));
		// square products and the Gram-sized ones go native
		assertTrue(Products.nativePays(784, 784, 784));
		assertTrue(Products.nativePays(256, 256, 256));
		assertFalse(Products.nativePays(16, 16, 16)); // too small to call at all
	}
}
