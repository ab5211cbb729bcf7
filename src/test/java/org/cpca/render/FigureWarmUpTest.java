package org.cpca.render;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import ij.ImagePlus;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

/**
 * The figures' warm-up may run beside anything: figures drawn while it runs again and
 * again on another thread are the pixels of figures drawn alone. This finds a warm-up
 * that changes what figures share (ImageJ's plot options, a default font: checked by
 * setting {@code PlotWindow.noGridLines} in it, which fails here); a race of a warm-up
 * that drew ImageJ plots (their number formatting, IJ.d2s, shares formatters) would show
 * only now and then, and did not in three runs with such a warm-up.
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
}
