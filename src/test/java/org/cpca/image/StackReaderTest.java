package org.cpca.image;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;
import ij.ImageStack;
import ij.gui.OvalRoi;
import ij.gui.Roi;
import ij.io.FileSaver;
import ij.process.ByteProcessor;
import ij.process.FloatProcessor;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.cpca.core.data.Dataset;
import org.cpca.core.data.SampleSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one image reader: axes, the selection once per channel, a background read with the
 * target's axes, and the same samples into memory, slice by slice or file by file.
 */
public class StackReaderTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	@TempDir
	Path dir;

	private static final int W = 4, H = 3;

	/** Channel c, slice z, pixel p holds 100c + 10z + p (c, z from 0). */
	private static ImagePlus hyperstack(final int channels, final int slices) {
		final ImageStack stack = new ImageStack(W, H);
		for (int z = 0; z < slices; z++)
			for (int c = 0; c < channels; c++) {
				final FloatProcessor fp = new FloatProcessor(W, H);
				for (int p = 0; p < W * H; p++)
					fp.setf(p, 100 * c + 10 * z + p);
				stack.addSlice(fp);
			}
		final ImagePlus imp = new ImagePlus("hyper", stack);
		imp.setDimensions(channels, slices, 1);
		return imp;
	}

	@Test
	void anAreaSelectionIsTakenOncePerChannelWhenChannelsAreFeatures() {
		final ImagePlus imp = hyperstack(2, 3);
		// pixels (1,0), (2,0), (1,1), (2,1): indices 1, 2, 5, 6
		final Roi roi = new Roi(1, 0, 2, 2);
		final StackReader r = StackReader.of("target", imp, "channels").select(null, roi, 1);
		assertEquals("channels", r.axes().mode);
		assertEquals(8, r.layout().features());
		final Dataset d = r.dataset(false);
		assertEquals(3, d.samples());
		for (int z = 0; z < 3; z++) {
			final float b = 10 * z;
			// the channels side by side, read row by row
			assertArrayEquals(new float[] { b + 1, b + 2, b + 101, b + 102, b + 5, b + 6,
				b + 105, b + 106 }, d.row(z), "slice " + (z + 1));
		}
	}

	@Test
	void aBackgroundIsReadWithTheTargetsAxesAndLayout() {
		final StackReader target = StackReader.of("target", hyperstack(2, 3), "c2").select(
			null, null, 1);
		final ImagePlus other = hyperstack(2, 2);
		final StackReader background = target.alike("background", other).with(target
			.layout());
		assertEquals("c2", background.axes().mode);
		final Dataset d = background.dataset(false);
		assertEquals("background", d.name());
		assertEquals(2, d.samples());
		for (int z = 0; z < 2; z++)
			for (int p = 0; p < W * H; p++)
				assertEquals(100 + 10 * z + p, d.row(z)[p], 0);
	}

	@Test
	void aStackReadsTheSameSamplesIntoMemorySliceBySliceAndFileByFile()
		throws IOException
	{
		final ImagePlus imp = hyperstack(1, 5);
		final ByteProcessor m = new ByteProcessor(W, H);
		m.setValue(255);
		m.fill(new OvalRoi(0, 0, W, H));
		final ImagePlus mask = new ImagePlus("mask", m);
		final StackReader memory = StackReader.of("target", imp, null).select(mask, null, 1);
		assertTrue(memory.layout().hasMask());
		final Dataset d = memory.dataset(false);
		final Path folder = dir.resolve("slices");
		folder.toFile().mkdirs();
		for (int z = 1; z <= imp.getStackSize(); z++)
			new FileSaver(new ImagePlus("s" + z, imp.getStack().getProcessor(z)))
				.saveAsTiff(folder.resolve("s" + z + ".tif").toString());
		final StackReader files = StackReader.folder("target", folder, null);
		assertTrue(files.isFolder());
		assertEquals("planes", files.axes().mode);
		for (final SampleSource s : List.of(memory.source(), files.with(memory.layout())
			.source()))
			try (SampleSource source = s) {
				assertEquals(d.samples(), source.samples());
				assertEquals(d.features(), source.features());
				final float[] row = new float[source.features()];
				for (int i = 0; i < source.samples(); i++) {
					source.read(i, row);
					assertArrayEquals(d.row(i), row, source.getClass().getSimpleName() +
						", sample " + (i + 1));
				}
			}
	}

	@Test
	void onlyAHyperstackGetsANoteOnItsAxes() {
		assertNull(StackReader.of("target", hyperstack(1, 3), null).note());
		assertEquals("target axes (channels): channels → features (2 channels side by " +
			"side), slices → samples, pixels → features", StackReader.of("target",
				hyperstack(2, 3), null).note());
	}
}
