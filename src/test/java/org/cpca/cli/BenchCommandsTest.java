package org.cpca.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;

/**
 * {@code cpca bench} comes from the bench source set when it is on the class path (as in
 * the tests and under the launcher), and says in one line where to run it when not (the
 * command-line jar alone).
 */
class BenchCommandsTest {

	@Test
	void theBenchIsFoundOnTheClassPath() {
		assertEquals(BenchCommands.BENCH, BenchCommands.bench().getClass().getName());
		assertTrue(Main.commandLine().getSubcommands().containsKey("bench"));
	}

	@Test
	void withoutTheBenchOneLineSaysWhereToRunIt() {
		final Object missing = BenchCommands.bench("org.cpca.bench.NoSuchBench");
		assertInstanceOf(BenchCommands.Missing.class, missing);
		final CommandLine cl = new CommandLine(new Main());
		cl.addSubcommand(missing);
		final StringWriter err = new StringWriter();
		cl.setErr(new PrintWriter(err, true));
		cl.setExecutionExceptionHandler((e, c, p) -> {
			err.write(e.getMessage());
			return 1;
		});
		assertEquals(1, cl.execute("bench", "--only", "star"));
		assertTrue(err.toString().startsWith("the benchmarks are not in this jar: run " +
			"./cpca bench"), err.toString());
		assertTrue(!err.toString().contains("\n"), err.toString());
	}
}
