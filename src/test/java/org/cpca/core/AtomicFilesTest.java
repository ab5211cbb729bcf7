package org.cpca.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Atomic writes to names of up to 255 bytes in letters of one to four bytes. */
class AtomicFilesTest {

	@TempDir
	Path dir;

	@Test
	void namesUpTo255BytesAreWrittenWhateverTheirLetters() throws Exception {
		for (final String letter : new String[] { "a", "é", "中", "😀" }) {
			final int n = 255 / letter.getBytes(StandardCharsets.UTF_8).length;
			final String name = String.join("", Collections.nCopies(n, letter));
			final String tmp = AtomicFiles.temporaryName(name);
			assertTrue(tmp.getBytes(StandardCharsets.UTF_8).length <= 255, tmp);
			assertTrue(tmp.startsWith("."), tmp);
			final Path file = dir.resolve(name);
			AtomicFiles.write(file, t -> Files.write(t, letter.getBytes(StandardCharsets.UTF_8)));
			assertEquals(letter, Files.readString(file));
			Files.delete(file);
		}
		try (Stream<Path> s = Files.list(dir)) {
			assertEquals(0, s.count());
		}
	}
}
