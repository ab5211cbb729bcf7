package org.cpca.cli;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.cpca.core.Memory;
import org.cpca.generate.TestImageGenerator;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code cpca generate}: the project's own synthetic test images. */
@Command(name = "generate", sortOptions = false, mixinStandardHelpOptions = true,
	description = "Write the synthetic test images (faint glyphs '0' and '1' on " +
		"grass-like texture, and texture alone): target.tif, background.tif and " +
		"target-labels.txt. The defaults reproduce the bundled test-images/ exactly; " +
		"existing files are replaced only with --overwrite.")
final class GenerateCommand implements Callable<Integer> {

	@Spec
	CommandSpec spec;

	@Option(names = "--out", required = true, paramLabel = "DIR",
		description = "Folder to write into (created).")
	Path out;

	@Option(names = "--overwrite", description = "Replace these three files if --out " +
		"already holds them (refused otherwise).")
	boolean overwrite;

	@Option(names = "--seed", paramLabel = "SEED",
		description = "Random seed (default: the bundled images' seed).")
	Long seed;

	@Option(names = "--target-slices", paramLabel = "N",
		description = "Number of target slices (default: 300).")
	Integer targetSlices;

	@Option(names = "--background-slices", paramLabel = "N",
		description = "Number of background slices (default: 300).")
	Integer backgroundSlices;

	@Option(names = "--size", paramLabel = "PIXELS",
		description = "Width and height of each slice (default: 32).")
	Integer size;

	@Option(names = "--texture-bank", paramLabel = "N", description = "Blade layers the " +
		"slices share, each slice a shifted copy of one under its own ground and " +
		"brightness; 0 draws every slice's texture anew (slow for large images). " +
		"Default: 0 up to 64 x 64 pixels, else 32.")
	Integer textureBank;

	@Option(names = "--quiet", description = "No progress on standard error.")
	boolean quiet;

	@Override
	public Integer call() throws Exception {
		TestImageGenerator.Config c = TestImageGenerator.Config.defaults();
		if (seed != null) c = c.withSeed(seed);
		if (targetSlices != null || backgroundSlices != null) c = c.withSlices(
			targetSlices == null ? c.targetSlices() : targetSlices, backgroundSlices == null
				? c.backgroundSlices() : backgroundSlices);
		if (size != null) c = c.withSize(size, size);
		if (textureBank != null) c = c.withTextureBank(textureBank);
		Memory.require("generating " + c, TestImageGenerator.bytesNeeded(c), "use a " +
			"smaller --size or fewer --target-slices/--background-slices");
		refuseToReplace(out, overwrite);
		final ConsoleProgress progress = ConsoleProgress.of(quiet);
		try {
			TestImageGenerator.write(TestImageGenerator.generate(c, progress), out, progress);
		}
		finally {
			progress.done();
		}
		spec.commandLine().getOut().println("Wrote " + c + " to " + out.toAbsolutePath().normalize());
		return 0;
	}

	/**
	 * Refuses, before any work, to replace the files that {@code generate} writes when
	 * {@code dir} already holds some of them and {@code --overwrite} was not given.
	 */
	static void refuseToReplace(final Path dir, final boolean overwrite) {
		if (overwrite) return;
		final List<String> present = new ArrayList<>();
		for (final String name : List.of(TestImageGenerator.TARGET_FILE,
			TestImageGenerator.BACKGROUND_FILE, TestImageGenerator.LABELS_FILE))
			if (Files.exists(dir.resolve(name), LinkOption.NOFOLLOW_LINKS)) present.add(name);
		if (!present.isEmpty()) throw new IllegalArgumentException("--out " + dir +
			" already holds " + String.join(", ", present) + ": add --overwrite to " +
			"replace " + (present.size() == 1 ? "it" : "them") + ", or give another --out");
	}
}
