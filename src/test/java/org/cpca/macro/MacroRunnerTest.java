package org.cpca.macro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.Menus;
import ij.plugin.PlugIn;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@link MacroRunner} fails a test on every kind of error ImageJ reports headless. */
class MacroRunnerTest {

	/** A command that fails as a plugin may: by throwing. */
	public static class Throwing implements PlugIn {

		@Override
		public void run(final String arg) {
			throw new IllegalStateException("the test command failed");
		}
	}

	@BeforeAll
	static void register() {
		MacroRunner.run("x = 1;"); // the command table exists
		Menus.getCommands().put("Throwing Test Command", Throwing.class.getName());
	}

	@Test
	void aCleanMacroPassesAndItsPrintsAreItsLog() {
		assertEquals("3", MacroRunner.run("print(\"one\"); return \"\" + (1 + 2);"));
		assertEquals("one", MacroRunner.log().trim());
	}

	@Test
	void aCommandThatThrowsFailsTheMacroThoughTheMacroGoesOn() {
		// ImageJ logs the stack trace and runs the next statement
		final AssertionError e = assertThrows(AssertionError.class, () -> MacroRunner.run(
			"run(\"Throwing Test Command\"); print(\"after\");"));
		assertTrue(e.getMessage().contains("ImageJ logged an exception"), e.getMessage());
		assertTrue(e.getMessage().contains("the test command failed"), e.getMessage());
		assertTrue(MacroRunner.log().contains("after"), MacroRunner.log());
	}

	@Test
	void macroErrorsAndUnknownCommandsFail() {
		assertThrows(AssertionError.class, () -> MacroRunner.run("a = newArray(2); b = a[5];"));
		assertThrows(AssertionError.class, () -> MacroRunner.run(
			"run(\"No Such Command Anywhere\");"));
		assertTrue(MacroRunner.error("a = newArray(2); b = a[5];").contains("range"));
	}

	@Test
	void exceptionLinesAreRecognised() {
		assertTrue(MacroRunner.EXCEPTION_LINE.matcher("java.awt.HeadlessException")
			.find());
		assertTrue(MacroRunner.EXCEPTION_LINE.matcher(
			"x\n\tat ij.plugin.Duplicator.run(Duplicator.java:71)\n").find());
		assertTrue(MacroRunner.EXCEPTION_LINE.matcher(
			"Exception in thread \"main\" java.lang.Error").find());
		assertFalse(MacroRunner.EXCEPTION_LINE.matcher(
			"120 pixels, 8 planes; eigenvalues 1,2\nError bars at α = 2\n").find());
	}
}
