package org.cpca.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;
import ij.io.FileSaver;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.cpca.core.Progress;
import org.cpca.core.data.Dataset;
import org.cpca.core.data.SampleSource;
import org.cpca.core.model.CpcaModel;
import org.cpca.core.result.Solution;
import org.cpca.core.run.MethodRunner;
import org.cpca.core.run.Settings;
import org.cpca.core.run.StreamedRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A masked or binned TIFF virtual stack read by feature ranges (docs/memory.md): only
 * the pixels from a range's first to its last (masked), or the image rows of its blocks
 * (binned), are read — counted in bytes — and the values are those of the whole slice's
 * features; a streamed fit by feature tiles then reads each pixel once per pass instead
 * of each slice once per tile, with the in-memory result.
 */
class TiffRowsTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	@TempDir
	Path dir;

	private static final int W = 12, H = 10;

	private Path stack(final long seed, final int slices) {
		final Path tif = dir.resolve("stack" + seed + ".tif");
		assertTrue(new FileSaver(StreamingSourcesTest.randomStack(seed, W, H, slices))
			.saveAsTiffStack(tif.toString()));
		return tif;
	}

	/** Every pixel but the first and a 3 × 3 hole: whole blocks kept and left out at any bin. */
	private static ImagePlus mask() {
		final int[] on = new int[W * H - 10];
		int q = 0;
		for (int p = 1; p < W * H; p++)
			if (!(p % W >= 6 && p % W < 9 && p / W >= 3 && p / W < 6)) on[q++] = p;
		return StackSamplesTest.byteMask(W, H, on);
	}

	@Test
	void aMaskedOrBinnedRangeReadsOnlyTheRowsItLiesIn() throws IOException {
		final Path tif = stack(7, 5);
		final ImagePlus virtual = ImageInput.openVirtual(tif);
		for (final int bin : new int[] { 1, 2, 3 })
			for (final ImagePlus mask : new ImagePlus[] { null, mask() }) {
				if (bin == 1 && mask == null) continue; // the identity: StreamingSourcesTest
				final FeatureLayout layout = StackSamples.layoutFor(virtual, mask, null, bin);
				final String what = "bin " + bin + (mask == null ? "" : ", masked");
				try (StackSource s = new StackSource("target", virtual, layout)) {
					assertTrue(s.readsRanges(), what);
					final int d = s.features();
					final float[] whole = new float[d], range = new float[d];
					for (int i = 0; i < 5; i++) {
						s.read(i, whole);
						for (final int[] r : new int[][] { { 0, d }, { 1, Math.min(d, 4) }, { d / 2,
							d }, { d - 1, d } })
						{
							if (r[0] >= r[1]) continue; // too few features for this range
							final long before = s.rangeBytesRead();
							s.readRange(i, r[0], r[1], range);
							for (int j = r[0]; j < r[1]; j++)
								assertEquals(whole[j], range[j - r[0]], what + ", slice " + i +
									", feature " + j);
							final int first = layout.pixelIndex(r[0]), last = layout.pixelIndex(
								r[1] - 1);
							final long pixels = bin == 1 ? last - first + 1 : (long) (last / layout
								.binnedWidth() - first / layout.binnedWidth() + 1) * bin * W;
							assertEquals(2 * pixels, s.rangeBytesRead() - before, what + ", range " +
								r[0] + "…" + r[1]);
						}
					}
				}
			}
	}

	/**
	 * Binned 2 × 2 with tiles of one binned row: each pass reads every pixel once (two
	 * passes: the Gram matrix and the components), and the model is the in-memory one.
	 */
	@Test
	void aBinnedStreamedFitReadsEachPixelOncePerPass() throws IOException {
		final Path t = stack(8, 14), b = stack(9, 12);
		final ImagePlus vt = ImageInput.openVirtual(t), vb = ImageInput.openVirtual(b);
		final FeatureLayout layout = StackSamples.layoutFor(vt, null, null, 2);
		final Settings settings = Settings.builder().set("alpha", "2").set("components", 2)
			.build();
		final Solution memory = MethodRunner.run(settings, StackSamples.toDataset("target",
			ImageInput.open(t), layout), List.of(StackSamples.toDataset("background",
				ImageInput.open(b), layout)), Progress.NONE);
		try (StackSource ts = new StackSource("target", vt, layout);
			StackSource bs = new StackSource("background", vb, layout))
		{
			final int width = layout.binnedWidth();
			final Solution streamed = StreamedRun.run(settings, ts, List.<SampleSource> of(bs),
				null, 8L * 26 * width, Progress.NONE);
			assertEquals(2L * 14 * W * H * 2, ts.rangeBytesRead());
			assertEquals(2L * 12 * W * H * 2, bs.rangeBytesRead());
			final CpcaModel x = (CpcaModel) memory.primary(), y = (CpcaModel) streamed.primary();
			for (int c = 0; c < 2; c++)
				assertEquals(x.eigenvalues()[c], y.eigenvalues()[c], 1e-10 * Math.abs(x
					.eigenvalues()[c]));
			assertTrue(org.cpca.core.TestData.maxAngleBySine(x.components(), y.components()) <
				Math.toRadians(1e-8));
		}
	}
}
