package org.cpca.render;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ij.ImagePlus;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

/**
 * The figures' warm-up may run beside anything: figures drawn while it runs again and
 * again on another thread are the pixels of figures drawn alone; the ImageJ plots it
 * draws (the scatter marker's measurement) are drawn holding PlotStyle.DRAWING. This
 * finds a warm-up that changes what figures share (ImageJ's plot options, a default
 * font: checked by setting {@code PlotWindow.noGridLines} in it, which fails here); a
 * race of a warm-up that drew ImageJ plots without the lock (their number formatting,
 * IJ.d2s, shares formatters) would show only now and then, and did not in three runs
 * with such a warm-up.
 */
class FigureWarmUpTest {

	static {
		System.setProperty("java.awt.headless", "true");
	}

	private static int[] scree() {
		final double[] spectrum = new double[40];
		for (int i = 0; i < spectrum.length; i++)
			spectrum[i] = 1234.5678 / (i + 1) - 3.21;
		return pixels(ScreePlot.render("eigenvalues", Arrays.copyOf(spectrum, 3), spectrum));
	}

	private static int[] scatter() {
		final double[] x = new double[300], y = new double[300];
		for (int i = 0; i < x.length; i++) {
			x[i] = Math.sin(i) * 0.0123 * i;
			y[i] = Math.cos(1.7 * i) * 456.7;
		}
		return pixels(ScatterPlot.image("t", "cPC1", "cPC2", x, y, null));
	}

	private static int[] pixels(final ImagePlus imp) {
		return ((int[]) Rgb.processor(imp).getPixels()).clone();
	}

	@Test
	void figuresBesideTheWarmUpAreTheFiguresAlone() throws InterruptedException {
		final int[] scree = scree(), scatter = scatter();
		final AtomicBoolean stop = new AtomicBoolean();
		final Thread warming = new Thread(() -> {
			while (!stop.get())
				FigureWarmUp.warm();
		});
		warming.start();
		try {
			for (int i = 0; i < 15; i++) {
				assertArrayEquals(scree, scree(), "scree plot " + i);
				assertArrayEquals(scatter, scatter(), "scatter plot " + i);
			}
		}
		finally {
			stop.set(true);
			warming.join();
		}
	}

	@Test
	void theWarmUpMeasuresTheScatterMarkerHoldingTheDrawingLock() throws InterruptedException {
		final String shape = Palette.shape(0);
		final float width = ScatterPlot.Markers.NORMAL.lineWidth;
		ScatterRaster.STAMPS.clear();
		final Thread warming = new Thread(FigureWarmUp::warm);
		synchronized (PlotStyle.DRAWING) {
			warming.start();
			// the warm-up reaches the marker and waits for the lock held here
			final long end = System.nanoTime() + 60_000_000_000L;
			while (warming.getState() != Thread.State.BLOCKED && warming.isAlive() && System
				.nanoTime() < end)
				Thread.sleep(5);
			assertEquals(Thread.State.BLOCKED, warming.getState(),
				"the warm-up draws ImageJ's plots only holding PlotStyle.DRAWING");
			assertFalse(ScatterRaster.stamped(shape, width));
		}
		warming.join();
		assertTrue(ScatterRaster.stamped(shape, width),
			"the warm-up measured the marker of the scatter pictures without classes");
		final int[] warmed = ScatterRaster.STAMPS.get(shape + "\n" + width).clone();
		ScatterRaster.STAMPS.clear();
		assertArrayEquals(ScatterRaster.stamp(shape, width), warmed);
	}
}
