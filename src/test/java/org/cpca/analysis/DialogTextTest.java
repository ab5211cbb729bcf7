package org.cpca.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.cpca.core.run.Settings;
import org.junit.jupiter.api.Test;

/** Dialog messages fit the screen: wrapped at spaces, nothing lost. */
class DialogTextTest {

	@Test
	void wrapsAtSpacesWithinTheWidthAndKeepsEveryWord() {
		assertEquals("one two\nthree", DialogText.wrap("one two three", 8));
		assertEquals("a\nb c", DialogText.wrap("a\nb c", 8));
		// a word longer than a line keeps a line of its own, whole
		assertEquals("see\n/a/very/long/path\nnow", DialogText.wrap(
			"see /a/very/long/path now", 8));
		assertEquals("short", DialogText.wrap("short"));
	}

	@Test
	void theUnknownMacroKeyMessageWithEveryKeyFitsInLinesOfEightyCharacters() {
		final String message = Settings.unknownKey("alpah", Settings.Style.KEY);
		assertTrue(message.length() > 200, message); // every key on one line before
		final String wrapped = DialogText.wrap(message);
		for (final String line : wrapped.split("\n"))
			assertTrue(line.length() <= DialogText.WIDTH, line);
		assertEquals(message, wrapped.replace('\n', ' '));
		assertTrue(wrapped.startsWith("alpah is not a setting (did you mean alpha?)"),
			wrapped);
	}
}
