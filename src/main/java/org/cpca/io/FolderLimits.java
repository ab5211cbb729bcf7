package org.cpca.io;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Locale;

/**
 * What the file system allows a results folder, checked before any input is read or
 * anything is fitted: the length of its name and path, whether it is a mount point (which
 * cannot be replaced by a rename), and the free space for the results.
 */
final class FolderLimits {

	/** Bytes in one file name (Linux, macOS, Windows: 255). */
	static final int NAME_MAX = 255;
	/** Bytes in a path handed to the system (Linux: 4,096 with the final NUL). */
	static final int PATH_MAX = 4095;
	/** Room the deepest result file and the staging folder take below the folder. */
	private static final int DEEPEST_RESULT = 120;
	/** Margin kept free beside the results' estimate. */
	private static final long SPACE_MARGIN = 1 << 20;

	private FolderLimits() {}

	/**
	 * Refuses a folder whose name, or a folder on whose path, is longer than a file name
	 * may be, and a path too long for the results below it.
	 *
	 * @param real the folder as a real path; {@code what} names it in messages
	 */
	static void checkLength(final Path real, final String what) {
		for (int i = 0; i < real.getNameCount(); i++) {
			final Path name = real.getName(i);
			final int bytes = name.toString().getBytes(StandardCharsets.UTF_8).length;
			if (bytes > NAME_MAX) throw new IllegalArgumentException(shorten(what) + ": " +
				(i == real.getNameCount() - 1 ? "its name" : "the name of the folder " + shorten(name.toString()) +
					" on its path") + " is " + bytes + " bytes long, more than the " + NAME_MAX +
				" a file system allows for one name: choose a shorter name");
		}
		final int bytes = real.toString().getBytes(StandardCharsets.UTF_8).length;
		if (bytes + DEEPEST_RESULT > PATH_MAX) throw new IllegalArgumentException(shorten(
			what) + " is a path of " + bytes + " bytes, too long for the results below it " +
			"(the system allows " + (PATH_MAX + 1) + " bytes in a path): choose a folder with " +
			"a path shorter than " + (PATH_MAX - DEEPEST_RESULT) + " bytes");
	}

	/** Whether the existing folder {@code dir} is a mount point (another file system). */
	static boolean mountPoint(final Path dir) {
		final Path parent = dir.getParent();
		if (parent == null || !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) return false;
		try {
			return !Files.getAttribute(dir, "unix:dev").equals(Files.getAttribute(parent,
				"unix:dev"));
		}
		catch (final IOException | UnsupportedOperationException | IllegalArgumentException e) {
			try {
				return !Files.getFileStore(dir).equals(Files.getFileStore(parent));
			}
			catch (final IOException e2) {
				return false;
			}
		}
	}

	/**
	 * Refuses when the file system of {@code dir} (or of its nearest existing parent) has
	 * less usable space than {@code bytes} and a margin.
	 */
	static void checkSpace(final Path dir, final long bytes, final String what)
		throws IOException
	{
		Path p = dir;
		while (p != null && !Files.exists(p))
			p = p.getParent();
		if (p == null) return;
		final FileStore store = Files.getFileStore(p);
		final long free = store.getUsableSpace();
		if (free < bytes + SPACE_MARGIN) throw new IllegalArgumentException(what +
			": its file system has " + size(free) + " free but the results need about " + size(
				bytes + SPACE_MARGIN) + ": free some space or choose a folder on another disk " +
			"(nothing was fitted or written)");
	}

	/** A byte count for people: 512 bytes, 3.4 KB, 12 MB, 1.5 GB. */
	static String size(final long bytes) {
		if (bytes < 1024) return bytes + " bytes";
		final String[] units = { "KB", "MB", "GB", "TB" };
		double v = bytes;
		int u = -1;
		while (v >= 1024 && u < units.length - 1) {
			v /= 1024;
			u++;
		}
		return String.format(Locale.ROOT, v < 10 ? "%.1f %s" : "%.0f %s", v, units[u]);
	}

	/** A long text cut in its middle (a 4,000-character path in a one-line message). */
	static String shorten(final String s) {
		return s.length() <= 160 ? s : s.substring(0, 60) + "…(" + (s.length() - 120) +
			" characters)…" + s.substring(s.length() - 60);
	}
}
