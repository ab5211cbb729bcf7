package org.cpca.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Paths;
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

/**
 * The lock's name ({@link FolderLock#digest}): 16 lower-case hex digits, the same for the
 * same path, different for the folders of one parent, non-ASCII names included.
 */
class FolderLockNameTest {

	@Test
	void sixteenHexDigitsStableAndDistinct() {
		final String a = FolderLock.digest(Paths.get("/tmp/résultats/run 1"));
		assertTrue(a.matches("[0-9a-f]{16}"), a);
		assertEquals(a, FolderLock.digest(Paths.get("/tmp/résultats/run 1")));
		assertNotEquals(a, FolderLock.digest(Paths.get("/tmp/résultats/run 2")));
		// the CRC-32C of the empty path is 0: leading zeros are kept
		assertEquals("0000000000000000", FolderLock.digest(Paths.get("")));
		final Set<String> names = new HashSet<>();
		for (int i = 0; i < 20_000; i++)
			names.add(FolderLock.digest(Paths.get("/data/results/run-" + i)));
		assertEquals(20_000, names.size());
	}
}
