package org.cpca.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * cpca-spark fit takes cpca fit's flags as cpca fit declares them (the shared mixins of
 * org.cpca.flags), and docs/spark.md shows its --help as it is. No SparkContext.
 */
public class SparkDocsTest {

	/** The flags only cpca-spark fit has. */
	private static final Set<String> SPARK_ONLY = Set.of("--master", "--partitions", "--path",
		"--rank", "--exact-limits", "--out", "--fail-first-attempt", "--help", "--version",
		"--verbose");

	@Test
	public void sharedFlagsAreCpcaFitsOwn() {
		final CommandLine spark = new CommandLine(new SparkMain()).getSubcommands().get("fit");
		final CommandLine fit = org.cpca.cli.Main.commandLine().getSubcommands().get("fit");
		int shared = 0;
		for (final OptionSpec o : spark.getCommandSpec().options()) {
			if (SPARK_ONLY.contains(o.longestName())) continue;
			final OptionSpec f = fit.getCommandSpec().findOption(o.longestName());
			assertNotNull(f, o.longestName() + " of cpca-spark fit is not a flag of cpca fit");
			assertArrayEquals(f.names(), o.names(), o.longestName());
			assertArrayEquals(f.description(), o.description(), o.longestName());
			assertEquals(f.defaultValue(), o.defaultValue(), o.longestName());
			assertEquals(f.paramLabel(), o.paramLabel(), o.longestName());
			assertEquals(f.required(), o.required(), o.longestName());
			shared++;
		}
		// the inputs and every linear-method setting (see org.cpca.flags)
		assertTrue(shared >= 27, shared + " shared flags");
	}

	@Test
	public void sparkPageShowsTheHelpAsItIs() throws Exception {
		final StringWriter out = new StringWriter(), err = new StringWriter();
		assertEquals(0, SparkMain.run(null, new PrintWriter(out), new PrintWriter(err), "fit",
			"--help"), err.toString());
		final String page = new String(Files.readAllBytes(Path.of("..", "docs", "spark.md")),
			StandardCharsets.UTF_8);
		final String help = out.toString().replace(System.lineSeparator(), "\n").trim();
		assertTrue(page.contains("```\n" + help + "\n```"), "docs/spark.md does not show " +
			"cpca-spark fit --help as it is; regenerate the block from:\n" + help);
	}
}
