package org.cpca.core.family;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * How a setting shows as a field of a dialog, declared once with its key: the label, the
 * help text, the default (as the text the key's parser reads), the range of a number and
 * the choices of a list. The Fiji dialogs apply it to their fields when they open, and a
 * family's declaration ({@link OptionKeys#key(String, String, KeyField, OptionKeys.Parser)})
 * parses its default into the options, so that the default is written only here
 * (docs/architecture.md, "How to add a setting").
 */
public final class KeyField {

	private final String label, description, initial, style;
	private final Double min, max, step;
	private final List<String> choices;

	private KeyField(final String label, final String description, final String initial,
		final String style, final Double min, final Double max, final Double step,
		final List<String> choices)
	{
		this.label = label;
		this.description = description;
		this.initial = initial;
		this.style = style;
		this.min = min;
		this.max = max;
		this.step = step;
		this.choices = choices;
	}

	/**
	 * A field.
	 *
	 * @param label what the dialog shows
	 * @param initial the default, as the key's text ({@code "v4"}, {@code "2"},
	 *          {@code "false"})
	 * @param description the help text
	 */
	public static KeyField of(final String label, final String initial,
		final String description)
	{
		return new KeyField(label, description, initial, null, null, null, null, List.of());
	}

	/** This field with a smallest value. */
	public KeyField min(final double value) {
		return new KeyField(label, description, initial, style, value, max, step, choices);
	}

	/** This field with a largest value. */
	public KeyField max(final double value) {
		return new KeyField(label, description, initial, style, min, value, step, choices);
	}

	/** This field with the step of its spinner. */
	public KeyField step(final double value) {
		return new KeyField(label, description, initial, style, min, max, value, choices);
	}

	/** This field with a widget style (e.g. a number format, {@code "format:0.##E0"}). */
	public KeyField style(final String value) {
		return new KeyField(label, description, initial, value, min, max, step, choices);
	}

	/** This field as a list of choices (its default one of them). */
	public KeyField choices(final String... values) {
		if (!Arrays.asList(values).contains(initial)) throw new IllegalStateException(
			"the default " + initial + " of " + label + " is not one of its choices");
		return new KeyField(label, description, initial, style, min, max, step, Collections
			.unmodifiableList(Arrays.asList(values.clone())));
	}

	public String label() {
		return label;
	}

	public String description() {
		return description;
	}

	/** The default, as the key's text. */
	public String initial() {
		return initial;
	}

	/** The widget style, or {@code null}. */
	public String style() {
		return style;
	}

	/** The smallest value, or {@code null}. */
	public Double min() {
		return min;
	}

	/** The largest value, or {@code null}. */
	public Double max() {
		return max;
	}

	/** The spinner's step, or {@code null}. */
	public Double step() {
		return step;
	}

	/** The choices (empty: not a list). */
	public List<String> choices() {
		return choices;
	}
}
