package org.cpca.cli;

import java.io.PrintWriter;
import java.util.concurrent.CancellationException;

import org.cpca.core.Memory;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code cpca} command line: fit, apply, generate, demo and bench.
 * <p>
 * Errors are reported as one line on standard error with a non-zero exit code: 1 for bad
 * input or a failed computation, 2 for a wrong command line.
 */
@Command(name = "cpca", mixinStandardHelpOptions = true,
	versionProvider = Main.Version.class,
	description = "Contrastive PCA for ImageJ: find what is special about a target " +
		"(images or a table) relative to a background.",
	subcommands = { FitCommand.class, ApplyCommand.class, GenerateCommand.class,
		DemoCommand.class, BenchCommand.class, CommandLine.HelpCommand.class })
public final class Main implements Runnable {

	@Override
	public void run() {
		CommandLine.usage(this, System.out);
	}

	public static void main(final String[] args) {
		System.setProperty("java.awt.headless", "true");
		System.exit(run(args));
	}

	/** Runs the command line on the standard streams and returns the exit code. */
	public static int run(final String... args) {
		return run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
	}

	/**
	 * Runs the command line, printing to the given writers (e.g. to capture the one-line
	 * error message), and returns the exit code: 0 on success, 1 for bad input or a failed
	 * computation, 2 for a wrong command line.
	 */
	public static int run(final PrintWriter out, final PrintWriter err,
		final String... args)
	{
		final CommandLine cl = new CommandLine(new Main());
		cl.setOut(out);
		cl.setErr(err);
		cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
			if (e instanceof IllegalArgumentException || e instanceof CancellationException ||
				e instanceof java.nio.file.NoSuchFileException || e instanceof ArithmeticException)
			{
				err.println("cpca: " + e.getMessage());
			}
			else if (e instanceof java.nio.file.AccessDeniedException) {
				err.println("cpca: permission denied: " + e.getMessage() +
					"; check the file's permissions or choose another path");
			}
			else if (e instanceof java.nio.file.FileSystemException) {
				final java.nio.file.FileSystemException f = (java.nio.file.FileSystemException) e;
				err.println("cpca: cannot use " + f.getFile() + (f.getReason() == null ? ""
					: " (" + f.getReason() + ")") + ": check the path");
			}
			else if (e instanceof java.io.IOException) {
				err.println("cpca: could not read or write a file: " + e.getMessage());
			}
			else {
				err.println("cpca: unexpected error: " + e);
				e.printStackTrace(err);
			}
			err.flush();
			return 1;
		});
		cl.setParameterExceptionHandler((e, args1) -> {
			err.println("cpca: " + e.getMessage() + " (see: cpca " + e.getCommandLine()
				.getCommandName() + " --help)");
			err.flush();
			return 2;
		});
		int code;
		try {
			code = cl.execute(args);
		}
		catch (final OutOfMemoryError e) { // an estimate missed it: still one line, no trace
			err.println("cpca: " + Memory.outOfMemory(OOM_FIXES));
			code = 1;
		}
		out.flush();
		err.flush();
		return code;
	}

	/** The fixes for a fit that ran out of memory. */
	static final String OOM_FIXES = "read fewer features (--bin 2, --mask) or samples, " +
		"use fewer --landmarks for kernel cPCA, or --method online (streams the inputs)";

	/** The version from the jar's manifest. */
	static final class Version implements CommandLine.IVersionProvider {

		@Override
		public String[] getVersion() {
			final String v = Main.class.getPackage().getImplementationVersion();
			return new String[] { "cpca " + (v == null ? "(development build)" : v) };
		}
	}
}
