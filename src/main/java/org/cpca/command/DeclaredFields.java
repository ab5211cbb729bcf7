package org.cpca.command;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

import org.cpca.core.family.Family;
import org.cpca.core.family.KeyField;
import org.cpca.core.family.SharedKeyFields;
import org.cpca.core.result.Method;
import org.cpca.core.run.Families;
import org.scijava.command.DynamicCommand;
import org.scijava.module.MutableModuleItem;
import org.scijava.plugin.Parameter;
import org.scijava.util.Types;

/**
 * The dialog field of a setting, as its key declares it: a shared setting's ({@link
 * SharedKeyFields}), or the one the families declaring the key give it ({@code
 * OptionKeys.field}); for the dialog of one family alone ({@link #of(Method, String)}),
 * the one that family gives it. The Fiji dialogs apply it to their fields ({@link Slots}:
 * {@link MethodCommand}, {@link OnlineCpcaCommand}).
 */
public final class DeclaredFields {

	private DeclaredFields() {}

	/**
	 * {@code key}'s dialog field; {@code null} for a setting no dialog shows.
	 *
	 * @throws IllegalStateException if two families declare the key with different fields
	 */
	public static KeyField of(final String key) {
		final KeyField shared = SharedKeyFields.of(key);
		if (shared != null) return shared;
		KeyField out = null;
		boolean seen = false;
		for (final Family<?> f : Families.all()) {
			if (!f.keys().names().contains(key)) continue;
			final KeyField field = f.keys().field(key);
			if (seen && field != out) throw new IllegalStateException(key + " is declared " +
				"with two dialog fields: declare one for every family");
			out = field;
			seen = true;
		}
		return out;
	}

	/**
	 * {@code key}'s dialog field in a dialog of {@code method} alone: the field its family
	 * gives the key (one of its own, or a shared setting it reads with its own meaning,
	 * {@code OptionKeys.dialogField}), else the shared setting's; {@code null} for a
	 * setting no dialog shows.
	 */
	public static KeyField of(final Method method, final String key) {
		final KeyField own = Families.of(method).keys().field(key);
		return own != null ? own : SharedKeyFields.of(key);
	}

	/**
	 * A command's {@code @Parameter} fields that a declaration describes, each a bare slot
	 * named by its key: {@link #start} gives them their declared defaults when the command
	 * is made, and {@link #declare(DynamicCommand)} their labels, help texts, defaults,
	 * ranges and choices before the dialog (Fiji's pre-processing, or the ImageJ 1.x
	 * bridge).
	 */
	static final class Slots {

		private final List<Field> fields;
		private final Function<String, KeyField> declaration;

		/**
		 * @param type the command class whose own fields are read
		 * @param declaration a key's field, or {@code null} for a field no key describes
		 */
		Slots(final Class<?> type, final Function<String, KeyField> declaration) {
			final List<Field> out = new ArrayList<>();
			for (final Field f : type.getDeclaredFields())
				if (f.isAnnotationPresent(Parameter.class) && declaration.apply(f
					.getName()) != null)
				{
					f.setAccessible(true);
					out.add(f);
				}
			this.fields = Collections.unmodifiableList(out);
			this.declaration = declaration;
		}

		/** The described fields, in declaration order. */
		List<Field> fields() {
			return fields;
		}

		/** The field of {@code key}'s declaration. */
		KeyField of(final String key) {
			return declaration.apply(key);
		}

		/** Sets each field of {@code command} to its declared default. */
		void start(final Object command) {
			for (final Field f : fields)
				try {
					f.set(command, value(f.getType(), of(f.getName()).initial()));
				}
				catch (final IllegalAccessException e) {
					throw new IllegalStateException(e);
				}
		}

		/** Each field's module item takes its declaration. */
		void declare(final DynamicCommand command) {
			for (final Field f : fields)
				DeclaredFields.declare(command.getInfo().getMutableInput(f.getName(), Types.box(f
					.getType())), of(f.getName()));
		}
	}

	/** A module item takes the label, help text, default, range and choices of {@code k}. */
	@SuppressWarnings("unchecked") // value() gives the item's (boxed) type
	static <T> void declare(final MutableModuleItem<T> item, final KeyField k) {
		final Class<T> type = item.getType();
		item.setLabel(k.label());
		item.setDescription(k.description());
		item.setDefaultValue((T) value(type, k.initial()));
		if (!k.choices().isEmpty()) {
			final List<T> choices = new ArrayList<>();
			for (final String c : k.choices())
				choices.add((T) value(type, c));
			item.setChoices(choices);
		}
		if (k.min() != null) item.setMinimumValue((T) number(type, k.min()));
		if (k.max() != null) item.setMaximumValue((T) number(type, k.max()));
		if (k.step() != null) item.setStepSize(k.step());
		if (k.style() != null) item.setWidgetStyle(k.style());
	}

	/** A declared default as a value of a field's type. */
	static Object value(final Class<?> type, final String text) {
		final Class<?> t = Types.box(type);
		if (t == String.class) return text;
		if (t == Boolean.class) return Boolean.valueOf(text);
		if (t == Integer.class) return Integer.valueOf(text);
		if (t == Long.class) return Long.valueOf(text);
		if (t == Double.class) return Double.valueOf(text);
		throw new IllegalStateException("a declared field of type " + type.getName());
	}

	/** A declared bound as a value of a field's (numeric) type. */
	private static Object number(final Class<?> type, final double v) {
		final Class<?> t = Types.box(type);
		if (t == Integer.class) return (int) v;
		if (t == Long.class) return (long) v;
		return v;
	}
}
