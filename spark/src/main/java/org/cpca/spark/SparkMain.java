package org.cpca.spark;

import java.io.PrintWriter;

import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

import org.cpca.core.run.MethodRunner;
import org.cpca.flags.SettingFlags;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code cpca-spark} command line: {@code fit} and {@code bench} on Apache Spark.
 * Errors are one line on standard error, as with {@code cpca}: exit code 1 for bad input
 * or a failed computation (an executor's message is reported as the executor gave it),
 * 2 for a wrong command line.
 */
@Command(name = "cpca-spark", mixinStandardHelpOptions = true, version = "cpca-spark 0.1.0",
	description = "Contrastive PCA on Apache Spark: the linear methods of cpca fit on data " +
		"read by a cluster's executors, with the same results folder.",
	subcommands = { SparkFit.class, SparkBench.class, CommandLine.HelpCommand.class })
public final class SparkMain implements Runnable {

	private final JavaSparkContext given;
	private JavaSparkContext created;
	private PrintWriter out = new PrintWriter(System.out, true);

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
		final CommandLine cl = new CommandLine(main);
		// a flag for each setting of a method that runs here and that no flag declares
		SettingFlags.add(cl.getSubcommands().get("fit").getCommandSpec(),
			MethodRunner::runsFromFit, true);
		cl.setOut(out);
		cl.setErr(err);
		cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
			final String message = userMessage(e);
			if (message != null) err.println("cpca-spark: " + message);
			else if (e instanceof java.io.IOException) err.println(
				"cpca-spark: could not read or write a file: " + e.getMessage());
			else {
				err.println("cpca-spark: unexpected error: " + e);
				e.printStackTrace(err);
			}
			err.flush();
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
		}
	}

	/**
	 * The one-line message of a failure caused by the input or the settings, also when
	 * it happened in an executor (Spark wraps it, with the remote stack trace in its
	 * message); null for anything else.
	 */
	static String userMessage(final Throwable e) {
		for (Throwable c = e; c != null; c = c.getCause()) {
			if (c instanceof IllegalArgumentException || c instanceof ArithmeticException ||
				c instanceof java.util.concurrent.CancellationException ||
				c instanceof java.nio.file.NoSuchFileException) return c.getMessage();
			if (c.getCause() == c) break;
		}
		final String m = e.getMessage();
		final String marker = "java.lang.IllegalArgumentException: ";
		if (m != null && m.contains(marker)) {
			final String rest = m.substring(m.indexOf(marker) + marker.length());
			final int nl = rest.indexOf('\n');
			return nl < 0 ? rest : rest.substring(0, nl);
		}
		return null;
	}
}
