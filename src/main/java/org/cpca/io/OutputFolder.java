package org.cpca.io;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * An output folder written all at once: files are first written into a hidden staging
 * folder beside it, and moved into place only by {@link #commit()}. A run that fails or
 * is cancelled leaves the output folder as it was (the staging folder is removed), and an
 * output never replaces one of the inputs.
 */
public final class OutputFolder implements AutoCloseable {

	private final Path dir;
	private final Path staging;
	private final Collection<Path> inputs;
	private final List<String> written = new ArrayList<>();
	private boolean committed;

	public OutputFolder(final Path dir, final Collection<Path> inputs) throws IOException {
		this.dir = dir.toAbsolutePath().normalize();
		if (Files.exists(this.dir) && !Files.isDirectory(this.dir))
			throw new IllegalArgumentException("--out " + dir +
				" is a file, not a folder: give a folder to write the results into");
		this.inputs = new ArrayList<>();
		for (final Path p : inputs)
			this.inputs.add(p.toAbsolutePath().normalize());
		for (final Path p : this.inputs)
			if (p.equals(this.dir)) throw new IllegalArgumentException("--out " + dir +
				" is one of the inputs: choose another output folder (inputs are never" +
				" modified)");
		final Path parent = this.dir.getParent();
		Files.createDirectories(parent);
		this.staging = Files.createTempDirectory(parent, "." + this.dir.getFileName() +
			".partial-");
	}

	/** A path inside the staging folder for a relative output name (parents created). */
	public Path file(final String relative) throws IOException {
		final Path target = dir.resolve(relative).normalize();
		if (inputs.contains(target)) throw new IllegalArgumentException("writing " + target +
			" would replace an input: choose another --out folder");
		final Path p = staging.resolve(relative);
		Files.createDirectories(p.getParent());
		written.add(relative);
		return p;
	}

	Path dir() {
		return dir;
	}

	/** Moves every staged file into the output folder. */
	public void commit() throws IOException {
		Files.createDirectories(dir);
		for (final String rel : written) {
			final Path from = staging.resolve(rel), to = dir.resolve(rel);
			if (!Files.exists(from)) continue;
			Files.createDirectories(to.getParent());
			try {
				Files.move(from, to, StandardCopyOption.ATOMIC_MOVE,
					StandardCopyOption.REPLACE_EXISTING);
			}
			catch (final AtomicMoveNotSupportedException e) {
				Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
			}
		}
		committed = true;
		close();
	}

	/** Removes the staging folder (and, before a commit, everything staged). */
	@Override
	public void close() throws IOException {
		if (!Files.exists(staging)) return;
		try (Stream<Path> s = Files.walk(staging)) {
			for (final Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator)
				Files.deleteIfExists(p);
		}
	}

	boolean committed() {
		return committed;
	}
}
