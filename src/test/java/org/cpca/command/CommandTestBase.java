package org.cpca.command;

import org.junit.jupiter.api.AfterAll;
import org.cpca.QuietOutput;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scijava.Context;
import org.scijava.command.CommandService;

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

	@AfterAll
	static void stopContext() {
		context.dispose();
	}
}
