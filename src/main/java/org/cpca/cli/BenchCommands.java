package org.cpca.cli;

import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * {@code cpca bench}: the benchmarks live in their own source set ({@code src/bench/java},
 * package {@code org.cpca.bench}) and their own jar, so that neither the plugin jar nor
 * the command-line jar carries them; the {@code cpca} launcher puts the bench jar on the
 * class path for {@code cpca bench}. Without it the subcommand says where to run it.
 */
final class BenchCommands {

	/** The benchmarks' command in the bench source set, looked up by name. */
	static final String BENCH = "org.cpca.bench.BenchCommand";

	private BenchCommands() {}

	/** The bench command when the bench is on the class path, else {@link Missing}. */
	static Object bench() {
		return bench(BENCH);
	}

	/** The command of class {@code name} when it is on the class path, else {@link Missing}. */
	static Object bench(final String name) {
		try {
			return Class.forName(name).getConstructor().newInstance();
		}
		catch (final ClassNotFoundException e) {
			return new Missing();
		}
		catch (final ReflectiveOperationException e) {
			throw new IllegalStateException("cannot start " + name + ": " + e, e);
		}
	}

	/** {@code cpca bench} where the benchmarks are not on the class path. */
	@Command(name = "bench", description = "Time the solvers on generated data (only " +
		"from a source checkout, by the cpca launcher).")
	static final class Missing implements Callable<Integer> {

		@Unmatched
		List<String> ignored;

		@Override
		public Integer call() {
			throw new IllegalArgumentException("the benchmarks are not in this jar: run " +
				"./cpca bench in a source checkout (the launcher builds the bench jar, " +
				"target/Contrastive_PCA_-VERSION-bench.jar, and puts it on the class path)");
		}
	}
}
