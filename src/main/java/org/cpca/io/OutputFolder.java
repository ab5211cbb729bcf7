package org.cpca.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A results folder ({@code --out}) written as one set, or not at all.
 * <p>
 * {@link #open} checks the folder before any input is read: it refuses an empty name,
 * the file-system root, the home folder, a folder equal to, inside or containing one of
 * the inputs (compared as real paths, through symbolic links), a file, a folder that
 * cannot be written, a name or path longer than the file system allows
 * ({@link FolderLimits}), and a folder that is not empty unless {@code overwrite} is
 * given. It takes a lock ({@link FolderLock}: a second run into the same folder is
 * refused while the first runs; the lock of a killed run, or a damaged one, is replaced)
 * and removes what an interrupted earlier run left behind, saying so in {@link #notes()}.
 * {@link #checkSpace} refuses, before the fit, a disk too full for the results.
 * <p>
 * Files are written into a staging folder ({@link #file}); {@link #commit()} makes them
 * the results:
 * <ul>
 * <li>a new or empty folder: the staging folder is a hidden sibling of {@code --out}
 * and becomes it by one rename, so the results appear all at once;</li>
 * <li>a folder with other files (given {@code overwrite}), an empty mount point, or one
 * inside a folder that cannot be written: the staging folder is inside {@code --out}; the
 * commit moves the tool's earlier results (listed in the folder's {@link Manifest}, whose
 * entries count only where they lie inside the folder) aside,
 * moves the new set in, and deletes the earlier set — nothing else in the folder is
 * touched, and a failure half-way puts the earlier set back.</li>
 * </ul>
 * A run that fails, is cancelled, or is stopped by SIGINT/SIGTERM ({@link ExitCleanup},
 * from the moment the lock exists) leaves no staging folder or lock; one killed outright
 * leaves them, and the next run into the same folder removes them. Messages name
 * {@code --out}, never the staging folder.
 */
public final class OutputFolder implements AutoCloseable {

	/** The manifest: the files of the tool's last results in the folder, one a line. */
	public static final String MANIFEST = ".cpca-manifest";
	/** Names the results may have at the top of the folder (checked before a run). */
	private static final List<String> RESULT_NAMES = List.of("summary.json", "scores.csv",
		"model.json", "models", "plots", "components.tif", "extremes.tif",
		"reconstruction.tif", "reconstruction.csv", "convergence.csv");
	private static final String PREFIX = ".cpca-";
	private static final String INSIDE_STAGING = PREFIX + "staging-";
	private static final String INSIDE_OLD = PREFIX + "old-";
	private static final String INSIDE_LOCK = PREFIX + "lock";

	/** How a front end names the folder and the overwrite switch in messages. */
	public static final class Names {

		public static final Names CLI = new Names("--out", "--overwrite");
		public static final Names FIJI = new Names("output folder", "overwrite");
		final String out, overwrite;

		public Names(final String out, final String overwrite) {
			this.out = out;
			this.overwrite = overwrite;
		}
	}

	private final Path given;
	/** The folder as a real path (symbolic links of its existing part resolved). */
	private final Path dir;
	private final Names names;
	private final boolean rename;
	private final Path staging;
	private final Path lock;
	private final Path createdParent;
	private final List<String> notes = new ArrayList<>();
	private final Set<String> written = new LinkedHashSet<>();
	private boolean committed, closed, aborted;
	/** Writing jobs running now ({@link #writeGate}). */
	private int writing;
	/** How long a kill waits for the writing jobs before removing the folder anyway. */
	private static final long WRITERS_MS = 5000;

	private OutputFolder(final Path given, final Path dir, final Names names,
		final boolean rename, final Path staging, final Path lock, final Path createdParent)
	{
		this.given = given;
		this.dir = dir;
		this.names = names;
		this.rename = rename;
		this.staging = staging;
		this.lock = lock;
		this.createdParent = createdParent;
	}

	/** {@link #open(Path, Collection, boolean, Names)} with the command line's names. */
	public static OutputFolder open(final Path out, final Collection<Path> inputs,
		final boolean overwrite) throws IOException
	{
		return open(out, inputs, overwrite, Names.CLI);
	}

	/**
	 * Checks the output folder, locks it and makes the staging folder (so that a folder
	 * that cannot be written is found before anything is read).
	 *
	 * @throws IllegalArgumentException one line naming the folder, the problem and the fix
	 */
	public static OutputFolder open(final Path out, final Collection<Path> inputs,
		final boolean overwrite, final Names names) throws IOException
	{
		if (out == null || out.toString().trim().isEmpty()) throw new IllegalArgumentException(
			names.out + " is empty: give a folder for the results");
		final String what = names.out + " " + out;
		final Path dir = realish(out);
		if (dir.getParent() == null || dir.getNameCount() == 0)
			throw new IllegalArgumentException(what + " is the root of the file system: give " +
				"a folder for the results");
		final String home = System.getProperty("user.home");
		if (home != null && !home.isEmpty() && dir.equals(realish(Paths.get(home))))
			throw new IllegalArgumentException(what + " is your home folder: give a new " +
				"folder for the results (e.g. " + Paths.get(home, "cpca-results") + ")");
		for (final Path input : inputs) {
			if (input == null) continue;
			final Path in = realish(input);
			if (in.equals(dir)) throw new IllegalArgumentException(what + " is the input " +
				input + ": choose another folder for the results (inputs are never modified)");
			if (dir.startsWith(in)) throw new IllegalArgumentException(what + " lies inside " +
				"the input " + input + ": choose a folder outside the inputs");
			if (in.startsWith(dir)) throw new IllegalArgumentException(what + " contains the " +
				"input " + input + ": choose a folder apart from the inputs");
		}
		FolderLimits.checkLength(dir, what);
		for (Path a = dir; a != null; a = a.getParent())
			if (Files.exists(a) && !Files.isDirectory(a)) throw new IllegalArgumentException(
				what + (a.equals(dir) ? " is a file, not a folder" : " cannot be made: " + a +
					" is a file, not a folder") + ": give a folder for the results");
		final String stopped = "stopped: nothing was written into " + what;
		final Path parent = dir.getParent();
		Path created = null;
		if (!Files.isDirectory(parent)) {
			Path top = parent;
			while (top.getParent() != null && !Files.exists(top.getParent()))
				top = top.getParent();
			final Path madeTop = top;
			try {
				ExitCleanup.make(madeTop, () -> Files.createDirectories(parent),
					() -> removeCreatedParent(madeTop), stopped);
			}
			catch (final IOException e) {
				throw notWritable(what, e);
			}
			created = top;
		}
		final Path createdParent = created;
		boolean ok = false;
		Path lockDir = null, staging = null;
		try {
			final boolean exists = Files.isDirectory(dir);
			if (exists) probe(dir, what);
			// the lock: beside the folder if its parent can be written, else inside it
			final String digest = FolderLock.digest(dir);
			final Path beside = parent.resolve(PREFIX + digest + ".lock");
			final List<String> notes = new ArrayList<>();
			try {
				FolderLock.take(beside, what, notes);
				lockDir = beside;
			}
			catch (final FileSystemException e) {
				if (!exists) throw notWritable(what, e);
				FolderLock.take(dir.resolve(INSIDE_LOCK), what, notes);
				lockDir = dir.resolve(INSIDE_LOCK);
			}
			final boolean lockBeside = lockDir.equals(beside);
			sweep(parent, dir, digest, notes, what);
			final List<Path> others = exists ? contents(dir) : List.of();
			if (!others.isEmpty() && !overwrite) throw new IllegalArgumentException(what +
				" is not empty: give " + names.overwrite + " to replace the results of an " +
				"earlier run (other files are left alone), or choose a new folder");
			if (!others.isEmpty()) checkOwnership(dir, Manifest.read(dir, what, notes), what);
			// an empty mount point cannot be replaced by a rename: stage inside it
			final boolean rename = others.isEmpty() && lockBeside && !FolderLimits.mountPoint(
				dir);
			final Path stage = (rename ? parent : dir).resolve((rename ? PREFIX + digest + "-"
				: INSIDE_STAGING) + random() + (rename ? ".tmp" : ""));
			try {
				ExitCleanup.make(stage, () -> Files.createDirectory(stage), () -> deleteQuietly(
					stage), stopped);
			}
			catch (final IOException e) {
				throw notWritable(what, e);
			}
			staging = stage;
			final OutputFolder f = new OutputFolder(out, dir, names, rename, staging, lockDir,
				createdParent);
			f.notes.addAll(notes);
			ExitCleanup.register(f, f::abort, stopped);
			ok = true;
			return f;
		}
		finally {
			if (ok) {
				ExitCleanup.forget(staging);
				ExitCleanup.forget(lockDir);
				ExitCleanup.forget(createdParent);
			}
			else {
				if (staging != null) deleteQuietly(staging);
				if (lockDir != null) unlock(lockDir);
				removeCreatedParent(createdParent);
				ExitCleanup.forget(staging);
				ExitCleanup.forget(createdParent);
			}
		}
	}

	/** Deletes a folder the run made, saying nothing when it cannot (the JVM may be exiting). */
	private static void deleteQuietly(final Path p) {
		try {
			deleteTree(p);
		}
		catch (final IOException | RuntimeException e) {
			// the next run into the folder sweeps it
		}
	}

	/**
	 * Refuses when the file system of the folder has too little space for results of about
	 * {@code bytes} (called before the fit, when the inputs' sizes are known).
	 */
	public void checkSpace(final long bytes) throws IOException {
		FolderLimits.checkSpace(dir, bytes, names.out + " " + given);
	}

	/** Refuses an existing folder in which no file can be made. */
	private static void probe(final Path dir, final String what) {
		final Path p = dir.resolve(PREFIX + "probe-" + random());
		try {
			Files.createFile(p);
			Files.delete(p);
		}
		catch (final IOException e) {
			throw notWritable(what, e);
		}
	}

	private static IllegalArgumentException notWritable(final String what,
		final IOException e)
	{
		final String reason = e instanceof AccessDeniedException ? "permission denied" :
			e instanceof FileSystemException && ((FileSystemException) e).getReason() != null
				? ((FileSystemException) e).getReason() : e.getClass().getSimpleName();
		return new IllegalArgumentException(what + " cannot be written (" + reason.toLowerCase(
			Locale.ROOT) + "): choose a folder you can write to");
	}

	private static void unlock(final Path lock) {
		try {
			deleteTree(lock);
		}
		catch (final IOException e) {
			// the next run finds its owner gone and removes it
		}
		ExitCleanup.forget(lock);
	}

	/** Removes what a run into the same folder that was killed left behind. */
	private static void sweep(final Path parent, final Path dir, final String digest,
		final List<String> notes, final String what) throws IOException
	{
		final String beside = PREFIX + digest + "-";
		final List<Path> stale = new ArrayList<>();
		try (Stream<Path> s = Files.list(parent)) {
			s.filter(p -> {
				final String n = p.getFileName().toString();
				return n.startsWith(beside) && n.endsWith(".tmp");
			}).forEach(stale::add);
		}
		boolean restored = false;
		if (Files.isDirectory(dir)) try (Stream<Path> s = Files.list(dir)) {
			for (final Path p : (Iterable<Path>) s::iterator) {
				final String n = p.getFileName().toString();
				if (n.startsWith(INSIDE_STAGING)) stale.add(p);
				else if (n.startsWith(INSIDE_OLD)) {
					// a commit was interrupted between moving the old set aside and deleting it
					restored |= restoreOld(p, dir);
					stale.add(p);
				}
			}
		}
		for (final Path p : stale)
			deleteTree(p);
		if (!stale.isEmpty()) notes.add("removed the unfinished results of an interrupted " +
			"earlier run into " + what + (restored ? " (earlier results put back)" : ""));
	}

	/** Moves back files of an interrupted commit's earlier set whose place is empty. */
	private static boolean restoreOld(final Path old, final Path dir) throws IOException {
		boolean any = false;
		try (Stream<Path> s = Files.walk(old)) {
			for (final Path p : (Iterable<Path>) s::iterator) {
				if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) continue;
				final Path to = dir.resolve(old.relativize(p).toString());
				if (Files.exists(to, LinkOption.NOFOLLOW_LINKS)) continue;
				Files.createDirectories(to.getParent());
				Files.move(p, to);
				any = true;
			}
		}
		return any;
	}

	/** The folder's entries but the tool's own lock. */
	private static List<Path> contents(final Path dir) throws IOException {
		try (Stream<Path> s = Files.list(dir)) {
			return s.filter(p -> !p.getFileName().toString().equals(INSIDE_LOCK)).collect(
				Collectors.toList());
		}
	}

	/**
	 * Refuses a folder holding, under a result's name, something the tool did not write
	 * (it would be replaced): the user moves it away first.
	 */
	private static void checkOwnership(final Path dir, final Set<String> manifest,
		final String what)
	{
		// folders are shared (the new files go in beside the user's); files are replaced
		for (final String name : RESULT_NAMES) {
			final Path p = dir.resolve(name);
			if (Files.exists(p, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(p,
				LinkOption.NOFOLLOW_LINKS) && !manifest.contains(name)) throw foreign(what, name);
		}
	}

	private static IllegalArgumentException foreign(final String what, final String rel) {
		return new IllegalArgumentException(what + " holds " + rel + ", which is not from " +
			"an earlier cpca run and would be replaced: move it away, or choose another folder");
	}

	/**
	 * The real path of {@code p}: symbolic links of its existing part resolved, the rest
	 * appended (the folder need not exist yet).
	 */
	static Path realish(final Path p) throws IOException {
		final Path abs = p.toAbsolutePath().normalize();
		Path existing = abs;
		final Deque<String> rest = new ArrayDeque<>();
		while (existing != null && !Files.exists(existing)) {
			if (existing.getFileName() != null) rest.push(existing.getFileName().toString());
			existing = existing.getParent();
		}
		Path real = existing == null ? abs.getRoot() : existing.toRealPath();
		for (final String n : rest)
			real = real.resolve(n);
		return real.normalize();
	}

	/**
	 * A name part no other folder of the run has: the names need no secrecy (each folder
	 * is made atomically, never taken over), so not SecureRandom, whose security providers
	 * took 9–20 ms of a one-shot run's start (docs/speed.md, the start and the exit).
	 */
	private static String random() {
		return Long.toString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE, 36);
	}

	/** Notes for the user, e.g. that the leftovers of an interrupted run were removed. */
	public List<String> notes() {
		return Collections.unmodifiableList(notes);
	}

	/** The folder, as given. */
	public Path dir() {
		return given;
	}

	/**
	 * A path inside the staging folder for a relative output name (parents created).
	 *
	 * @throws CancellationException after the run was stopped (SIGINT/SIGTERM)
	 */
	public synchronized Path file(final String relative) throws IOException {
		if (aborted) throw new CancellationException("stopped: nothing was written into " +
			names.out + " " + given);
		if (committed || closed) throw new IllegalStateException("the results were " +
			"already written");
		if (!Manifest.safeRelative(relative)) throw new IllegalArgumentException("not a result name: " +
			relative);
		final Path p = staging.resolve(relative);
		Files.createDirectories(p.getParent());
		written.add(relative.replace('\\', '/'));
		return p;
	}

	/** A message for a failed write that names the folder, not the staging folder. */
	public String describe(final Throwable e) {
		final String m = e.getMessage() == null ? e.getClass().getSimpleName() : e
			.getMessage();
		final String base = dir.toString();
		return m.replace(staging.toString(), base).replaceAll(Pattern.quote(
			base) + "/\\.cpca-[^/\\s]*", Matcher.quoteReplacement(base));
	}

	/**
	 * The one-line failure of writing the results (the earlier results stay as they were):
	 * names the folder, never the staging folder, and the fix when the disk is full.
	 *
	 * @param e the failure, or a wrapper of it (Gson's {@code JsonIOException})
	 */
	public IOException writeFailure(final Exception e) {
		Throwable c = e;
		while (!(c instanceof IOException) && c.getCause() != null)
			c = c.getCause();
		final String reason = describe(c);
		final String lower = reason.toLowerCase(Locale.ROOT);
		final boolean full = lower.contains("no space left") || lower.contains(
			"file too large") || lower.contains("quota");
		return new IOException("cannot write the results into " + names.out + " " + given +
			" (nothing of it was changed): " + reason + (full ? ": free some space on its " +
				"disk, or choose a folder on another disk" : ""), c);
	}

	/** Makes the staged files the results (see the class description). */
	public synchronized void commit() throws IOException {
		if (aborted) throw new CancellationException("stopped: nothing was written into " +
			names.out + " " + given);
		final List<String> files = new ArrayList<>();
		for (final String rel : written)
			if (Files.isRegularFile(staging.resolve(rel))) files.add(rel);
		final Path manifest = staging.resolve(MANIFEST);
		Manifest.write(manifest, files);
		if (rename) {
			Files.createDirectories(dir.getParent());
			try {
				Files.move(staging, dir, StandardCopyOption.ATOMIC_MOVE);
			}
			catch (final DirectoryNotEmptyException | FileAlreadyExistsException e) {
				throw new IllegalArgumentException(names.out + " " + given + " was filled by " +
					"something else during the run: nothing was written; run again with " +
					names.overwrite + " or choose another folder");
			}
		}
		else merge(files, manifest);
		committed = true;
		close();
	}

	/** The earlier set moved aside, the new set moved in; put back on failure. */
	private void merge(final List<String> files, final Path newManifest) throws IOException {
		final String what = names.out + " " + given;
		final Set<String> old = Manifest.read(dir, what, null);
		old.removeIf(rel -> !Files.exists(dir.resolve(rel), LinkOption.NOFOLLOW_LINKS));
		// nothing is changed before every new file has a place of its own
		for (final String rel : files) {
			Path p = dir;
			final Path r = Paths.get(rel);
			for (int i = 0; i < r.getNameCount(); i++) {
				p = p.resolve(r.getName(i).toString());
				final String sub = dir.relativize(p).toString().replace('\\', '/');
				final boolean last = i == r.getNameCount() - 1;
				if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) break;
				if (last ? !old.contains(sub) : !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS))
					throw foreign(what, sub);
			}
		}
		final Set<String> union = new LinkedHashSet<>(old);
		union.addAll(files);
		final Path manifest = dir.resolve(MANIFEST);
		final Path tmp = staging.resolve(MANIFEST + ".union");
		Manifest.write(tmp, union);
		move(tmp, manifest);
		final Path aside = dir.resolve(INSIDE_OLD + random());
		final List<String> movedAside = new ArrayList<>(), movedIn = new ArrayList<>();
		try {
			for (final String rel : old) {
				final Path to = aside.resolve(rel);
				Files.createDirectories(to.getParent());
				move(dir.resolve(rel), to);
				movedAside.add(rel);
			}
			for (final String rel : files) {
				final Path to = dir.resolve(rel);
				Files.createDirectories(to.getParent());
				move(staging.resolve(rel), to);
				movedIn.add(rel);
			}
			move(newManifest, manifest);
		}
		catch (final IOException | RuntimeException e) {
			for (final String rel : movedIn)
				try {
					Files.deleteIfExists(dir.resolve(rel));
				}
				catch (final IOException e2) {
					e.addSuppressed(e2);
				}
			for (final String rel : movedAside)
				try {
					move(aside.resolve(rel), dir.resolve(rel));
				}
				catch (final IOException e2) {
					e.addSuppressed(e2);
				}
			try {
				Manifest.write(manifest, old);
				deleteTree(aside);
			}
			catch (final IOException e2) {
				e.addSuppressed(e2);
			}
			throw e;
		}
		deleteTree(aside);
		// folders of the earlier set that are now empty (and not the user's) go too
		for (final String rel : old) {
			Path p = dir.resolve(rel).getParent();
			while (p != null && !p.equals(dir) && p.startsWith(dir)) {
				try (Stream<Path> s = Files.list(p)) {
					if (s.findAny().isPresent()) break;
				}
				catch (final IOException e) {
					break;
				}
				Files.deleteIfExists(p);
				p = p.getParent();
			}
		}
	}

	private static void move(final Path from, final Path to) throws IOException {
		try {
			Files.move(from, to, StandardCopyOption.ATOMIC_MOVE,
				StandardCopyOption.REPLACE_EXISTING);
		}
		catch (final AtomicMoveNotSupportedException e) {
			Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
		}
	}

	/**
	 * Ends the run: before a commit, the staging folder (and any parent folder this run
	 * made) is removed; the lock is released.
	 */
	@Override
	public synchronized void close() throws IOException {
		if (closed) return;
		closed = true;
		ExitCleanup.forget(this);
		IOException failure = null;
		try {
			if (!committed || !rename) deleteTree(staging); // after a commit: emptied
		}
		catch (final IOException | RuntimeException e) {
			failure = e instanceof IOException ? (IOException) e : new IOException(e);
		}
		finally {
			unlock(lock);
			if (!committed) removeCreatedParent(createdParent);
		}
		if (failure != null) throw new IOException(describe(failure), failure);
	}

	/** The shutdown hook's part: stop writing, remove the staging folder, unlock. */
	/**
	 * The gate of {@link WriteJobs} writing into this folder: a job starts only while the
	 * folder is not being removed, and the removal ({@link #abort}, on a kill) waits for
	 * the jobs running, so that none re-creates a file in the folder it removes.
	 */
	WriteJobs.Gate writeGate() {
		return new WriteJobs.Gate() {

			@Override
			public boolean enter() {
				synchronized (OutputFolder.this) {
					if (aborted) return false;
					writing++;
					return true;
				}
			}

			@Override
			public void leave() {
				synchronized (OutputFolder.this) {
					writing--;
					OutputFolder.this.notifyAll();
				}
			}
		};
	}

	private void abort() {
		synchronized (this) {
			if (closed) return;
			aborted = true;
			// the writing jobs end (no new one starts), bounded: the JVM is exiting
			final long end = System.nanoTime() + WRITERS_MS * 1_000_000;
			for (long left; writing > 0 && (left = end - System.nanoTime()) > 0;)
				try {
					wait(Math.max(1, left / 1_000_000));
				}
				catch (final InterruptedException e) {
					break;
				}
		}
		// a writer thread may still be creating a file: try a few times
		for (int attempt = 0; attempt < 20 && Files.exists(staging); attempt++) {
			try {
				deleteTree(staging);
			}
			catch (final IOException e) {
				try {
					Thread.sleep(25);
				}
				catch (final InterruptedException ie) {
					break;
				}
			}
		}
		try {
			close();
		}
		catch (final IOException e) {
			// the JVM is exiting
		}
	}

	/**
	 * Removes the folders this run made above the results folder, only while they are
	 * empty. The shutdown hook and a failing {@code open} may do this at the same time: a
	 * folder vanishing under the walk is walked again, and a folder not yet empty is looked
	 * at again a moment later (the other may be removing the lock or the staging folder in
	 * it; the JVM halts when the hook returns, so the hook must not leave that to the
	 * other), so neither leaves the other's half. What is still there after that is not
	 * this run's: it is left alone.
	 */
	private static void removeCreatedParent(final Path top) {
		if (top == null) return;
		for (int attempt = 0; attempt < 10; attempt++) {
			if (!Files.exists(top, LinkOption.NOFOLLOW_LINKS)) return;
			try {
				final List<Path> dirs;
				try (Stream<Path> s = Files.walk(top)) {
					dirs = s.sorted(Comparator.reverseOrder()).collect(Collectors.toList());
				}
				for (final Path d : dirs)
					if (Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS)) Files.deleteIfExists(d);
				return;
			}
			catch (final NoSuchFileException | UncheckedIOException e) {
				// removed meanwhile by the other cleanup: look again
			}
			catch (final DirectoryNotEmptyException e) {
				try { // the other cleanup may be emptying it
					Thread.sleep(20);
				}
				catch (final InterruptedException stop) {
					Thread.currentThread().interrupt();
					return;
				}
			}
			catch (final IOException e) {
				return; // something else is in the way: leave it
			}
		}
	}

	/**
	 * Deletes a folder and everything in it; tolerates another thread deleting or (for a
	 * moment) still writing in it at the same time.
	 */
	static void deleteTree(final Path root) throws IOException {
		for (int attempt = 0;; attempt++) {
			if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) return;
			try {
				final List<Path> all;
				try (Stream<Path> s = Files.walk(root)) {
					all = s.sorted(Comparator.reverseOrder()).collect(Collectors.toList());
				}
				for (final Path p : all)
					Files.deleteIfExists(p);
				return;
			}
			catch (final UncheckedIOException e) {
				if (attempt >= 5) throw e.getCause();
			}
			catch (final NoSuchFileException | DirectoryNotEmptyException e) {
				if (attempt >= 5) throw e;
			}
		}
	}
}
