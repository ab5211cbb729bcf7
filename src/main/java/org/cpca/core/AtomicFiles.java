package org.cpca.core;

import java.io.IOException;
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

	private static final AtomicLong COUNTER = new AtomicLong();

	/** Fills the temporary file it is given. */
	@FunctionalInterface
	public interface Content {

		void writeTo(Path temporary) throws IOException;
	}

	private AtomicFiles() {}

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
		final String name = target.getFileName().toString();
		final Path tmp = dir.resolve("." + (name.length() > 200 ? name.substring(0, 200) :
			name) + "." + ProcessHandle.current().pid() + "." + COUNTER.incrementAndGet() +
			".tmp"); // within a file name's 255 bytes for ASCII names
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
