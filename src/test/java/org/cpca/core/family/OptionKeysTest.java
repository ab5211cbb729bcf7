package org.cpca.core.family;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

/**
 * A key's dialog field is its one default: the declaration parses the field's default
 * into every new builder, so a builder holds none of its own for that key, and another
 * declared default is what the options then hold.
 */
class OptionKeysTest {

	/** A builder with no defaults of its own. */
	private static final class Builder {

		int count;
		String mode;
	}

	private static OptionKeys<Builder, String> keys(final String count, final String mode) {
		return OptionKeys.of(Builder::new, b -> b.count + " " + b.mode).key("count",
			"a whole number ≥ 1", KeyField.of("Count", count, "How many.").min(1), (b, t,
				k) -> b.count = Parse.whole(t, k, 1)).key("mode", "a or b", KeyField.of("Mode",
					mode, "Which.").choices("a", "b"), (b, t, k) -> b.mode = t);
	}

	@Test
	void theDeclaredDefaultsAreTheOptionsDefaults() {
		assertEquals("7 b", keys("7", "b").defaults());
		assertEquals("3 a", keys("3", "a").defaults());
		assertEquals("5 a", keys("3", "a").parse(Map.of("count", "5"), k -> k + "="));
		assertEquals("3", keys("3", "a").field("count").initial());
		assertEquals(1.0, keys("3", "a").field("count").min());
	}

	@Test
	void aDefaultOrChoiceTheKeyRefusesIsRefusedWhenDeclared() {
		assertThrows(IllegalArgumentException.class, () -> keys("0", "a"));
		assertThrows(IllegalStateException.class, () -> keys("1", "c"));
		// a choice the parser refuses
		assertThrows(IllegalArgumentException.class, () -> OptionKeys.of(Builder::new,
			b -> b.mode).key("mode", "a", KeyField.of("Mode", "a", "Which.").choices("a", "b"),
				(b, t, k) -> {
					if (!t.equals("a")) throw new IllegalArgumentException(k + t + " is not a");
					b.mode = t;
				}));
	}

	/**
	 * A dialog field given to a key declared without one (its default depends on other
	 * settings) or to a shared setting is what the dialog starts with, not the options'
	 * default; its default and choices are still checked against the key's parser.
	 */
	@Test
	void aDialogFieldIsNotTheOptionsDefault() {
		final OptionKeys<Builder, String> keys = OptionKeys.of(Builder::new, b -> b.count +
			" " + b.mode).key("mode", "a or b", (b, t, k) -> b.mode = t).dialogField("mode",
				KeyField.of("Mode", "a", "Which.").choices("a", "b")).dialogField("shared",
					KeyField.of("Shared", "x", "A shared setting, another meaning."));
		assertEquals("0 null", keys.defaults());
		assertEquals("a", keys.field("mode").initial());
		assertEquals("Shared", keys.field("shared").label());
		assertEquals(Set.of("mode"), keys.names());
		assertThrows(IllegalArgumentException.class, () -> OptionKeys.of(Builder::new,
			b -> b.mode).key("count", "≥ 1", (b, t, k) -> b.count = Parse.whole(t, k, 1))
			.dialogField("count", KeyField.of("Count", "0", "How many.")));
		assertThrows(IllegalStateException.class, () -> keys("1", "a").dialogField("mode",
			KeyField.of("Mode", "a", "Which.")));
	}
}
