package org.cpca.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;

import org.cpca.core.family.KeyField;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.scijava.module.Module;
import org.scijava.module.ModuleItem;
import org.scijava.module.MutableModuleItem;
import org.scijava.plugin.Parameter;

/**
 * The method settings' dialog fields come from their keys' declarations ({@link DeclaredFields}:
 * a family's {@code OptionKeys}, or the shared settings'), in a real SciJava context: the
 * module items Fiji's dialog shows carry the declared label, help text, default, range and
 * choices, the fields start at the declared default, and the annotations hold none of
 * these (no second copy to drift).
 */
class DeclaredFieldsTest extends CommandTestBase {

	/** The method-setting fields that a declaration describes. */
	private static List<Field> declared() {
		final List<Field> out = new ArrayList<>();
		for (final Field f : MethodCommand.class.getDeclaredFields())
			if (f.isAnnotationPresent(Parameter.class) && DeclaredFields.of(f.getName()) != null)
				out.add(f);
		return out;
	}

	@ParameterizedTest
	@ValueSource(classes = { ContrastivePcaCommand.class, BatchCommand.class })
	void theDialogShowsEachKeysDeclaration(final Class<?> type) throws Exception {
		final Module dialog = initialized(type);
		final List<Field> fields = declared();
		assertTrue(fields.size() >= 24, fields.size() + " declared fields");
		for (final Field f : fields) {
			assertDeclared(dialog, f, DeclaredFields.of(f.getName()));
		}
	}

	/**
	 * The dialog's item of field {@code f} carries declaration {@code k} (label, help,
	 * default and start value, choices, range, step, style), and the field's annotation is a
	 * bare slot: nothing in it that the declaration should say.
	 */
	static void assertDeclared(final Module dialog, final Field f, final KeyField k) {
		final String key = f.getName();
		final ModuleItem<?> item = dialog.getInfo().getInput(key);
		assertEquals(k.label(), item.getLabel(), key);
		assertEquals(k.description(), item.getDescription(), key);
		final Object initial = DeclaredFields.value(f.getType(), k.initial());
		assertEquals(initial, item.getDefaultValue(), key);
		assertEquals(initial, dialog.getInput(key), key + ": the field's start value");
		assertEquals(k.choices(), item.getChoices() == null || item.getChoices().isEmpty()
			? List.of() : item.getChoices(), key);
		assertEquals(k.min(), number(item.getMinimumValue()), key + " min");
		assertEquals(k.max(), number(item.getMaximumValue()), key + " max");
		if (k.step() != null) assertEquals(k.step(), item.getStepSize().doubleValue(), key);
		if (k.style() != null) assertEquals(k.style(), item.getWidgetStyle(), key);
		final Parameter p = f.getAnnotation(Parameter.class);
		assertEquals("", p.label() + p.description() + p.min() + p.max() + p.stepSize() + p
			.style() + String.join("", p.choices()), key + "'s annotation");
	}

	/** Some declared ranges and choices, as the user sees them. */
	@ParameterizedTest
	@ValueSource(classes = { ContrastivePcaCommand.class })
	void rangesAndChoicesReachTheDialog(final Class<?> type) throws Exception {
		final Module dialog = initialized(type);
		assertEquals(List.of("v4", "v3", "v2", "v1"), dialog.getInfo().getInput("variant")
			.getChoices());
		assertEquals(0, dialog.getInfo().getInput("shuffles").getMinimumValue());
		assertEquals(0.0, dialog.getInfo().getInput("beta").getMinimumValue());
		assertEquals(1.0, dialog.getInfo().getInput("beta").getMaximumValue());
		assertEquals("v4", dialog.getInput("variant"));
		assertEquals(3, dialog.getInput("degree"));
	}

	/**
	 * Another declaration gives another dialog: the label, default, range and choices the
	 * item shows are the declaration's, whatever it says.
	 */
	@ParameterizedTest
	@ValueSource(strings = { "variant", "shuffles", "beta", "gamma" })
	void anotherDeclarationChangesTheDialog(final String key) throws Exception {
		final Module dialog = initialized(ContrastivePcaCommand.class);
		@SuppressWarnings("unchecked")
		final MutableModuleItem<Object> item = (MutableModuleItem<Object>) dialog.getInfo()
			.getInput(key);
		final KeyField declared = DeclaredFields.of(key);
		final boolean text = item.getType().equals(String.class);
		KeyField other = KeyField.of("Another " + key, text ? "b" : "7", "changed").min(
			1).max(9);
		if (text) other = other.choices("a", "b");
		DeclaredFields.declare(item, other);
		assertEquals("Another " + key, item.getLabel());
		assertNotEquals(declared.label(), item.getLabel());
		assertEquals("changed", item.getDescription());
		assertEquals(DeclaredFields.value(item.getType(), text ? "b" : "7"), item
			.getDefaultValue());
		assertEquals(1.0, number(item.getMinimumValue()));
		assertEquals(9.0, number(item.getMaximumValue()));
		if (text) assertEquals(List.of("a", "b"), item.getChoices());
	}

	private static Double number(final Object v) {
		return v == null ? null : ((Number) v).doubleValue();
	}
}
