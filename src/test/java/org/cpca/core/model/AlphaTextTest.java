package org.cpca.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * α as text in files and messages ({@link FittedModel#alphaText}): six significant
 * digits, no trailing zeros, and an exponent outside [10⁻⁴, 10⁹), so that a file name
 * such as models/alpha_….json stays short (α = 10⁻³²⁰ once gave a name of 320 zeros
 * that the file system refused) and the text reads back as the rounded value.
 */
class AlphaTextTest {

	@Test
	void roundsAndWritesShortText() {
		assertEquals("0", FittedModel.alphaText(0));
		assertEquals("0", FittedModel.alphaText(-0.0));
		assertEquals("inf", FittedModel.alphaText(Double.POSITIVE_INFINITY));
		assertEquals("", FittedModel.alphaText(Double.NaN));
		assertEquals("2.5", FittedModel.alphaText(2.5));
		assertEquals("0.1", FittedModel.alphaText(0.1));
		assertEquals("18.0472", FittedModel.alphaText(18.047217521));
		assertEquals("123457000", FittedModel.alphaText(123456789));
		assertEquals("0.0001", FittedModel.alphaText(1e-4));
		assertEquals("1.06082e-9", FittedModel.alphaText(1.0608183551394483e-9));
		assertEquals("1e+12", FittedModel.alphaText(1e12));
		assertEquals("1e+308", FittedModel.alphaText(1e308));
		for (final double a : new double[] { 1e-320, 3.3e-9, 7.5e15, 0.00031, 42 })
			assertEquals(Double.parseDouble(new java.math.BigDecimal(a).round(
				new java.math.MathContext(6)).toString()), Double.parseDouble(FittedModel
					.alphaText(a)), "reads back as the rounded value of " + a);
		assertTrue(FittedModel.alphaText(1e-320).length() < 20, "short");
	}
}
