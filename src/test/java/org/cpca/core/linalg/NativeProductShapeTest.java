package org.cpca.core.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Which products the native backend takes, and how it splits them: functions of the shape
 * alone (docs/speed.md, backends), so results do not depend on the thread count.
 */
class NativeProductShapeTest {

	@Test
	void blockProductsAreCutIntoEqualBandsOfAtMost256Rows() {
		assertEquals(196, NativeBlas.productBlock(784)); // 4 bands, not 256 + 256 + 256 + 16
		assertEquals(256, NativeBlas.productBlock(1536));
		assertEquals(129, NativeBlas.productBlock(257));
		assertEquals(100, NativeBlas.productBlock(100));
		assertEquals(1, NativeBlas.productBlock(1));
		for (int p = 1; p < 3000; p += 7) {
			final int h = NativeBlas.productBlock(p);
			assertTrue(h <= NativeBlas.PRODUCT_ROWS && (p + h - 1) / h == (p +
				NativeBlas.PRODUCT_ROWS - 1) / NativeBlas.PRODUCT_ROWS, "p = " + p);
		}
	}

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
