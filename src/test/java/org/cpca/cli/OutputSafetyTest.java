package org.cpca.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.cpca.io.OutputFolder;

import com.google.gson.Gson;
import com.google.gson.JsonIOException;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The results folder's guarantees, on real files: every refusal names the folder and the
 * fix in one line with exit code 1 and changes nothing of the user's; --overwrite
 * replaces only the tool's own earlier results, as a set; a second run into a locked
 * folder is refused; a run stopped by SIGTERM (a child JVM) leaves nothing behind, and
 * what a killed run left is swept by the next.
 */
class OutputSafetyTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	@TempDir
	Path dir;
	Path target, background;

	@BeforeEach
	void tables() throws Exception {
		final Path data = Files.createDirectories(dir.resolve("data"));
		target = data.resolve("target.csv");
		background = data.resolve("background.csv");
		final Random r = new Random(7);
		final StringBuilder t = new StringBuilder("a,b,c,d,e,group\n"), b = new StringBuilder(
			"a,b,c,d,e\n");
		for (int i = 0; i < 40; i++) {
			final int g = i % 2;
			t.append(String.format(Locale.ROOT, "%.4f,%.4f,%.4f,%.4f,%.4f,%s%n", 3 * r
				.nextGaussian(), r.nextGaussian() + 2 * g, 0.5 * r.nextGaussian(), r
					.nextGaussian(), r.nextGaussian(), g == 0 ? "x" : "y"));
			b.append(String.format(Locale.ROOT, "%.4f,%.4f,%.4f,%.4f,%.4f%n", 3 * r
				.nextGaussian(), 0.3 * r.nextGaussian(), 0.5 * r.nextGaussian(), r
					.nextGaussian(), r.nextGaussian()));
		}
		Files.write(target, t.toString().getBytes(StandardCharsets.UTF_8));
		Files.write(background, b.toString().getBytes(StandardCharsets.UTF_8));
	}

	private String[] fit(final Path out, final String... extra) {
		final List<String> a = new ArrayList<>(Arrays.asList("fit", "--target", target
			.toString(), "--background", background.toString(), "--label-column", "group",
			"--out", out.toString()));
		a.addAll(Arrays.asList(extra));
		return a.toArray(new String[0]);
	}

	/** Every file and folder under {@code root} with its content (files) or "/" (folders). */
	static Map<String, String> tree(final Path root) throws Exception {
		final Map<String, String> m = new TreeMap<>();
		if (!Files.exists(root)) return m;
		try (Stream<Path> s = Files.walk(root)) {
			for (final Path p : (Iterable<Path>) s::iterator)
				m.put(root.relativize(p).toString(), Files.isDirectory(p) ? "/" : new String(Files
					.readAllBytes(p), StandardCharsets.ISO_8859_1));
		}
		return m;
	}

	/** Runs the CLI expecting a refusal: exit 1, one line with every fragment. */
	private static String refused(final String[] args, final String... fragments) {
		final Object[] r = CliTest.cpca(args);
		final String err = ((String) r[2]).trim();
		assertEquals(1, r[0], () -> "exit code; stderr: " + err + "; stdout: " + r[1]);
		assertEquals(1, err.split("\n").length, err);
		for (final String f : fragments)
			assertTrue(err.contains(f), () -> "'" + f + "' not in: " + err);
		assertFalse(err.contains(".cpca-"), err); // never an internal name
		assertFalse(err.contains("Exception"), err);
		return err;
	}

	@Test
	void nonEmptyOutIsRefusedWithoutOverwrite() throws Exception {
		final Path out = Files.createDirectories(dir.resolve("mine"));
		Files.write(out.resolve("summary.json"), "my own notes".getBytes(
			StandardCharsets.UTF_8));
		Files.write(out.resolve("note.txt"), "keep me".getBytes(StandardCharsets.UTF_8));
		final Map<String, String> before = tree(dir);
		refused(fit(out, "--alpha", "2"), "--out " + out, "is not empty", "--overwrite");
		assertEquals(before, tree(dir));
		// with --overwrite, a result's name the tool did not write is still not replaced
		refused(fit(out, "--alpha", "2", "--overwrite"), "--out " + out, "summary.json",
			"move it away");
		assertEquals(before, tree(dir));
		// apply too
		refused(new String[] { "apply", "--model", target.toString(), "--input", target
			.toString(), "--out", out.toString() }, "--out " + out, "--overwrite");
		assertEquals(before, tree(dir));
	}

	@Test
	void overwriteReplacesTheEarlierSetAndLeavesEverythingElse() throws Exception {
		final Path out = dir.resolve("res");
		Object[] r = CliTest.cpca(fit(out)); // automatic α: models/ holds one file per α
		assertEquals(0, r[0], () -> (String) r[2]);
		final Set<String> autoModels = list(out.resolve("models"));
		assertTrue(autoModels.size() >= 2, autoModels::toString);
		assertTrue(Files.exists(out.resolve("plots/scatter_alpha_0_0.png")));
		Files.write(out.resolve("note.txt"), "keep me".getBytes(StandardCharsets.UTF_8));
		Files.write(out.resolve("plots/mine.png"), "mine".getBytes(StandardCharsets.UTF_8));
		Files.createDirectories(out.resolve("models/keep"));
		Files.write(out.resolve("models/keep/x.json"), "{}".getBytes(StandardCharsets.UTF_8));
		refused(fit(out, "--alpha", "2"), "--out " + out, "is not empty", "--overwrite");
		final Object[] r2 = CliTest.cpca(fit(out, "--alpha", "2", "--overwrite"));
		assertEquals(0, r2[0], () -> (String) r2[2]);
		// no stale per-α files of the automatic run survive
		assertEquals(Set.of("keep"), list(out.resolve("models")));
		assertFalse(Files.exists(out.resolve("plots/scatter_alpha_0_0.png")));
		assertTrue(new String(Files.readAllBytes(out.resolve("summary.json")),
			StandardCharsets.UTF_8).contains("\"model_alpha\": 2.0"));
		// the user's files are untouched
		assertEquals("keep me", Files.readString(out.resolve("note.txt")));
		assertEquals("mine", Files.readString(out.resolve("plots/mine.png")));
		assertEquals("{}", Files.readString(out.resolve("models/keep/x.json")));
		// the manifest lists exactly the tool's files
		final Set<String> manifest = Files.readAllLines(out.resolve(OutputFolder.MANIFEST))
			.stream().filter(l -> !l.startsWith("#")).collect(Collectors.toSet());
		final Set<String> all = tree(out).entrySet().stream().filter(e -> !e.getValue()
			.equals("/")).map(Map.Entry::getKey).collect(Collectors.toSet());
		all.removeAll(Set.of("note.txt", "plots/mine.png", "models/keep/x.json",
			OutputFolder.MANIFEST));
		assertEquals(all, manifest);
		assertTrue(manifest.contains("scores.csv") && manifest.contains("plots/scatter.png"));
		// --no-plots replaces the set without plots; the user's plot stays
		final Object[] r3 = CliTest.cpca(fit(out, "--alpha", "1", "--overwrite",
			"--no-plots"));
		assertEquals(0, r3[0], () -> (String) r3[2]);
		assertEquals(Set.of("mine.png"), list(out.resolve("plots")));
		assertTrue(Files.exists(out.resolve("model.json")));
		assertNoLeftovers(dir);
	}

	@Test
	void outAtOrAroundAnInputIsRefusedThroughSymlinks() throws Exception {
		final Map<String, String> before = tree(dir);
		final Path data = target.getParent();
		refused(fit(target), "--out " + target, "is the input");
		refused(fit(data), "--out " + data, "contains the input");
		// a folder beside the inputs is fine; inside an input folder is not
		try (OutputFolder f = OutputFolder.open(data.resolve("results"), List.of(target),
			false))
		{
			// nothing written: closed without a commit
		}
		final IllegalArgumentException inside = org.junit.jupiter.api.Assertions.assertThrows(
			IllegalArgumentException.class, () -> OutputFolder.open(data.resolve("sub/out"),
				List.of(data), false));
		assertTrue(inside.getMessage().startsWith("--out " + data.resolve("sub/out") +
			" lies inside the input " + data), inside.getMessage());
		assertEquals(before, tree(dir));
		final Path link = Files.createSymbolicLink(dir.resolve("link"), data);
		final Map<String, String> withLink = tree(dir);
		refused(fit(link), "--out " + link, "contains the input");
		final Path viaLink = link.resolve("res");
		final IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
			IllegalArgumentException.class, () -> OutputFolder.open(viaLink, List.of(data),
				false));
		assertTrue(e.getMessage().contains("lies inside the input"), e.getMessage());
		refused(fit(dir), "--out " + dir, "contains the input");
		assertEquals(withLink, tree(dir));
		Files.delete(link);
		assertEquals(before, tree(dir));
		// a fit folder's model is an input of apply: its folder cannot be apply's --out
		final Path fitted = dir.resolve("fitted");
		assertEquals(0, CliTest.cpca(fit(fitted, "--alpha", "1"))[0]);
		final Map<String, String> fittedBefore = tree(fitted);
		refused(new String[] { "apply", "--model", fitted.resolve("model.json").toString(),
			"--input", target.toString(), "--out", fitted.toString(), "--overwrite" },
			"--out " + fitted, "contains the input");
		assertEquals(fittedBefore, tree(fitted));
	}

	@Test
	void emptyRootAndHomeAreRefused() throws Exception {
		refused(fit(Paths.get("")), "--out is empty");
		refused(fit(Paths.get("/")), "--out /", "root of the file system");
		final Path home = Paths.get(System.getProperty("user.home"));
		refused(fit(home, "--overwrite"), "--out " + home, "home folder");
	}

	@Test
	void outUnderAFileIsRefusedBeforeAnyInputIsRead() throws Exception {
		final Path file = Files.write(dir.resolve("file.txt"), "x".getBytes(
			StandardCharsets.UTF_8));
		final Map<String, String> before = tree(dir);
		// the target does not exist: the message is about --out, so --out was checked first
		final String[] args = { "fit", "--target", dir.resolve("missing.csv").toString(),
			"--background", background.toString(), "--out", file.resolve("res").toString() };
		refused(args, "--out " + file.resolve("res"), "is a file, not a folder");
		refused(new String[] { "fit", "--target", dir.resolve("missing.csv").toString(),
			"--background", background.toString(), "--out", file.toString() }, "--out " + file,
			"is a file, not a folder");
		assertEquals(before, tree(dir));
	}

	@Test
	void readOnlyParent() throws Exception {
		final Path parent = Files.createDirectories(dir.resolve("ro"));
		final Path writable = Files.createDirectories(parent.resolve("writable"));
		readOnly(parent);
		try {
			final Map<String, String> before = tree(dir);
			// a new folder in a read-only folder: refused before the (missing) target is read
			refused(new String[] { "fit", "--target", dir.resolve("missing.csv").toString(),
				"--background", background.toString(), "--out", parent.resolve("new")
					.toString() }, "--out " + parent.resolve("new"), "cannot be written");
			assertEquals(before, tree(dir));
			// a writable folder inside a read-only one works
			final Object[] r = CliTest.cpca(fit(writable, "--alpha", "1"));
			assertEquals(0, r[0], () -> (String) r[2]);
			assertTrue(Files.isRegularFile(writable.resolve("summary.json")));
			assertNoLeftovers(writable);
		}
		finally {
			writable(parent);
		}
	}

	@Test
	void readOnlyOutIsRefusedBeforeAnyInputIsRead() throws Exception {
		final Path out = Files.createDirectories(dir.resolve("locked"));
		readOnly(out);
		try {
			final Map<String, String> before = tree(dir);
			refused(new String[] { "fit", "--target", dir.resolve("missing.csv").toString(),
				"--background", background.toString(), "--out", out.toString() }, "--out " + out,
				"cannot be written");
			assertEquals(before, tree(dir));
		}
		finally {
			writable(out);
		}
	}

	@Test
	void aLongFolderNameWorks() throws Exception {
		final String name = String.join("", java.util.Collections.nCopies(240, "n"));
		final Path out = dir.resolve(name);
		final Object[] r = CliTest.cpca(fit(out, "--alpha", "1"));
		assertEquals(0, r[0], () -> (String) r[2]);
		final Object[] r2 = CliTest.cpca(fit(out, "--overwrite"));
		assertEquals(0, r2[0], () -> (String) r2[2]);
		assertTrue(Files.list(out.resolve("models")).count() >= 2);
		assertNoLeftovers(dir);
	}

	@Test
	void aFailedRunLeavesTheFolderAsItWas() throws Exception {
		final Path out = dir.resolve("res");
		assertEquals(0, CliTest.cpca(fit(out, "--alpha", "1"))[0]);
		Files.write(out.resolve("note.txt"), "keep".getBytes(StandardCharsets.UTF_8));
		final Map<String, String> before = tree(dir);
		// fails after the folder was opened (k too large for 5 features)
		final Object[] r = CliTest.cpca(fit(out, "--alpha", "1", "-k", "9", "--overwrite"));
		assertEquals(1, r[0]);
		assertEquals(before, tree(dir));
		// a new folder (and its new parents) is not made by a failed run
		final Object[] r2 = CliTest.cpca(fit(dir.resolve("a/b/c"), "-k", "9"));
		assertEquals(1, r2[0]);
		assertEquals(before, tree(dir));
	}

	/** A failure while the new set is moved in puts the earlier set back. */
	@Test
	void aFailedCommitPutsTheEarlierSetBack() throws Exception {
		final Path out = dir.resolve("res");
		assertEquals(0, CliTest.cpca(fit(out))[0]); // automatic α: models/ has several files
		Files.write(out.resolve("note.txt"), "keep".getBytes(StandardCharsets.UTF_8));
		final Map<String, String> before = tree(dir);
		readOnly(out.resolve("models")); // its files cannot be moved away
		try {
			final Object[] r = CliTest.cpca(fit(out, "--alpha", "2", "--overwrite"));
			final String err = ((String) r[2]).trim();
			assertEquals(1, r[0], err);
			assertEquals(1, err.split("\n").length, err);
			assertTrue(err.startsWith("cpca: could not read or write a file: cannot write the " +
				"results into --out " + out + " (nothing of it was changed)"), err);
			assertFalse(err.contains(".cpca-"), err);
		}
		finally {
			writable(out.resolve("models"));
		}
		assertEquals(before, tree(dir));
	}

	/** A second run into a folder another process is writing is refused. */
	@Test
	void aConcurrentRunIsRefused() throws Exception {
		final Path out = dir.resolve("busy");
		final Process holder = holder(out, false);
		try {
			final Map<String, String> before = userTree(dir);
			refused(fit(out, "--alpha", "1"), "--out " + out, "is being written by another " +
				"run", "process " + holder.pid());
			refused(fit(out, "--alpha", "1", "--overwrite"), "is being written by another run");
			assertEquals(before, userTree(dir));
			assertTrue(list(dir).stream().anyMatch(n -> n.endsWith(".tmp")),
				"the running run's staging folder was left alone");
			// and within one JVM (Fiji running two batches)
		}
		finally {
			holder.destroyForcibly().waitFor();
		}
		try (OutputFolder f = OutputFolder.open(out, List.of(target), false)) {
			refused(fit(out, "--alpha", "1"), "is being written by another run");
		}
	}

	/** SIGTERM while the results are being written leaves no folder, file or lock. */
	@Test
	void sigtermLeavesNothingBehind() throws Exception {
		final Map<String, String> before = tree(dir);
		final Path out = dir.resolve("new/res");
		for (int trial = 0; trial < 3; trial++) { // the writer races the hook: try a few times
			final Process p = holder(out, false);
			assertFalse(tree(dir).equals(before)); // the staging folder is there
			p.destroy(); // SIGTERM
			assertTrue(p.waitFor(60, TimeUnit.SECONDS));
			assertEquals(143, p.exitValue());
			assertEquals(before, tree(dir));
		}
		// into an existing folder with other files and earlier results
		final Path res = dir.resolve("res");
		assertEquals(0, CliTest.cpca(fit(res, "--alpha", "1"))[0]);
		Files.write(res.resolve("note.txt"), "keep".getBytes(StandardCharsets.UTF_8));
		final Map<String, String> earlier = tree(dir);
		final Process p2 = holder(res, true);
		p2.destroy();
		assertTrue(p2.waitFor(60, TimeUnit.SECONDS));
		assertEquals(earlier, tree(dir));
	}

	/** What a killed run (SIGKILL: no shutdown hook) left is removed by the next run. */
	@Test
	void aKilledRunsLeftoversAreSweptAndReported() throws Exception {
		final Path out = dir.resolve("res");
		final Process p = holder(out, false);
		p.destroyForcibly().waitFor();
		final Set<String> left = list(dir);
		assertTrue(left.stream().anyMatch(n -> n.startsWith(".cpca-")), left::toString);
		final Object[] r = CliTest.cpca(fit(out, "--alpha", "1"));
		assertEquals(0, r[0], () -> (String) r[2]);
		assertTrue(((String) r[1]).contains("note: removed the unfinished results of an " +
			"interrupted earlier run into --out " + out), (String) r[1]);
		assertFalse(((String) r[1]).contains(".cpca-"), (String) r[1]);
		assertNoLeftovers(dir);
	}

	/** A manifest line through a symbolic link out of --out never touches that file. */
	@Test
	void aManifestEntryLeadingOutOfTheFolderIsIgnored() throws Exception {
		final Path out = dir.resolve("res");
		assertEquals(0, CliTest.cpca(fit(out, "--alpha", "1"))[0]);
		final Path outside = Files.createDirectories(dir.resolve("elsewhere"));
		Files.write(outside.resolve("t.csv"), "precious".getBytes(StandardCharsets.UTF_8));
		Files.createSymbolicLink(out.resolve("lnk"), outside);
		Files.write(out.resolve(OutputFolder.MANIFEST), "lnk/t.csv\n".getBytes(
			StandardCharsets.UTF_8), StandardOpenOption.APPEND);
		final Object[] r = CliTest.cpca(fit(out, "--alpha", "2", "--overwrite"));
		assertEquals(0, r[0], () -> (String) r[2]);
		assertEquals("precious", Files.readString(outside.resolve("t.csv")));
		assertTrue(Files.isSymbolicLink(out.resolve("lnk")));
		assertTrue(((String) r[1]).contains("note: ignored 1 line of the list of earlier " +
			"results in --out " + out), (String) r[1]);
		assertNoLeftovers(dir);
	}

	/** A manifest with bytes that are not UTF-8 does not block --overwrite. */
	@Test
	void aManifestThatIsNotUtf8IsReadLineByLine() throws Exception {
		final Path out = dir.resolve("res");
		assertEquals(0, CliTest.cpca(fit(out, "--alpha", "1"))[0]);
		Files.write(out.resolve(OutputFolder.MANIFEST), new byte[] { 't', (byte) 0xe9, 'x',
			't', '\n' }, StandardOpenOption.APPEND);
		final Object[] r = CliTest.cpca(fit(out, "--alpha", "2", "--overwrite"));
		assertEquals(0, r[0], () -> (String) r[2]);
		assertTrue(((String) r[1]).contains("note: ignored 1 line"), (String) r[1]);
		assertTrue(Files.readString(out.resolve("summary.json")).contains(
			"\"model_alpha\": 2.0"));
		assertNoLeftovers(dir);
	}

	/** "Aa" and "BB" have the same String.hashCode: their locks must still differ. */
	@Test
	void foldersWithTheSameStringHashHaveTheirOwnLocks() throws Exception {
		assertEquals("Aa".hashCode(), "BB".hashCode());
		final Process holder = holder(dir.resolve("Aa"), false);
		try {
			final Object[] r = CliTest.cpca(fit(dir.resolve("BB"), "--alpha", "1"));
			assertEquals(0, r[0], () -> (String) r[2]);
			assertTrue(Files.isRegularFile(dir.resolve("BB/summary.json")));
		}
		finally {
			holder.destroy();
			holder.waitFor();
		}
		assertNoLeftovers(dir);
	}

	/** A lock whose content is damaged is replaced with a note, not an error. */
	@Test
	void aDamagedLockIsReplacedWithANote() throws Exception {
		final Path out = dir.resolve("res");
		holder(out, false).destroyForcibly().waitFor(); // SIGKILL: its lock stays
		final List<Path> locks = list(dir).stream().filter(n -> n.endsWith(".lock")).map(
			dir::resolve).collect(Collectors.toList());
		assertEquals(1, locks.size(), locks::toString);
		Files.write(locks.get(0).resolve("owner"), "x".getBytes(StandardCharsets.UTF_8));
		final Object[] r = CliTest.cpca(fit(out, "--alpha", "1"));
		assertEquals(0, r[0], () -> (String) r[2]);
		assertTrue(((String) r[1]).contains("note: replaced the damaged lock of --out " + out),
			(String) r[1]);
		assertNoLeftovers(dir);
	}

	/**
	 * A run killed with its whole process group (kill -9) may stay a zombie until its
	 * parent reaps it: it is not "another run". Here the killed JVM's parent is a shell
	 * that became {@code sleep} and never reaps it.
	 */
	@Test
	void aZombieRunIsNotAnotherRun() throws Exception {
		final Path out = dir.resolve("res");
		final Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
		final Process parent = new ProcessBuilder("sh", "-c", "\"$0\" -cp \"$1\" " +
			OutputFolderHolder.class.getName() + " \"$2\" \"$3\" false & exec sleep 600", java
				.toString(), System.getProperty("java.class.path"), out.toString(), target
					.toString()).redirectErrorStream(true).start();
		try {
			final BufferedReader r = new BufferedReader(new InputStreamReader(parent
				.getInputStream(), StandardCharsets.UTF_8));
			assertEquals("ready", r.readLine());
			final ProcessHandle jvm = parent.children().findFirst().orElseThrow();
			jvm.destroyForcibly();
			final Path stat = Paths.get("/proc", Long.toString(jvm.pid()), "stat");
			Assumptions.assumeTrue(Files.exists(stat), "no /proc here");
			final long end = System.currentTimeMillis() + 10_000;
			while (!Files.readString(stat).replaceAll(".*\\) ", "").startsWith("Z") && System
				.currentTimeMillis() < end)
				Thread.sleep(20);
			assertTrue(Files.readString(stat).replaceAll(".*\\) ", "").startsWith("Z"),
				"the killed JVM is not a zombie");
			final Object[] res = CliTest.cpca(fit(out, "--alpha", "1"));
			assertEquals(0, res[0], () -> (String) res[2]);
			assertTrue(((String) res[1]).contains("note: replaced the lock of --out " + out +
				" left by process " + jvm.pid() + ", which is no longer running"),
				(String) res[1]);
		}
		finally {
			parent.destroyForcibly().waitFor();
		}
		assertNoLeftovers(dir);
	}

	/** SIGTERM at any moment of the first second (the folder being opened) leaves nothing. */
	@Test
	void sigtermWhileTheFolderIsOpenedLeavesNothing() throws Exception {
		final Map<String, String> before = tree(dir);
		final Path out = dir.resolve("new/res");
		final Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
		final Random random = new Random(11);
		for (int trial = 0; trial < 16; trial++) {
			final Process p = new ProcessBuilder(java.toString(), "-cp", System.getProperty(
				"java.class.path"), OutputFolderHolder.class.getName(), out.toString(), target
					.toString(), "false").redirectErrorStream(true).redirectOutput(
						ProcessBuilder.Redirect.DISCARD).start();
			Thread.sleep(150 + random.nextInt(500));
			p.destroy(); // SIGTERM
			assertTrue(p.waitFor(60, TimeUnit.SECONDS));
			assertEquals(before, tree(dir), "trial " + trial);
		}
	}

	/** A folder name longer than a file system allows is refused before anything is read. */
	@Test
	void aTooLongNameIsRefusedBeforeAnyInputIsRead() throws Exception {
		final Map<String, String> before = tree(dir);
		final Path out = dir.resolve(String.join("", Collections.nCopies(256, "n")));
		refused(new String[] { "fit", "--target", dir.resolve("missing.csv").toString(),
			"--background", background.toString(), "--out", out.toString() }, ": its name is 256 " +
				"bytes long, more than the 255 a file system allows for one name: choose a shorter " +
				"name");
		// a folder on the way
		refused(new String[] { "fit", "--target", dir.resolve("missing.csv").toString(),
			"--background", background.toString(), "--out", out.resolve("res").toString() },
			": the name of the folder ", " on its path is 256 bytes long");
		// 256 bytes of two-byte letters (the limit counts bytes, not letters)
		final Path wide = dir.resolve(String.join("", Collections.nCopies(128, "é")));
		refused(new String[] { "fit", "--target", dir.resolve("missing.csv").toString(),
			"--background", background.toString(), "--out", wide.toString() }, "is 256 bytes");
		assertEquals(before, tree(dir));
	}

	/** An existing folder whose path is longer than the system allows is named so. */
	@Test
	void aTooLongPathIsRefusedBeforeAnyInputIsRead() throws Exception {
		// made step by step (a path over 4,096 bytes cannot be given to the system whole)
		final String step = String.join("", Collections.nCopies(200, "d"));
		final int code = new ProcessBuilder("bash", "-c", "cd \"$0\" && for i in $(seq 22); do " +
			"mkdir \"$1\" && cd \"$1\" || exit 1; done && cp \"$2\" t.csv", dir.toString(), step,
			target.toString()).inheritIO().start().waitFor();
		assertEquals(0, code);
		final Path deep = dir.resolve(String.join("/", Collections.nCopies(22, step)));
		assertTrue(deep.toString().length() > 4400);
		try {
			final String err = refused(new String[] { "fit", "--target", dir.resolve(
				"missing.csv").toString(), "--background", background.toString(), "--out", deep
					.toString() }, "bytes, too long for the results below it", "choose a folder " +
						"with a path shorter than");
			assertTrue(err.length() < 600, err);
			// an existing input there is not "missing"
			final String in = refused(new String[] { "fit", "--target", deep.resolve("t.csv")
				.toString(), "--background", background.toString(), "--out", dir.resolve("res")
					.toString() }, "bytes, more than the 4096 the system allows in a path: move " +
						"it to a folder with a shorter path");
			assertFalse(in.contains("does not exist"), in);
			assertTrue(in.length() < 600, in);
		}
		finally {
			new ProcessBuilder("rm", "-rf", dir.resolve(step).toString()).start().waitFor();
		}
	}

	/** An empty mount point as --out: the results go into it (it cannot be renamed over). */
	@Test
	void anEmptyMountPointReceivesTheResults() throws Exception {
		final Path mnt = Files.createDirectories(dir.resolve("mnt"));
		tmpfs(mnt, "8m");
		try {
			final Object[] r = CliTest.cpca(fit(mnt, "--alpha", "1"));
			assertEquals(0, r[0], () -> (String) r[2]);
			assertTrue(Files.isRegularFile(mnt.resolve("summary.json")));
			assertNoLeftovers(dir);
		}
		finally {
			umount(mnt);
		}
	}

	/** A disk too full for the results is found before the fit. */
	@Test
	void aDiskTooFullIsRefusedBeforeTheFit() throws Exception {
		final Path mnt = Files.createDirectories(dir.resolve("small"));
		tmpfs(mnt, "256k");
		try {
			final Path out = mnt.resolve("res");
			final String err = refused(fit(out, "--alpha", "1"), "--out " + out + ": its file " +
				"system has ", " free but the results need about ", "free some space or choose " +
					"a folder on another disk");
			assertFalse(err.contains("Exception"), err);
			assertEquals(Set.of(), list(mnt));
			assertNoLeftovers(dir);
		}
		finally {
			umount(mnt);
		}
	}

	/**
	 * A disk that fills while the results are written (here: a file-size limit, ulimit -f,
	 * in a child process, which makes every write past 1 KB fail as a full disk does): one
	 * line naming the folder and the fix, exit 1, the earlier results intact, nothing left.
	 */
	@Test
	void aDiskThatFillsWhileWritingIsOneLineAndKeepsTheEarlierResults() throws Exception {
		final Path out = dir.resolve("res");
		assertEquals(0, CliTest.cpca(fit(out, "--alpha", "1"))[0]);
		final Map<String, String> before = tree(dir);
		final Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
		final List<String> cmd = new ArrayList<>(List.of("bash", "-c", "ulimit -f 1 && exec " +
			"\"$@\"", "bash", java.toString(), "-XX:-UsePerfData", "-Xshare:off",
			"-Djava.awt.headless=true", "-cp", System.getProperty("java.class.path"), Main.class
				.getName()));
		cmd.addAll(Arrays.asList(fit(out, "--alpha", "2", "--overwrite")));
		final Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
			.start();
		final String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8)
			.trim();
		assertTrue(p.waitFor(120, TimeUnit.SECONDS));
		assertEquals(1, p.exitValue(), err);
		assertEquals(1, err.split("\n").length, err);
		assertTrue(err.startsWith("cpca: could not read or write a file: cannot write the " +
			"results into --out " + out + " (nothing of it was changed): "), err);
		assertTrue(err.endsWith("File too large: free some space on its disk, or choose a " +
			"folder on another disk"), err);
		assertFalse(err.contains(".cpca-") || err.contains("Exception"), err);
		assertEquals(before, tree(dir));
	}

	/**
	 * A real full disk (a tmpfs filled up) while the results are written, as Gson writes
	 * summary.json: the failure is one line naming the folder and the fix.
	 */
	@Test
	void aFullTmpfsWhileWritingJsonIsOneLine() throws Exception {
		final Path mnt = Files.createDirectories(dir.resolve("full"));
		tmpfs(mnt, "512k");
		try {
			final Path out = mnt.resolve("res");
			IOException e = null;
			try (OutputFolder f = OutputFolder.open(out, List.of(target), false)) {
				final byte[] block = new byte[4096];
				try (OutputStream o = Files.newOutputStream(f.file("filler"))) {
					for (;;)
						o.write(block);
				}
				catch (final IOException full) {
					// the disk is full now
				}
				final OutputStream raw = Files.newOutputStream(f.file("summary.json"));
				try (Writer w = new OutputStreamWriter(raw, StandardCharsets.UTF_8)) {
					new Gson().toJson(Collections.nCopies(5000, "x"), w);
				}
				catch (final JsonIOException | IOException failed) {
					e = f.writeFailure(failed);
				}
				finally {
					raw.close(); // a writer whose last flush failed leaves its stream open
				}
			}
			assertTrue(e != null, "the full disk was not noticed");
			assertEquals("cannot write the results into --out " + out + " (nothing of it was " +
				"changed): No space left on device: free some space on its disk, or choose a " +
				"folder on another disk", e.getMessage());
			assertEquals(Set.of(), list(mnt));
		}
		finally {
			umount(mnt);
		}
	}

	// --- helpers

	/** Mounts a tmpfs of {@code size} on {@code d}; skips the test where that is not allowed. */
	private static void tmpfs(final Path d, final String size) throws Exception {
		final Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + size,
			"tmpfs", d.toString()).redirectErrorStream(true).start();
		final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		Assumptions.assumeTrue(p.waitFor() == 0, "cannot mount a tmpfs here: " + out);
	}

	private static void umount(final Path d) throws Exception {
		if (new ProcessBuilder("umount", d.toString()).inheritIO().start().waitFor() != 0)
			new ProcessBuilder("umount", "-l", d.toString()).inheritIO().start().waitFor();
	}


	/** {@link #tree} without the tool's own hidden entries (another run's staging). */
	static Map<String, String> userTree(final Path root) throws Exception {
		final Map<String, String> m = tree(root);
		m.keySet().removeIf(k -> k.startsWith(".cpca-") || k.contains("/.cpca-"));
		return m;
	}

	private static Set<String> list(final Path d) throws Exception {
		try (Stream<Path> s = Files.list(d)) {
			return s.map(p -> p.getFileName().toString()).collect(Collectors.toSet());
		}
	}

	/** No staging folder, lock or set-aside folder anywhere under {@code root}. */
	static void assertNoLeftovers(final Path root) throws Exception {
		try (Stream<Path> s = Files.walk(root)) {
			final List<String> left = s.map(p -> p.getFileName().toString()).filter(n -> n
				.startsWith(".cpca-") && !n.equals(OutputFolder.MANIFEST)).collect(Collectors
					.toList());
			assertTrue(left.isEmpty(), left::toString);
		}
	}

	/**
	 * A child JVM that opens {@code out} with {@link OutputFolder}, writes a staged file,
	 * says "ready" and waits (the state of a run in the middle of writing its results).
	 */
	private Process holder(final Path out, final boolean overwrite) throws Exception {
		final Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
		final ProcessBuilder pb = new ProcessBuilder(java.toString(), "-cp", System
			.getProperty("java.class.path"), OutputFolderHolder.class.getName(), out.toString(),
			target.toString(), Boolean.toString(overwrite));
		pb.redirectErrorStream(true);
		final Process p = pb.start();
		final BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
			StandardCharsets.UTF_8));
		final String line = r.readLine();
		assertEquals("ready", line, "the child JVM did not start");
		return p;
	}

	private static boolean root() {
		return "root".equals(System.getProperty("user.name"));
	}

	/**
	 * Makes a folder read-only for this process: by permissions, or (running as root, who
	 * ignores permissions) by the immutable attribute; skips the test where neither works.
	 */
	static void readOnly(final Path d) throws Exception {
		if (!root()) Files.setPosixFilePermissions(d, PosixFilePermissions.fromString(
			"r-xr-xr-x"));
		else {
			final int code = new ProcessBuilder("chattr", "+i", d.toString()).redirectErrorStream(
				true).start().waitFor();
			Assumptions.assumeTrue(code == 0, "running as root and chattr +i is not " +
				"available: no way to make a folder read-only for root here");
		}
		final Path probe = d.resolve("probe");
		try {
			Files.createFile(probe);
			Files.delete(probe);
			writable(d);
			Assumptions.abort("could not make " + d + " read-only on this file system");
		}
		catch (final java.io.IOException e) {
			// read-only, as wanted
		}
	}

	static void writable(final Path d) throws Exception {
		if (root()) new ProcessBuilder("chattr", "-i", d.toString()).start().waitFor();
		else Files.setPosixFilePermissions(d, PosixFilePermissions.fromString("rwxr-xr-x"));
	}
}
