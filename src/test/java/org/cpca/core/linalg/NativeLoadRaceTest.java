package org.cpca.core.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.bytedeco.javacpp.Loader;
import org.bytedeco.openblas.global.openblas;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pinning OpenBLAS to one thread per call while other threads load native libraries
 * never hangs ({@link NativeBlas#oneThreadPerCall}). The presets' {@code
 * blas_set_num_threads}, used before, made JavaCPP open and close every loaded library
 * inside the C library's walk over them; a library loaded by another thread at that moment
 * deadlocked both (a one-shot {@code cpca fit} hung for good: the backend loading ahead, the
 * main thread loading AWT's library for ImageJ). In a child JVM, so that a hang is a
 * failure and not a hung build: the child pins the thread count over and over while
 * another of its threads loads 300 fresh copies of a small JDK library. With
 * {@code blas_set_num_threads} in its place the child hung in 3 of 4 runs.
 */
class NativeLoadRaceTest {

	/** Fresh library copies the child loads while it pins the thread count. */
	private static final int COPIES = 300;
	private static final int RUNS = 3;

	@Test
	void pinningWhileLibrariesLoadNeverHangs(@TempDir final Path dir) throws Exception {
		Assumptions.assumeTrue(Backend.isNative(), "the native backend is not in use");
		// a JDK library with no JNI_OnLoad, made for loading (JDK 17 and later)
		final Path library = Paths.get(System.getProperty("java.home"), "lib",
			"libsyslookup.so");
		Assumptions.assumeTrue(Files.isRegularFile(library), "no " + library);
		for (int run = 0; run < RUNS; run++) {
			final Path copies = Files.createDirectory(dir.resolve("run" + run));
			for (int i = 0; i < COPIES; i++)
				Files.copy(library, copies.resolve("libcopy" + i + ".so"));
			// the build's home (where JavaCPP keeps its cache), not the user's
			final List<String> cmd = new ArrayList<>(List.of(Paths.get(System.getProperty(
				"java.home"), "bin", "java").toString(), "-Xmx128m", "-Duser.home=" + System
					.getProperty("user.home"), "-cp", System.getProperty("java.class.path"),
				Child.class.getName(), copies.toString()));
			final Path out = dir.resolve("out" + run);
			final Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(
				out.toFile()).start();
			final boolean ended = p.waitFor(60, TimeUnit.SECONDS);
			if (!ended) p.destroyForcibly().waitFor();
			final String text = new String(Files.readAllBytes(out), StandardCharsets.UTF_8);
			assertTrue(ended, "run " + run + ": the child hung pinning OpenBLAS's threads " +
				"while libraries loaded; its output: " + text);
			assertEquals(0, p.exitValue(), "run " + run + ": " + text);
			// every copy loaded: the race was run, not skipped by a failing load
			assertTrue(text.contains("loaded " + COPIES + " of " + COPIES), "run " + run + ": " +
				text);
		}
	}

	/** The child: pins the thread count until its other thread has loaded every copy. */
	static final class Child {

		public static void main(final String[] args) throws IOException, InterruptedException {
			Loader.load(openblas.class);
			final List<Path> copies = new ArrayList<>();
			try (java.util.stream.Stream<Path> s = Files.list(Paths.get(args[0]))) {
				s.sorted().forEach(copies::add);
			}
			final AtomicInteger loaded = new AtomicInteger();
			final Thread loader = new Thread(() -> copies.forEach(c -> {
				System.load(c.toString());
				loaded.incrementAndGet();
			}));
			loader.setDaemon(true);
			loader.start();
			int pins = 0;
			while (loader.isAlive() || pins == 0) {
				NativeBlas.oneThreadPerCall();
				pins++;
			}
			loader.join();
			System.out.println("loaded " + loaded.get() + " of " + copies.size() +
				" libraries, pinned " + pins + " times");
		}
	}
}
