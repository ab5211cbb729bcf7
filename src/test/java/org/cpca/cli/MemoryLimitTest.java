package org.cpca.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;
import ij.ImageStack;
import ij.process.ByteProcessor;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.cpca.core.Memory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Memory is checked before it is spent: {@code cpca} in a JVM with a small heap refuses an
 * input that does not fit with one line (needed, available, fixes) instead of an
 * {@link OutOfMemoryError} trace.
 */
class MemoryLimitTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	@TempDir
	Path dir;

	@Test
	void aStackLargerThanTheHeapIsRefusedInOneLine() throws Exception {
		// 600 slices of 128 × 128 8-bit: a 10 MB file, 39 MB as float samples
		final Random r = new Random(1);
		final ImageStack s = new ImageStack(128, 128);
		for (int i = 0; i < 600; i++) {
			final byte[] px = new byte[128 * 128];
			r.nextBytes(px);
			s.addSlice(new ByteProcessor(128, 128, px));
		}
		final Path t = BadInputsTest.save(dir.resolve("t.tif"), new ImagePlus("t", s));
		final Path b = BadInputsTest.save(dir.resolve("b.tif"), new ImagePlus("b", s));
		final List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty(
			"java.home"), "bin", "java").toString(), "-Xmx40m", "-Djava.awt.headless=true",
			"-cp", System.getProperty("java.class.path"), Main.class.getName(), "fit",
			"--target", t.toString(), "--background", b.toString(), "--out", dir.resolve("out")
				.toString()));
		final Process p = new ProcessBuilder(cmd).redirectOutput(dir.resolve("stdout")
			.toFile()).redirectError(dir.resolve("stderr").toFile()).start();
		assertTrue(p.waitFor(300, TimeUnit.SECONDS), "cpca did not finish");
		final String err = new String(Files.readAllBytes(dir.resolve("stderr")),
			StandardCharsets.UTF_8).trim();
		assertEquals(1, p.exitValue(), err);
		assertFalse(err.contains("\n"), err);
		assertFalse(err.contains("OutOfMemoryError") || err.contains("\tat "), err);
		assertTrue(err.startsWith("cpca: not enough memory ") || err.startsWith(
			"cpca: ran out of memory"), err);
		// 1,200 samples: the N × N Gram matrix of the streamed plan is what does not fit,
		// so the one option offered is the method whose memory does not grow with N
		assertTrue(err.contains("-Xmx") && err.contains("N = 1200 samples") && err.contains(
			"--method online"), err);
		assertFalse(Files.exists(dir.resolve("out")));
	}

	@Test
	void theLineSaysWhatWasNeededAndWhatIsAvailable() {
		final IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
			IllegalArgumentException.class, () -> Memory.require("the covariances", 3L << 30,
				256L << 20, "use --bin 2"));
		assertEquals("not enough memory for the covariances: it needs 3.0 GB but only " +
			"256 MB is available; use --bin 2, or " + Memory.MORE_HEAP, e.getMessage());
		Memory.require("a little", 10, 11, "");
		assertEquals(Long.MAX_VALUE, Memory.times(1L << 40, 1L << 40));
		assertEquals(Long.MAX_VALUE, Memory.doubles(20000L * 20000, 100L * 1000 * 1000 * 1000));
	}
}
