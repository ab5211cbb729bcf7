package org.cpca.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cpca bench}: the speed benchmarks on generated data. The command line
 * ({@code org.cpca.cli.Main}) adds it when the bench jar is on the class path (the
 * {@code cpca} launcher puts it there for {@code cpca bench}); the plugin jar has no bench.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
	description = "Time the solvers on generated data of the sizes the project " +
		"promises and print a table: per case the median of 5 timed runs after a JIT " +
		"warm-up (in-process wall-clock; the first run's time in the note where it " +
		"matters). Other processes inflate the times: compare ratios and repeat.")
public final class BenchCommand implements Callable<Integer> {

	@Option(names = "--only", paramLabel = "GROUP", split = ",",
		description = "Run only these groups of cases (comma-separated; default: all): " +
			"linear, one group per further method (star, online, kernel, uca), oneshot " +
			"(whole cpca fit processes at one α and automatic α against the numpy peer " +
			"src/bench/peer_fit.py), and products (the covariance, block-product and " +
			"Gram kernels against this CPU's measured double-precision peak), generate " +
			"(cpca generate's 3,000 + 3,000 slices of 256 x 256 with their files), " +
			"significance (1,000 permutations of cPCA at one α) and stream (cPCA from TIFF " +
			"stacks on disk, streamed by feature tiles against read into memory).")
	List<String> only;

	@Option(names = "--peer", paramLabel = "SET", arity = "0..1",
		fallbackValue = "default", description = "Instead of the table: our solvers against " +
			"the numpy/scipy peer (src/bench/numpy_peer.py) in alternating pairs of fresh " +
			"processes, median ratio with the load average. SET: default, one, auto784, auto3136, " +
			"images (2,000 + 2,000 × 65,536), images500 (500 + 500 × 65,536), scaling (the " +
			"grid of docs/scaling.md) or single grid cells such as one:5000x784,auto:1000x196; " +
			"each case also reports the peak resident memory of both sides.")
	String peer;

	@Option(names = "--stream-goal", paramLabel = "DIR", description = "Instead of the " +
		"table: the goal for data larger than the heap (docs/memory.md) — cpca fit at one α " +
		"and automatic α on 2,000 + 2,000 float32 slices of 512 × 512 in DIR (made there " +
		"once, 4.2 GB, and reused), in memory with -Xmx10g against -Xmx1g (streamed): wall " +
		"time ratio, peak resident memory of each process, eigenvalues and subspace angle.")
	Path streamGoal;

	@Option(names = "--stream-heap", paramLabel = "SIZE", defaultValue = "1g",
		description = "With --stream-goal: the streamed run's heap limit (default 1g, the " +
			"goal's).")
	String streamHeap;

	@Option(names = "--fiji-goal", paramLabel = "DIR", description = "Instead of the " +
		"table: the same goal for Fiji (docs/memory.md) — Contrastive PCA... at one α and " +
		"automatic α on DIR's target.tif and background.tif (made by --stream-goal) opened " +
		"as TIFF virtual stacks, headless in a child JVM with each --fiji-heap, against cpca " +
		"fit in memory with -Xmx10g: wall time ratio, peak resident memory, bytes read, " +
		"eigenvalues and subspace angle. DIR is only read.")
	Path fijiGoal;

	@Option(names = "--fiji-heap", paramLabel = "SIZE", split = ",", defaultValue = "1g",
		description = "With --fiji-goal: the command's heap limits, comma-separated (default " +
			"1g, the goal's; e.g. 1g,1200m).")
	List<String> fijiHeaps;

	@Option(names = "--pairs", defaultValue = "5",
		description = "Pairs of runs per case with --peer (default 5).")
	int pairs;

	@Option(names = "--peer-threads", defaultValue = "0",
		description = "Threads per side with --peer (default 0: all cores).")
	int peerThreads;

	@Option(names = "--kernels", paramLabel = "BACKENDS", split = ",",
		description = "With --peer: run our side once per pair on each of these backends " +
			"(native, vector, scalar; comma-separated), e.g. native,vector to see the Java " +
			"fallback's ratio in the same run (default: the backend this JVM would use).")
	List<String> kernels;

	@Option(names = "--default-heap", description = "With --peer: run " +
		"our side with the JVM's default heap (no -Xmx) instead of the heap docs/memory.md " +
		"prescribes.")
	boolean defaultHeap;

	@Option(names = "--python", defaultValue = "python3",
		description = "Python interpreter with numpy and scipy for --peer.")
	String python;

	@Override
	public Integer call() throws Exception {
		if (streamGoal != null) {
			StreamGoalBench.run(System.out, streamGoal, streamHeap);
			return 0;
		}
		if (fijiGoal != null) {
			FijiGoalBench.run(System.out, fijiGoal, fijiHeaps);
			return 0;
		}
		if (peer != null) {
			final String home = System.getProperty("cpca.home", ".");
			PeerBench.defaultHeap(defaultHeap);
			PeerBench.run(System.out, peer, pairs, Path.of(home, "src", "bench",
				"numpy_peer.py"), python, peerThreads, kernels == null ? List.of() : kernels);
			return 0;
		}
		Bench.run(System.out, only == null ? Bench.GROUPS.keySet() : only);
		return 0;
	}
}
