package org.cpca.cli;

import org.cpca.bench.Bench;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;

/** {@code cpca bench}: the speed benchmarks on generated data. */
@Command(name = "bench", mixinStandardHelpOptions = true,
	description = "Time the solvers on generated data of the sizes the project " +
		"promises and print a table: per case the median of 5 timed runs after a JIT " +
		"warm-up (in-process wall-clock; the first run's time in the note where it " +
		"matters). Other processes inflate the times: compare ratios and repeat.")
final class BenchCommand implements Callable<Integer> {

	@picocli.CommandLine.Option(names = "--only", paramLabel = "GROUP", split = ",",
		description = "Run only these groups of cases (comma-separated; default: all): " +
			"linear and one group per further method.")
	java.util.List<String> only;

	@Override
	public Integer call() {
		Bench.run(System.out, only == null ? Bench.GROUPS.keySet() : only);
		return 0;
	}
}
