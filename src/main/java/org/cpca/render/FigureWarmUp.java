package org.cpca.render;

import ij.gui.Plot;
import ij.process.ColorProcessor;

import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.io.OutputStream;

/**
 * What the first figure of a fresh JVM pays once, paid ahead on a background thread
 * while the inputs are read and the fit runs: Java2D's font manager (it reads the
 * system's font configuration and font files), the text pipeline at the figures' fonts,
 * ImageJ's plot classes, the PNG encoder with the platform's zlib, and the scatter
 * pictures' marker ({@link ScatterRaster#stamp}: measured from two ImageJ plots, the
 * first ImageJ plots of the run; docs/speed.md, one-shot runs). Those two plots are
 * drawn holding {@link PlotStyle#DRAWING}, as the results' plots are (ImageJ's number
 * formatting, {@code IJ.d2s}, shares formatters between threads): the figures wait for
 * the warm-up only if they begin while it measures the marker, which they would
 * otherwise measure themselves. Nothing else is drawn that the figures keep.
 */
public final class FigureWarmUp {

	private static boolean started;

	private FigureWarmUp() {}

	/** Starts the warm-up, once per JVM; returns at once. */
	public static synchronized void start() {
		if (started) return;
		started = true;
		final Thread t = new Thread(FigureWarmUp::warm, "cpca figure warm-up");
		t.setDaemon(true);
		t.start();
	}

	/** The warm-up's work (also called directly by the test). */
	static void warm() {
		try {
			final ColorProcessor ip = new ColorProcessor(ScatterPlot.WIDTH, 40);
			ip.setColor(Color.BLACK);
			ip.setAntialiasedText(true);
			for (final int style : new int[] { Font.PLAIN, Font.BOLD }) {
				ip.setFont(new Font("SansSerif", style, (int) PlotStyle.TEXT));
				ip.drawString("cPCA α = 2.5 · LDA 98.3 % (default) 0.123e-4", 2, 30);
			}
			PlotStyle.textWidth("cPC1");
			final Plot plot = PlotStyle.plot("t", "x", "y"); // its classes, not drawn
			plot.setSize(ScatterPlot.WIDTH, ScatterPlot.HEIGHT);
			plot.add("circle", new double[] { 0, 1 }, new double[] { 0, 1 });
			Png.write((int[]) ip.getPixels(), ip.getWidth(), ip.getHeight(),
				OutputStream.nullOutputStream());
			// the first class's marker, the one every scatter picture without classes uses
			synchronized (PlotStyle.DRAWING) {
				ScatterRaster.stamp(Palette.shape(0), ScatterPlot.Markers.NORMAL.lineWidth);
			}
		}
		catch (final IOException | RuntimeException | Error e) {
			// the figures meet the same failure and report it; a warm-up says nothing
		}
	}
}
