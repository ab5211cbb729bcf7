package org.cpca.core.family;

import org.cpca.core.result.Solution;

import java.util.Map;
import java.util.function.Function;

/**
 * A family with its parsed options: what {@code core.run.Settings} hands to the runner.
 *
 * @param <O> the family's options
 */
public final class FamilySettings<O> {

	private final Family<O> family;
	private final O options;

	private FamilySettings(final Family<O> family, final O options) {
		this.family = family;
		this.options = options;
	}

	/** {@code family}'s options parsed from {@code text} (key → the user's text). */
	public static <O> FamilySettings<O> parse(final Family<O> family,
		final Map<String, String> text, final Function<String, String> shown)
	{
		return new FamilySettings<>(family, family.keys().parse(text, shown));
	}

	public Family<O> family() {
		return family;
	}

	public O options() {
		return options;
	}

	/** Runs the family with these options. */
	public Solution run(final FamilyInput input) {
		return family.run(options, input);
	}
}
