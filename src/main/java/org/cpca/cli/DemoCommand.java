package org.cpca.cli;

import org.cpca.core.run.Settings;
import org.cpca.io.FitPipeline;
import org.cpca.io.FitRequest;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code cpca demo}: automatic-α cPCA on the bundled test images (glyphs on texture
 * against texture alone), written to a folder.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
	description = "Run cPCA with automatic α on the bundled test images " +
		"(test-images/target.tif against test-images/background.tif) and say where the " +
		"results are.")
final class DemoCommand implements Callable<Integer> {

	@Spec
	CommandSpec spec;

	@Option(names = "--out", paramLabel = "DIR", defaultValue = "cpca-demo",
		description = "Folder for the results (default: ${DEFAULT-VALUE}); an earlier " +
			"demo's results there are replaced, other files are left alone.")
	Path out;

	@Option(names = "--images", paramLabel = "DIR",
		description = "Folder holding target.tif, background.tif and target-labels.txt " +
			"(default: the project's test-images/).")
	Path images;

	@Option(names = "--quiet", description = "No progress on standard error.")
	boolean quiet;

	@Override
	public Integer call() throws Exception {
		final Path dir = images != null ? images : bundledImages();
		final FitRequest request = FitRequest.builder().target(dir.resolve("target.tif"))
			.background(dir.resolve("background.tif")).labels(dir.resolve(
				"target-labels.txt")).settings(Settings.defaults()).out(out).overwrite(true)
			.build();
		final PrintWriter pw = spec.commandLine().getOut();
		final ConsoleProgress progress = ConsoleProgress.of(quiet);
		try {
			pw.println(FitPipeline.run(request, progress));
		}
		finally {
			progress.done();
		}
		pw.println("Open " + out.resolve("plots/scatter.png") +
			" for the scatter plots (one panel per α; α = 0 is PCA) and " + out.resolve(
				"components.tif") + " (in Fiji) for the contrastive eigen-images.");
		pw.flush();
		return 0;
	}

	/** test-images/ of the installation (set by the cpca launcher) or of the working folder. */
	static Path bundledImages() {
		final String home = System.getProperty("cpca.home");
		final Path[] candidates = { home == null ? null : Paths.get(home, "test-images"),
			Paths.get("test-images") };
		for (final Path p : candidates)
			if (p != null && Files.isRegularFile(p.resolve("target.tif"))) return p;
		throw new IllegalArgumentException("the bundled test images were not found: run " +
			"./cpca demo from the project folder, or give --images DIR (cpca generate " +
			"--out DIR makes them)");
	}
}
