package org.cpca.command;

import org.cpca.core.family.Family;
import org.cpca.core.family.KeyField;
import org.cpca.core.family.SharedKeyFields;
import org.cpca.core.run.Families;

/**
 * The dialog field of a setting, as its key declares it: a shared setting's ({@link
 * SharedKeyFields}), or the one the families declaring the key give it ({@code
 * OptionKeys.field}). The Fiji dialogs apply it to their fields ({@link MethodCommand}).
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
}
