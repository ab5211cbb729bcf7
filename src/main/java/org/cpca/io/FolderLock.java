package org.cpca.io;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;

/**
 * The lock of a results folder: a folder made atomically, holding its owner's process id
 * and start time. A second run into the same folder is refused while the owner lives; a
 * lock whose owner is gone (killed, or a zombie waiting to be reaped) or whose content is
 * damaged is replaced, with a note.
 * <p>
 * Locks and staging folders beside {@code --out} are named by a 64-bit digest of the
 * folder's real path ({@link #digest}), so that two folders in the same parent do not
 * share a lock.
 */
final class FolderLock {

	/** How long a lock may stay without its owner line (it is written right after). */
	private static final long UNWRITTEN_GRACE_MS = 2_000;
	private static final String OWNER = "owner";

	private FolderLock() {}

	/**
	 * The folder's real path as 16 hex digits: its CRC-32C and CRC-32 (the JDK's checksums,
	 * already loaded to read the jar). A name needs no secrecy, only to differ between the
	 * folders of one parent (a chance of 2⁻⁶⁴ per pair), and a cryptographic digest loaded
	 * the JDK's security providers, 2–12 ms of a one-shot run (docs/speed.md, the start
	 * and the exit). Until 2026-11-29 the name was the path's SHA-256.
	 */
	static String digest(final Path realDir) {
		final byte[] path = realDir.toString().getBytes(StandardCharsets.UTF_8);
		final Checksum c = new CRC32C(), d = new CRC32();
		c.update(path, 0, path.length);
		d.update(path, 0, path.length);
		return hex8(c.getValue()) + hex8(d.getValue());
	}

	/** A 32-bit value as 8 hex digits, with leading zeros. */
	private static String hex8(final long value) {
		return Long.toHexString(value | 1L << 32).substring(1);
	}

	/**
	 * Takes the lock (the folder {@code lock}); a stop (SIGINT/SIGTERM) from the moment it
	 * exists removes it ({@link ExitCleanup}).
	 *
	 * @param what how messages name the results folder ("--out DIR")
	 * @param notes receives a note when a stale or damaged lock was replaced
	 * @throws IllegalArgumentException while another live run holds it
	 * @throws IOException when the lock cannot be made (e.g. a read-only parent)
	 */
	static void take(final Path lock, final String what, final List<String> notes)
		throws IOException
	{
		final ProcessHandle self = ProcessHandle.current();
		final String stamp = self.pid() + " " + self.info().startInstant().map(
			Instant::toEpochMilli).orElse(0L);
		for (int attempt = 0; attempt < 3; attempt++) {
			try {
				ExitCleanup.make(lock, () -> Files.createDirectory(lock), () -> {
					try {
						OutputFolder.deleteTree(lock);
					}
					catch (final IOException e) {
						// the next run finds its owner gone and replaces it
					}
				}, "stopped: nothing was written into " + what);
			}
			catch (final FileAlreadyExistsException e) {
				final String stale = staleness(lock, what);
				if (stale == null) continue; // gone meanwhile: try again
				notes.add(stale);
				OutputFolder.deleteTree(lock);
				continue;
			}
			Files.write(lock.resolve(OWNER), stamp.getBytes(StandardCharsets.UTF_8));
			return;
		}
		throw busy(what, null);
	}

	/**
	 * Why an existing lock may be replaced (a note), or null when it vanished meanwhile.
	 *
	 * @throws IllegalArgumentException while its owner runs
	 */
	private static String staleness(final Path lock, final String what) throws IOException {
		final String owner;
		try {
			owner = new String(Files.readAllBytes(lock.resolve(OWNER)), StandardCharsets.UTF_8)
				.trim();
		}
		catch (final NoSuchFileException e) {
			final Optional<Long> age = age(lock);
			if (!age.isPresent()) return null;
			if (age.get() < UNWRITTEN_GRACE_MS) throw busy(what, null); // being made now
			return "replaced the lock of " + what + " that a run stopped before it was " +
				"complete left behind";
		}
		catch (final IOException e) {
			return "replaced the damaged lock of " + what + " (" + e.getClass()
				.getSimpleName() + ")";
		}
		final String[] f = owner.split("\\s+");
		final long pid, start;
		try {
			if (f.length != 2) throw new NumberFormatException();
			pid = Long.parseLong(f[0]);
			start = Long.parseLong(f[1]);
		}
		catch (final NumberFormatException e) {
			return "replaced the damaged lock of " + what + " (it did not hold a process id)";
		}
		if (alive(pid, start)) throw busy(what, pid);
		return "replaced the lock of " + what + " left by process " + pid + ", which is no " +
			"longer running";
	}

	private static Optional<Long> age(final Path p) {
		try {
			return Optional.of(System.currentTimeMillis() - Files.getLastModifiedTime(p)
				.toMillis());
		}
		catch (final IOException e) {
			return Optional.empty();
		}
	}

	/**
	 * Whether process {@code pid}, started at {@code start} (epoch ms, 0: unknown), runs: a
	 * zombie (ended, not yet reaped by its parent) does not.
	 */
	static boolean alive(final long pid, final long start) {
		final Optional<ProcessHandle> p = ProcessHandle.of(pid);
		if (!p.isPresent() || !p.get().isAlive()) return false;
		if (start != 0 && !p.get().info().startInstant().map(i -> i.toEpochMilli() == start)
			.orElse(true)) return false; // the id was reused by another process
		return !zombie(pid);
	}

	/** Linux: the state letter in /proc/PID/stat is Z (or X) for a process that ended. */
	static boolean zombie(final long pid) {
		final Path stat = Paths.get("/proc", Long.toString(pid), "stat");
		try {
			final String s = new String(Files.readAllBytes(stat), StandardCharsets.US_ASCII);
			final int close = s.lastIndexOf(')'); // the command name may hold spaces
			if (close < 0 || close + 2 >= s.length()) return false;
			final char state = s.charAt(close + 2);
			return state == 'Z' || state == 'X';
		}
		catch (final IOException | RuntimeException e) {
			return false; // no /proc: ProcessHandle's answer stands
		}
	}

	private static IllegalArgumentException busy(final String what, final Long pid) {
		return new IllegalArgumentException(what + " is being written by another run" +
			(pid != null ? " (process " + pid + ")" : "") + ": wait until it has finished, " +
			"or choose another folder");
	}
}
