package org.cpca.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The manifest of a results folder ({@value OutputFolder#MANIFEST}): the files of the
 * tool's last results there, one relative path a line — the only files
 * {@code --overwrite} replaces. It is read defensively, as anyone may have edited it: a
 * line that is not valid UTF-8, not a plain relative path, or that leads out of the folder
 * (through a symbolic link: its real path is compared with the folder's) is ignored with
 * a note, so nothing outside the folder is ever moved or deleted.
 */
final class Manifest {

	private static final String PREFIX = ".cpca-";

	private Manifest() {}

	/**
	 * The entries of the manifest of {@code dir} (a real path) that lie inside it.
	 *
	 * @param what how messages name the folder ("--out DIR")
	 * @param notes receives one note when lines were ignored (null: say nothing)
	 */
	static Set<String> read(final Path dir, final String what, final List<String> notes)
		throws IOException
	{
		final Path m = dir.resolve(OutputFolder.MANIFEST);
		final Set<String> files = new LinkedHashSet<>();
		if (!Files.isRegularFile(m, LinkOption.NOFOLLOW_LINKS)) return files;
		int ignored = 0;
		for (final byte[] line : lines(Files.readAllBytes(m))) {
			final String l = utf8(line);
			if (l == null) {
				ignored++;
				continue;
			}
			final String t = l.trim();
			if (t.isEmpty() || t.startsWith("#")) continue;
			if (!safeRelative(t) || !inside(dir, t)) {
				ignored++;
				continue;
			}
			files.add(t);
		}
		if (ignored > 0 && notes != null) notes.add("ignored " + ignored + " line" +
			(ignored == 1 ? "" : "s") + " of the list of earlier results in " + what + " (" +
			OutputFolder.MANIFEST + ") that " + (ignored == 1 ? "is" : "are") + " not a file " +
			"inside the folder; files outside it are never touched");
		return files;
	}

	/** Writes the manifest listing {@code files}. */
	static void write(final Path file, final Collection<String> files) throws IOException {
		final StringBuilder sb = new StringBuilder("# the files of the last cpca results in " +
			"this folder; cpca --overwrite replaces these and no others\n");
		for (final String f : files)
			sb.append(f).append('\n');
		Files.write(file, sb.toString().getBytes(StandardCharsets.UTF_8));
	}

	/** A relative, normalised name that is not one of the tool's own hidden entries. */
	static boolean safeRelative(final String rel) {
		final Path p;
		try {
			p = Paths.get(rel);
		}
		catch (final RuntimeException e) {
			return false; // e.g. a NUL character
		}
		return !p.isAbsolute() && !rel.startsWith(PREFIX) && p.normalize().equals(p) &&
			!p.startsWith("..") && p.getNameCount() > 0 && !rel.isEmpty();
	}

	/**
	 * Whether {@code rel}'s folder, with symbolic links resolved, is {@code dir} or inside
	 * it (the entry itself may be a link: moving it moves the link, not what it points to).
	 */
	static boolean inside(final Path dir, final String rel) {
		Path parent = dir.resolve(rel).getParent();
		// the existing part of the parent decides; what does not exist yet is made inside
		while (parent != null && !Files.exists(parent, LinkOption.NOFOLLOW_LINKS))
			parent = parent.getParent();
		if (parent == null) return false;
		try {
			return parent.toRealPath().startsWith(dir);
		}
		catch (final IOException e) {
			return false; // a dangling or looping link
		}
	}

	private static List<byte[]> lines(final byte[] all) {
		final List<byte[]> out = new ArrayList<>();
		int start = 0;
		for (int i = 0; i <= all.length; i++)
			if (i == all.length || all[i] == '\n') {
				int end = i;
				if (end > start && all[end - 1] == '\r') end--;
				if (end > start || i < all.length) out.add(Arrays.copyOfRange(all, start,
					end));
				start = i + 1;
			}
		return out;
	}

	/** The line as UTF-8, or null when it is not valid UTF-8. */
	private static String utf8(final byte[] line) {
		try {
			return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
				.onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(line))
				.toString();
		}
		catch (final CharacterCodingException e) {
			return null;
		}
	}
}
