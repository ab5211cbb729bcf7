package org.cpca.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

import ij.ImagePlus;
import ij.ImageStack;
import ij.process.FloatProcessor;

import org.cpca.core.Progress;
import org.cpca.core.contrast.StreamedGram;
import org.cpca.core.data.Dataset;
import org.cpca.core.data.SampleSource;
import org.cpca.core.run.MethodRunner;
import org.cpca.core.run.Settings;
import org.cpca.core.run.StreamedRun;
import org.cpca.image.FeatureLayout;
import org.cpca.image.ImageInput;
import org.cpca.image.StackSamples;
import org.cpca.image.StackSource;
import org.cpca.image.TiffFiles;

/**
 * {@code cpca bench --only stream}: exact cPCA at one α and at automatic α from two
 * 32-bit TIFF stacks on disk, read into memory and fitted, against the streamed plan
 * (docs/memory.md: the TIFF opened as a virtual stack, the Gram matrix summed over feature
 * tiles read by runs of pixels, the components of every model by one more pass). The goal: the streamed plan within 1.5 × the
 * in-memory time (docs/workflows/large-data.md). Peak memory is not measured here (one
 * process for both); docs/memory.md has the whole-process figures.
 */
final class StreamBench {

	private StreamBench() {}

	static void run(final PrintStream out, final List<Bench.Row> rows) {
		for (final String alpha : new String[] { "2", "auto" })
			rows.add(Bench.print(out, compare(500, 500, 128, alpha)));
	}

	/** @param alpha "2", or "auto" (its models' components in one shared pass) */
	private static Bench.Row compare(final int nt, final int nb, final int side,
		final String alpha)
	{
		final int d = side * side;
		final float[][][] data = SyntheticData.contrastive(5, nt, nb, d);
		final Path dir;
		try {
			dir = Files.createTempDirectory("cpca-stream-bench");
			final Path t = write(dir.resolve("target.tif"), data[0], side);
			final Path b = write(dir.resolve("background.tif"), data[1], side);
			final Settings s = Settings.builder().set("alpha", alpha).set("components", 2)
				.build();
			final double memory = Bench.median(() -> {
				final long t0 = System.nanoTime();
				final ImagePlus ti = ImageInput.open(t, "target"), bi = ImageInput.open(b,
					"background");
				final FeatureLayout layout = StackSamples.layoutFor(ti, null, null, 1);
				final Dataset td = StackSamples.toDataset("target", ti, layout), bd = StackSamples
					.toDataset("background", bi, layout);
				MethodRunner.run(s, td, List.of(bd), Progress.NONE);
				return (System.nanoTime() - t0) / 1e9;
			});
			final double streamed = Bench.median(() -> {
				final long t0 = System.nanoTime();
				final ImagePlus ti = ImageInput.openVirtual(t), bi = ImageInput.openVirtual(b);
				final FeatureLayout layout = StackSamples.layoutFor(ti, null, null, 1);
				try (SampleSource ts = new StackSource("target", ti, layout);
					SampleSource bs = new StackSource("background", bi, layout))
				{
					StreamedRun.run(s, ts, List.of(bs), null, StreamedGram.DEFAULT_TILE_BYTES,
						Progress.NONE);
				}
				catch (final IOException e) {
					throw new UncheckedIOException(e);
				}
				return (System.nanoTime() - t0) / 1e9;
			});
			delete(dir);
			return new Bench.Row("cPCA α=" + alpha + " from TIFF, streamed by tiles", nt + "+" +
				nb + "×" +
				d, streamed, 1.5 * memory, String.format(Locale.ROOT, "in memory %.3f s; " +
					"streamed / in memory %.2f (goal ≤ 1.5); 64 MB tiles", memory, streamed /
						memory));
		}
		catch (final IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	/** The samples as a 32-bit stack of side × side slices. */
	private static Path write(final Path file, final float[][] samples, final int side)
		throws IOException
	{
		final ImageStack stack = new ImageStack(side, side);
		for (final float[] x : samples)
			stack.addSlice(new FloatProcessor(side, side, x.clone()));
		TiffFiles.save(new ImagePlus(file.getFileName().toString(), stack), file);
		return file;
	}

	private static void delete(final Path dir) throws IOException {
		try (Stream<Path> s = Files.walk(dir)) {
			for (final Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator)
				Files.delete(p);
		}
	}
}
