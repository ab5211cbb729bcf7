package org.cpca.render;

import ij.ImagePlus;
import ij.gui.Plot;

import org.cpca.core.AtomicFiles;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import ij.process.ColorProcessor;
import ij.process.ImageProcessor;
import java.awt.Color;
import java.io.BufferedOutputStream;
import java.io.OutputStream;

/**
 * Writes rendered images to files, atomically and headless. A figure ({@link #saveFigure},
 * {@link #saveFigures}, {@link #saveMontage}) is written as a PNG, and when all formats
 * are asked for ({@code --figures all}) four times, for screens and for papers:
 * {@code name.png} (screen size), {@code name_hires.png} ({@value #HIRES}× the size, lines
 * and text drawn at that size, not enlarged pixels), {@code name.svg} and {@code name.pdf}
 * (vector: lines, markers and text stay sharp at any size; images are embedded; the
 * two drawn by the same code, {@link Canvas}).
 */
public final class PlotFiles {

	private PlotFiles() {}

	/**
	 * Saves the image as displayed (current slice, lookup table, display range and
	 * overlay) as a PNG file. The file is written to a temporary file in the same
	 * folder and then moved over {@code file}, so readers never see a partial file.
	 * Missing parent folders are created.
	 *
	 * @throws IOException if the file cannot be written
	 */
	public static void savePng(final ImagePlus imp, final Path file) throws IOException {
		final ColorProcessor rgb = Rgb.processor(imp);
		AtomicFiles.write(file, tmp -> {
			try (OutputStream out = new BufferedOutputStream(Files
				.newOutputStream(tmp), 1 << 16))
			{
				Png.write((int[]) rgb.getPixels(), rgb.getWidth(), rgb.getHeight(), out);
			}
		});
	}

	/**
	 * Copies a saved figure ({@code from}: its PNG, and its high-resolution PNG, SVG and
	 * PDF where they were written) to {@code to}, e.g. the one panel of a figure of all
	 * panels: the same bytes, encoded once.
	 */
	public static void copyFigure(final Path from, final Path to) throws IOException {
		copy(from, to);
		for (final Function<Path, Path> sibling : List.<Function<Path, Path>>of(
			PlotFiles::hires, PlotFiles::svg, PlotFiles::pdf))
			if (Files.exists(sibling.apply(from))) copy(sibling.apply(from), sibling.apply(to));
	}

	private static void copy(final Path from, final Path to) throws IOException {
		AtomicFiles.write(to, tmp -> Files.copy(from, tmp));
	}

	/** Scale of the high-resolution PNG files. */
	public static final int HIRES = 3;

	/** {@code dir/name_hires.png} for {@code dir/name.png}. */
	public static Path hires(final Path png) {
		return png.resolveSibling(stem(png) + "_hires.png");
	}

	/** {@code dir/name.svg} for {@code dir/name.png}. */
	public static Path svg(final Path png) {
		return png.resolveSibling(stem(png) + ".svg");
	}

	/** {@code dir/name.pdf} for {@code dir/name.png}. */
	public static Path pdf(final Path png) {
		return png.resolveSibling(stem(png) + ".pdf");
	}

	private static String stem(final Path png) {
		final String name = png.getFileName().toString();
		return name.endsWith(".png") ? name.substring(0, name.length() - 4) : name;
	}

	/** The ImageJ plot behind a plot image, or null. */
	public static Plot plotOf(final ImagePlus imp) {
		final Object p = imp.getProperty(Plot.PROPERTY_KEY);
		return p instanceof Plot ? (Plot) p : null;
	}

	/**
	 * Saves a plot image (made by {@code Plot.getImagePlus()}) as PNG, high-resolution
	 * PNG, SVG and PDF; an image that is not a plot only as PNG.
	 */
	public static void saveFigure(final ImagePlus imp, final Path png) throws IOException {
		saveFigure(imp, png, true);
	}

	/** As {@link #saveFigure(ImagePlus, Path)}; {@code all} false: the PNG only. */
	public static void saveFigure(final ImagePlus imp, final Path png, final boolean all)
		throws IOException
	{
		saveFigure(imp, all ? imp : null, png);
	}

	/**
	 * A figure drawn two ways: {@code picture} as the PNG, and when {@code plot} (the same
	 * figure as an ImageJ plot) is given, the high-resolution PNG and SVG from it.
	 */
	public static void saveFigure(final ImagePlus picture, final ImagePlus plot,
		final Path png) throws IOException
	{
		savePng(headroom(picture, HEADROOM), png);
		if (plot == null || plotOf(plot) == null) return;
		savePng(headroom(highResolution(plot), HEADROOM * HIRES), hires(png));
		writeText(svg(png), PlotSvg.svg(plotOf(plot), plot.getWidth(), plot.getHeight()));
		writeBytes(pdf(png), PlotSvg.pdf(plotOf(plot), plot.getWidth(), plot.getHeight()));
	}

	/**
	 * White rows added above a figure in the files: ImageJ's top margin leaves no room
	 * above the title, which is drawn just above the frame (see {@link PlotStyle}).
	 */
	static final int HEADROOM = 10;

	/** The image as displayed, with {@code rows} white rows above it. */
	static ImagePlus headroom(final ImagePlus imp, final int rows) {
		final ColorProcessor out = new ColorProcessor(imp.getWidth(),
			imp.getHeight() + rows);
		out.setColor(Color.WHITE);
		out.fill();
		out.insert(Rgb.processor(imp), 0, rows); // (only read)
		return new ImagePlus(imp.getTitle(), out);
	}

