package org.cpca.core.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DatasetTest {

	@Test
	void rejectsNonFiniteValuesNamingSampleAndFeature() {
		final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
			() -> Dataset.of("target", new double[][] { { 1, 2 }, { 3, Double.NaN } }));
		assertTrue(e.getMessage().contains("target"), e.getMessage());
		assertTrue(e.getMessage().contains("sample 2"), e.getMessage());
		assertTrue(e.getMessage().contains("feature 2"), e.getMessage());
	}

	@Test
	void rejectsRaggedRowsAndEmptyData() {
		assertThrows(IllegalArgumentException.class, () -> Dataset.of("t",
			new double[][] { { 1, 2 }, { 3 } }));
		assertThrows(IllegalArgumentException.class, () -> Dataset.of("t",
			new double[0][]));
	}

	@Test
	void keepsShapeAndLabels() {
		final Dataset d = Dataset.of("t", new double[][] { { 1, 2, 3 }, { 4, 5, 6 } })
			.withLabels(java.util.Arrays.asList("a", "b"));
		assertEquals(2, d.samples());
		assertEquals(3, d.features());
		assertEquals("b", d.labels().get(1));
		assertEquals(6.0, d.value(1, 2));
	}

	@Test
	void sameValuesComparesSampleForSample() {
		final double[][] x = { { 1, 2, 3 }, { 4, 5, 6 } };
		final Dataset t = Dataset.of("target", x);
		assertTrue(t.sameValues(Dataset.of("background", x)), "equal values, other name");
		assertFalse(t.sameValues(Dataset.of("b", new double[][] { { 1, 2, 3 }, { 4, 5,
			6.5 } })), "last value differs");
		assertFalse(t.sameValues(Dataset.of("b", new double[][] { { 1, 2, 3 } })),
			"fewer samples");
		assertFalse(t.sameValues(Dataset.of("b", new double[][] { { 4, 5, 6 }, { 1, 2,
			3 } })), "the same samples in another order are other data");
	}
}
