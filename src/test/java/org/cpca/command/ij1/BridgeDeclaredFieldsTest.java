package org.cpca.command.ij1;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.cpca.command.BatchCommand;
import org.cpca.command.ContrastivePcaCommand;
import org.cpca.command.DeclaredFields;
import org.cpca.command.OnlineCpcaCommand;
import org.cpca.core.family.KeyField;
import org.cpca.core.result.Method;
import org.junit.jupiter.api.Test;
import org.scijava.command.Command;
import org.scijava.module.Module;
import org.scijava.module.ModuleInfo;
import org.scijava.module.ModuleItem;

/**
 * In plain ImageJ 1.x the bridge's dialog shows the method settings as their keys declare
 * them, as Fiji does (Online cPCA star…'s, as online cPCA*'s): the choices, labels and help texts it reads ({@link
 * CommandBridge#describe}) and the values the fields start from are the declarations'.
 */
class BridgeDeclaredFieldsTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	@Test
	void theImageJ1DialogShowsTheDeclarations() throws Exception {
		for (final Command command : List.<Command> of(new ContrastivePcaCommand(),
			new BatchCommand()))
		{
			final ModuleInfo info = CommandBridge.describe(command.getClass(), command);
			for (final String key : List.of("method", "alpha_mode", "variant", "kernel",
				"gamma", "k_b", "epsilon", "components", "shuffles"))
			{
				final KeyField k = DeclaredFields.of(key);
				final ModuleItem<?> item = info.getInput(key);
				assertEquals(k.label(), item.getLabel(), key);
				assertEquals(k.description(), item.getDescription(), key);
				assertEquals(k.choices(), k.choices().isEmpty() ? List.of() : item.getChoices(),
					key);
				assertEquals(k.initial(), text(((Module) command).getInput(key)), key);
			}
		}
	}

	/** Online cPCA star…'s method settings, as online cPCA*'s declarations describe them. */
	@Test
	void theImageJ1OnlineDialogShowsOnlineCpcaStarsDeclarations() throws Exception {
		final Command command = new OnlineCpcaCommand();
		final ModuleInfo info = CommandBridge.describe(command.getClass(), command);
		for (final String key : List.of("components", "beta", "eta", "tau", "epochs", "seed",
			"order", "centring", "standardize", "reference"))
		{
			final KeyField k = DeclaredFields.of(Method.ONLINE, key);
			final ModuleItem<?> item = info.getInput(key);
			assertEquals(k.label(), item.getLabel(), key);
			assertEquals(k.description(), item.getDescription(), key);
			assertEquals(k.choices(), k.choices().isEmpty() ? List.of() : item.getChoices(),
				key);
			assertEquals(k.initial(), String.valueOf(((Module) command).getInput(key)), key);
		}
	}

	/** A field's value as its key's text ("0" for 0.0, as the declaration writes it). */
	private static String text(final Object value) {
		if (value instanceof Double && (Double) value == Math.rint((Double) value))
			return Long.toString(((Double) value).longValue());
		return String.valueOf(value);
	}
}