	/** The plot redrawn at {@value #HIRES}× its size (an image that is not a plot: enlarged). */
	static ImagePlus highResolution(final ImagePlus imp) {
		final Plot plot = plotOf(imp);
		if (plot != null) return plot.makeHighResolution(imp.getTitle(), HIRES, true, false);
		final ImageProcessor ip = imp.getProcessor().duplicate();
		ip.setInterpolationMethod(ImageProcessor.NONE);
		return new ImagePlus(imp.getTitle(), ip.resize(imp.getWidth() * HIRES, imp
			.getHeight() * HIRES));
	}

	/**
	 * Several plots as one figure, {@code columns} per row ({@link Panels#montage}), as
	 * PNG, high-resolution PNG and SVG (the panels side by side).
	 */
	public static void saveFigures(final List<ImagePlus> panels, final int columns,
		final Path png) throws IOException
	{
		saveFigures(panels, columns, png, true);
	}

	/** As {@link #saveFigures(List, int, Path)}; {@code all} false: the PNG only. */
	public static void saveFigures(final List<ImagePlus> panels, final int columns,
		final Path png, final boolean all) throws IOException
	{
		saveFigures(panels, all ? panels : null, columns, png);
	}

	/**
	 * Several figures as one, drawn two ways ({@link #saveFigure(ImagePlus, ImagePlus,
	 * Path)}): {@code pictures} as the PNG, and when {@code plots} are given (ImageJ plots
	 * of the same figures), the high-resolution PNG and SVG from them.
	 */
	public static void saveFigures(final List<ImagePlus> pictures,
		final List<ImagePlus> plots, final int columns, final Path png) throws IOException
	{
		if (pictures.size() == 1) {
			saveFigure(pictures.get(0), plots == null ? null : plots.get(0), png);
			return;
		}
		final List<ImagePlus> padded = new ArrayList<>();
		for (final ImagePlus p : pictures)
			padded.add(headroom(p, HEADROOM));
		savePng(Panels.montage(padded, columns), png);
		if (plots == null) return;
		final List<ImagePlus> panels = plots;
		final List<ImagePlus> big = new ArrayList<>();
		for (final ImagePlus p : panels)
			big.add(headroom(highResolution(p), HEADROOM * HIRES));
		savePng(Panels.montage(big, columns), hires(png));
		int cellW = 0, cellH = 0;
		for (final ImagePlus p : panels) {
			cellW = Math.max(cellW, p.getWidth());
			cellH = Math.max(cellH, p.getHeight());
		}
		final int cols = Math.min(columns, panels.size()), rows = (panels.size() + cols - 1) /
			cols;
		final StringBuilder sb = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" +
			"<svg xmlns=\"http://www.w3.org/2000/svg\" " +
			"xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.1\" width=\"" + cols *
				cellW + "\" height=\"" + rows * cellH + "\">\n");
		for (int i = 0; i < panels.size(); i++) {
			final ImagePlus p = panels.get(i);
			final Plot plot = plotOf(p);
			final String inner = plot != null ? PlotSvg.svg(plot, p.getWidth(), p.getHeight())
				: embedded(p);
			// nested documents keep their own coordinates and clip paths (ids made unique)
			sb.append(inner.substring(inner.indexOf("<svg")).replaceFirst("<svg ", "<svg x=\"" +
				(i % cols) * cellW + "\" y=\"" + (i / cols) * cellH + "\" ").replace("id=\"",
					"id=\"p" + i).replace("url(#", "url(#p" + i));
		}
		writeText(svg(png), sb.append("</svg>\n").toString());
		final Pdf pdf = new Pdf(cols * cellW, rows * cellH);
		for (int i = 0; i < panels.size(); i++) {
			final ImagePlus p = panels.get(i);
			final Plot plot = plotOf(p);
			pdf.beginPanel((i % cols) * cellW, (i / cols) * cellH);
			if (plot != null) PlotSvg.draw(plot, p.getWidth(), p.getHeight(), pdf);
			else pdf.image(Rgb.of(p), 0, 0, p.getWidth(), p.getHeight());
			pdf.endPanel();
		}
		writeBytes(pdf(png), pdf.bytes());
	}

	private static String embedded(final ImagePlus imp) {
		final Svg s = new Svg(imp.getWidth(), imp.getHeight());
		s.image(Rgb.of(imp), 0, 0, imp.getWidth(), imp.getHeight());
		return s.toString();
	}

	/**
	 * An image stack with a colour bar ({@link Montage}), {@code columns} slices per row,
	 * as PNG, high-resolution PNG and SVG.
	 */
	public static void saveMontage(final ImagePlus stack, final int columns, final Path png)
		throws IOException
	{
		saveMontage(stack, columns, png, true);
	}

	/** As {@link #saveMontage(ImagePlus, int, Path)}; {@code all} false: the PNG only. */
	public static void saveMontage(final ImagePlus stack, final int columns, final Path png,
		final boolean all) throws IOException
	{
		savePng(Montage.render(stack, columns, 1), png);
		if (!all) return;
		savePng(Montage.render(stack, columns, HIRES), hires(png));
		writeText(svg(png), Montage.svg(stack, columns));
		writeBytes(pdf(png), Montage.pdf(stack, columns));
	}

	private static void writeText(final Path file, final String text) throws IOException {
		writeBytes(file, text.getBytes(StandardCharsets.UTF_8));
	}

	private static void writeBytes(final Path file, final byte[] bytes) throws IOException {
		AtomicFiles.write(file, tmp -> Files.write(tmp, bytes));
	}
}
