package org.cpca.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;

import org.cpca.io.OutputFolder;

/**
 * A child JVM for {@link OutputSafetyTest}: opens an output folder as a run does, writes
 * part of its results into it, prints "ready" and then keeps writing until it is stopped
 * (SIGTERM, SIGKILL) — a run in the middle of writing its results.
 * Arguments: the folder, an input, and whether to overwrite.
 */
public final class OutputFolderHolder {

	private OutputFolderHolder() {}

	public static void main(final String[] args) throws Exception {
		// as FitPipeline: try-with-resources, so a stopped write closes the folder while
		// the shutdown hook is cleaning it up
		try (OutputFolder out = OutputFolder.open(Paths.get(args[0]), List.of(Paths.get(
			args[1])), Boolean.parseBoolean(args[2])))
		{
			Files.write(out.file("scores.csv"), "sample,label,alpha\n".getBytes(
				StandardCharsets.UTF_8));
			Files.write(out.file("models/alpha_1.json"), "{}".getBytes(StandardCharsets.UTF_8));
			System.out.println("ready");
			System.out.flush();
			for (int i = 0;; i++) {
				Files.write(out.file("plots/p" + (i % 50) + ".png"), new byte[1000]);
				Thread.sleep(5);
			}
		}
		catch (final java.util.concurrent.CancellationException e) {
			System.exit(1); // as Main does after a one-line message
		}
	}
}
