package org.cpca.core;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes files atomically: the content goes to a temporary file in the same folder, which
 * is then moved over the destination, so a reader never sees a partial file and a failed
 * write leaves the old file (if any) in place.
 */
public final class AtomicFiles {

	/** Bytes in one file name (Linux, macOS, Windows: 255). */
	static final int NAME_MAX = 255;
	private static final AtomicLong COUNTER = new AtomicLong();

	/** Fills the temporary file it is given. */
	@FunctionalInterface
	public interface Content {

		void writeTo(Path temporary) throws IOException;
	}

	private AtomicFiles() {}

	/**
	 * A hidden temporary name for {@code name} in its folder, within a file name's
	 * {@value #NAME_MAX} bytes: the name is cut (at a character, counting UTF-8 bytes) to
	 * leave room for the process id and a counter.
	 */
	static String temporaryName(final String name) {
		final String suffix = "." + ProcessHandle.current().pid() + "." + COUNTER
			.incrementAndGet() + ".tmp";
		final int room = NAME_MAX - 1 - suffix.length();
		int end = 0, bytes = 0;
		while (end < name.length()) {
			final int cp = name.codePointAt(end);
			final int b = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8)
				.length;
			if (bytes + b > room) break;
			bytes += b;
			end += Character.charCount(cp);
		}
		return "." + name.substring(0, end) + suffix;
	}

	/**
	 * Writes {@code file} (creating missing parent folders) through a temporary file.
	 *
	 * @throws IOException if the content cannot be written or moved into place
	 */
	public static void write(final Path file, final Content content) throws IOException {
		final Path target = file.toAbsolutePath();
		final Path dir = target.getParent();
		Files.createDirectories(dir);
		// a fresh name, not a pre-created file, so the writer's usual permissions apply
		final Path tmp = dir.resolve(temporaryName(target.getFileName().toString()));
		try {
			content.writeTo(tmp);
			if (!Files.exists(tmp)) throw new IOException("nothing was written to " + file);
			try {
				Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE,
					StandardCopyOption.REPLACE_EXISTING);
			}
			catch (final AtomicMoveNotSupportedException e) {
				Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
			}
		}
		finally {
			Files.deleteIfExists(tmp);
		}
	}
}
