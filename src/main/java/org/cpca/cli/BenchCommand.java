package org.cpca.cli;

import org.cpca.bench.Bench;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;

/** {@code cpca bench}: the speed benchmarks on generated data. */
@Command(name = "bench", mixinStandardHelpOptions = true,
	description = "Time the solvers on generated data of the sizes the project " +
		"promises (in-process, best of several runs) and print a table.")
final class BenchCommand implements Callable<Integer> {

	@picocli.CommandLine.Option(names = "--only", paramLabel = "GROUP", split = ",",
		description = "Run only these groups of cases (comma-separated; default: all): " +
			"linear, one group per further method (star, online, kernel, uca), and oneshot " +
			"(a whole cpca fit --alpha auto process against the numpy peer " +
			"src/bench/peer_fit_auto.py).")
	java.util.List<String> only;

	@Override
	public Integer call() {
		Bench.run(System.out, only == null ? Bench.GROUPS.keySet() : only);
		return 0;
	}
}
