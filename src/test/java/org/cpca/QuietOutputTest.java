package org.cpca;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

class QuietOutputTest {

	/** Standard output as the test JVM had it before any test ran. */
	private static final java.io.PrintStream JVM_OUT = System.out;

	/** Runs with the extension: what it prints stays out of the build log. */
	@Nested
	@ExtendWith(QuietOutput.class)
	class Captured {

		@Test
		void printingIsCaptured() {
			assertFalse(System.out == JVM_OUT, "standard output is redirected");
			assertFalse(System.err == JVM_OUT, "standard error is redirected");
			System.out.println("Results in /tmp/x (summary.json, ...)");
		}
	}

	@Test
	void withoutTheExtensionNothingIsRedirected() {
		assertTrue(System.out == JVM_OUT);
	}

	@Test
	void aPassingTestThatPrintedAnExceptionFails() {
		assertNull(QuietOutput.check("Results in /tmp/x\nOpener: File not found\n", false));
		assertNotNull(QuietOutput.check("java.awt.HeadlessException\n\tat ij.IJ.run(IJ.java:1)\n",
			false));
		assertNotNull(QuietOutput.check("x\n\tat org.cpca.Foo.bar(Foo.java:3)\n", false));
		// a failing test fails anyway; its output is shown
		assertNull(QuietOutput.check("java.lang.IllegalStateException: x\n", true));
	}

	@Test
	void exceptionLines() {
		assertTrue(QuietOutput.EXCEPTION_LINE.matcher("Exception in thread \"main\" x")
			.find());
		assertFalse(QuietOutput.EXCEPTION_LINE.matcher(
			"120 pixels, 8 planes; eigenvalues 1,2\nError bars at α = 2\n").find());
		assertEquals("java.lang.Error: boom", firstMatch("ok\njava.lang.Error: boom\n"));
	}

	private static String firstMatch(final String s) {
		final java.util.regex.Matcher m = QuietOutput.EXCEPTION_LINE.matcher(s);
		return m.find() ? m.group() : null;
	}
}
