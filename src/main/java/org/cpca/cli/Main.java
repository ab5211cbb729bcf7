package org.cpca.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CancellationException;

import org.cpca.core.Memory;
import org.cpca.core.linalg.Backend;

import org.cpca.flags.SettingFlags;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code cpca} command line: fit, apply, generate, demo and bench (the benchmarks are
 * not in the plugin jar: {@link BenchCommands}). A run builds the picocli model of the
 * subcommand it invokes only ({@link #commandLine(String...)}; docs/speed.md, the start
 * and the exit).
 * <p>
 * Errors are reported as one line on standard error with a non-zero exit code: 1 for bad
 * input or a failed computation, 2 for a wrong command line.
 */
@Command(name = "cpca", mixinStandardHelpOptions = true,
	versionProvider = Main.Version.class,
	description = "Contrastive PCA for ImageJ: find what is special about a target " +
		"(images or a table) relative to a background.")
public final class Main implements Runnable {

	@Override
	public void run() {
		CommandLine.usage(this, System.out);
	}

	public static void main(final String[] args) {
		System.setProperty("java.awt.headless", "true");
		final Thread backend = loadBackendAhead(args);
		final int code = run(args);
		if (backend != null) try {
			backend.join(); // loaded by now on a run's way (no thread outlives the run)
		}
		catch (final InterruptedException e) {
			Thread.currentThread().interrupt();
		}
		System.exit(code);
	}

	/**
	 * The subcommands whose runs always use the dense kernels ({@link Backend}): fit. Not
	 * apply: projecting on a linear model never loaded the backend (a kernel model's
	 * apply loads it when it needs it, as before).
	 */
	private static final List<String> DENSE = Arrays.asList("fit");
	/** Options that only print (help, version): no backend is loaded ahead for them. */
	private static final List<String> PRINT_ONLY = Arrays.asList("-h", "--help", "-V",
		"--version");

	/**
	 * For a run of {@code fit}: a started thread that chooses and loads the backend
	 * ({@link Backend}'s class initialisation: OpenBLAS takes about 0.1 s in a fresh JVM),
	 * so that the loading overlaps the parsing of the arguments and the reading of the
	 * inputs (docs/speed.md, one-shot runs); {@code null} for any other command line. The choice and its outcome are those of the first use on the run's
	 * own thread: the class is initialised once, and a use before the loading ended waits
	 * for it (the JVM's class initialisation lock); a native library that does not load
	 * still leaves the Java kernels answering quietly. The caller joins the thread.
	 */
	static Thread loadBackendAhead(final String... args) {
		if (args.length == 0 || !DENSE.contains(args[0])) return null;
		for (final String a : args)
			if (PRINT_ONLY.contains(a)) return null;
		// a lambda, not Backend::isNative: making it must not initialise Backend here
		final Thread t = new Thread(() -> {
			try {
				Backend.isNative();
			}
			catch (final Throwable e) {
				// nothing printed here: the run's own first use meets the same failure
			}
		}, "cpca-backend-load");
		t.setDaemon(true);
		t.start();
		return t;
	}

	/** Runs the command line on the standard streams and returns the exit code. */
	public static int run(final String... args) {
		return run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
	}

	/** The subcommands in the order of the help ({@code help} comes last). */
	static final List<String> SUBCOMMANDS = Arrays.asList("fit", "apply", "generate", "demo",
		"bench");

	/**
	 * The command line with its subcommands, {@code fit} with a flag for every setting
	 * (those no family declares by hand, {@link SettingFlags}) and its help in groups.
	 */
	public static CommandLine commandLine() {
		return commandLine(new String[0]);
	}

	/**
	 * The command line for a run of {@code args}: when the first argument names a
	 * subcommand other than {@code help}, that subcommand alone (everything after its
	 * name is its own: the others could not change the run, its messages or its help),
	 * else all of them ({@link #commandLine()}). Each subcommand's picocli model is built
	 * by reflection over its annotations, in a fresh JVM a few milliseconds per
	 * subcommand. The settings' flags of {@code fit} ({@link SettingFlags}) are left out
	 * when every option the run gives is one {@code fit} declares by hand
	 * ({@link #declaredOnly}): no argument could then name one.
	 */
	static CommandLine commandLine(final String... args) {
		final CommandLine cl = new CommandLine(new Main());
		final boolean one = args.length > 0 && SUBCOMMANDS.contains(args[0]);
		for (final String name : SUBCOMMANDS)
			if (!one || name.equals(args[0])) cl.addSubcommand(subcommand(name));
		if (!one) cl.addSubcommand(new CommandLine.HelpCommand());
		final CommandLine fit = cl.getSubcommands().get("fit");
		if (fit != null) {
			if (!one || !declaredOnly(fit.getCommandSpec(), args)) SettingFlags.add(fit
				.getCommandSpec(), m -> true, false);
			FitCommand.groupHelp(fit);
		}
		return cl;
	}

	/**
	 * Whether every argument after the subcommand's name that could be an option is one
	 * {@code spec} declares, exactly (before any {@code =}), and none asks for help or the
	 * version (they list every flag) or names an argument file ({@code @FILE}, whose
	 * contents are not seen here). A value that starts with "-", an attached short option
	 * ({@code -k3}) or an unknown option answers no: its command line gets every flag, so
	 * that its parsing, messages and suggestions stay those of the full command.
	 */
	static boolean declaredOnly(final CommandLine.Model.CommandSpec spec,
		final String... args)
	{
		for (int i = 1; i < args.length; i++) {
			final String a = args[i];
			if (a.startsWith("@")) return false;
			if (!a.startsWith("-")) continue;
			final int eq = a.indexOf('=');
			final CommandLine.Model.OptionSpec o = spec.optionsMap().get(eq < 0 ? a : a
				.substring(0, eq));
			if (o == null || o.usageHelp() || o.versionHelp()) return false;
		}
		return true;
	}

	/** The command object of the subcommand {@code name} (one of {@link #SUBCOMMANDS}). */
	private static Object subcommand(final String name) {
		switch (name) {
			case "fit":
				return new FitCommand();
			case "apply":
				return new ApplyCommand();
			case "generate":
				return new GenerateCommand();
			case "demo":
				return new DemoCommand();
			default:
				return BenchCommands.bench();
		}
	}

	/**
	 * Runs the command line, printing to the given writers (e.g. to capture the one-line
	 * error message), and returns the exit code: 0 on success, 1 for bad input or a failed
	 * computation, 2 for a wrong command line.
	 */
	public static int run(final PrintWriter out, final PrintWriter err,
		final String... args)
	{
		final CommandLine cl = commandLine(args);
		cl.setOut(out);
		cl.setErr(err);
		// colours only for a terminal that wants them (never in pipes, logs or tests)
		cl.setColorScheme(CommandLine.Help.defaultColorScheme(ansi()));
		cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
			if (e instanceof IllegalArgumentException || e instanceof CancellationException ||
				e instanceof NoSuchFileException || e instanceof ArithmeticException)
			{
				err.println("cpca: " + e.getMessage());
			}
			else if (e instanceof AccessDeniedException) {
				err.println("cpca: permission denied: " + e.getMessage() +
					"; check the file's permissions or choose another path");
			}
			else if (e instanceof FileSystemException) {
				final FileSystemException f = (FileSystemException) e;
				err.println("cpca: cannot use " + f.getFile() + (f.getReason() == null ? ""
					: " (" + f.getReason() + ")") + ": check the path");
			}
			else if (e instanceof IOException) {
				err.println("cpca: could not read or write a file: " + e.getMessage());
			}
			else {
				err.println("cpca: unexpected error: " + e);
				e.printStackTrace(err);
			}
			err.flush();
			return 1;
		});
		cl.setParameterExceptionHandler((e0, args1) -> {
			// an unknown option is the first thing to fix: "--taget" would otherwise be
			// reported as a missing --target, without the hint
			final List<String> unknown = e0.getCommandLine().getUnmatchedArguments();
			final CommandLine.ParameterException e = e0 instanceof CommandLine.MissingParameterException &&
				!unknown.isEmpty() ? new CommandLine.UnmatchedArgumentException(e0
					.getCommandLine(), unknown) : e0;
			String message = e.getMessage(), hint = "";
			if (e instanceof CommandLine.UnmatchedArgumentException) {
				// a mistyped subcommand or option: name the closest ones ("did you mean fit?")
				final CommandLine.UnmatchedArgumentException u =
					(CommandLine.UnmatchedArgumentException) e;
				final List<String> s = suggestions(u);
				if (!s.isEmpty()) hint = "; did you mean " + String.join(" or ", s.subList(0, Math
					.min(3, s.size()))) + "?";
				// an unknown option alone, not the value after it too
				final String first = u.getUnmatched().isEmpty() ? "" : u.getUnmatched().get(0);
				if (first.startsWith("-")) message = "Unknown option '" + first + "'";
			}
			final String name = e.getCommandLine().getCommandSpec().qualifiedName(" ");
			err.println("cpca: " + message + hint + " (see: " + name + " --help)");
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

	/**
	 * The subcommands or options nearest to the first unmatched argument: those within a
	 * small edit distance (a swapped pair of letters counts as one edit: "fti" → fit), or
	 * when there is none, picocli's own (similar letter pairs).
	 */
	static List<String> suggestions(final CommandLine.UnmatchedArgumentException e) {
		final List<String> out = new ArrayList<>();
		final List<String> unmatched = e.getUnmatched();
		if (unmatched == null || unmatched.isEmpty()) return out;
		String arg = unmatched.get(0);
		final CommandLine.Model.CommandSpec spec = e.getCommandLine().getCommandSpec();
		final Collection<String> names;
		if (arg.startsWith("-")) {
			if (arg.contains("=")) arg = arg.substring(0, arg.indexOf('='));
			names = new ArrayList<>();
			for (final CommandLine.Model.OptionSpec o : spec.options())
				names.addAll(Arrays.asList(o.names()));
		}
		else names = spec.subcommands().keySet();
		final String a = arg.replaceFirst("^-+", "");
		final int limit = Math.max(1, Math.min(2, a.length() / 3));
		for (final String n : names)
			if (editDistance(a, n.replaceFirst("^-+", "")) <= limit && !out.contains(n)) out.add(
				n);
		if (!out.isEmpty()) return out; // a near miss: picocli's looser ones would only blur it
		for (final String n : e.getSuggestions())
			if (!out.contains(n)) out.add(n);
		return out;
	}

	/** Optimal string alignment distance: insertions, deletions, substitutions, swaps. */
	static int editDistance(final String a, final String b) {
		final int[][] d = new int[a.length() + 1][b.length() + 1];
		for (int i = 0; i <= a.length(); i++)
			d[i][0] = i;
		for (int j = 0; j <= b.length(); j++)
			d[0][j] = j;
		for (int i = 1; i <= a.length(); i++)
			for (int j = 1; j <= b.length(); j++) {
				final int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
				d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] +
					cost);
				if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b
					.charAt(j - 1)) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
			}
		return d[a.length()][b.length()];
	}

	/**
	 * ANSI colours in help texts: only when the process has a terminal, standard error is
	 * one too (the launcher script tells, as {@code -Dcpca.stderr.tty}), and neither
	 * {@code NO_COLOR} nor {@code TERM=dumb} asks for none.
	 */
	static CommandLine.Help.Ansi ansi() {
		return terminal() && System.getenv("NO_COLOR") == null && !"dumb".equals(System
			.getenv("TERM")) ? CommandLine.Help.Ansi.AUTO : CommandLine.Help.Ansi.OFF;
	}

	/**
	 * Whether standard output and standard error are a terminal: the console exists and
	 * the launcher did not report a redirected standard error.
	 */
	static boolean terminal() {
		return System.console() != null && !"false".equals(System.getProperty(
			"cpca.stderr.tty"));
	}

	/** The version from the jar's manifest. */
	static final class Version implements CommandLine.IVersionProvider {

		@Override
		public String[] getVersion() {
			final String v = Main.class.getPackage().getImplementationVersion();
			final String version = "cpca " + (v == null ? "(development build)" : v);
			final String kernels = "kernels: " + Backend.describe();
			final String why = Backend.diagnostic(); // a native library that did not load
			return why == null ? new String[] { version, kernels } : new String[] { version,
				kernels, why };
		}
	}
}
