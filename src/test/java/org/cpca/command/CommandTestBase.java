package org.cpca.command;

import java.util.Map;
import java.util.concurrent.Future;

import org.junit.jupiter.api.AfterAll;
import org.cpca.QuietOutput;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scijava.Cancelable;
import org.scijava.Context;
import org.scijava.command.CommandService;
import org.scijava.module.Module;
import org.scijava.module.ModuleException;
import org.scijava.module.ModuleService;

/**
 * A real SciJava context with a command service for the command tests, headless. The
 * commands print their summaries as for a user: {@link QuietOutput} keeps them out of
 * the build log.
 */
@ExtendWith(QuietOutput.class)
abstract class CommandTestBase {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	static Context context;
	static CommandService commands;

	@BeforeAll
	static void startContext() {
		context = new Context(CommandService.class);
		commands = context.service(CommandService.class);
	}

	/**
	 * A new module of {@code type} as Fiji makes it before its dialog: made by the module
	 * service and initialized (a method command's fields take their declarations there).
	 */
	static Module initialized(final Class<?> type) throws ModuleException {
		final Module m = context.service(ModuleService.class).createModule(commands
			.getCommand(type.getName()));
		m.initialize();
		return m;
	}

	/**
	 * Runs a command as Fiji does, through the module service ({@code CommandService.run}
	 * gives no module for a command that is its own module, a {@code DynamicCommand}).
	 */
	static Future<Module> start(final Class<?> type, final boolean process,
		final Map<String, Object> inputs)
	{
		return context.service(ModuleService.class).run(commands.getCommand(type.getName()),
			process, inputs);
	}

	/** {@link #start(Class, boolean, Map)} with the inputs as key, value, key, value, … */
	static Future<Module> start(final Class<?> type, final boolean process,
		final Object... inputs)
	{
		return context.service(ModuleService.class).run(commands.getCommand(type.getName()),
			process, inputs);
	}

	/** Whether a command that ran was cancelled (its module, or the command itself). */
	static boolean canceled(final Module m) {
		return ((Cancelable) m).isCanceled();
	}

	/** Why a command that ran was cancelled, or {@code null}. */
	static String reason(final Module m) {
		return ((Cancelable) m).getCancelReason();
	}

	@AfterAll
	static void stopContext() {
		context.dispose();
	}
}
