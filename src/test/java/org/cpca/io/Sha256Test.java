package org.cpca.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.util.Locale;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * {@link Sha256} is SHA-256: the standard's example and the JDK's digest of seeded random
 * messages of every length up to five blocks (the padding's cases: a length field that
 * fits the last block or needs another), and the lock names stay what they were.
 */
class Sha256Test {

	@Test
	void theStandardsExample() {
		assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", hex(
			Sha256.of("abc".getBytes(StandardCharsets.US_ASCII))));
		assertEquals("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", hex(
			Sha256.of(new byte[0])));
	}

	@Test
	void theJdksDigestOfEveryLength() throws Exception {
		final Random r = new Random(29);
		final MessageDigest jdk = MessageDigest.getInstance("SHA-256");
		for (int n = 0; n <= 320; n++)
			for (int rep = 0; rep < 3; rep++) {
				final byte[] m = new byte[n];
				r.nextBytes(m);
				assertArrayEquals(jdk.digest(m), Sha256.of(m), "length " + n);
			}
	}

	@Test
	void lockNamesAreTheJdksSha256OfThePath() throws Exception {
		final String path = "/tmp/résultats/run 1";
		assertEquals(hex(MessageDigest.getInstance("SHA-256").digest(path.getBytes(
			StandardCharsets.UTF_8))), FolderLock.digest(Paths.get(path)));
	}

	private static String hex(final byte[] b) {
		final StringBuilder sb = new StringBuilder();
		for (final byte x : b)
			sb.append(String.format(Locale.ROOT, "%02x", x & 255));
		return sb.toString();
	}
}
