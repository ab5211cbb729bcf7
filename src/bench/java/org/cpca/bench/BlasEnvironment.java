package org.cpca.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.cpca.core.linalg.Backend;

/**
 * The OpenBLAS environment of the bench's child processes. A machine may pin OpenBLAS's
 * kernels with {@code OPENBLAS_CORETYPE} (this project's sets {@code Haswell}: AVX2 on an
 * AVX-512 CPU) and its cache size with {@code OPENBLAS_L2_SIZE}; the numpy peer runs
 * without both, so that it uses the kernels OpenBLAS picks for the CPU, and our children
 * run the same way, so that the two sides compare like with like (docs/speed.md,
 * backends). The variables are removed in the children only: this JVM, the tests and CI
 * keep the environment as it is.
 * <p>
 * OpenBLAS's kernels are named by {@code openblas_get_corename()}, which the JavaCPP
 * presets do not map; {@link #coreName} asks a child JVM, started with
 * {@code OPENBLAS_VERBOSE=2}, which makes OpenBLAS print "Core: NAME" as it loads.
 */
final class BlasEnvironment {

	/** The variables removed in the children. */
	static final List<String> PINNING = List.of("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE");

	private BlasEnvironment() {}

	/** The process builder with {@link #PINNING} removed from its environment. */
	static ProcessBuilder unpinned(final ProcessBuilder pb) {
		final Map<String, String> env = pb.environment();
		for (final String v : PINNING)
			env.remove(v);
		return pb;
	}

	/** Whether this process runs with none of {@link #PINNING} set. */
	static boolean unpinned() {
		for (final String v : PINNING)
			if (System.getenv(v) != null) return false;
		return true;
	}

	/** "OPENBLAS_CORETYPE=Haswell, OPENBLAS_L2_SIZE=512": what this process has set. */
	static String pinning() {
		final List<String> set = new ArrayList<>();
		for (final String v : PINNING)
			if (System.getenv(v) != null) set.add(v + "=" + System.getenv(v));
		return String.join(", ", set);
	}

	/**
	 * The name of the kernels OpenBLAS picks in a child JVM with this process's
	 * environment without {@link #PINNING} (e.g. "Cooperlake": its AVX-512 kernels), or
	 * "unknown" when the child does not say.
	 */
	static String coreName() {
		final List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty(
			"java.home"), "bin", "java").toString(), "-cp", System.getProperty(
				"java.class.path"), BlasEnvironment.class.getName()));
		final ProcessBuilder pb = unpinned(new ProcessBuilder(cmd)).redirectErrorStream(true);
		pb.environment().put("OPENBLAS_VERBOSE", "2");
		try {
			final Process p = pb.start();
			final String text = new String(p.getInputStream().readAllBytes(),
				StandardCharsets.UTF_8);
			if (!p.waitFor(60, TimeUnit.SECONDS)) p.destroy();
			for (final String line : text.split("\n"))
				if (line.startsWith("Core: ")) return line.substring(6).trim();
		}
		catch (final IOException e) {
			// no child: unknown
		}
		catch (final InterruptedException e) {
			Thread.currentThread().interrupt();
		}
		return "unknown";
	}

	/** The probe of {@link #coreName}: loads the native backend and ends. */
	public static void main(final String[] args) {
		System.out.println(Backend.isNative() ? "native" : Backend.diagnostic());
	}
}
