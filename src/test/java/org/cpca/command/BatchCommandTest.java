package org.cpca.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;
import ij.io.FileSaver;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.scijava.module.Module;

/** Batch... headless through a SciJava context, writing the command line's files. */
class BatchCommandTest extends CommandTestBase {

	static File save(final ImagePlus imp, final Path file) {
		assertTrue(imp.getStackSize() > 1 ? new FileSaver(imp).saveAsTiffStack(file
			.toString()) : new FileSaver(imp).saveAsTiff(file.toString()));
		return file.toFile();
	}

	static Map<String, Object> defaults() {
		final Map<String, Object> d = new HashMap<>();
		d.put("per_file", false);
		d.put("method", "cpca");
		d.put("alpha_mode", "auto");
		d.put("alpha", 2.0);
		d.put("beta_mode", "auto");
		d.put("beta", 0.5);
		d.put("epsilon", org.cpca.core.star.CpcaStar.DEFAULT_REGULARIZATION);
		d.put("components", 2);
		d.put("standardize", false);
		d.put("whiten", false);
		d.put("bin", 1);
		d.put("seed", 0L);
		d.put("background", null);
		d.put("labels", null);
		d.put("mask", null);
		d.put("more_backgrounds", "");
		d.put("kernel", "rbf");
		d.put("gamma", "auto");
		d.put("degree", 3);
		d.put("coef0", 1.0);
		d.put("landmarks", "auto");
		d.put("stacked", false);
		d.put("k_b", "auto");
		return d;
	}

	/**
	 * The settings of a batch over folder {@code stacks} of two stacks (plate1.tif,
	 * plate2.tif) against grass.tif, into results/.
	 */
	private static Map<String, Object> twoStacks(final Path tmp) throws Exception {
		final Path in = Files.createDirectories(tmp.resolve("stacks"));
		save(Synthetic.target(30, 31), in.resolve("plate1.tif"));
		save(Synthetic.target(30, 32), in.resolve("plate2.tif"));
		final Map<String, Object> args = defaults();
		args.put("target", in.toFile());
		args.put("background", save(Synthetic.background(30, 33), tmp.resolve("grass.tif")));
		args.put("out", tmp.resolve("results").toFile());
		return args;
	}

	@Test
	void oneFolderOfStacksPerFile(@TempDir final Path tmp) throws Exception {
		final Map<String, Object> args = twoStacks(tmp);
		args.put("per_file", true);
		args.put("alpha_mode", "fixed");
		final Module m = start(BatchCommand.class, true, args).get();
		assertFalse(canceled(m), () -> reason(m));
		for (final String name : new String[] { "plate1", "plate2" })
			for (final String f : new String[] { "summary.json", "scores.csv", "model.json",
				"components.tif", "plots/scatter.png" })
				assertTrue(Files.isRegularFile(tmp.resolve("results/" + name + "/" + f)), name +
					"/" + f);
		assertEquals(2, ((BatchCommand) m.getDelegateObject()).runsTable().size());
		assertTrue(((String) m.getOutput("report")).startsWith("2 of 2"));
	}

	/**
	 * A folder of stacks without per_file is pooled into one target: the report (and
	 * ImageJ's Log) says so in one line; a folder of single images (one stack) is not.
	 */
	@Test
	void aPooledFolderOfStacksIsSaidSo(@TempDir final Path tmp) throws Exception {
		final Map<String, Object> args = twoStacks(tmp);
		args.put("alpha_mode", "fixed");
		final Module m = start(BatchCommand.class, true, args).get();
		assertFalse(canceled(m), () -> reason(m));
		final String report = (String) m.getOutput("report");
		assertTrue(report.startsWith("target folder stacks holds 2 stacks of 2 files: " +
			"they are pooled into one target (labels file:label); for one run per stack " +
			"check per_file\n1 of 1"), report);
		final Path slices = Files.createDirectories(tmp.resolve("slices"));
		final ImagePlus t = Synthetic.target(30, 34);
		for (int i = 1; i <= 3; i++)
			save(new ImagePlus("s" + i, t.getStack().getProcessor(i)), slices.resolve("s" + i +
				".tif"));
		assertEquals(null, BatchCommand.poolNote(slices));
		assertEquals(null, BatchCommand.poolNote(tmp.resolve("none")));
	}

	@Test
	void ucaWithSeveralBackgroundsAndKernelCpca(@TempDir final Path tmp) throws Exception {
		final File t = save(Synthetic.target(30, 35), tmp.resolve("t.tif"));
		final File b1 = save(Synthetic.background(30, 36), tmp.resolve("b1.tif"));
		final File b2 = save(Synthetic.background(30, 37), tmp.resolve("b2.tif"));
		final Map<String, Object> args = defaults();
		args.put("target", t);
		args.put("background", b1);
		args.put("more_backgrounds", " " + b2 + " ");
		args.put("method", "uca");
		args.put("out", tmp.resolve("uca").toFile());
		final Module m = start(BatchCommand.class, true, args).get();
		assertFalse(canceled(m), () -> reason(m));
		final String uca = new String(Files.readAllBytes(tmp.resolve("uca/summary.json")),
			"UTF-8");
		assertTrue(uca.contains("\"method\": \"uca\""), uca);
		// one λ per background: both were used
		final com.google.gson.JsonObject entry = com.google.gson.JsonParser.parseString(uca)
			.getAsJsonObject().getAsJsonArray("results").get(0).getAsJsonObject();
		assertEquals(2, entry.getAsJsonArray("lambda").size(), uca);

		args.put("more_backgrounds", "");
		args.put("method", "kernel");
		args.put("gamma", "1e-6");
		args.put("landmarks", "all");
		args.put("alpha_mode", "fixed");
		args.put("out", tmp.resolve("kernel").toFile());
		final Module k = start(BatchCommand.class, true, args).get();
		assertFalse(canceled(k), () -> reason(k));
		final String kernel = new String(Files.readAllBytes(tmp.resolve(
			"kernel/summary.json")), "UTF-8");
		assertTrue(kernel.contains("\"method\": \"kernel\""), kernel);
		assertTrue(kernel.contains("\"gamma\": 1.0E-6") || kernel.contains(
			"\"gamma\": 1e-06") || kernel.contains("\"gamma\": 1.0e-6"), kernel);
		assertTrue(Files.isRegularFile(tmp.resolve("kernel/extremes.tif")));
	}

