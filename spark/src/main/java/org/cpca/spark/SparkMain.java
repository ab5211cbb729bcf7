package org.cpca.spark;

import java.io.PrintWriter;
import java.util.Arrays;

import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

import org.cpca.core.run.MethodRunner;
import org.cpca.flags.SettingFlags;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The {@code cpca-spark} command line: {@code fit} and {@code bench} on Apache Spark.
 * Errors are one line on standard error, as with {@code cpca}: exit code 1 for bad input
 * or a failed computation (an executor's message is reported as the executor gave it,
 * without its trace: {@link SparkFailures}), 2 for a wrong command line; Ctrl-C and
 * termination signals end the run with one line too ({@link SignalReport}).
 */
@Command(name = "cpca-spark", mixinStandardHelpOptions = true, version = "cpca-spark 0.1.0",
	description = "Contrastive PCA on Apache Spark: the linear methods of cpca fit on data " +
		"read by a cluster's executors, with the same results folder.",
	subcommands = { SparkFit.class, SparkBench.class, CommandLine.HelpCommand.class })
public final class SparkMain implements Runnable {

	/** The level of Spark's messages shown on the console (conf/log4j2.properties). */
	static final String CONSOLE_LEVEL = "cpca.spark.console";

	@Option(names = "--verbose", scope = ScopeType.INHERIT, description = "Also show " +
		"Spark's, Hadoop's and Parquet's warnings on the console (they always go to the " +
		"log file, target/cpca-spark.log by default).")
	boolean verbose;

	private final JavaSparkContext given;
	private JavaSparkContext created;
	private PrintWriter out = new PrintWriter(System.out, true);
	private PrintWriter err = new PrintWriter(System.err, true);

	/** A command line that makes (and stops) its own SparkContext. */
	public SparkMain() {
		this(null);
	}

	/** A command line that uses the given context (tests: one context per class). */
	public SparkMain(final JavaSparkContext context) {
		this.given = context;
	}

	@Override
	public void run() {
		CommandLine.usage(this, System.out);
	}

	PrintWriter out() {
		return out;
	}

	/** The stages of a run: to the log file, and to the console when it is a terminal. */
	SparkProgress progress() {
		return SparkProgress.of(err, System.console() != null);
	}

	/**
	 * The context: the given one, or a new one. A master given here wins; else the one
	 * spark-submit set; else local[*]. A local master binds to 127.0.0.1 with the UI off.
	 */
	JavaSparkContext context(final String master, final String app) {
		if (given != null) return given;
		if (created != null) return created;
		final SparkConf conf = new SparkConf().setAppName(app);
		if (master != null) conf.setMaster(master);
		else if (!conf.contains("spark.master")) conf.setMaster("local[*]");
		if (conf.get("spark.master").startsWith("local")) {
			conf.setIfMissing("spark.ui.enabled", "false");
			conf.setIfMissing("spark.driver.host", "127.0.0.1");
			conf.setIfMissing("spark.driver.bindAddress", "127.0.0.1");
		}
		created = new JavaSparkContext(conf);
		created.setLogLevel("WARN");
		return created;
	}

	public static void main(final String[] args) {
		System.setProperty("java.awt.headless", "true");
		// Spark's, Hadoop's and Parquet's messages go to the log file only, unless asked
		// (conf/log4j2.properties reads this before the first message is logged)
		if (Arrays.asList(args).contains("--verbose")) System.setProperty(CONSOLE_LEVEL,
			"warn");
		System.exit(run(null, new PrintWriter(System.out, true), new PrintWriter(System.err,
			true), args));
	}

	/**
	 * Runs the command line and returns the exit code.
	 *
	 * @param context a running context to use, or null to make one (stopped at the end)
	 */
	public static int run(final JavaSparkContext context, final PrintWriter out,
		final PrintWriter err, final String... args)
	{
		final SparkMain main = new SparkMain(context);
		main.out = out;
		main.err = err;
		final CommandLine cl = new CommandLine(main);
		// a flag for each setting of a method that runs here and that no flag declares
		SettingFlags.add(cl.getSubcommands().get("fit").getCommandSpec(),
			MethodRunner::runsFromFit, true);
		cl.setOut(out);
		cl.setErr(err);
		// a run of its own (not a test's context): Ctrl-C or a termination signal stops
		// Spark under it; the run then says so in one line (SignalReport)
		final SignalReport reporter = new SignalReport(err, context == null);
		cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
			reporter.report("cpca-spark: " + SparkFailures.message(e));
			return 1;
		});
		cl.setParameterExceptionHandler((e, args1) -> {
			err.println("cpca-spark: " + e.getMessage() + " (see: cpca-spark " + e
				.getCommandLine().getCommandName() + " --help)");
			err.flush();
			return 2;
		});
		try {
			return cl.execute(args);
		}
		finally {
			out.flush();
			err.flush();
			if (main.created != null) main.created.stop();
			reporter.close();
		}
	}
}
