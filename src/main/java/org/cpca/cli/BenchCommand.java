package org.cpca.cli;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;

/** {@code cpca bench}: the speed benchmarks on generated data. */
@Command(name = "bench", mixinStandardHelpOptions = true,
	description = "Time the solvers on generated data of the sizes the project " +
		"promises (in-process, best of several runs) and print a table.")
final class BenchCommand implements Callable<Integer> {

	@Override
	public Integer call() {
		Bench.run(System.out);
		return 0;
	}
}