	@Test
	void failedRunIsReportedAndWritesNothing(@TempDir final Path tmp) throws Exception {
		final File t = save(Synthetic.target(20, 34), tmp.resolve("t.tif"));
		final File small = save(new ImagePlus("small", new ij.process.ByteProcessor(4, 4)),
			tmp.resolve("small.tif"));
		final Map<String, Object> args = defaults();
		args.put("target", t);
		args.put("background", small);
		args.put("out", tmp.resolve("out").toFile());
		final Module m = start(BatchCommand.class, true, args).get();
		assertTrue(canceled(m));
		assertTrue(reason(m).contains("width × height"), reason(m));
		assertFalse(Files.exists(tmp.resolve("out/summary.json")));
	}

	@Test
	void nonEmptyOutputFolderNeedsOverwriteAndKeepsOtherFiles(@TempDir final Path tmp)
		throws Exception
	{
		final File t = save(Synthetic.target(20, 35), tmp.resolve("t.tif"));
		final File b = save(Synthetic.background(20, 36), tmp.resolve("b.tif"));
		final Path out = Files.createDirectories(tmp.resolve("out"));
		Files.write(out.resolve("note.txt"), "keep".getBytes("UTF-8"));
		final Map<String, Object> args = defaults();
		args.put("target", t);
		args.put("background", b);
		args.put("out", out.toFile());
		args.put("alpha_mode", "fixed");
		final Module m = start(BatchCommand.class, true, args).get();
		assertTrue(canceled(m));
		assertTrue(reason(m).contains("output folder " + out) && reason(m).contains("give overwrite"), reason(m));
		assertEquals(1, Files.list(out).count());
		args.put("overwrite", true);
		args.put("no_plots", true);
		final Module m2 = start(BatchCommand.class, true, args).get();
		assertFalse(canceled(m2), () -> reason(m2));
		assertTrue(Files.isRegularFile(out.resolve("summary.json")));
		assertFalse(Files.exists(out.resolve("plots")));
		assertEquals("keep", new String(Files.readAllBytes(out.resolve("note.txt")), "UTF-8"));
	}

	/**
	 * Per file, s1.tif and s1.tiff share the name s1: each gets its own folder (with overwrite
	 * ticked, one's results used to replace the other's, both reported "ok").
	 */
	@Test
	void filesSharingANameGetFoldersOfTheirOwn(@TempDir final Path tmp) throws Exception {
		final Path in = Files.createDirectories(tmp.resolve("stacks"));
		save(Synthetic.target(30, 41), in.resolve("s1.tif"));
		save(Synthetic.target(24, 42), in.resolve("s1.tiff"));
		save(Synthetic.target(30, 43), in.resolve("s2.tif"));
		final File b = save(Synthetic.background(30, 44), tmp.resolve("grass.tif"));
		final Map<String, Object> args = defaults();
		args.put("target", in.toFile());
		args.put("background", b);
		args.put("out", tmp.resolve("results").toFile());
		args.put("per_file", true);
		args.put("overwrite", true);
		args.put("no_plots", true);
		args.put("alpha_mode", "fixed");
		final Module m = start(BatchCommand.class, true, args).get();
		assertFalse(canceled(m), () -> reason(m));
		final ij.measure.ResultsTable runs = ((BatchCommand) m.getDelegateObject()).runsTable();
		assertEquals(3, runs.size());
		final java.util.Set<String> outs = new java.util.HashSet<>();
		for (int i = 0; i < runs.size(); i++)
			outs.add(runs.getStringValue("out", i));
		assertEquals(java.util.Set.of(tmp.resolve("results/s1.tif").toString(), tmp.resolve(
			"results/s1.tiff").toString(), tmp.resolve("results/s2").toString()), outs);
		// each folder holds its own file's results: 30 and 24 samples
		assertTrue(Files.readString(tmp.resolve("results/s1.tif/summary.json")).contains(
			"\"samples\": 30"));
		assertTrue(Files.readString(tmp.resolve("results/s1.tiff/summary.json")).contains(
			"\"samples\": 24"));
		assertFalse(Files.exists(tmp.resolve("results/s1")));
	}

	/** Names that differ only in case clash on macOS and Windows: refused naming both. */
	@Test
	void namesDifferingOnlyInCaseAreRefusedNamingBoth() {
		final IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
			IllegalArgumentException.class, () -> BatchCommand.folderNames(java.util.List.of(Path
				.of("S1.tif"), Path.of("s1.tif"))));
		assertEquals("S1.tif and s1.tif would write their results into the same folder s1.tif: " +
			"rename one of them, or run them in separate batches", e.getMessage());
		assertEquals(java.util.List.of("a", "b.tif", "b.png"), BatchCommand.folderNames(java
			.util.List.of(Path.of("a.tif"), Path.of("b.tif"), Path.of("b.png"))));
	}
}
